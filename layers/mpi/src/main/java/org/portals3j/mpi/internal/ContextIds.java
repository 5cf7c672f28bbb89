package org.portals3j.mpi.internal;

/**
 * The context ids one rank has used: every id below {@link #lowestUnused()} may be in use by one of its
 * communicators, none at or above it is. Ids go in pairs (even: point-to-point, odd: collectives); the predefined
 * communicators have 0 and 2. Not reused after {@code free} (see {@link Communicators}).
 */
public final class ContextIds {
    /** The first id after those of COMM_WORLD and COMM_SELF. */
    static final int FIRST_FREE = 4;

    private int lowestUnused = FIRST_FREE;

    public synchronized int lowestUnused() {
        return lowestUnused;
    }

    /**
     * Records that the pair at {@code context} is now used.
     *
     * @throws MpiError ERR_OTHER if it is the last pair the match bits can carry
     */
    synchronized void claim(int context) {
        if (context + 1 > MatchBits.MAX_CONTEXT) {
            throw new MpiError(ErrorClass.OTHER, "no context id is left for a new communicator (a process can make "
                    + (MatchBits.MAX_CONTEXT - FIRST_FREE) / 2 + " in its life): free ones are not reused");
        }
        lowestUnused = Math.max(lowestUnused, context + 2);
    }
}
