package org.portals3j.tck.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Testability;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TransportRun;

/**
 * The run as TAP version 14 (testanything.org), one stream per transport: a test point per kit test, named
 * with the assertions it checks; a failure carries a YAML block with its message and where the spec says
 * it; a pass of a test naming an assertion the kit checks only in part carries a YAML block {@code partial}
 * saying so; a skip is a {@code # SKIP} directive; a transport that could not be used is a skipped plan
 * ({@code 1..0 # SKIP not available: why}), never a pass.
 */
public final class TapReport {

    private TapReport() {
    }

    /** Writes {@code tck-<transport>.tap} into {@code dir} for every run; returns the files. */
    public static List<Path> write(TckResult result, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        for (TransportRun run : result.runs()) {
            Path file = dir.resolve("tck-" + run.transport() + ".tap");
            Files.writeString(file, render(result, run), StandardCharsets.UTF_8);
            files.add(file);
        }
        return files;
    }

    /** One transport's TAP stream. */
    public static String render(TckResult result, TransportRun run) {
        StringBuilder tap = new StringBuilder("TAP version 14\n");
        if (!run.available()) {
            return tap.append("1..0 # SKIP not available: ").append(oneLine(run.unavailableReason())).append('\n')
                    .toString();
        }
        List<TestOutcome> outcomes = run.outcomes();
        tap.append("1..").append(outcomes.size()).append('\n');
        int n = 0;
        for (TestOutcome o : outcomes) {
            n++;
            String ids = String.join(",", new TreeSet<>(o.test().assertionIds()));
            String description = (ids.isEmpty() ? "" : ids + " ") + o.test().shortName();
            switch (o.status()) {
                case PASSED -> {
                    tap.append("ok ").append(n).append(" - ").append(escape(description)).append('\n');
                    partial(result, o, tap);
                }
                case SKIPPED -> tap.append("ok ").append(n).append(" - ").append(escape(description))
                        .append(" # SKIP ").append(oneLine(o.message())).append('\n');
                case FAILED -> {
                    tap.append("not ok ").append(n).append(" - ").append(escape(description)).append('\n');
                    tap.append("  ---\n");
                    tap.append("  message: ").append(yamlString(o.message())).append('\n');
                    tap.append("  test: ").append(yamlString(o.test().className() + "#" + o.test().methodName()))
                            .append('\n');
                    tap.append("  spec:\n");
                    for (String id : new TreeSet<>(o.test().assertionIds())) {
                        String where = result.catalogue().find(id).map(Assertion::specLocation)
                                .orElse("not in the catalogue");
                        tap.append("    - ").append(yamlString(id + ": " + where)).append('\n');
                    }
                    tap.append("  ...\n");
                }
            }
        }
        return tap.toString();
    }

    /**
     * Under a passed test that names assertions the kit checks only in part, a YAML block that says so: the
     * {@code ok} is a pass of what the kit can see, not of the whole assertion.
     */
    private static void partial(TckResult result, TestOutcome o, StringBuilder tap) {
        List<Assertion> partial = new TreeSet<>(o.test().assertionIds()).stream()
                .flatMap(id -> result.catalogue().find(id).stream())
                .filter(a -> a.testability() == Testability.PARTIAL).toList();
        if (partial.isEmpty()) {
            return;
        }
        tap.append("  ---\n  partial:\n");
        for (Assertion a : partial) {
            tap.append("    - ").append(yamlString(a.id() + " is checked only in part: " + a.note())).append('\n');
        }
        tap.append("  ...\n");
    }

    /** A description may not contain {@code #} unescaped (it would start a directive) nor a line break. */
    private static String escape(String description) {
        return oneLine(description).replace("\\", "\\\\").replace("#", "\\#");
    }

    private static String oneLine(String s) {
        return s.replaceAll("[\\r\\n]+", " ");
    }

    private static String yamlString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
