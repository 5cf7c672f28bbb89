package org.portals3j.portals;

/**
 * {@code ptl_ni_fail_t}: why an operation completed with a {@code *_FAIL} event. The spec defines the
 * type but no values (Portals 3.2 spec §3.9.3, I-08); these are this implementation's, with {@link #OK} as the "no
 * failure" value every non-failure event carries.
 */
public enum NiFailType {
    /** {@code PTL_NI_OK}: no failure. */
    OK,
    /** {@code PTL_NI_FAIL}: a failure with no more specific reason. */
    FAIL,
    /** {@code PTL_NI_PEER_DEAD}: the other end failed or left the job before the operation completed. */
    PEER_DEAD,
    /** {@code PTL_NI_MEMORY_FAULT}: memory named by the operation could not be read or written. */
    MEMORY_FAULT;

    private static final NiFailType[] BY_ORDINAL = values();

    public static NiFailType of(int ordinal) {
        return BY_ORDINAL[ordinal];
    }
}
