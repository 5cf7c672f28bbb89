package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A nonblocking collective of one rank: the steps its algorithm laid down (through {@link CollectiveSteps}), as
 * rounds of sends and receives, each followed by the local steps that need them, advanced by the rank's progress
 * ({@link CollectiveProgress}). A round's sends and receives all start together; once every one has completed, its
 * local steps run and the next round starts. The first failure (a truncated message, a user operation's error, no
 * resources) ends the schedule with its error once the operations of its round have finished, as the blocking call
 * would have thrown it there; nothing of it stays under way. The schedule is the request's operation: done when the
 * last round is.
 *
 * <p>Matching (mpi-java-api.md section 4.5): every message of the schedule travels on the communicator's collective
 * context, like the blocking collectives, with a tag no blocking collective uses: bit 31 set and bit 30 clear (both
 * set: the context-id agreements, {@link ContextAgreement}), then the communicator's count of nonblocking collectives
 * this rank has started (26 bits, {@link CommState}), then the kind. Every rank starts the collectives of a
 * communicator in the same order, so the count names the same collective on every rank, and several outstanding ones
 * never take each other's messages, whatever order their rounds run in. On an intercommunicator the steps within the
 * local group ({@link #on}) go on that group's collective context with the intercommunicator's tags.
 */
public final class CollectiveSchedule extends Operation implements CollectiveSteps {
    private static final MemorySegment NO_DATA = MemorySegment.ofArray(new byte[0]);
    private static final int NONBLOCKING = 1 << 31;
    private static final int SEQUENCE_BITS = 26;
    private static final int KIND_BITS = 4;
    /** The largest kind a step may carry ({@link CollectiveSteps#send}, {@link CollectiveSteps#receive}). */
    public static final int MAX_KIND = (1 << KIND_BITS) - 1;

    /** One round: the sends and receives that start together, then the local steps that run once they are done. */
    private static final class Round {
        final List<Step> transfers = new ArrayList<>(4);
        final List<Runnable> locals = new ArrayList<>(2);
        boolean closed;
    }

    /**
     * A send ({@code send} true) of {@code data} to {@code peer}, or a receive into it from {@code peer}, on
     * {@code on} (the schedule's communicator, or an intercommunicator's local group).
     */
    private record Step(CommState on, boolean send, MemorySegment data, int peer, int kind) {
    }

    /** This schedule's steps on another communicator ({@link CollectiveSteps#on}): the same rounds and tags. */
    public static final class OnGroup implements CollectiveSteps {
        private final CollectiveSchedule schedule;
        private final CommState group;

        private OnGroup(CollectiveSchedule schedule, CommState group) {
            this.schedule = schedule;
            this.group = group;
        }

        @Override
        public CommState comm() {
            return group;
        }

        @Override
        public CollectiveSteps on(CommState other) {
            return schedule.on(other);
        }

        @Override
        public void send(MemorySegment data, int dest, int kind) {
            schedule.open().transfers.add(new Step(group, true, data, dest, kind));
        }

        @Override
        public void receive(MemorySegment into, int source, int kind) {
            schedule.open().transfers.add(new Step(group, false, into, source, kind));
        }

        @Override
        public void endRound() {
            schedule.endRound();
        }

        @Override
        public void local(Runnable step) {
            schedule.local(step);
        }
    }

    private final CommState comm;
    private int tagBase;
    private final List<Round> rounds = new ArrayList<>();
    private final List<Operation> underWay = new ArrayList<>();
    private int current = -1;
    private int failureClass = ErrorClass.SUCCESS;
    private String failureMessage = "";

    private CollectiveSchedule(CommState comm) {
        super(NO_DATA);
        this.comm = comm;
    }

    /**
     * Lays down {@code algorithm}'s steps for a nonblocking collective on {@code c} and starts it. The collective
     * takes its number only once its arguments have passed their checks, so a call that fails (on some ranks or all)
     * leaves the numbering of the next ones as it was.
     *
     * @throws MpiError the algorithm's argument checks (nothing has been sent then)
     */
    public static CollectiveSchedule start(CommState c, Consumer<CollectiveSteps> algorithm) {
        CollectiveSchedule s = new CollectiveSchedule(c);
        algorithm.accept(s);
        s.tagBase = NONBLOCKING | (c.nextNonblockingCollective() & ((1 << SEQUENCE_BITS) - 1)) << KIND_BITS;
        c.engine().collectives().add(s);
        c.engine().progress();
        return s;
    }

    @Override
    public CommState comm() {
        return comm;
    }

    @Override
    public CollectiveSteps on(CommState other) {
        return other == comm ? this : new OnGroup(this, other);
    }

    @Override
    public void send(MemorySegment data, int dest, int kind) {
        open().transfers.add(new Step(comm, true, data, dest, kind));
    }

    @Override
    public void receive(MemorySegment into, int source, int kind) {
        open().transfers.add(new Step(comm, false, into, source, kind));
    }

    @Override
    public void endRound() {
        if (!rounds.isEmpty()) {
            rounds.getLast().closed = true;
        }
    }

    @Override
    public void local(Runnable step) {
        if (rounds.isEmpty()) {
            rounds.add(new Round());
        }
        rounds.getLast().locals.add(step);
    }

    /** The round new transfers go in: the last, unless it is closed or has local steps. */
    private Round open() {
        if (rounds.isEmpty() || rounds.getLast().closed || !rounds.getLast().locals.isEmpty()) {
            rounds.add(new Round());
        }
        return rounds.getLast();
    }

    /**
     * Moves the schedule on as far as it can without waiting (called by {@link CollectiveProgress} only, one thread
     * at a time).
     *
     * @return whether it did something (started or finished a round)
     */
    boolean advance() {
        boolean moved = false;
        while (!isDone()) {
            for (Operation op : underWay) {
                if (!op.isDone()) {
                    return moved;
                }
            }
            moved = true;
            for (Operation op : underWay) {
                if (op.errorClass() != ErrorClass.SUCCESS) {
                    failed(op.errorClass(), op.errorMessage() + " (do all ranks pass matching counts and types?)");
                }
            }
            underWay.clear();
            if (current >= 0 && failureClass == ErrorClass.SUCCESS) {
                runLocals(rounds.get(current));
            }
            current++;
            if (failureClass != ErrorClass.SUCCESS || current == rounds.size()) {
                finish();
            } else {
                startTransfers(rounds.get(current));
            }
        }
        return moved;
    }

    private void runLocals(Round round) {
        try {
            for (Runnable step : round.locals) {
                step.run();
            }
        } catch (MpiError e) {
            failed(e.errorClass(), String.valueOf(e.getMessage()));
        } catch (RuntimeException e) {
            failed(ErrorClass.OTHER, "a reduction step failed: " + e);
        }
    }

    private void startTransfers(Round round) {
        PointToPoint engine = comm.engine();
        try {
            for (Step step : round.transfers) {
                CommState on = step.on;
                long bits = MatchBits.of(on.context() + 1, step.send ? on.rank() : step.peer, tagBase | step.kind);
                if (step.send) {
                    SendOperation op = new SendOperation(step.data);
                    engine.startSend(op, on.jobRank(step.peer), bits, false);
                    underWay.add(op);
                } else {
                    ReceiveOperation op = new ReceiveOperation(step.data, bits, MatchBits.ignore(false, false), null);
                    engine.startReceive(op);
                    underWay.add(op);
                }
            }
        } catch (MpiError e) {
            failed(e.errorClass(), String.valueOf(e.getMessage()));
        }
    }

    private void failed(int errorClass, String message) {
        if (failureClass == ErrorClass.SUCCESS) {
            failureClass = errorClass;
            failureMessage = "in a nonblocking collective on " + comm.name() + ": " + message;
        }
    }

    private void finish() {
        if (failureClass != ErrorClass.SUCCESS) {
            fail(failureClass, failureMessage);
        }
        rounds.clear();
        complete();
    }
}
