package org.portals3j.mpi.internal;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The unexpected messages of one rank in arrival order (the order of their PUT_START events, which Portals keeps
 * per pair of processes), with a pool of spare entries so that queuing a message allocates nothing once the pool
 * has grown to the largest backlog.
 */
final class UnexpectedQueue {
    private @Nullable UnexpectedMessage head;
    private @Nullable UnexpectedMessage tail;
    private @Nullable UnexpectedMessage spare;
    private int size;

    /** A new entry at the tail, to be filled by the caller. */
    UnexpectedMessage append() {
        UnexpectedMessage m = spare;
        if (m != null) {
            spare = m.next;
            m.next = null;
        } else {
            m = new UnexpectedMessage();
        }
        m.previous = tail;
        if (tail != null) {
            tail.next = m;
        } else {
            head = m;
        }
        tail = m;
        size++;
        return m;
    }

    /**
     * The oldest message matching {@code want}/{@code ignore} that no receive has taken and no matched probe has
     * claimed, or null. A message a receive took before its data arrived stays queued (with that receive as its
     * waiter) until its PUT_END: it is no longer there for other receives and probes.
     */
    @Nullable UnexpectedMessage find(long want, long ignore) {
        for (UnexpectedMessage m = head; m != null; m = m.next) {
            if (!m.claimed && m.waiter == null && MatchBits.matches(m.bits, want, ignore)) {
                return m;
            }
        }
        return null;
    }

    /** The message whose START had {@code link}, searched from the newest (the one usually wanted). */
    @Nullable UnexpectedMessage findByLink(long link) {
        for (UnexpectedMessage m = tail; m != null; m = m.previous) {
            if (m.link == link && !m.arrived) {
                return m;
            }
        }
        return null;
    }

    /** Takes {@code m} out of the queue and back into the pool. */
    void remove(UnexpectedMessage m) {
        UnexpectedMessage p = m.previous;
        UnexpectedMessage n = m.next;
        if (p != null) {
            p.next = n;
        } else {
            head = n;
        }
        if (n != null) {
            n.previous = p;
        } else {
            tail = p;
        }
        size--;
        m.previous = null;
        m.waiter = null;
        m.arrived = false;
        m.failed = false;
        m.claimed = false;
        m.next = spare;
        spare = m;
    }

    int size() {
        return size;
    }
}
