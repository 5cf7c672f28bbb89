package org.portals3j.portals;

import java.util.EnumSet;
import java.util.Set;

/**
 * The memory descriptor options: the five of Portals 3.2 (Portals 3.2 spec §3.8.1.1, A-17), and the three that Portals
 * 3.3 added (legal only through {@link Portals33}). Each is one bit; the 3.2 values are this
 * implementation's (the 3.2 spec gives none) and match the C header; the 3.3 values are those of the
 * Portals 3.3 reference implementation's header ({@code jkmcnk/portals3ib},
 * {@code include/p3api/types.h}), which keeps the five 3.2 bits where they are here.
 *
 * <p>A {@link Portals} (3.2) library refuses any bit outside {@link #ALL_BITS} with {@code PTL_ILL_MD};
 * a {@link Portals33} library refuses any bit outside {@link #ALL_BITS_33}. {@code PTL_MD_IOVEC} (0x20,
 * 3.3) is not implemented: a {@code ptl_md_t} here always describes one contiguous region.
 */
public enum MdOption {
    /** {@code PTL_MD_OP_PUT}: accept put operations (Portals 3.2 spec §3.8.1.1). */
    OP_PUT(1),
    /** {@code PTL_MD_OP_GET}: accept get operations (Portals 3.2 spec §3.8.1.1). */
    OP_GET(2),
    /**
     * {@code PTL_MD_MANAGE_REMOTE}: use the offset carried by the request, not the local offset
     * (Portals 3.2 spec §3.8.1.1).
     */
    MANAGE_REMOTE(4),
    /** {@code PTL_MD_TRUNCATE}: accept a request longer than the space left, truncated (Portals 3.2 spec §3.8.1.1). */
    TRUNCATE(8),
    /** {@code PTL_MD_ACK_DISABLE}: never acknowledge puts into this MD (Portals 3.2 spec §3.8.1.1). */
    ACK_DISABLE(16),
    /**
     * {@code PTL_MD_MAX_SIZE} (Portals 3.3 only, &sect;3.10.1): {@link MemoryDescriptor#maxSize()} is the
     * largest request the MD responds to, and the MD becomes inactive once the space after its local
     * offset is smaller than that.
     */
    MAX_SIZE(0x40),
    /** {@code PTL_MD_EVENT_START_DISABLE} (Portals 3.3 only, &sect;3.10.1): log no {@code *_START} events. */
    EVENT_START_DISABLE(0x80),
    /**
     * {@code PTL_MD_EVENT_END_DISABLE} (Portals 3.3 only, &sect;3.10.1): log no {@code *_END} events (and
     * so no failed ends: 3.3 reports a failure in the END event).
     */
    EVENT_END_DISABLE(0x100);

    /** Every Portals 3.2 option bit; any other bit is illegal in a 3.2 call ({@code PTL_ILL_MD}). */
    public static final int ALL_BITS = 31;

    /** Every option bit a {@link Portals33} library accepts: the 3.2 ones and the three 3.3 added. */
    public static final int ALL_BITS_33 = ALL_BITS | 0x40 | 0x80 | 0x100;

    private final int bit;

    MdOption(int bit) {
        this.bit = bit;
    }

    public int bit() {
        return bit;
    }

    /** The options word for {@code options}. */
    public static int bits(MdOption... options) {
        int bits = 0;
        for (MdOption o : options) {
            bits |= o.bit;
        }
        return bits;
    }

    /** The options set in {@code bits} (unknown bits are ignored). */
    public static Set<MdOption> setOf(int bits) {
        EnumSet<MdOption> set = EnumSet.noneOf(MdOption.class);
        for (MdOption o : values()) {
            if ((bits & o.bit) != 0) {
                set.add(o);
            }
        }
        return set;
    }
}
