package org.portals3j.tck.report;

/** Chromium could not be found, or did not do what was asked; the message says which and why. */
public final class ChromiumException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ChromiumException(String message) {
        super(message);
    }

    public ChromiumException(String message, Throwable cause) {
        super(message, cause);
    }
}
