package org.portals3j.portals;

/**
 * {@code ptl_ni_limits_t} (Portals 3.2 spec §3.4.1): how many objects a network interface may hold at once, and the
 * largest valid indexes of its tables (both inclusive).
 *
 * <p>Exceeding a count limit makes the creating call fail with {@code PTL_NOSPACE} (P-021..P-023; the
 * spec does not map limits to codes, the mapping is inferred).
 */
public record NiLimits(int maxMatchEntries, int maxMemDescriptors, int maxEventQueues,
                       int maxAtableIndex, int maxPtableIndex) {

    /** The limits an interface gets when {@code desired} is null. */
    public static final NiLimits DEFAULT = new NiLimits(65_536, 65_536, 1_024, 63, 63);

    /** The most any interface can have (handles have room for 2^20 objects of a kind). */
    public static final NiLimits MAXIMUM = new NiLimits(1 << 20, 1 << 20, 1 << 16, 4_095, 4_095);
}
