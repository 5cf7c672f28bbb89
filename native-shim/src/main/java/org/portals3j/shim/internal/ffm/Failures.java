package org.portals3j.shim.internal.ffm;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.PortalsException;
import org.portals3j.shim.internal.CDialect;
import org.portals3j.shim.internal.DialectMismatch;
import org.portals3j.shim.internal.ShimProcess;
import org.portals3j.transport.TransportException;

/**
 * What an exception becomes at the C boundary. An exception escaping an upcall stub ends the JVM, and
 * the C program with it, so every upcall catches everything and returns a code instead:
 * {@link PortalsException} its spec code; {@link OutOfMemoryError} {@code PTL_NOSPACE} ("insufficient
 * memory"); anything else is a fault of the engine or the shim, reported on stderr with its stack trace
 * and answered with {@code PTL_FAIL}. A {@link DialectMismatch} is {@code PTL_FAIL} with its message, said
 * once per function (a program calling it in a loop is not flooded).
 */
final class Failures {
    /** What was said once already: a function's dialect mismatch, or a key of {@link #sayOnce}. */
    private static final Set<String> ALREADY_SAID = ConcurrentHashMap.newKeySet();

    private Failures() {
    }

    /**
     * The answer of a call compiled for {@code calledAs} that found no live library of its dialect:
     * {@code PTL_NOINIT} if the process has not chosen the other dialect (no {@code PtlInit}, or
     * {@code PtlFini} since: Portals 3.2 spec §3.12), else {@code PTL_FAIL} with the {@link DialectMismatch} message.
     */
    static int notLive(String function, CDialect calledAs) {
        @Nullable CDialect chosen = ShimProcess.chosen();
        if (chosen == null || chosen == calledAs) {
            return CConstants.NOINIT;
        }
        return code(function, new DialectMismatch(function, calledAs, chosen));
    }

    /** The {@code PTL_*} code for {@code failure} in {@code function}. Never throws. */
    static int code(String function, Throwable failure) {
        if (failure instanceof PortalsException e) {
            return e.code().value();
        }
        if (failure instanceof DialectMismatch) {
            if (ALREADY_SAID.add(function)) {
                say(String.valueOf(failure.getMessage()));
            }
            return CConstants.FAIL;
        }
        if (failure instanceof OutOfMemoryError) {
            say(function + ": out of Java heap memory (set PORTALS3J_JVM_OPTIONS=-Xmx...)");
            return CConstants.NOSPACE;
        }
        if (failure instanceof TransportException) {
            say(function + ": " + failure.getMessage());
            return CConstants.FAIL;
        }
        try {
            System.err.println("libportals3: " + function + " failed inside the Java engine (a Portals3J bug):");
            failure.printStackTrace();
        } catch (Throwable ignored) {
            // nothing more can be done: the code still reaches the caller
        }
        return CConstants.FAIL;
    }

    /** {@link #say} the first time {@code key} is given in this process, and never again. Never throws. */
    static void sayOnce(String key, String message) {
        if (ALREADY_SAID.add(key)) {
            say(message);
        }
    }

    /** One line on stderr, prefixed as the C side's messages are. Never throws. */
    static void say(String message) {
        try {
            System.err.println("libportals3: " + message);
            System.err.flush();
        } catch (Throwable ignored) {
            // stderr is gone: nothing to tell
        }
    }
}
