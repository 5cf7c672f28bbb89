package org.portals3j.shim.internal.ffm;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The segments made last of a C program's buffers, by address hash: the same address and length give the same
 * segment again, with nothing allocated. Any thread may ask; a slot holds one immutable segment, so a racing
 * reader sees a whole one.
 */
final class BufferSegments {
    /** Slots: 2 to the power {@code BITS}. */
    private static final int BITS = 4;

    private final @Nullable MemorySegment[] slots = new MemorySegment[1 << BITS];

    /** The {@code length} bytes at {@code address} (not 0): the segment made last for them, or a new one. */
    MemorySegment of(long address, long length) {
        int slot = (int) (address * 0x9E3779B97F4A7C15L >>> (64 - BITS)); // Fibonacci hashing
        MemorySegment s = slots[slot];
        if (s != null && s.address() == address && s.byteSize() == length) {
            return s;
        }
        s = MemorySegment.ofAddress(address).reinterpret(length);
        slots[slot] = s;
        return s;
    }
}
