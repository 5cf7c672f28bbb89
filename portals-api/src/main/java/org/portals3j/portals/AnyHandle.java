package org.portals3j.portals;

/** {@code ptl_handle_any_t}: any handle, for {@link Portals#niHandle} (Portals 3.2 spec §3.2.2). */
public record AnyHandle(long value) implements Handle {

    @Override
    public String toString() {
        return "AnyHandle[0x" + Long.toHexString(value) + "]";
    }
}
