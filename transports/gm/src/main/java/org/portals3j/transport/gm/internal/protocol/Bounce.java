package org.portals3j.transport.gm.internal.protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A registered native copy of heap memory, for RMA: GM reads and writes only registered native memory, and a heap
 * segment can reach native code only for the length of one call. The sender copies a heap payload in
 * ({@link #stageOut}); the receiver reads a payload into one and copies it to the heap destination
 * ({@link #copyTo}). Made per large message to or from the heap, outside every lock; {@link #close} deregisters and
 * frees it.
 */
public final class Bounce implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment memory;
    private final Registrar registrar;
    private final long key;
    private boolean closed;

    private Bounce(Arena arena, MemorySegment memory, Registrar registrar, long key) {
        this.arena = arena;
        this.memory = memory;
        this.registrar = registrar;
        this.key = key;
    }

    /**
     * Registered native memory of {@code length} bytes.
     *
     * @throws IllegalStateException when it cannot be registered (nothing is left allocated)
     */
    public static Bounce allocate(long length, Registrar registrar) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment memory = arena.allocate(Math.max(1, length), 64);
            long key = registrar.register(memory.address(), memory.byteSize());
            return new Bounce(arena, memory, registrar, key);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** A registered copy of {@code [offset, offset + length)} of {@code source}. */
    public static Bounce stageOut(MemorySegment source, long offset, long length, Registrar registrar) {
        Bounce b = allocate(length, registrar);
        MemorySegment.copy(source, offset, b.memory, 0, length);
        return b;
    }

    /** Copies the first {@code length} bytes to {@code [offset, ...)} of {@code target}. */
    public void copyTo(MemorySegment target, long offset, long length) {
        MemorySegment.copy(memory, 0, target, offset, length);
    }

    public MemorySegment memory() {
        return memory;
    }

    public long address() {
        return memory.address();
    }

    public long key() {
        return key;
    }

    /** Frees the memory without deregistering it: the port it was registered with has closed. */
    public void abandon() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            registrar.deregister(memory.address(), memory.byteSize());
            arena.close();
        }
    }
}
