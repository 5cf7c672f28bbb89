package org.portals3j.lapi;

/** {@code ret_flags} of {@code lapi_return_info_t}: what the header handler asks of the rest of the message. */
public enum RetFlag {
    /** {@code LAPI_NORMAL} (the default): the completion handler runs on a completion thread; the reply is sent. */
    NORMAL,
    /**
     * {@code LAPI_SEND_REPLY}: the completion handler runs inline, on the dispatcher thread (our choice, open point
     * O-04).
     */
    SEND_REPLY,
    /** {@code LAPI_LOCAL_STATE}: no reply is sent, so the origin's {@code cmpl_cntr} does not move (O-05). */
    LOCAL_STATE
}
