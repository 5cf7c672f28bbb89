package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The final replies this task owes and has deferred, per origin (at most {@link #threshold()} each: the one that
 * reaches it sends them all), and the last flush epoch each origin asked for. Allocates nothing after construction.
 */
final class Acks {
    private final long[][] owed;
    private final int[] count;
    private final int[] flushed;
    private final int threshold;

    Acks(int tasks, int threshold) {
        this.threshold = threshold;
        owed = new long[tasks][threshold + 8];
        count = new int[tasks];
        flushed = new int[tasks];
    }

    int threshold() {
        return threshold;
    }

    /**
     * Defers the final reply to {@code id} of {@code src}, sent in flush epoch {@code epoch}: the number now owed to
     * {@code src}, or 0 if it may not wait (a flush of that epoch or a later one has come: the origin fences).
     */
    synchronized int defer(int src, long id, int epoch) {
        if (epoch - flushed[src] < 0 || count[src] >= threshold) {
            return 0;
        }
        owed[src][count[src]++] = id;
        return count[src];
    }

    /** {@code src} fences: requests of epochs before {@code epoch} are answered at once from now on. */
    synchronized void flushed(int src, int epoch) {
        if (epoch - flushed[src] > 0) {
            flushed[src] = epoch;
        }
    }

    /** One reply owed to {@code task} to ride on a packet going there, or 0. */
    synchronized long takeOne(int task) {
        int n = count[task];
        if (n == 0) {
            return 0;
        }
        count[task] = n - 1;
        return owed[task][n - 1];
    }

    /**
     * A reply {@link #takeOne} gave whose packet could not be sent: owed again; false if there is no room (the
     * failed send's transport has lost it, as it would a reply of its own).
     */
    synchronized boolean restore(int task, long id) {
        if (count[task] >= owed[task].length) {
            return false;
        }
        owed[task][count[task]++] = id;
        return true;
    }

    synchronized int owed(int task) {
        return count[task];
    }

    /** Moves up to {@code max} replies owed to {@code task} into {@code into} from {@code offset}; how many. */
    synchronized int drainInto(int task, MemorySegment into, long offset, int max) {
        int n = Math.min(max, count[task]);
        long[] ids = owed[task];
        for (int i = 0; i < n; i++) {
            into.set(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8L * i, ids[count[task] - 1 - i]);
        }
        count[task] -= n;
        return n;
    }
}
