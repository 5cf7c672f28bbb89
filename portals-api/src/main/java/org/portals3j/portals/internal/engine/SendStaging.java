package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;

/**
 * The library's own buffers that a small put's payload (or a get's reply) is copied into before the transport
 * takes it, so that the MD is free again once the transport has the message. A fixed number of buffers of one
 * size, allocated once; a taken buffer is the taker's until it is given back. Runs under the engine lock (the
 * copy into a taken buffer does not: the buffer is nobody else's).
 */
final class SendStaging {
    /** What {@link #take} returns when no buffer is free. */
    static final int NONE = -1;

    private final int limit;
    private final MemorySegment[] buffers;
    /** The free buffers' indexes, {@code free[0 .. freeCount)}. */
    private final int[] free;
    private int freeCount;

    /** {@code count} buffers of {@code limit} bytes each (none if either is 0). */
    SendStaging(int limit, int count) {
        this.limit = count == 0 ? 0 : limit;
        int n = limit == 0 ? 0 : count;
        MemorySegment all = MemorySegment.ofArray(new byte[Math.multiplyExact(limit, n)]);
        this.buffers = new MemorySegment[n];
        this.free = new int[n];
        for (int i = 0; i < n; i++) {
            buffers[i] = all.asSlice((long) i * limit, limit);
            free[i] = n - 1 - i;
        }
        this.freeCount = n;
    }

    /** Whether a payload of {@code length} bytes may be staged (it fits a buffer, and there are buffers). */
    boolean fits(long length) {
        return length <= limit && buffers.length > 0;
    }

    /** A free buffer's index, or {@link #NONE}; the caller has checked {@link #fits}. */
    int take() {
        return freeCount == 0 ? NONE : free[--freeCount];
    }

    /** The buffer {@link #take} returned {@code index} for. */
    MemorySegment buffer(int index) {
        return buffers[index];
    }

    /** Gives back the buffer taken as {@code index}: the transport no longer reads it. */
    void give(int index) {
        free[freeCount++] = index;
    }

    /** How many buffers are free now (tests). */
    int freeBuffers() {
        return freeCount;
    }
}
