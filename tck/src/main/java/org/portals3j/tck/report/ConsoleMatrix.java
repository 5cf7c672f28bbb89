package org.portals3j.tck.report;

import java.io.PrintStream;
import java.util.List;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Spec;
import org.portals3j.tck.catalogue.Testability;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TransportRun;
import org.portals3j.tck.runner.Verdict;

/**
 * The console summary of a run: one row per spec area, one column per transport, each cell counting the
 * area's kit-testable assertions that passed, passed as far as the kit can see them (partial), failed or were
 * skipped there. Assertions are counted, not tests, so the matrix reads against the catalogue.
 */
public final class ConsoleMatrix {
    private static final int AREA_WIDTH = 28;
    private static final int CELL_WIDTH = 24;

    private ConsoleMatrix() {
    }

    /** Prints the matrix, the transports that could not be used and why, and the failed assertions. */
    public static void print(TckResult result, PrintStream out) {
        List<TransportRun> runs = result.runs();
        StringBuilder header = new StringBuilder(pad("", AREA_WIDTH));
        for (TransportRun run : runs) {
            header.append(pad(run.transport(), CELL_WIDTH));
        }
        for (Spec spec : Spec.values()) {
            out.println();
            out.println(header.toString().replaceFirst("^ {" + spec.title().length() + "}", spec.title())
                    .stripTrailing());
            for (String area : result.catalogue().areas(spec)) {
                StringBuilder line = new StringBuilder(pad("  " + area, AREA_WIDTH));
                for (TransportRun run : runs) {
                    line.append(pad(cell(result, spec, area, run), CELL_WIDTH));
                }
                out.println(line.toString().stripTrailing());
            }
        }
        out.println();
        out.println(legend(result));
        for (TransportRun run : runs) {
            if (!run.available()) {
                out.println(run.transport() + ": not available: " + run.unavailableReason());
            }
        }
        for (TransportRun run : runs) {
            List<String> failed = result.failedAssertions(run);
            if (!failed.isEmpty()) {
                out.println(run.transport() + ": failed " + failed.size() + " assertion"
                        + (failed.size() == 1 ? "" : "s") + ": " + String.join(" ", failed));
            }
        }
    }

    /** The cell of one area on one transport, e.g. {@code 41 ok  3 partial  1 FAILED  2 skipped}. */
    static String cell(TckResult result, Spec spec, String area, TransportRun run) {
        if (!run.available()) {
            return "not available";
        }
        List<Assertion> inArea = result.catalogue().of(spec).stream().filter(a -> a.area().equals(area)).toList();
        VerdictCounts counts = VerdictCounts.of(result, inArea, run);
        StringBuilder cell = new StringBuilder();
        append(cell, counts, Verdict.PASSED, "ok");
        append(cell, counts, Verdict.PARTIAL, "partial");
        append(cell, counts, Verdict.FAILED, "FAILED");
        append(cell, counts, Verdict.SKIPPED, "skipped");
        append(cell, counts, Verdict.NOT_RUN, "not run");
        return cell.isEmpty() ? "-" : cell.toString();
    }

    private static void append(StringBuilder cell, VerdictCounts counts, Verdict v, String word) {
        int n = counts.get(v);
        if (n > 0) {
            cell.append(cell.isEmpty() ? "" : "  ").append(n).append(' ').append(word);
        }
    }

    private static String legend(TckResult result) {
        long engine = result.catalogue().all().stream().filter(a -> a.testability() == Testability.ENGINE).count();
        long no = result.catalogue().all().stream().filter(a -> a.testability() == Testability.NO).count();
        long partial = result.catalogue().all().stream().filter(a -> a.testability() == Testability.PARTIAL).count();
        return "Cells count assertions of the catalogue checked by the kit (" + partial
                + " of them only in part: a pass"
                + " of those is 'partial'); " + engine + " more are checked by engine unit tests and " + no
                + " are not testable here (see the HTML report).";
    }

    private static String pad(String s, int width) {
        if (s.length() >= width) {
            return s.substring(0, width - 1) + " ";
        }
        return s + " ".repeat(width - s.length());
    }
}
