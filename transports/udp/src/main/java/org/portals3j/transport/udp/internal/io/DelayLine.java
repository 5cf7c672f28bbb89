package org.portals3j.transport.udp.internal.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;

/**
 * A bounded set of datagrams, each due at a time of its own: the earliest due comes out first, datagrams
 * due at the same time in the order they went in. Holds at most {@code capacity} datagrams; their
 * buffers are allocated as the line first fills and reused after. Single-threaded.
 */
final class DelayLine {
    private final int capacity;
    private final int bufferSize;
    private final @Nullable ByteBuffer[] buffers;
    private final long[] due;
    private final long[] order;
    /** A binary min-heap of slot indices by (due, order). */
    private final int[] heap;
    private int size;
    /** Slots not in the heap; {@code reserved} is the one {@link #reserve} handed out. */
    private final int[] free;
    private int freeCount;
    private int reserved = -1;
    private long entered;

    DelayLine(int capacity, int datagramSize) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a delay line holds at least one datagram, not " + capacity);
        }
        this.capacity = capacity;
        this.bufferSize = datagramSize + DatagramHeader.TRAILER_ROOM;
        this.buffers = new ByteBuffer[capacity];
        this.due = new long[capacity];
        this.order = new long[capacity];
        this.heap = new int[capacity];
        this.free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i; // slot 0 is handed out first
        }
        this.freeCount = capacity;
    }

    /**
     * The buffer to receive the next datagram into (its slot stays reserved until {@link #commit}), or null
     * when the line is full.
     */
    @Nullable ByteBuffer reserve() {
        if (reserved < 0) {
            if (freeCount == 0) {
                return null;
            }
            reserved = free[--freeCount];
        }
        ByteBuffer b = buffers[reserved];
        if (b == null) {
            b = ByteBuffer.allocateDirect(bufferSize).order(ByteOrder.LITTLE_ENDIAN);
            buffers[reserved] = b;
        }
        return b;
    }

    /**
     * Puts the datagram now in the reserved buffer (its limit is the length) into the line, due at {@code dueNanos}.
     */
    void commit(long dueNanos) {
        int slot = reserved;
        if (slot < 0) {
            throw new IllegalStateException("commit without a reserved buffer");
        }
        reserved = -1;
        due[slot] = dueNanos;
        order[slot] = entered++;
        int i = size++;
        heap[i] = slot;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(heap[i], heap[parent])) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    int size() {
        return size;
    }

    int capacity() {
        return capacity;
    }

    /** When the earliest datagram is due ({@link Long#MAX_VALUE} when the line is empty). */
    long nextDue() {
        return size == 0 ? Long.MAX_VALUE : due[heap[0]];
    }

    /**
     * Moves the earliest datagram into {@code dst} (from position 0; its limit is the length). The line must not be
     * empty.
     */
    void take(ByteBuffer dst) {
        if (size == 0) {
            throw new IllegalStateException("the delay line is empty");
        }
        int slot = heap[0];
        ByteBuffer b = buffers[slot];
        if (b == null) {
            throw new IllegalStateException("slot " + slot + " has no buffer");
        }
        dst.clear();
        dst.put(0, b, 0, b.limit());
        dst.limit(b.limit());
        heap[0] = heap[--size];
        int i = 0;
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                break;
            }
            int child = left + 1 < size && before(heap[left + 1], heap[left]) ? left + 1 : left;
            if (!before(heap[child], heap[i])) {
                break;
            }
            swap(i, child);
            i = child;
        }
        free[freeCount++] = slot;
    }

    private boolean before(int a, int b) {
        long d = due[a] - due[b];
        return d < 0 || (d == 0 && order[a] < order[b]);
    }

    private void swap(int i, int j) {
        int t = heap[i];
        heap[i] = heap[j];
        heap[j] = t;
    }
}
