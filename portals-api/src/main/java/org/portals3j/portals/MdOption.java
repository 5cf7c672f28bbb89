package org.portals3j.portals;

import java.util.EnumSet;
import java.util.Set;

/**
 * The five memory descriptor options of Portals 3.2 (L5144, A-17). Each is one bit; the bit values
 * are this implementation's (the spec gives none) and match the C header.
 */
public enum MdOption {
    /** {@code PTL_MD_OP_PUT}: accept put operations (L5154). */
    OP_PUT(1),
    /** {@code PTL_MD_OP_GET}: accept get operations (L5167). */
    OP_GET(2),
    /** {@code PTL_MD_MANAGE_REMOTE}: use the offset carried by the request, not the local offset (L5180). */
    MANAGE_REMOTE(4),
    /** {@code PTL_MD_TRUNCATE}: accept a request longer than the space left, truncated (L5188). */
    TRUNCATE(8),
    /** {@code PTL_MD_ACK_DISABLE}: never acknowledge puts into this MD (L5197). */
    ACK_DISABLE(16);

    /** Every option bit; any other bit in an options word is illegal ({@code PTL_ILL_MD}). */
    public static final int ALL_BITS = 31;

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
