package org.portals3j.portals;

/** {@code ptl_handle_me_t}: a handle to a match list entry. */
public record MeHandle(long value) implements Handle {

    /** The same value seen as a match list entry handle (a {@code ptl_handle_any_t} converts back without loss). */
    public static MeHandle of(Handle handle) {
        return new MeHandle(handle.value());
    }

    @Override
    public String toString() {
        return "MeHandle[0x" + Long.toHexString(value) + "]";
    }
}
