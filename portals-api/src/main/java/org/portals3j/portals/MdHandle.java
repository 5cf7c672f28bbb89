package org.portals3j.portals;

/** {@code ptl_handle_md_t}: a handle to a memory descriptor. */
public record MdHandle(long value) implements Handle {

    /**
     * {@code PTL_MD_NONE}: "no memory descriptor"; on the wire it means "no acknowledgement requested"
     * (Portals 3.2 spec §4.1; the spec uses the name without defining it, A-30). Never the handle of a live MD.
     */
    public static final MdHandle NONE = new MdHandle(0L);

    /** True if this is {@link #NONE}. */
    public boolean isNone() {
        return value == 0L;
    }

    /** The same value seen as a memory descriptor handle (a {@code ptl_handle_any_t} converts back without loss). */
    public static MdHandle of(Handle handle) {
        return new MdHandle(handle.value());
    }

    @Override
    public String toString() {
        return "MdHandle[0x" + Long.toHexString(value) + "]";
    }
}
