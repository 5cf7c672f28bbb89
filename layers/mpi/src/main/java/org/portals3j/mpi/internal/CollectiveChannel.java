package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The blocking form of {@link CollectiveSteps}: the messages of one collective call of one rank on a communicator's
 * hidden collective context (the context id after the communicator's point-to-point one, mpi-java-api.md sections 4.5
 * and 4.6), so that no user receive, however wild its source and tag, can take them. Every receive names its source,
 * and the engine keeps the order of messages between two ranks, so consecutive collectives on a communicator cannot
 * cross. Operations are started and then awaited together ({@link #endRound()}), so a rank never blocks on one while
 * another it started could make its peer wait. A thread's channel and operations are reused from call to call
 * ({@link #of}, {@link BlockingOperations}): a collective nested in a step runs when no operation is under way.
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
    private @Nullable Operation[] started = new Operation[4];
    private int startedCount;

    CollectiveChannel(CommState comm) {
        this.comm = comm;
        this.context = comm.context() + 1;
    }

    /** The calling thread's channel on {@code comm}: its last one if that was on {@code comm}, else a new one. */
    static CollectiveChannel of(CommState comm) {
        return BlockingOperations.ofThread().channel(comm);
    }

    private void add(Operation op) {
        if (startedCount == started.length) {
            started = Arrays.copyOf(started, 2 * startedCount);
        }
        started[startedCount++] = op;
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
        SendOperation op = BlockingOperations.ofThread().takeKeptSend(data);
        add(op);
        comm.engine().startSend(op, comm.jobRank(dest), MatchBits.of(context, comm.rank(), kind), false);
    }

    /** Starts receiving into {@code into} from rank {@code source} of the communicator. */
    @Override
    public void receive(MemorySegment into, int source, int kind) {
        ReceiveOperation op = BlockingOperations.ofThread().takeKeptReceive(into, MatchBits.of(context, source, kind),
                MatchBits.ignore(false, false), null);
        add(op);
        comm.engine().startReceive(op);
    }

    /**
     * Waits for every operation started since the last call; then reports the first failure (a message longer than
     * its receive is ERR_TRUNCATE: the ranks disagree on the counts).
     */
    @Override
    public void endRound() {
        MpiError failure = null;
        int n = startedCount;
        try {
            for (int i = 0; i < n; i++) {
                Operation op = started[i];
                if (op == null) {
                    continue;
                }
                comm.engine().await(op);
                if (failure == null && op.errorClass() != ErrorClass.SUCCESS) {
                    failure = new MpiError(op.errorClass(), "in a collective on " + comm.name() + ": "
                            + op.errorMessage() + " (do all ranks pass matching counts and types?)");
                }
            }
        } finally { // the operations go back (those finished) even if a wait was interrupted
            BlockingOperations mine = BlockingOperations.ofThread();
            for (int i = 0; i < n; i++) {
                Operation op = started[i];
                if (op != null) {
                    mine.recycle(op);
                }
                started[i] = null;
            }
            startedCount = 0;
        }
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
