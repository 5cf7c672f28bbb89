package org.portals3j.isotach;

/**
 * The two barrier modes an application may register (Isotach report App. A.8.1, pp. 100-104).
 *
 * <p>{@link #WEAK}: the barrier completes only after every registered process participated.
 * {@link #STRONG}: in addition, once the completion is reported at a host, no Isotach message that a
 * participant issued before participating arrives there afterwards (guarantee G6, Isotach report §3.5.1, pp. 18-20;
 * App. A.8.1, pp. 100-104). The report's internal modes TICK and MAX are not exposed: only the mLayer uses them.
 */
public enum BarrierMode {
    WEAK,
    STRONG
}
