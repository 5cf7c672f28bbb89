package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Unlink;

/**
 * A live memory descriptor (L5007): the values of its {@code ptl_md_t}, plus what the spec keeps
 * hidden: the local offset, the count of pending operations, its match entry and its unlink options.
 */
final class MemoryDescriptorState extends Slotted {
    MemorySegment start = MemorySegment.NULL;
    long length;
    int threshold;
    long maxOffset;
    int options;
    @Nullable Object userPtr;
    /** The {@code eventq} handle value as given (reported back in events and by PtlMDUpdate). */
    long eqHandle;
    /** The queue behind {@link #eqHandle}, and its generation when bound: a freed queue is not used. */
    @Nullable EventQueueState eq;
    int eqGeneration;

    long localOffset;
    /** Operations that started on this MD and have not completed (PtlMDUnlink answers PTL_MD_INUSE). */
    int pending;
    /** The entry it is attached to; null for a bound (free-floating) MD or once detached. */
    @Nullable MatchEntryState me;
    boolean bound;
    Unlink unlinkOp = Unlink.RETAIN;
    Unlink unlinkNofit = Unlink.RETAIN;
    /** Unlinked while operations were pending: handles are dead, the slot is freed when pending drops to 0. */
    boolean zombie;
    /** The handle value naming this MD while it was live (kept for events posted after retirement). */
    long handle;

    MemoryDescriptorState(int slot) {
        super(slot);
    }

    void set(MemoryDescriptor md, @Nullable EventQueueState queue) {
        start = md.start();
        length = md.length();
        threshold = md.threshold();
        maxOffset = md.maxOffset();
        options = md.options();
        userPtr = md.userPtr();
        eqHandle = md.eventq().value();
        eq = queue;
        eqGeneration = queue == null ? 0 : queue.generation;
    }

    /** The descriptor's event queue if it has one that still exists. */
    @Nullable EventQueueState eventQueue() {
        EventQueueState q = eq;
        return q != null && q.live && q.generation == eqGeneration ? q : null;
    }

    boolean has(MdOption option) {
        return (options & option.bit()) != 0;
    }

    /** Threshold reached 0 or the local offset passed max_offset (L5116, L5138, A-24: strictly greater). */
    boolean inactive() {
        return threshold == 0 || localOffset > maxOffset;
    }

    MemoryDescriptor snapshot() {
        return new MemoryDescriptor(start, length, threshold, maxOffset, options, userPtr, new EqHandle(eqHandle));
    }

    void reset() {
        start = MemorySegment.NULL;
        userPtr = null;
        eq = null;
        me = null;
        localOffset = 0;
        pending = 0;
        bound = false;
        zombie = false;
    }
}
