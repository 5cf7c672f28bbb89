package org.portals3j.portals;

/**
 * A Portals handle: an opaque 64-bit value that encodes the network interface, the object's slot and a
 * generation (Portals 3.2 spec §3.2.2, §3.4.5.2; how handles are encoded is implementation-defined, I-05).
 *
 * <p>The generation makes stale handles detectable: once an object is unlinked or freed, its handle
 * is answered with the right {@code PTL_INV_*} code even after the slot is reused. Any handle
 * converts to {@link AnyHandle} and back without loss ({@code ptl_handle_any_t}, Portals 3.2 spec §3.2.2).
 */
public sealed interface Handle permits NiHandle, MeHandle, MdHandle, EqHandle, AnyHandle {

    /** The raw 64-bit value (what the C shim passes around). */
    long value();

    /** This handle as a {@code ptl_handle_any_t}. */
    default AnyHandle toAny() {
        return new AnyHandle(value());
    }
}
