package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;

/**
 * One buffer of the request portal's receive ring: an ME and an MD with a locally managed offset that take packets
 * one after the other until fewer than a packet's bytes are left, then unlink; the dispatcher attaches it again at
 * the tail once it has handled every packet in it (our design, package documentation).
 */
final class RingBuffer {
    final MemorySegment segment;
    /** The same memory, read-only: what header handlers see. */
    final MemorySegment readOnly;
    @Nullable MeHandle me;
    /** Its memory descriptor, made at the first attach and reused by every re-post. */
    @Nullable MemoryDescriptor descriptor;

    RingBuffer(MemorySegment segment) {
        this.segment = segment;
        this.readOnly = segment.asReadOnly();
    }
}
