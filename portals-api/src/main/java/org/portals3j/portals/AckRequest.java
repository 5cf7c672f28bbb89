package org.portals3j.portals;

/** {@code ptl_ack_req_t} (Portals 3.2 spec §3.11.1); ordinals are the C enum's implied values. */
public enum AckRequest {
    /** {@code PTL_ACK_REQ}: acknowledge once the data is in a target memory descriptor (Portals 3.2 spec §3.11.1). */
    ACK_REQ,
    /** {@code PTL_NOACK_REQ}. */
    NOACK_REQ
}
