package org.portals3j.lapi;

import java.io.Serial;

/** A LAPI call that failed with one of the man page's return codes ({@link #error()}), decided before it returned. */
public final class LapiException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final LapiError error;

    public LapiException(LapiError error, String message) {
        super(error.cName() + ": " + message);
        this.error = error;
    }

    public LapiException(LapiError error, String message, Throwable cause) {
        super(error.cName() + ": " + message, cause);
        this.error = error;
    }

    /** The return code. */
    public LapiError error() {
        return error;
    }

    /** The C value of the return code. */
    public int code() {
        return error.code();
    }
}
