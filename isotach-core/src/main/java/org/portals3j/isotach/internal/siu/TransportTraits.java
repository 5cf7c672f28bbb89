package org.portals3j.isotach.internal.siu;

import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/**
 * What the switch node and the engine need to know of their transport's delivery, asked of the endpoint itself
 * ({@link Transport#capabilities()}).
 */
public final class TransportTraits {
    private TransportTraits() {
    }

    /**
     * Whether {@code transport} delivers inline ({@link TransportCapability#INLINE_DELIVERY}): a frame arrives on the
     * sending rank's thread.
     */
    public static boolean deliversInline(Transport transport) {
        return transport.capabilities().contains(TransportCapability.INLINE_DELIVERY);
    }

    /**
     * Whether {@code transport} says when the host's thread stops polling ({@link
     * TransportCapability#REPORTS_POLLERS_GONE}, which only an endpoint with {@link Polling} can keep): only then may
     * work wait for that thread.
     */
    public static boolean reportsPollersGone(Transport transport) {
        return transport instanceof Polling
                && transport.capabilities().contains(TransportCapability.REPORTS_POLLERS_GONE);
    }
}
