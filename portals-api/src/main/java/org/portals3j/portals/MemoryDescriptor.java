package org.portals3j.portals;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code ptl_md_t} (Portals 3.2 spec §3.8.1): the values a memory descriptor is created or updated with. Immutable; as
 * the spec requires, there is no link between this value and the live descriptor (Portals 3.2 spec §3.8.2.2, §3.8.3.2).
 *
 * <p>{@code start} and {@code length} are kept apart, as in C: the region is
 * {@code start[0, length)}. {@code start} is {@link MemorySegment#NULL} for a C {@code NULL}, which is
 * legal only with {@code length == 0} (Portals 3.2 spec §3.8.1.1, A-55). The values are checked when the descriptor is
 * attached, bound or updated, and refused there with {@code PTL_ILL_MD}.
 *
 * <p>{@code maxOffset} is an {@code unsigned int} in C; in Java any value from 0 to
 * {@link Long#MAX_VALUE} is accepted, so that descriptors larger than 4 GiB can use it.
 *
 * <p>Portals 3.3 changed {@code ptl_md_t}: it dropped {@code max_offset} and added {@code max_size}
 * (3.3 &sect;3.10.1). One record serves both: a {@link Portals} (3.2) library uses {@code maxOffset}
 * and never looks at {@code maxSize}; a {@link Portals33} library uses {@code maxSize} (only with
 * {@link MdOption#MAX_SIZE}) and ignores {@code maxOffset}. Both are reported back unchanged.
 *
 * @param start     the start of the region ({@code MemorySegment.NULL} for none)
 * @param length    the region's length in bytes
 * @param threshold operations still allowed; 0 = inactive; {@link #THRESH_INF} = unbounded (Portals 3.2 spec §3.8.1.1)
 * @param maxOffset the descriptor becomes inactive once its local offset exceeds this (Portals 3.2 spec §3.8.1.1, A-24)
 * @param options   bitwise OR of {@link MdOption} bits (Portals 3.2 spec §3.8.1.1)
 * @param userPtr   the user's own value, copied into every event on this descriptor (Portals 3.2 spec §3.8.1.1)
 * @param eventq    the event queue events go to, or {@link EqHandle#NONE} (Portals 3.2 spec §3.8.1.1)
 * @param maxSize   Portals 3.3 only: with {@link MdOption#MAX_SIZE}, the largest request the MD responds
 *                  to; the MD becomes inactive once {@code length - local offset < maxSize} (3.3 &sect;3.10.1)
 */
public record MemoryDescriptor(MemorySegment start, long length, int threshold, long maxOffset, int options,
                               @Nullable Object userPtr, EqHandle eventq, long maxSize) {

    /** {@code PTL_MD_THRESH_INF}: no bound on the number of operations (A-42: a negative sentinel). */
    public static final int THRESH_INF = -1;

    public MemoryDescriptor {
        Objects.requireNonNull(start, "start (use MemorySegment.NULL for none)");
        Objects.requireNonNull(eventq, "eventq (use EqHandle.NONE for none)");
    }

    /** The Portals 3.2 {@code ptl_md_t}: {@code maxSize} 0. */
    public MemoryDescriptor(MemorySegment start, long length, int threshold, long maxOffset, int options,
                            @Nullable Object userPtr, EqHandle eventq) {
        this(start, length, threshold, maxOffset, options, userPtr, eventq, 0L);
    }

    /**
     * A descriptor over the whole of {@code region}: threshold {@link #THRESH_INF}, {@code maxOffset}
     * equal to the length (so never exceeded), no options, no user pointer, no event queue, {@code maxSize} 0.
     */
    public static MemoryDescriptor of(MemorySegment region) {
        return new MemoryDescriptor(region, region.byteSize(), THRESH_INF, region.byteSize(), 0, null, EqHandle.NONE);
    }

    /**
     * A descriptor with no memory ({@code start = NULL, length = 0}), useful to record events
     * (Portals 3.2 spec §3.8.1.1).
     */
    public static MemoryDescriptor empty() {
        return of(MemorySegment.NULL);
    }

    public MemoryDescriptor withStart(MemorySegment newStart, long newLength) {
        return new MemoryDescriptor(newStart, newLength, threshold, maxOffset, options, userPtr, eventq, maxSize);
    }

    public MemoryDescriptor withThreshold(int newThreshold) {
        return new MemoryDescriptor(start, length, newThreshold, maxOffset, options, userPtr, eventq, maxSize);
    }

    public MemoryDescriptor withMaxOffset(long newMaxOffset) {
        return new MemoryDescriptor(start, length, threshold, newMaxOffset, options, userPtr, eventq, maxSize);
    }

    public MemoryDescriptor withOptions(MdOption... newOptions) {
        return new MemoryDescriptor(start, length, threshold, maxOffset, MdOption.bits(newOptions), userPtr, eventq,
                maxSize);
    }

    public MemoryDescriptor withOptionBits(int newOptions) {
        return new MemoryDescriptor(start, length, threshold, maxOffset, newOptions, userPtr, eventq, maxSize);
    }

    public MemoryDescriptor withUserPtr(@Nullable Object newUserPtr) {
        return new MemoryDescriptor(start, length, threshold, maxOffset, options, newUserPtr, eventq, maxSize);
    }

    public MemoryDescriptor withEventQueue(EqHandle newEventq) {
        return new MemoryDescriptor(start, length, threshold, maxOffset, options, userPtr, newEventq, maxSize);
    }

    /** Portals 3.3: the largest request the MD responds to, used with {@link MdOption#MAX_SIZE}. */
    public MemoryDescriptor withMaxSize(long newMaxSize) {
        return new MemoryDescriptor(start, length, threshold, maxOffset, options, userPtr, eventq, newMaxSize);
    }

    /** True if {@code option} is set. */
    public boolean has(MdOption option) {
        return (options & option.bit()) != 0;
    }

    /** The options as a set. */
    public Set<MdOption> optionSet() {
        return MdOption.setOf(options);
    }
}
