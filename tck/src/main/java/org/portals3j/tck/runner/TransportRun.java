package org.portals3j.tck.runner;

import java.time.Duration;
import java.util.List;

/**
 * The kit's run on one transport.
 *
 * @param transport the transport's name
 * @param unavailableReason empty when the transport was usable and the kit ran; otherwise why it was not
 *        (no such provider on the class path, or the provider's own {@code availability()} reason), and
 *        {@code outcomes} is empty: an unusable transport is reported as such, never as a pass
 * @param outcomes one per test, in execution order
 * @param elapsed wall-clock time of the run
 */
public record TransportRun(String transport, String unavailableReason, List<TestOutcome> outcomes, Duration elapsed) {

    public TransportRun {
        outcomes = List.copyOf(outcomes);
    }

    /** Whether the kit could run on it. */
    public boolean available() {
        return unavailableReason.isEmpty();
    }

    /** How many tests ended with {@code status}. */
    public long count(TestStatus status) {
        return outcomes.stream().filter(o -> o.status() == status).count();
    }
}
