package org.portals3j.portals;

/** {@code ptl_unlink_t} (L4088); ordinals are the C enum's implied values. */
public enum Unlink {
    /** {@code PTL_RETAIN}: no automatic unlinking. */
    RETAIN,
    /** {@code PTL_UNLINK}: automatic unlinking enabled (L5308). */
    UNLINK
}
