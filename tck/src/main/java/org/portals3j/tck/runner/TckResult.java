package org.portals3j.tck.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.catalogue.Testability;

/**
 * A whole run of the kit: the catalogue it is traced to, the tests that were selected, and the run on each
 * transport. Verdicts per assertion and transport are derived here, once, for every report.
 */
public final class TckResult {
    private final Catalogue catalogue;
    private final List<KitTest> tests;
    private final List<TransportRun> runs;
    private final Map<String, List<KitTest>> testsByAssertion = new LinkedHashMap<>();

    public TckResult(Catalogue catalogue, List<KitTest> tests, List<TransportRun> runs) {
        this.catalogue = catalogue;
        this.tests = List.copyOf(tests);
        this.runs = List.copyOf(runs);
        for (KitTest t : this.tests) {
            for (String id : t.assertionIds()) {
                testsByAssertion.computeIfAbsent(id, k -> new ArrayList<>()).add(t);
            }
        }
    }

    public Catalogue catalogue() {
        return catalogue;
    }

    /** The tests selected for this run, in discovery order. */
    public List<KitTest> tests() {
        return tests;
    }

    /** One per transport, in the order they ran. */
    public List<TransportRun> runs() {
        return runs;
    }

    /** The selected tests that name {@code assertionId}. */
    public List<KitTest> testsOf(String assertionId) {
        return List.copyOf(testsByAssertion.getOrDefault(assertionId, List.of()));
    }

    /** The outcomes on {@code run} of the tests that name {@code assertionId}. */
    public List<TestOutcome> outcomesOf(String assertionId, TransportRun run) {
        return run.outcomes().stream().filter(o -> o.test().assertionIds().contains(assertionId)).toList();
    }

    /** What the kit says about {@code assertion} on {@code run}. */
    public Verdict verdict(Assertion assertion, TransportRun run) {
        if (assertion.testability() == Testability.ENGINE) {
            return Verdict.ENGINE_TEST;
        }
        if (assertion.testability() == Testability.NO) {
            return Verdict.NOT_TESTABLE;
        }
        if (!run.available()) {
            return Verdict.NOT_AVAILABLE;
        }
        List<TestOutcome> outcomes = outcomesOf(assertion.id(), run);
        if (outcomes.isEmpty()) {
            return Verdict.NOT_RUN;
        }
        boolean passed = false;
        for (TestOutcome o : outcomes) {
            if (o.status() == TestStatus.FAILED) {
                return Verdict.FAILED;
            }
            passed |= o.status() == TestStatus.PASSED;
        }
        if (!passed) {
            return Verdict.SKIPPED;
        }
        return assertion.testability() == Testability.PARTIAL ? Verdict.PARTIAL : Verdict.PASSED;
    }

    /**
     * How many tests were executed to a verdict (passed or failed) over every transport. A run that executed
     * none (no test selected, every one skipped, or no transport usable) checked nothing: it is not a pass.
     */
    public long executedTests() {
        return runs.stream().mapToLong(r -> r.count(TestStatus.PASSED) + r.count(TestStatus.FAILED)).sum();
    }

    /** Whether any test failed on any transport. */
    public boolean anyFailed() {
        return runs.stream().anyMatch(r -> r.count(TestStatus.FAILED) > 0);
    }

    /** The ids of the assertions that failed on {@code run}, in catalogue order. */
    public List<String> failedAssertions(TransportRun run) {
        return catalogue.all().stream().filter(a -> verdict(a, run) == Verdict.FAILED).map(Assertion::id).toList();
    }
}
