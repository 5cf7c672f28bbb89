package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code lapi_cntr_t}: a counter of one context that communication increments by exactly 1 per event it stands
 * for. Read and set through the context ({@link LapiContext#getcntr}, {@link LapiContext#setcntr},
 * {@link LapiContext#waitcntr}); named from another task by its {@link #address()}.
 *
 * <p>The value is the {@code int} at offset 0 of an 8-byte cell (the context's own memory for
 * {@link LapiContext#newCounter()}, the C program's {@code lapi_cntr_t} for {@link LapiContext#counterAt}); every
 * change is atomic (a {@link VarHandle} on the cell); an increment wakes the threads in {@code Waitcntr} on this
 * counter only when it reaches the threshold one of them waits for, and never the context's other waiters.
 */
public final class LapiCounter {
    private static final VarHandle VALUE = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment cell;
    private final long address;
    private final Progress progress;
    /**
     * The lowest threshold a {@code Waitcntr} on this counter waits for, or {@code Integer.MAX_VALUE} when none
     * waits: an increment wakes the waiters only when it reaches it (Waitcntr(c, 16) is woken once, not 16 times).
     * Written under this object's lock; lowered while waiters come, raised back only when the last one leaves.
     */
    private volatile int wakeAt = Integer.MAX_VALUE;
    private int waiting;

    LapiCounter(MemorySegment cell, long address, Progress progress) {
        this.cell = cell;
        this.address = address;
        this.progress = progress;
    }

    /** The address other tasks pass as {@code tgt_cntr} to make this counter move (unique in its context). */
    public long address() {
        return address;
    }

    /** The context's progress this counter belongs to (a counter of another context is refused). */
    Progress progress() {
        return progress;
    }

    int value() {
        return (int) VALUE.getVolatile(cell, 0L);
    }

    void set(int value) {
        VALUE.setVolatile(cell, 0L, value);
        progress.signalCounters();
    }

    /** One event: +1, wrapping as a C {@code int} does; wakes the waiters if it reaches one's threshold. */
    void increment() {
        int now = (int) VALUE.getAndAdd(cell, 0L, 1) + 1;
        // Both accesses are volatile: a waiter that registered its threshold before reading the value either sees
        // this increment or is seen here (Progress.awaitTake).
        if (now >= wakeAt) {
            progress.signalCounters();
        }
    }

    /** A Waitcntr for {@code threshold} starts sleeping on this counter. */
    synchronized void addWaiter(int threshold) {
        waiting++;
        if (threshold < wakeAt) {
            wakeAt = threshold;
        }
    }

    /** A Waitcntr ends; the last one out stops the increments' wake-ups. */
    synchronized void removeWaiter() {
        if (--waiting == 0) {
            wakeAt = Integer.MAX_VALUE;
        }
    }

    /** Subtracts {@code v} if the value is at least {@code v}: the new value, or {@code Integer.MIN_VALUE} if not. */
    int tryTake(int v) {
        while (true) {
            int cur = value();
            if (cur < v) {
                return Integer.MIN_VALUE;
            }
            if (VALUE.compareAndSet(cell, 0L, cur, cur - v)) {
                return cur - v;
            }
        }
    }

    @Override
    public String toString() {
        return "LapiCounter[0x" + Long.toHexString(address) + " = " + value() + "]";
    }
}
