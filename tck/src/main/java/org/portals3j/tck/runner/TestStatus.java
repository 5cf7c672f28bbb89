package org.portals3j.tck.runner;

/** How one test ended on one transport. */
public enum TestStatus {
    PASSED,
    FAILED,
    /** Disabled, or an assumption did not hold (the message says which). */
    SKIPPED
}
