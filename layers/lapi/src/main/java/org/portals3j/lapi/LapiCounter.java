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
 * change is atomic (a {@link VarHandle} on the cell) and wakes the context's waiters.
 */
public final class LapiCounter {
    private static final VarHandle VALUE = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment cell;
    private final long address;
    private final Progress progress;

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
        progress.signal();
    }

    /** One event: +1, wrapping as a C {@code int} does; wakes waiters. */
    void increment() {
        VALUE.getAndAdd(cell, 0L, 1);
        progress.signal();
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
