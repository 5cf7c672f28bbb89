package org.portals3j.portals;

/** {@code ptl_handle_ni_t}: a handle to a network interface. */
public record NiHandle(long value) implements Handle {

    /** The same value seen as a network interface handle (a {@code ptl_handle_any_t} converts back without loss). */
    public static NiHandle of(Handle handle) {
        return new NiHandle(handle.value());
    }

    @Override
    public String toString() {
        return "NiHandle[0x" + Long.toHexString(value) + "]";
    }
}
