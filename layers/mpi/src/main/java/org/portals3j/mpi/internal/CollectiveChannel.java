package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The blocking form of {@link CollectiveSteps}: the messages of one collective call of one rank on a communicator's
 * hidden collective context (the context id after the communicator's point-to-point one, mpi-java-api.md sections 4.5
 * and 4.6), so that no user receive, however wild its source and tag, can take them. Every receive names its source,
 * and the engine keeps the order of messages between two ranks, so consecutive collectives on a communicator cannot
 * cross. Operations are started and then awaited together ({@link #endRound()}), so a rank never blocks on one while
 * another it started could make its peer wait.
 */
final class CollectiveChannel implements CollectiveSteps {
    /** Tags of the kinds of collective (for clarity in traces: matching needs only the source and the order). */
    static final int BARRIER = 1;
    static final int BCAST = 2;
    static final int GATHER = 3;
    static final int SCATTER = 4;
    static final int ALL_GATHER = 5;
    static final int ALL_TO_ALL = 6;
    static final int REDUCE = 7;
    static final int SCAN = 8;

    private final CommState comm;
    private final int context;
    private final List<Operation> started = new ArrayList<>();

    CollectiveChannel(CommState comm) {
        this.comm = comm;
        this.context = comm.context() + 1;
    }

    @Override
    public CommState comm() {
        return comm;
    }

    @Override
    public CollectiveSteps on(CommState other) {
        return new CollectiveChannel(other);
    }

    /** Starts sending {@code data} to rank {@code dest} of the communicator. */
    @Override
    public void send(MemorySegment data, int dest, int kind) {
        SendOperation op = new SendOperation(data);
        started.add(op);
        comm.engine().startSend(op, comm.jobRank(dest), MatchBits.of(context, comm.rank(), kind), false);
    }

    /** Starts receiving into {@code into} from rank {@code source} of the communicator. */
    @Override
    public void receive(MemorySegment into, int source, int kind) {
        ReceiveOperation op = new ReceiveOperation(into, MatchBits.of(context, source, kind),
                MatchBits.ignore(false, false), null);
        started.add(op);
        comm.engine().startReceive(op);
    }

    /**
     * Waits for every operation started since the last call; then reports the first failure (a message longer than
     * its receive is ERR_TRUNCATE: the ranks disagree on the counts).
     */
    @Override
    public void endRound() {
        MpiError failure = null;
        for (Operation op : started) {
            comm.engine().await(op);
            if (failure == null && op.errorClass() != ErrorClass.SUCCESS) {
                failure = new MpiError(op.errorClass(), "in a collective on " + comm.name() + ": "
                        + op.errorMessage() + " (do all ranks pass matching counts and types?)");
            }
        }
        started.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** Waits for the operations started, then runs {@code step} at once. */
    @Override
    public void local(Runnable step) {
        endRound();
        step.run();
    }
}
