package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;

/**
 * Where a collective algorithm puts its steps, so that one copy of each algorithm serves the blocking and the
 * nonblocking call: {@link CollectiveChannel} runs each step at once (the blocking collectives), a
 * {@link CollectiveSchedule} records them as rounds that the rank's progress advances later (the nonblocking ones).
 * An algorithm only sends, receives, ends rounds and runs local steps through it; its control flow depends on the
 * ranks and counts alone, never on data that has arrived, so a recorded schedule does what the direct run does.
 */
public sealed interface CollectiveSteps permits CollectiveChannel, CollectiveSchedule, CollectiveSchedule.OnGroup {
    /** The communicator the collective runs on. */
    CommState comm();

    default int rank() {
        return comm().rank();
    }

    default int size() {
        return comm().size();
    }

    /**
     * The same steps on {@code other} (an intercommunicator's local group): its context and ranks, in the same
     * rounds as this one's steps.
     */
    CollectiveSteps on(CommState other);

    /** Sends {@code data} to rank {@code dest} of the communicator (it must not change until the round ends). */
    void send(MemorySegment data, int dest, int kind);

    /** Receives into {@code into} from rank {@code source} of the communicator. */
    void receive(MemorySegment into, int source, int kind);

    /**
     * Ends the round: the steps after it start only once every send and receive before it has completed; the first
     * failure among them ends the collective with its error.
     */
    void endRound();

    /** A local step (a copy, a reduction, the write-back of a staged buffer), run after the round has completed. */
    void local(Runnable step);

    /** Sends to {@code dest} and receives from {@code source} in one round. */
    default void exchange(MemorySegment out, int dest, MemorySegment in, int source, int kind) {
        receive(in, source, kind);
        send(out, dest, kind);
        endRound();
    }
}
