package org.portals3j.fabric;

/** {@code enum fi_ep_type}: the kinds of endpoint a provider offers. */
public enum EndpointType {
    /** {@code FI_EP_UNSPEC}. */
    UNSPEC,
    /** {@code FI_EP_MSG}: connected, reliable. */
    MSG,
    /** {@code FI_EP_DGRAM}: connectionless, unreliable. */
    DGRAM,
    /** {@code FI_EP_RDM}: connectionless, reliable (the one this binding's endpoints are). */
    RDM,
    /** {@code FI_EP_SOCK_STREAM}. */
    SOCK_STREAM,
    /** {@code FI_EP_SOCK_DGRAM}. */
    SOCK_DGRAM;

    /** The constant of C value {@code v} ({@code UNSPEC} for an unknown one). */
    static EndpointType of(int v) {
        EndpointType[] all = values();
        return v >= 0 && v < all.length ? all[v] : UNSPEC;
    }
}
