package org.portals3j.lapi;

/**
 * {@code lapi_err_t}: which kind of transfer an asynchronous error concerns, in the order of IBM's {@code lapi.h}
 * (the ordinal is the C value). {@link #RMW_ERR} is never given: this layer has no {@code LAPI_Rmw}.
 */
public enum AsyncErrorType {
    /** {@code GET_ERR}: a {@code LAPI_Get} (at its target: the address it names; at its origin: the refusal). */
    GET_ERR,
    /** {@code PUT_ERR}: a {@code LAPI_Put} (the target address, or fetching its data). */
    PUT_ERR,
    /** {@code RMW_ERR}: a read-modify-write; not produced (no {@code LAPI_Rmw}). */
    RMW_ERR,
    /**
     * {@code AM_ERR}: an active message: its header handler index or address, the handler's answer (an exception,
     * no buffer, a buffer too small, an unknown {@code ctl_flags}), its completion handler, fetching its data.
     */
    AM_ERR,
    /**
     * {@code INT_ERR}: the layer itself: a packet that is not the layer's, an event queue that overflowed, a reply
     * for nothing in flight, a Portals failure event, a collective's duplicate value.
     */
    INT_ERR
}
