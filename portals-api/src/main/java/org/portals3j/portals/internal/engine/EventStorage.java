package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;

/**
 * The memory of a new event queue, built before the engine lock is taken: the table of its ring's
 * chunks with the first chunk in it, and the handler's spare event. Its size does not grow with the
 * queue's {@code count} beyond one reference per {@link #CHUNK} events.
 */
final class EventStorage {
    /** log2 of {@link #CHUNK}. */
    static final int CHUNK_SHIFT = 8;
    /** Events per chunk of a ring longer than one chunk. */
    static final int CHUNK = 1 << CHUNK_SHIFT;
    static final int CHUNK_MASK = CHUNK - 1;
    static final Event[] @Nullable [] NO_CHUNKS = new Event[0][];

    final Event[] @Nullable [] chunks;
    final Event[] @Nullable [] spares;
    final int capacity;
    final ChunkAllocator allocator;
    final @Nullable Event handlerScratch;

    private EventStorage(int capacity, ChunkAllocator allocator, boolean withHandler) {
        int chunkCount = (int) (((long) capacity + CHUNK - 1) >>> CHUNK_SHIFT);
        this.capacity = capacity;
        this.allocator = allocator;
        this.chunks = new Event[chunkCount][];
        this.spares = chunkCount > 1 ? new Event[chunkCount][] : NO_CHUNKS;
        this.chunks[0] = allocator.allocate(Math.min(capacity, CHUNK));
        this.handlerScratch = withHandler ? new Event() : null;
    }

    /**
     * The storage of a queue of {@code capacity} events (1 or more). Call it without holding the engine
     * lock: it allocates.
     *
     * @throws OutOfMemoryError if the JVM cannot allocate it
     */
    static EventStorage allocate(int capacity, ChunkAllocator allocator, boolean withHandler) {
        if (capacity < 1) {
            throw new IllegalArgumentException("an event queue holds at least one event, not " + capacity);
        }
        return new EventStorage(capacity, allocator, withHandler);
    }

    /** Makes the chunks of rings: arrays of fresh events. */
    @FunctionalInterface
    interface ChunkAllocator {
        /** The allocator of the library: {@code events} new {@link Event}s. */
        ChunkAllocator DEFAULT = EventStorage::newChunk;

        /** An array of {@code events} events, each a distinct new object. */
        Event[] allocate(int events);
    }

    private static Event[] newChunk(int events) {
        Event[] chunk = new Event[events];
        for (int i = 0; i < events; i++) {
            chunk[i] = new Event();
        }
        return chunk;
    }
}
