package org.portals3j.portals;

/** {@code ptl_unlink_t} (Portals 3.2 spec §3.7.1); ordinals are the C enum's implied values. */
public enum Unlink {
    /** {@code PTL_RETAIN}: no automatic unlinking. */
    RETAIN,
    /** {@code PTL_UNLINK}: automatic unlinking enabled (Portals 3.2 spec §3.8.2). */
    UNLINK
}
