package org.portals3j.transport.inmem;

import org.portals3j.transport.internal.PaddedInt;

/**
 * Whether application threads poll an endpoint, as its peers see it: the inmem side of
 * {@link org.portals3j.transport.PollingHandler#onPollersGone}.
 *
 * <p>An inline transport has no thread of its own to notice that an endpoint's application stopped polling, yet an
 * upper layer may hold work back for its polling thread (Isotach hands the frames it is given to its host's thread,
 * and lets clock frames wait for a reply). So the endpoints watch each other: every {@link #SWEEP_EVERY}-th poll of
 * any endpoint looks at the others' poll counts, and an endpoint whose count has not moved for {@link #GRACE_NANOS}
 * is declared gone, its handler told so on the looking thread. A rank whose application polls keeps at most its
 * peers' looks in step with it; a rank that stops holds its work back for about the grace, as long as some rank
 * polls (when none does, nobody waits for anything).
 *
 * <p>The poll count and the state are each alone on a cache line: the owner writes the count on every poll and
 * peers read it on every sweep, a peer's read costs the owner one miss per sweep, not per poll.
 */
final class PollWatch {
    /**
     * How long an endpoint may go without a poll before its peers declare its pollers gone: long next to a poll loop
     * (well under a microsecond per round) and to the time a thread of a busy 2-core machine waits for its core,
     * short next to the Isotach token manager's idle tick (1 ms).
     */
    static final long GRACE_NANOS = 250_000;
    /** Every how many polls an endpoint looks at its peers (a power of two). */
    static final int SWEEP_EVERY = 64;

    private static final int IDLE = 0;
    private static final int POLLING = 1;

    private final PaddedInt polls = new PaddedInt();
    private final PaddedInt state = new PaddedInt();
    /** Polls until the next look at the peers, counting down. */
    private final PaddedInt countdown = new PaddedInt();
    /**
     * Sweeper side, written by whichever of the endpoint's own threads polls (races only delay or hasten a look), every
     * {@link #SWEEP_EVERY} polls; with {@link #SLACK} unused entries on each side, so that the arrays' neighbours (what
     * a peer's thread writes when it delivers here) are on other cache lines.
     */
    private final int[] seenPolls;
    private final long[] seenAt;
    private final boolean[] seen;
    private static final int SLACK = 64;

    PollWatch(int size) {
        seenPolls = new int[SLACK + size + SLACK];
        seenAt = new long[SLACK + size + SLACK];
        seen = new boolean[SLACK + size + SLACK];
    }

    /** The owner polled: counts it and, every {@link #SWEEP_EVERY} polls, returns true (time to look at the peers). */
    boolean polled() {
        polls.setRelease(polls.get() + 1);
        if (state.get() != POLLING) {
            state.setVolatile(POLLING);
        }
        int c = countdown.get() + 1;
        countdown.setRelease(c);
        return (c & (SWEEP_EVERY - 1)) == 0;
    }

    /** The owner announced that it stops polling: true if it was polling (the handler is to be told). */
    boolean stopped() {
        return state.get() == POLLING && state.compareAndSet(POLLING, IDLE);
    }

    /**
     * A look at peer {@code rank}'s watch at {@code now}: true if its pollers are to be declared gone (exactly one
     * looker gets true per stretch of polling).
     */
    boolean peerGone(int rank, PollWatch peer, long now) {
        int p = peer.polls.get();
        int i = SLACK + rank;
        if (!seen[i] || p != seenPolls[i]) {
            seen[i] = true;
            seenPolls[i] = p;
            seenAt[i] = now;
            return false;
        }
        return now - seenAt[i] >= GRACE_NANOS && peer.stopped();
    }
}
