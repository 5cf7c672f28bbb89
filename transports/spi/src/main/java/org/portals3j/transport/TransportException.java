package org.portals3j.transport;

/** A transport endpoint could not be opened or used; the message says what to do about it. */
public class TransportException extends Exception {
    private static final long serialVersionUID = 1L;

    public TransportException(String message) {
        super(message);
    }

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
