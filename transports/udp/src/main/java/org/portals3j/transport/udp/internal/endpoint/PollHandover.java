package org.portals3j.transport.udp.internal.endpoint;

/**
 * Decides when the protocol thread takes the receive path back from application threads that poll it ({@link
 * org.portals3j.transport.Polling#poll}): it stays away while they poll, and looks less often the longer they do.
 *
 * <p>It looks {@link #MIN_GRACE_NANOS} after the last poll it knows of, and each time it finds polling still going
 * on it doubles that, up to a cap of {@link #MAX_GRACE_NANOS}, kept below the smallest retransmission timeout
 * ({@code udp.rtoMinMicros}; the cap is four fifths of a setting below 5 ms, never below the first grace), so that
 * even a stop nobody announced gets its acknowledgements out before a peer retransmits. A waiter that stops polling
 * to park announces it ({@link #stopped}), and the protocol thread takes over at once. Why: docs/udp-notes.md.
 *
 * <p>{@link #polled} and {@link #stopped} are called by any thread; {@link #keepAwayNanos} by the protocol
 * thread only.
 */
final class PollHandover {
    static final long MIN_GRACE_NANOS = 1_000_000L;
    static final long MAX_GRACE_NANOS = 4_000_000L;

    private final long maxGrace;

    private volatile long lastPollNanos;
    /** Protocol thread: how long after the last poll it takes over. */
    private long grace = MIN_GRACE_NANOS;
    /** Protocol thread: the last poll {@link #pollingEnded} reported. */
    private long handedBackAt;
    /** Protocol thread: whether it is staying away, and the last poll it knew of when it last looked. */
    private boolean away;
    private long seenPollNanos;

    /** With the cap for retransmission timeouts of at least {@code rtoMinNanos}. */
    PollHandover(long now, long rtoMinNanos) {
        maxGrace = Math.max(MIN_GRACE_NANOS, Math.min(MAX_GRACE_NANOS, rtoMinNanos / 5 * 4));
        lastPollNanos = now - maxGrace;
        handedBackAt = lastPollNanos;
    }

    /** A thread polled at {@code now}. */
    void polled(long now) {
        lastPollNanos = now;
    }

    /** Whether some thread polled within the grace cap before {@code now} (the protocol thread may be staying away). */
    boolean pollingRecently(long now) {
        return now - lastPollNanos < maxGrace;
    }

    /** A polling thread stops (it is about to park): the protocol thread may take over at once. */
    void stopped(long now) {
        lastPollNanos = now - maxGrace;
    }

    /**
     * Protocol thread: how long to stay away from the receive path from {@code now}, or 0 to take it
     * (which resets the grace).
     */
    long keepAwayNanos(long now) {
        long last = lastPollNanos;
        long since = now - last;
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
     * Protocol thread, holding the receive path: whether some thread polled (or announced it stops) since the last
     * time this returned true. Then the polling stretch is over and the upper layer hears of it
     * ({@link org.portals3j.transport.PollingHandler#onPollersGone}): its polling thread may have left work for itself
     * that nobody else would do.
     */
    boolean pollingEnded() {
        long last = lastPollNanos;
        if (last == handedBackAt) {
            return false;
        }
        handedBackAt = last;
        return true;
    }

    /** The cap of the grace. */
    long maxGraceNanos() {
        return maxGrace;
    }

    /** Protocol thread: the current grace (tests, diagnostics). */
    long graceNanos() {
        return grace;
    }
}
