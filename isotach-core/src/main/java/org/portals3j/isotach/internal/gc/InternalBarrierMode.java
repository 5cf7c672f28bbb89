package org.portals3j.isotach.internal.gc;

import org.portals3j.isotach.BarrierMode;

/**
 * The report's {@code barrier_mode} (L1734-1736, C L9999-10001): the two modes an application may register plus
 * the mLayer's {@link #TICK} and {@link #MAX}. The mode selects the barrier count (ticks) a bs-marker carries
 * (L1772-1780); an unclaimed channel uses {@link #MAX} (L1797, L1843).
 */
public enum InternalBarrierMode {
    WEAK,
    STRONG,
    /** Host-level logical time: {@code MIN_BARRIER_COUNT} = 2 ticks (L1778). */
    TICK,
    /** {@code MAX_BARRIER_COUNT} = 37 ticks (L1780); the mode of an unclaimed channel. */
    MAX;

    /** The internal mode of an application mode. */
    public static InternalBarrierMode of(BarrierMode mode) {
        return switch (mode) {
            case WEAK -> WEAK;
            case STRONG -> STRONG;
        };
    }
}
