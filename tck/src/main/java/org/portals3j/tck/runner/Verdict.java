package org.portals3j.tck.runner;

/** What the kit says about one assertion on one transport. */
public enum Verdict {
    /** Every test naming it that ran passed (at least one ran). */
    PASSED("passed"),
    /**
     * Every test naming it that ran passed (at least one ran), but the kit checks it only in part (a
     * {@link org.portals3j.tck.catalogue.Testability#PARTIAL} assertion): never a plain pass.
     */
    PARTIAL("partial"),
    /** At least one test naming it failed. */
    FAILED("failed"),
    /** Every test naming it was skipped. */
    SKIPPED("skipped"),
    /** No test naming it was selected in this run (a run of part of the kit). */
    NOT_RUN("not run"),
    /** The transport could not be used, so nothing ran on it. */
    NOT_AVAILABLE("not available"),
    /** Checked white-box by an engine unit test, not by the kit (see the assertion's note). */
    ENGINE_TEST("engine test"),
    /** Not testable or not applicable (see the assertion's note). */
    NOT_TESTABLE("not testable");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** The word reports show. */
    public String label() {
        return label;
    }
}
