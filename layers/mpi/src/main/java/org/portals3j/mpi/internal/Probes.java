package org.portals3j.mpi.internal;

import org.checkerframework.checker.initialization.qual.NotOnlyInitialized;
import org.checkerframework.checker.initialization.qual.UnderInitialization;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.PortalsException;

/**
 * Probe and matched probe at a rank: looks for the oldest matching message of the unexpected queue, or claims it so
 * that only the receive made with the claim takes it (package documentation, "Matched probe").
 */
final class Probes {
    private final RankPortals p;
    /** The engine (which makes this in its constructor, hence under initialization then). */
    private final @NotOnlyInitialized PointToPoint engine;
    private final Arrivals arrivals;
    private final RankLock lock;
    private final UnexpectedQueue unexpected;

    Probes(RankPortals p, Arrivals arrivals, @UnderInitialization PointToPoint engine) {
        this.p = p;
        this.engine = engine;
        this.arrivals = arrivals;
        this.lock = p.lock;
        this.unexpected = arrivals.unexpected;
    }

    /** The oldest unexpected message matching {@code want}/{@code ignore}: its bits and length; null if none. */
    @Nullable ProbeResult probe(long want, long ignore) {
        lock.lock();
        try {
            p.checkOpen();
            engine.drainUnlessBlocked();
            UnexpectedMessage m = unexpected.find(want, ignore);
            return m == null ? null : new ProbeResult(MatchBits.source(m.bits), MatchBits.tag(m.bits), m.length);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Claims the oldest unexpected message matching {@code want}/{@code ignore} that nobody has claimed: from now on
     * no receive or probe of any thread can match it, only {@link #receiveClaimed}. Null if there is none.
     */
    @Nullable ClaimedMessage claim(long want, long ignore) {
        lock.lock();
        try {
            p.checkOpen();
            engine.drainUnlessBlocked();
            UnexpectedMessage m = unexpected.find(want, ignore);
            if (m == null) {
                return null;
            }
            m.claimed = true;
            return new ClaimedMessage(m, MatchBits.source(m.bits), MatchBits.tag(m.bits), m.length);
        } finally {
            lock.unlock();
        }
    }

    /** Receives the claimed message {@code c} into {@code op} (once: {@code c} is spent afterwards). */
    void receiveClaimed(ClaimedMessage c, ReceiveOperation op) {
        lock.lock();
        try {
            p.checkOpen();
            arrivals.take(c.spend(), op);
        } catch (PortalsException e) {
            throw p.outOfResources(e);
        } finally {
            lock.unlock();
        }
    }
}
