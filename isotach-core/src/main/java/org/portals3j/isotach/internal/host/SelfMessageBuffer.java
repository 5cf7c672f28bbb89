package org.portals3j.isotach.internal.host;

import java.lang.foreign.MemorySegment;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * Self-messages copied from the application, held in issue order until delivered with their isochron's marker (the
 * report's {@code hit_buf}); a full buffer fails the send (A6).
 */
final class SelfMessageBuffer extends CacheLinePadding {
    private final MemorySegment slots;
    private final int maxPayload;
    private final int[] length;
    private long head;
    private long tail;

    /** @param slots {@code capacity} slots of {@code maxPayload} bytes each, one after another */
    SelfMessageBuffer(MemorySegment slots, int capacity, int maxPayload) {
        this.slots = slots;
        this.maxPayload = maxPayload;
        this.length = new int[capacity];
    }

    boolean isFull() {
        return tail - head == length.length;
    }

    /** Copies {@code data[0, size)} in (the buffer must not be full). */
    void add(MemorySegment data, int size) {
        int i = (int) (tail % length.length);
        MemorySegment.copy(data, 0, slots, (long) i * maxPayload, size);
        length[i] = size;
        tail++;
    }

    /** All the slots: the oldest message is at {@link #oldestOffset()}. */
    MemorySegment segment() {
        return slots;
    }

    long oldestOffset() {
        return (head % length.length) * maxPayload;
    }

    int oldestLength() {
        return length[(int) (head % length.length)];
    }

    /** The oldest message was delivered and released. */
    void releaseOldest() {
        head++;
    }
}
