package org.portals3j.isotach.internal.noniso;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Data-ring arrivals from the transport side to the host's thread (the report's niu_delivery_q, Isotach report §4.2.2,
 * pp. 30-32; §8.3.4, pp. 73-76): bounded, preallocated, allocation-free, several producers and one
 * consumer.
 */
final class HandoffQueue {
    /** A data frame whose payload is in its slot. */
    static final byte DATA = 1;
    /** A read response (header only; its slot carries no payload but was taken from the ring). */
    static final byte READ_RESPONSE = 2;
    /** A data frame whose deposit failed: the slot must be freed without delivering anything. */
    static final byte FAILED = 3;

    private final int mask;
    private final AtomicLongArray sequence;
    private final AtomicLong tail = new AtomicLong();
    /** Consumer (host thread) only. */
    private long head;

    private final byte[] kind;
    private final int[] source;
    private final int[] slot;
    private final int[] length;
    private final long[] value;
    private final int[] lvar;
    private final long[] pulse;

    /** A queue holding at least {@code minCapacity} descriptors (rounded up to a power of two). */
    HandoffQueue(int minCapacity) {
        int capacity = Integer.highestOneBit(Math.max(2, minCapacity) - 1) << 1;
        if (capacity <= 0) {
            throw new IllegalArgumentException("handoff queue of " + minCapacity + " entries is too large");
        }
        this.mask = capacity - 1;
        this.sequence = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++) {
            sequence.set(i, i);
        }
        this.kind = new byte[capacity];
        this.source = new int[capacity];
        this.slot = new int[capacity];
        this.length = new int[capacity];
        this.value = new long[capacity];
        this.lvar = new int[capacity];
        this.pulse = new long[capacity];
    }

    int capacity() {
        return mask + 1;
    }

    /**
     * Producer side: appends one descriptor {kind, source, slot, length, value, read slot, pulse} (the last three for
     * read responses only); false only if the queue is full.
     *
     * <p>After D. Vyukov's bounded multi-producer queue: each cell has a sequence number; a producer claims a cell by
     * a CAS on the tail, writes the descriptor fields, then publishes by storing {@code seq = position + 1} (a volatile
     * store, so the plain field writes before it are visible to the consumer that reads the sequence). The consumer
     * frees a cell by storing {@code position + capacity}. The transport promises that the callbacks of one endpoint
     * never run concurrently, so a single producer at a time is the normal case; the CAS makes the queue correct even
     * if that promise were relaxed.
     */
    boolean offer(byte k, int src, int sl, int len, long val, int lv, long pu) {
        long pos;
        int i;
        for (;;) {
            pos = tail.get();
            i = (int) (pos & mask);
            long diff = sequence.get(i) - pos;
            if (diff == 0) {
                if (tail.compareAndSet(pos, pos + 1)) {
                    break;
                }
            } else if (diff < 0) {
                return false;
            }
        }
        kind[i] = k;
        source[i] = src;
        slot[i] = sl;
        length[i] = len;
        value[i] = val;
        lvar[i] = lv;
        pulse[i] = pu;
        sequence.set(i, pos + 1);
        return true;
    }

    /** Consumer side: the cell index of the oldest published descriptor, or -1 if there is none. */
    int peek() {
        int i = (int) (head & mask);
        return sequence.get(i) == head + 1 ? i : -1;
    }

    /** Consumer side: frees the cell {@link #peek()} returned, after its fields were read. */
    void release(int cell) {
        sequence.set(cell, head + mask + 1);
        head++;
    }

    boolean isEmpty() {
        return peek() < 0;
    }

    byte kind(int cell) {
        return kind[cell];
    }

    int source(int cell) {
        return source[cell];
    }

    int slot(int cell) {
        return slot[cell];
    }

    int length(int cell) {
        return length[cell];
    }

    long value(int cell) {
        return value[cell];
    }

    int lvar(int cell) {
        return lvar[cell];
    }

    long pulse(int cell) {
        return pulse[cell];
    }
}
