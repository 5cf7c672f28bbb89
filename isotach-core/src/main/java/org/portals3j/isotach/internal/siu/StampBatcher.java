package org.portals3j.isotach.internal.siu;

import org.portals3j.transport.internal.CacheLinePadding;

/**
 * When a stamping SIU marks ahead and asks the token manager for time: at once if the batching period is over or the
 * isochron answers a packet, else owed until the period ends, the host pauses or a token settles it (lock held).
 */
final class StampBatcher extends CacheLinePadding {
    /** The batching period ({@code IsotachConfig.stampBatchNanos}); 0 asks at every stamp. */
    private final long periodNanos;
    private long lastAskNanos;
    private boolean askedEver;
    /**
     * Whether a stamp within the period left its ask for later. Written under the lock; read without it by the host.
     */
    private boolean askOwed;
    /** Whether the host took an Isotach packet off its link since the last stamp: the next isochron answers it. */
    private boolean tookPacket;
    /** Isochrons stamped, and their number at the host's previous poll (the host's thread only). */
    private long stamps;
    private long stampsAtPoll;

    StampBatcher(long periodNanos) {
        this.periodNanos = periodNanos;
    }

    /** Whether stamping needs the time at all (a period of 0 asks at every stamp). */
    boolean readsClock() {
        return periodNanos > 0;
    }

    /** Whether a stamp at {@code now} may mark ahead and ask at once. */
    boolean askDue(long now) {
        return periodNanos == 0 || !askedEver || tookPacket || now - lastAskNanos >= periodNanos;
    }

    /** The SIU marked ahead or asked at {@code now}: the next period starts. */
    void asked(long now) {
        if (periodNanos > 0) {
            lastAskNanos = now;
            askedEver = true;
        }
    }

    /** An isochron was stamped: the packet taken before it, if any, is answered. */
    void stamped() {
        tookPacket = false;
        stamps++;
    }

    /** The host took an Isotach packet off its link. */
    void tookPacket() {
        tookPacket = true;
    }

    /** A stamp left its ask for later. */
    void owe() {
        askOwed = true;
    }

    /** Whether an ask is owed (read without the lock by the host's poll: a stale answer only delays it one poll). */
    boolean owes() {
        return askOwed;
    }

    /** The need went with a token's marks: nothing is owed. */
    void settled() {
        askOwed = false;
    }

    /**
     * Whether the owed ask, if any, is to be paid now, at {@code now}: the period is over or {@code atOnce} (the host
     * has paused). Clears it when so.
     */
    boolean takeOwedAsk(boolean atOnce, long now) {
        if (!askOwed || (!atOnce && !askDue(now))) {
            return false;
        }
        askOwed = false;
        return true;
    }

    /** At the host's poll (its thread only, without the lock): whether it stamped nothing since its previous poll. */
    boolean pausedSincePreviousPoll() {
        boolean paused = stamps == stampsAtPoll;
        stampsAtPoll = stamps;
        return paused;
    }
}
