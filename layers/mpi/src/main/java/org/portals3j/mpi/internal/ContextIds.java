package org.portals3j.mpi.internal;

import java.util.TreeSet;

/**
 * The context ids one rank has used, and the right to claim new ones. Every id below {@link #lowestUnused()} may be
 * in use by one of its communicators, none at or above it is. Ids go in pairs (even: point-to-point, odd:
 * collectives); the predefined communicators have 0 and 2. Not reused after {@code free} (see
 * {@link Communicators}).
 *
 * <p>Several threads of a rank may agree on ids at the same time ({@link ContextAgreement}); only the one that
 * <em>holds</em> the rank's right to claim may propose and claim, so that two agreements can never give this rank
 * the same id. The right goes, when free, to the agreement with the lowest key among those whose members are all
 * present ({@link #present}); one whose members are not all there yet never holds it, so that it cannot keep an
 * agreement the absent members are waiting in from finishing.
 */
public final class ContextIds {
    /** The first id after those of COMM_WORLD and COMM_SELF. */
    static final int FIRST_FREE = 4;

    private int lowestUnused = FIRST_FREE;
    /** The keys of the agreements under way whose members are all present. */
    private final TreeSet<Long> present = new TreeSet<>();
    private boolean held;
    private long holder;

    public synchronized int lowestUnused() {
        return lowestUnused;
    }

    /** Records that every member of agreement {@code key} has joined it. */
    synchronized void present(long key) {
        present.add(key);
    }

    /** Agreement {@code key} is over. */
    synchronized void gone(long key) {
        present.remove(key);
        if (held && holder == key) {
            held = false;
        }
    }

    /**
     * Takes the right to claim for agreement {@code key} (which must be present) if nobody holds it and no present
     * agreement has a lower key; returns whether it holds it.
     */
    synchronized boolean tryHold(long key) {
        if (held) {
            return holder == key;
        }
        if (present.isEmpty() || present.first() != key) {
            return false;
        }
        held = true;
        holder = key;
        return true;
    }

    /** Gives the right back (if {@code key} holds it). */
    synchronized void release(long key) {
        if (held && holder == key) {
            held = false;
        }
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
