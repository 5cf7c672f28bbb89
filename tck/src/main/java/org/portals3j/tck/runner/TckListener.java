package org.portals3j.tck.runner;

/** Hears a run of the kit as it goes: for progress displays. Every method may be left as it is. */
public interface TckListener {

    /** The kit starts on {@code transport}, with {@code tests} tests to run. */
    default void transportStarted(String transport, int tests) {
    }

    /** One test finished on {@code transport}. */
    default void testFinished(String transport, TestOutcome outcome) {
    }

    /** The kit finished on a transport, or found it unusable. */
    default void transportFinished(TransportRun run) {
    }
}
