package org.portals3j.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.portals3j.fabric.internal.Structs;

/**
 * A caller-owned, reusable batch of completions: a flyweight over native {@code fi_cq_tagged_entry} records that
 * {@link CompletionQueue#read} fills. Entries {@code 0 .. count()-1} are valid until the next read. Owns its native
 * memory; close it after the last read. Not thread-safe.
 */
public final class Completions implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment entries;
    private final int capacity;
    private int count;

    /** A batch of {@code capacity} entries. */
    public Completions(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("completion batch capacity " + capacity + " must be at least 1");
        }
        this.capacity = capacity;
        this.arena = Arena.ofShared();
        this.entries = arena.allocate(Structs.FI_CQ_TAGGED_ENTRY, capacity);
    }

    MemorySegment entries() {
        return entries;
    }

    void count(int n) {
        count = n;
    }

    /** Entries this batch holds. */
    public int capacity() {
        return capacity;
    }

    /** Entries the last read filled. */
    public int count() {
        return count;
    }

    private int check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("completion " + i + " of " + count + " read");
        }
        return i;
    }

    /** {@code op_context}: the context the operation was posted with. */
    public long context(int i) {
        return Structs.entryContext(entries, check(i));
    }

    /** {@code flags}: {@link Caps#SEND}, {@link Caps#RECV}, {@link Caps#TAGGED}, {@link Caps#REMOTE_CQ_DATA}... */
    public long flags(int i) {
        return Structs.entryFlags(entries, check(i));
    }

    /** {@code len}: bytes received (receives). */
    public long length(int i) {
        return Structs.entryLength(entries, check(i));
    }

    /** {@code buf}: the address of the received data (receives). */
    public long bufferAddress(int i) {
        return Structs.entryBuffer(entries, check(i));
    }

    /** {@code data}: the remote CQ data, valid if {@link #hasRemoteData(int)}. */
    public long data(int i) {
        return Structs.entryData(entries, check(i));
    }

    /** {@code tag}: the sender's tag (tagged receives). */
    public long tag(int i) {
        return Structs.entryTag(entries, check(i));
    }

    /** Whether entry {@code i} carries remote CQ data. */
    public boolean hasRemoteData(int i) {
        return (flags(i) & Caps.REMOTE_CQ_DATA) != 0;
    }

    /** Frees the native memory; does nothing if already closed. */
    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
