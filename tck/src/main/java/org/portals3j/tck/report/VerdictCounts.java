package org.portals3j.tck.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Testability;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TransportRun;
import org.portals3j.tck.runner.Verdict;

/**
 * How a group of assertions (a spec area, or a whole spec) fared on one transport: the number of its
 * kit-testable assertions with each verdict. Only the assertions the kit checks ({@link Testability#byKit()}:
 * wholly or in part) count, since only they run per transport; a matrix cell shows these counts.
 */
final class VerdictCounts {
    private final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);

    private VerdictCounts() {
    }

    /** The counts of the kit-testable ones among {@code assertions} on {@code run}. */
    static VerdictCounts of(TckResult result, List<Assertion> assertions, TransportRun run) {
        VerdictCounts c = new VerdictCounts();
        for (Assertion a : assertions) {
            if (a.testability().byKit()) {
                c.counts.merge(result.verdict(a, run), 1, Integer::sum);
            }
        }
        return c;
    }

    /** How many have verdict {@code v}. */
    int get(Verdict v) {
        return counts.getOrDefault(v, 0);
    }

    /** How many were counted. */
    int total() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * The cell's colour, as a word: {@code failed} if any failed; {@code passed} if all passed;
     * {@code passed-partial} if all passed but some only in part ({@link Verdict#PARTIAL}); {@code passed-some}
     * if some passed and the others were not run (a run of part of the kit, which is no warning);
     * {@code some-skipped} if some passed and some were skipped; else {@code skipped}, {@code not-run},
     * {@code not-available}, or {@code empty} when the group has no kit-testable assertion.
     */
    String state() {
        if (total() == 0) {
            return "empty";
        }
        if (get(Verdict.NOT_AVAILABLE) > 0) {
            return "not-available";
        }
        if (get(Verdict.FAILED) > 0) {
            return "failed";
        }
        int passed = get(Verdict.PASSED) + get(Verdict.PARTIAL);
        if (passed == total()) {
            return get(Verdict.PARTIAL) > 0 ? "passed-partial" : "passed";
        }
        if (passed > 0) {
            return get(Verdict.SKIPPED) > 0 ? "some-skipped" : "passed-some";
        }
        return get(Verdict.SKIPPED) > 0 ? "skipped" : "not-run";
    }
}
