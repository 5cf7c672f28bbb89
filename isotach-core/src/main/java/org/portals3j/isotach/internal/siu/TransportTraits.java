package org.portals3j.isotach.internal.siu;

import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;

/**
 * What the switch node and the engine need to know of their transport's delivery, asked of its provider's
 * capabilities. A provider that is not on the class path (the tests' recording transports) counts as a transport with
 * a thread of its own that reports its pollers gone.
 */
public final class TransportTraits {
    private TransportTraits() {
    }

    /**
     * Whether {@code transport} delivers inline ({@link TransportCapability#INLINE_DELIVERY}): a frame arrives on the
     * sending rank's thread.
     */
    public static boolean deliversInline(Transport transport) {
        return has(transport, TransportCapability.INLINE_DELIVERY, false);
    }

    /**
     * Whether {@code transport} says when the host's thread stops polling ({@link
     * TransportCapability#REPORTS_POLLERS_GONE}): only then may work wait for that thread.
     */
    public static boolean reportsPollersGone(Transport transport) {
        return has(transport, TransportCapability.REPORTS_POLLERS_GONE, true);
    }

    private static boolean has(Transport transport, TransportCapability capability, boolean unknown) {
        return Transports.find(transport.provider()).map(p -> p.capabilities().contains(capability)).orElse(unknown);
    }
}
