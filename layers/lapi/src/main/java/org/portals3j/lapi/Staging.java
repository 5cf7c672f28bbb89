package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import org.portals3j.portals.MdHandle;

/**
 * One send buffer of the staging pool, bound once as a free-floating MD (threshold infinite, events to the
 * context's queue, {@code user_ptr} this object). A put sends the whole MD, so each buffer is exactly its size
 * class; it is back in the pool when the send's {@code SEND_END} is handled.
 */
final class Staging {
    final MemorySegment segment;
    final int sizeClass;
    MdHandle md = MdHandle.NONE;

    Staging(MemorySegment segment, int sizeClass) {
        this.segment = segment;
        this.sizeClass = sizeClass;
    }
}
