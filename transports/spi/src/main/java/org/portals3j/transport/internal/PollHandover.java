package org.portals3j.transport.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides when a transport's own thread takes the receive path back from application threads that poll it ({@link
 * org.portals3j.transport.Polling#poll}): it stays away while they poll, and looks less often the longer they do.
 *
 * <p>It looks {@link #MIN_GRACE_NANOS} after the last poll it knows of, and each time it finds polling still going
 * on it doubles that, up to a cap of {@link #MAX_GRACE_NANOS}, kept below the owner's tolerance (udp: its smallest
 * retransmission timeout, {@code udp.rtoMinMicros}; the cap is four fifths of a tolerance below 5 ms, never below the
 * first grace), so that even a stop nobody announced gets its acknowledgements out before a peer retransmits. A
 * waiter that stops polling to park announces it ({@link #stopped}), and the transport's thread takes over at once.
 * While a thread polls inside a wait ({@link #waitBegins} to {@link #waitEnds}: it polls until it announces a stop or
 * its wait ends), the transport's thread looks only every {@link #waitLookNanos} (twice the tolerance, at most
 * {@link #MAX_WAIT_LOOK_NANOS}): a stop inside a wait is always announced, so only a thread that leaves its wait and
 * polls no more is noticed that late, and a peer retransmits at most once meanwhile. Why: docs/udp-notes.md.
 *
 * <p>{@link #polled}, {@link #stopped}, {@link #waitBegins} and {@link #waitEnds} are called by any thread;
 * {@link #keepAwayNanos} and {@link #polledSinceLook} by the transport's thread only.
 */
public final class PollHandover {
    public static final long MIN_GRACE_NANOS = 1_000_000L;
    public static final long MAX_GRACE_NANOS = 4_000_000L;
    /** The longest the transport's thread stays away while a thread polls inside a wait. */
    public static final long MAX_WAIT_LOOK_NANOS = 20_000_000L;

    private final long maxGrace;
    private final long waitLook;
    /** Threads inside a wait that polls ({@link #waitBegins} and not yet {@link #waitEnds}). */
    private final AtomicInteger waiters = new AtomicInteger();

    private volatile long lastPollNanos;
    /** The transport's thread: how long after the last poll it takes over. */
    private long grace = MIN_GRACE_NANOS;
    /** The transport's thread: the last poll {@link #pollingEnded} reported. */
    private long handedBackAt;
    /** The transport's thread: whether it is staying away, and the last poll it knew of when it last looked. */
    private boolean away;
    private long seenPollNanos;
    /** The transport's thread: the last poll (or stop) {@link #keepAwayNanos} read. */
    private long lookedAtPollNanos;

    /** For an owner that must have the receive path back within {@code toleranceNanos} of an unannounced stop. */
    public PollHandover(long now, long toleranceNanos) {
        maxGrace = Math.max(MIN_GRACE_NANOS, Math.min(MAX_GRACE_NANOS, toleranceNanos / 5 * 4));
        waitLook = Math.max(maxGrace, Math.min(MAX_WAIT_LOOK_NANOS, 2 * toleranceNanos));
        lastPollNanos = now - waitLook;
        handedBackAt = lastPollNanos;
        lookedAtPollNanos = lastPollNanos;
    }

    /** A thread polled at {@code now}. */
    public void polled(long now) {
        lastPollNanos = now;
    }

    /** Whether some thread polled within the grace cap before {@code now} (the transport's thread may stay away). */
    public boolean pollingRecently(long now) {
        return now - lastPollNanos < maxGrace;
    }

    /** A polling thread stops (it is about to park): the transport's thread may take over at once. */
    public void stopped(long now) {
        lastPollNanos = now - waitLook;
    }

    /** A thread starts polling inside a wait: until {@link #waitEnds} it polls on, or announces {@link #stopped}. */
    public void waitBegins() {
        waiters.incrementAndGet();
    }

    /** A thread's wait, begun with {@link #waitBegins}, ended (before it announces a stop, if it does). */
    public void waitEnds() {
        waiters.decrementAndGet();
    }

    /**
     * The transport's thread: how long to stay away from the receive path from {@code now}, or 0 to take it
     * (which resets the grace).
     */
    public long keepAwayNanos(long now) {
        long last = lastPollNanos;
        lookedAtPollNanos = last;
        long since = now - last;
        if (since < waitLook && waiters.get() > 0) {
            away = true; // a thread inside a wait polls on or announces its stop: no need to look sooner
            seenPollNanos = last;
            return waitLook - since;
        }
        if (since >= grace) {
            grace = MIN_GRACE_NANOS;
            away = false;
            return 0;
        }
        if (away && last != seenPollNanos) {
            grace = Math.min(grace * 2, maxGrace); // it looked and polling went on: look less often
        }
        away = true;
        seenPollNanos = last;
        return grace - since;
    }

    /**
     * The transport's thread, after it announced that it is about to block where only a wake-up reaches it: whether
     * some thread polled (or announced a stop) since its last {@link #keepAwayNanos}. If so it must not block: that
     * poller may have looked for the announcement before it was made, and then nothing wakes the thread (the lost
     * wake-up). A poller writes its poll before it looks; the thread announces before it calls this.
     */
    public boolean polledSinceLook() {
        return lastPollNanos != lookedAtPollNanos;
    }

    /**
     * The transport's thread, holding the receive path: whether some thread polled (or announced it stops) since the
     * last time this returned true. Then the polling stretch is over and the upper layer hears of it
     * ({@link org.portals3j.transport.PollingHandler#onPollersGone}): its polling thread may have left work for itself
     * that nobody else would do.
     */
    public boolean pollingEnded() {
        long last = lastPollNanos;
        if (last == handedBackAt) {
            return false;
        }
        handedBackAt = last;
        return true;
    }

    /** How long the transport's thread stays away after a poll while a thread polls inside a wait. */
    public long waitLookNanos() {
        return waitLook;
    }

    /** The cap of the grace. */
    public long maxGraceNanos() {
        return maxGrace;
    }

    /** The transport's thread: the current grace (tests, diagnostics). */
    public long graceNanos() {
        return grace;
    }
}
