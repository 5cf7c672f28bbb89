package org.portals3j.isotach.internal.gc;

import org.portals3j.isotach.BarrierMode;

/**
 * The report's {@code barrier_mode} (Isotach report §6.5.3, pp. 50-54; App. J, api/iso_barrier/exports.h, pp. 222-223):
 * the two modes an application may register plus the mLayer's {@link #TICK} and {@link #MAX}. The mode selects the
 * barrier count (ticks) a bs-marker carries (Isotach report §6.5.4, pp. 50-54); an unclaimed channel uses {@link #MAX}
 * (Isotach report §6.5.5, pp. 50-54).
 */
public enum InternalBarrierMode {
    WEAK,
    STRONG,
    /** Host-level logical time: {@code MIN_BARRIER_COUNT} = 2 ticks (Isotach report §6.5.4, pp. 50-54). */
    TICK,
    /** {@code MAX_BARRIER_COUNT} = 37 ticks (Isotach report §6.5.4, pp. 50-54); the mode of an unclaimed channel. */
    MAX;

    /** The internal mode of an application mode. */
    public static InternalBarrierMode of(BarrierMode mode) {
        return switch (mode) {
            case WEAK -> WEAK;
            case STRONG -> STRONG;
        };
    }
}
