package org.portals3j.mpi.internal;

import java.util.Arrays;

/**
 * What one rank knows of one communicator: its context id on the engine, its group (the job rank of each of its
 * ranks), this process's rank in it, its error handler and name. The handler and name may be set from any thread.
 */
public final class CommState {
    private final PointToPoint engine;
    private final int context;
    private final int[] jobRanks;
    private final int rank;
    private volatile ErrorHandling errorHandling = ErrorHandling.FATAL;
    private volatile String name;
    /** Nonblocking collectives started on this communicator by this rank (their tags: {@link CollectiveSchedule}). */
    private int nonblockingCollectives;

    /**
     * @param context  the point-to-point context id (even; the next odd id is kept for the collectives)
     * @param jobRanks the job rank of each rank of the communicator
     */
    public CommState(PointToPoint engine, int context, int[] jobRanks, String name) {
        if (context < 0 || context > MatchBits.MAX_CONTEXT) {
            throw new IllegalArgumentException("context " + context);
        }
        this.engine = engine;
        this.context = context;
        this.jobRanks = jobRanks.clone();
        int me = -1;
        for (int r = 0; r < jobRanks.length; r++) {
            if (jobRanks[r] == engine.rank()) {
                me = r;
            }
        }
        this.rank = me;
        this.name = name;
    }

    public PointToPoint engine() {
        return engine;
    }

    public int context() {
        return context;
    }

    public int size() {
        return jobRanks.length;
    }

    /** This process's rank in the communicator. */
    public int rank() {
        return rank;
    }

    /** The job rank of rank {@code r} of the communicator. */
    public int jobRank(int r) {
        return jobRanks[r];
    }

    /** The job ranks of the group, in communicator rank order (a copy). */
    public int[] jobRanks() {
        return Arrays.copyOf(jobRanks, jobRanks.length);
    }

    public ErrorHandling errorHandling() {
        return errorHandling;
    }

    public void setErrorHandling(ErrorHandling handling) {
        this.errorHandling = handling;
    }

    public String name() {
        return name;
    }

    public void setName(String newName) {
        this.name = newName;
    }

    // ---- nonblocking collectives ----------------------------------------------------------------

    /** The number of the next nonblocking collective this rank starts on the communicator (0, 1, ...). */
    public synchronized int nextNonblockingCollective() {
        return nonblockingCollectives++;
    }
}
