package org.portals3j.transport.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A bounded set of named 64-bit counters, allocated by name and description while a component is set up, each in a
 * slot of its own; any thread reads them all as a {@link #snapshot()} in allocation order. Names are unique.
 *
 * <p>Each value lives in one {@code long[]}, {@value #SLOT_LONGS} longs (128 bytes) from its neighbours and from
 * the array's ends, so no two counters share a cache line or an adjacent-line prefetch pair: a thread that counts
 * never costs the thread counting next to it a cache miss. How a {@link Counter} is written (its memory ordering) is
 * said on its methods. A gauge ({@link #gauge}) is a name whose value the reading thread computes at snapshot time.
 * Incrementing allocates nothing; allocation and snapshots take this registry's monitor.
 *
 * <p>Internal: shared by the runtime modules, not for applications.
 */
public final class CounterRegistry {
    /** Longs from one counter's value to the next: two cache lines. */
    static final int SLOT_LONGS = 16;

    private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(long[].class);

    /** The values, counter {@code i} at {@code (i + 1) * SLOT_LONGS}; padding before the first and after the last. */
    private final long[] values;
    private final String[] names;
    private final String[] descriptions;
    /** Per name: the gauge that computes it, or null for a counter. */
    private final @Nullable LongSupplier[] gauges;
    /** Names allocated so far; guarded by {@code this}. */
    private int size;

    /** A registry of at most {@code capacity} names (counters and gauges). */
    public CounterRegistry(int capacity) {
        if (capacity < 1 || capacity > (Integer.MAX_VALUE / SLOT_LONGS) - 2) {
            throw new IllegalArgumentException("capacity must be 1.." + (Integer.MAX_VALUE / SLOT_LONGS - 2)
                    + "; got " + capacity);
        }
        this.values = new long[(capacity + 2) * SLOT_LONGS];
        this.names = new String[capacity];
        this.descriptions = new String[capacity];
        this.gauges = new LongSupplier[capacity];
    }

    /**
     * Allocates a counter starting at 0.
     *
     * @throws IllegalArgumentException if {@code name} is taken or blank
     * @throws IllegalStateException if the registry is full
     */
    public synchronized Counter counter(String name, String description) {
        int i = allocate(name, description, null);
        return new Counter(values, (i + 1) * SLOT_LONGS);
    }

    /**
     * Allocates a gauge: a name whose value {@code reader} computes, on the thread that takes the snapshot and under
     * this registry's monitor; it must be safe to call from any thread and must not call back into this registry.
     *
     * @throws IllegalArgumentException if {@code name} is taken or blank
     * @throws IllegalStateException if the registry is full
     */
    public synchronized void gauge(String name, String description, LongSupplier reader) {
        allocate(name, description, reader);
    }

    private int allocate(String name, String description, @Nullable LongSupplier reader) {
        if (name.isBlank()) {
            throw new IllegalArgumentException("a counter needs a name");
        }
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                throw new IllegalArgumentException("a counter named '" + name + "' exists already; names are unique");
            }
        }
        if (size == names.length) {
            throw new IllegalStateException("no room for counter '" + name + "': all " + names.length
                    + " are allocated; size the registry for every counter of its component");
        }
        int i = size++;
        names[i] = name;
        descriptions[i] = description;
        gauges[i] = reader;
        return i;
    }

    /** Every counter's and gauge's value, by name, in allocation order (counters read with opaque loads). */
    public synchronized Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        snapshotInto(m);
        return m;
    }

    /** Puts every counter's and gauge's value into {@code into}, in allocation order. */
    public synchronized void snapshotInto(Map<String, Long> into) {
        for (int i = 0; i < size; i++) {
            LongSupplier g = gauges[i];
            into.put(names[i], g != null ? g.getAsLong() : (long) VALUES.getOpaque(values, (i + 1) * SLOT_LONGS));
        }
    }

    /** The description given for {@code name}, or null if no counter or gauge has that name. */
    public synchronized @Nullable String description(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                return descriptions[i];
            }
        }
        return null;
    }

    /** How many names are allocated. */
    public synchronized int size() {
        return size;
    }

    /** The most names this registry takes. */
    public int capacity() {
        return names.length;
    }
}
