package org.portals3j.transport.udp.internal.reliability;

/**
 * How long after RACK's round trip an unacknowledged fragment may still arrive before it counts as lost
 * (RFC 8985's reordering window), adapted to the reordering seen: the largest delay by which a fragment
 * sent once arrived behind one sent after it, grown further by each round with a spurious retransmission.
 * Not thread-safe: part of a {@link SendWindow}.
 */
public final class ReorderWindow {
    /**
     * Loss recoveries with no reordering seen after which what was learnt is forgotten (RFC 8985's reo_wnd_persist).
     */
    public static final int PERSIST_RECOVERIES = 16;

    private boolean seen;
    /** The reordering delay to allow beyond a quarter of the minimum round trip, nanoseconds. */
    private long extent;
    private int persist = PERSIST_RECOVERIES;
    /** Spurious retransmissions grow the window once per round trip: until the cumulative ack passes this. */
    private long growthRoundEnd = -1;

    /**
     * The window, nanoseconds. Before any reordering was seen it is a quarter of the minimum round trip, or 0
     * once {@code dupThreshold} is reached or during a recovery (a loss then is a loss, as three duplicate
     * acks are for TCP); after, a quarter of the minimum round trip plus the reordering extent, at most SRTT.
     */
    public long window(long minRtt, long srtt, boolean recovering, boolean dupThreshold) {
        long quarter = minRtt == Long.MAX_VALUE ? 0 : minRtt / 4;
        if (!seen) {
            return recovering || dupThreshold ? 0 : quarter;
        }
        return Math.min(srtt, quarter + extent);
    }

    /**
     * A fragment sent once arrived {@code excess} nanoseconds after RACK's round trip said it was due (it was
     * overtaken by later ones): reordering, at least that large.
     */
    public void observed(long excess) {
        seen = true;
        persist = PERSIST_RECOVERIES;
        if (excess > extent) {
            extent = excess;
        }
    }

    /**
     * A retransmission turned out spurious: the window was too short by an unknown amount. Once per round trip
     * (the first report after the cumulative ack {@code una} passed the previous round's end) it grows by a
     * quarter of the minimum round trip (RFC 8985 section 6.2, step 4); {@code nextSeq} ends this round.
     */
    public void spurious(long una, long nextSeq, long minRtt) {
        seen = true;
        persist = PERSIST_RECOVERIES;
        if (una >= growthRoundEnd) {
            growthRoundEnd = nextSeq;
            extent += minRtt == Long.MAX_VALUE ? 0 : Math.max(1, minRtt / 4);
        }
    }

    /** A loss recovery ended; after {@value #PERSIST_RECOVERIES} with nothing seen, start over. */
    public void recoveryEnded() {
        if (seen && --persist <= 0) {
            seen = false;
            extent = 0;
            persist = PERSIST_RECOVERIES;
        }
    }

    public boolean seen() {
        return seen;
    }

    public long extent() {
        return extent;
    }
}
