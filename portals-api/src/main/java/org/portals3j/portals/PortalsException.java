package org.portals3j.portals;

/**
 * A Portals function failed; {@link #code()} is the spec's return code for the failure.
 *
 * <p>Unchecked, like {@link IllegalArgumentException}: every failure the spec defines comes from a
 * handle, argument or state the caller controls.
 */
public final class PortalsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ReturnCode code;

    public PortalsException(ReturnCode code, String message) {
        super(code.specName() + ": " + message);
        if (code == ReturnCode.OK) {
            throw new IllegalArgumentException("PTL_OK is not a failure");
        }
        this.code = code;
    }

    public ReturnCode code() {
        return code;
    }
}
