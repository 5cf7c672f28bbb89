package org.portals3j.transport.gm.internal.protocol;

/**
 * The sender's credits towards one peer: one per receive buffer the peer holds for it. A data message spends one;
 * the peer returns them as it reposts its buffers. Not thread-safe: the owner guards it with its lock.
 */
public final class Credits {
    private final int initial;
    private int available;

    public Credits(int initial) {
        if (initial < 1) {
            throw new IllegalArgumentException("credits must be at least 1, not " + initial);
        }
        this.initial = initial;
        this.available = initial;
    }

    /** Spends one credit if there is one. */
    public boolean tryTake() {
        if (available == 0) {
            return false;
        }
        available--;
        return true;
    }

    /**
     * Takes back {@code returned} credits from the peer. False (and nothing changes) if that would exceed what was
     * handed out: the peer returned credits it never had, a protocol violation.
     */
    public boolean give(long returned) {
        if (returned < 0 || returned > initial - available) {
            return false;
        }
        available += (int) returned;
        return true;
    }

    public int available() {
        return available;
    }

    public int initial() {
        return initial;
    }
}
