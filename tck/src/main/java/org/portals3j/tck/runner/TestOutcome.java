package org.portals3j.tck.runner;

import java.time.Duration;
import java.util.Objects;

/**
 * The result of one test on one transport.
 *
 * @param test the test
 * @param status how it ended
 * @param message the failure or skip reason in one line; empty when it passed
 * @param detail the failure's stack trace, cut to the frames that matter; empty otherwise
 * @param duration how long it ran
 */
public record TestOutcome(KitTest test, TestStatus status, String message, String detail, Duration duration) {

    public TestOutcome {
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(duration, "duration");
    }
}
