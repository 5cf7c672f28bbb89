package org.portals3j.tck.runner;

/** Hears a run of the kit as it goes: for progress displays. Every method may be left as it is. */
public interface TckListener {

    /** The kit starts on {@code transport}, with {@code tests} tests to run. */
    default void transportStarted(String transport, int tests) {
    }

    /**
     * The kit starts on {@code transport} with {@code tests} tests known, {@code parameterised} of them
     * parameterised: each of those counts once until its invocations are made, as it runs (then
     * {@link #testCountChanged} tells the new count). By default, {@link #transportStarted(String, int)}.
     */
    default void transportStarted(String transport, int tests, int parameterised) {
        transportStarted(transport, tests);
    }

    /**
     * The number of tests to run on {@code transport} is now {@code tests}: a parameterised test made its
     * invocations. When the run ends it equals the number of outcomes of the run.
     */
    default void testCountChanged(String transport, int tests) {
    }

    /** One test finished on {@code transport}. */
    default void testFinished(String transport, TestOutcome outcome) {
    }

    /** The kit finished on a transport, or found it unusable. */
    default void transportFinished(TransportRun run) {
    }
}
