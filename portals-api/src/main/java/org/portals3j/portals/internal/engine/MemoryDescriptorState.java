package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Unlink;

/**
 * A live memory descriptor (Portals 3.2 spec §3.7.4.2): the values of its {@code ptl_md_t}, plus what the spec keeps
 * hidden: the local offset, the count of pending operations, its match entry and its unlink options.
 *
 * <p>A Portals 3.3 descriptor ({@link #dialect33}) differs in what makes it inactive: 3.3's
 * {@code ptl_md_t} has no {@code max_offset} (so {@link #maxOffset} is only reported back), and with
 * {@code PTL_MD_MAX_SIZE} it is inactive once fewer than {@code max_size} bytes are left after the local
 * offset (3.3 &sect;3.10.1).
 */
final class MemoryDescriptorState extends MemoryDescriptorFields {
    // Padding after the fields: the MD of a put being sent is written by the rank's own thread, the MD
    // a put lands in by the thread delivering it, and MDs are often allocated one after the other.
    long q0, q1, q2, q3, q4, q5, q6, q7;

    MemoryDescriptorState(int slot) {
        super(slot);
    }
}

/** The state of a {@link MemoryDescriptorState}, before its padding (subclass fields are laid out last). */
abstract class MemoryDescriptorFields extends Slotted {
    MemorySegment start = MemorySegment.NULL;
    long length;
    int threshold;
    long maxOffset;
    /** Portals 3.3 {@code max_size}; used only with {@code PTL_MD_MAX_SIZE}. */
    long maxSize;
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
    /** Made by a Portals 3.3 library: see the class documentation. */
    boolean dialect33;
    Unlink unlinkOp = Unlink.RETAIN;
    Unlink unlinkNofit = Unlink.RETAIN;
    /** Unlinked while operations were pending: handles are dead, the slot is freed when pending drops to 0. */
    boolean zombie;
    /** The handle value naming this MD while it was live (kept for events posted after retirement). */
    long handle;

    MemoryDescriptorFields(int slot) {
        super(slot);
    }

    void set(MemoryDescriptor md, @Nullable EventQueueState queue) {
        start = md.start();
        length = md.length();
        threshold = md.threshold();
        maxOffset = md.maxOffset();
        maxSize = md.maxSize();
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

    /**
     * Threshold reached 0 or the local offset passed max_offset (Portals 3.2 spec §3.8.1.1, A-24: strictly greater);
     * in 3.3, threshold 0 or, with {@code PTL_MD_MAX_SIZE}, {@code length - local offset < max_size}
     * (3.3 &sect;3.10.1: "when the unused portion of a MD (length - local offset) falls below this value,
     * the MD becomes inactive").
     */
    boolean inactive() {
        if (threshold == 0) {
            return true;
        }
        if (!dialect33) {
            return localOffset > maxOffset;
        }
        return (options & MdOption.MAX_SIZE.bit()) != 0 && length - localOffset < maxSize;
    }

    MemoryDescriptor snapshot() {
        return new MemoryDescriptor(start, length, threshold, maxOffset, options, userPtr, new EqHandle(eqHandle),
                maxSize);
    }

    void reset() {
        start = MemorySegment.NULL;
        userPtr = null;
        eq = null;
        me = null;
        localOffset = 0;
        pending = 0;
        bound = false;
        dialect33 = false;
        unlinkOp = Unlink.RETAIN;
        unlinkNofit = Unlink.RETAIN;
        zombie = false;
    }
}
