package org.portals3j.portals;

/** {@code ptl_ins_pos_t} (Portals 3.2 spec §3.7.1); ordinals are the C enum's implied values. */
public enum InsertPosition {
    /** {@code PTL_INS_BEFORE}: before the current entry, or at the head of the list (Portals 3.2 spec §3.7.1). */
    BEFORE,
    /** {@code PTL_INS_AFTER}: after the current entry, or at the tail of the list (Portals 3.2 spec §3.7.1). */
    AFTER
}
