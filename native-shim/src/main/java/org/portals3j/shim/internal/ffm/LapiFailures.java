package org.portals3j.shim.internal.ffm;

import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiException;
import org.portals3j.transport.TransportException;

/**
 * What an exception becomes at the LAPI C boundary (as {@link Failures} for Portals): a {@link LapiException}
 * its code; {@link OutOfMemoryError} {@code LAPI_ERR_MEMORY_EXHAUSTED}; a job that cannot be joined
 * ({@link TransportException}) {@code LAPI_ERR_UNKNOWN} with its message; anything else is a fault of the layer
 * or the binding, said on stderr with its stack trace and answered {@code LAPI_ERR_UNKNOWN}. Never throws.
 */
final class LapiFailures {
    private LapiFailures() {
    }

    static int code(String function, Throwable failure) {
        if (failure instanceof LapiException e) {
            return e.code();
        }
        if (failure instanceof OutOfMemoryError) {
            Failures.say(function + ": out of Java heap memory (set PORTALS3J_JVM_OPTIONS=-Xmx...)");
            return LapiError.MEMORY_EXHAUSTED.code();
        }
        if (failure instanceof TransportException) {
            Failures.say(function + ": " + failure.getMessage());
            return LapiError.UNKNOWN.code();
        }
        try {
            System.err.println("libportals3: " + function + " failed inside the LAPI layer (a Portals3J bug):");
            failure.printStackTrace();
        } catch (Throwable ignored) {
            // nothing more can be done: the code still reaches the caller
        }
        return LapiError.UNKNOWN.code();
    }
}
