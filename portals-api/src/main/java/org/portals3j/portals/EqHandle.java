package org.portals3j.portals;

/** {@code ptl_handle_eq_t}: a handle to a event queue. */
public record EqHandle(long value) implements Handle {

    /** {@code PTL_EQ_NONE}: "no event queue" (Portals 3.2 spec §3.2.2). Never the handle of a live queue. */
    public static final EqHandle NONE = new EqHandle(0L);

    /** True if this is {@link #NONE}. */
    public boolean isNone() {
        return value == 0L;
    }

    /** The same value seen as a event queue handle (a {@code ptl_handle_any_t} converts back without loss). */
    public static EqHandle of(Handle handle) {
        return new EqHandle(handle.value());
    }

    @Override
    public String toString() {
        return "EqHandle[0x" + Long.toHexString(value) + "]";
    }
}
