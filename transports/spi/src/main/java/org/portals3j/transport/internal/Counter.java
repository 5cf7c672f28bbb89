package org.portals3j.transport.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One counter of a {@link CounterRegistry}: a 64-bit value in a padded slot that any thread reads. Its writers use
 * one family of methods, never both: the single-writer ones, or the {@code Shared} ones.
 *
 * <p>Single writer ({@link #increment}, {@link #add}, {@link #set}): one thread writes, or several whose writes a lock
 * orders (the lock's release and acquire carry the value from one holder to the next). A plain load of the value,
 * then an <em>opaque</em> store: readers see each value whole and in order, no fence and no locked instruction
 * (on x86 an ordinary {@code mov}); the counter orders nothing else. {@code Shared} ({@link #incrementShared},
 * {@link #addShared}): any threads at once; an atomic {@code getAndAdd} (a locked {@code xadd} on x86).
 */
public final class Counter {
    private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(long[].class);

    /** The registry's values. */
    private final long[] values;
    /** Where this counter's value is in {@link #values}. */
    private final int index;

    Counter(long[] values, int index) {
        this.values = values;
        this.index = index;
    }

    /** Single writer: adds one (plain load, opaque store). */
    public void increment() {
        VALUES.setOpaque(values, index, values[index] + 1);
    }

    /** Single writer: adds {@code delta} (plain load, opaque store). */
    public void add(long delta) {
        VALUES.setOpaque(values, index, values[index] + delta);
    }

    /** Single writer: sets the value (an opaque store), for a high-water mark, say. */
    public void set(long value) {
        VALUES.setOpaque(values, index, value);
    }

    /** Any thread: adds one atomically. */
    public void incrementShared() {
        VALUES.getAndAdd(values, index, 1L);
    }

    /** Any thread: adds {@code delta} atomically. */
    public void addShared(long delta) {
        VALUES.getAndAdd(values, index, delta);
    }

    /** The value, by an opaque load: the latest a single writer stored, or a shared one added. */
    public long get() {
        return (long) VALUES.getOpaque(values, index);
    }
}
