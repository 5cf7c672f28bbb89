package org.portals3j.mpi.internal;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The receives waiting in software for a message, in posting order (the pending list of the package documentation,
 * "Small receives"), linked through their own {@code nextPending}: no allocation per receive. Under the rank's lock.
 */
final class PendingReceives {
    private @Nullable ReceiveOperation head;
    private @Nullable ReceiveOperation tail;
    private int size;

    boolean isEmpty() {
        return head == null;
    }

    int size() {
        return size;
    }

    /** Puts {@code op} last. */
    void add(ReceiveOperation op) {
        ReceiveOperation last = tail;
        if (last == null) {
            head = op;
        } else {
            last.nextPending = op;
        }
        tail = op;
        size++;
    }

    /** Takes off and returns the oldest receive that a message with {@code bits} matches, or null if none does. */
    @Nullable ReceiveOperation takeMatching(long bits) {
        ReceiveOperation before = null;
        for (ReceiveOperation r = head; r != null; before = r, r = r.nextPending) {
            if (MatchBits.matches(bits, r.want, r.ignore)) {
                unlink(before, r);
                return r;
            }
        }
        return null;
    }

    /** Takes {@code op} off the list; false if it is not on it. */
    boolean remove(ReceiveOperation op) {
        ReceiveOperation before = null;
        for (ReceiveOperation r = head; r != null; before = r, r = r.nextPending) {
            if (r == op) {
                unlink(before, r);
                return true;
            }
        }
        return false;
    }

    private void unlink(@Nullable ReceiveOperation before, ReceiveOperation r) {
        ReceiveOperation after = r.nextPending;
        if (before == null) {
            head = after;
        } else {
            before.nextPending = after;
        }
        if (tail == r) {
            tail = before;
        }
        r.nextPending = null;
        size--;
    }
}
