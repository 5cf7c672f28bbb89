package org.portals3j.tck.report;

import static org.portals3j.tck.report.Html.escape;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Spec;
import org.portals3j.tck.catalogue.Testability;
import org.portals3j.tck.runner.KitTest;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;
import org.portals3j.tck.runner.Verdict;

/**
 * The run as one self-contained HTML page: the overall verdict, the transports, the matrix of spec areas by
 * transport, and every assertion of the catalogue with its tests, its verdict on each transport and, where
 * it failed, the failing tests' messages, stack traces and where the spec says it. Style and script are
 * inline and nothing is loaded from elsewhere, so the file can be mailed, archived or opened from
 * {@code file://}. A transport that could not be used shows as "not available: why", never as a pass.
 *
 * <p>The page's stable hooks, for tools and the kit's browser test: {@code #overall-verdict},
 * {@code #transports}, {@code #matrix} (cells {@code td.cell[data-spec][data-area][data-transport]} with
 * {@code data-passed}, {@code data-partial}, {@code data-failed}, {@code data-skipped}, {@code data-not-run}),
 * {@code #assertions} (one {@code tbody.assertion[data-assertion][data-verdict]} per assertion, cells
 * {@code td.v[data-transport][data-verdict]}, failures {@code .failure[data-transport] .message}), {@code #skipped}
 * (one {@code li.skip[data-transport][data-test]} per skipped test, its reason in {@code .reason}). Opening it
 * as {@code report.html#failed} lists only the failed assertions. An assertion the kit sees only in part has the
 * verdict {@code partial} where it passed, never {@code passed}.
 *
 * <p>A picture of it for people: {@link Chromium#screenshot}, or by hand
 * {@code chromium --headless --no-sandbox --hide-scrollbars --window-size=1400,2000 --screenshot=report.png
 * report.html}.
 */
public final class HtmlReport {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx", Locale.ROOT);
    /** The verdicts a kit-testable assertion can have on a transport, most telling first. */
    private static final List<Verdict> RUN_VERDICTS = List.of(Verdict.FAILED, Verdict.PARTIAL, Verdict.PASSED,
            Verdict.SKIPPED, Verdict.NOT_RUN, Verdict.NOT_AVAILABLE);

    private final TckResult result;
    private final ZonedDateTime generated;
    private final List<TransportRun> runs;
    private final StringBuilder out = new StringBuilder(256 * 1024);

    private HtmlReport(TckResult result, ZonedDateTime generated) {
        this.result = result;
        this.generated = generated;
        this.runs = result.runs();
    }

    /** Writes the report of {@code result}, dated now, to {@code file} (UTF-8), creating its directory. */
    public static void write(TckResult result, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Files.writeString(file, render(result, ZonedDateTime.now()), StandardCharsets.UTF_8);
    }

    /** The report of {@code result} as a page, dated {@code generated}. */
    public static String render(TckResult result, ZonedDateTime generated) {
        return new HtmlReport(result, generated).page();
    }

    private String page() {
        Overall overall = overall();
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"Portals3J conformance kit\">\n")
                .append("<title>").append(escape("Portals3J conformance: " + overall.word + " " + overall.detail))
                .append("</title>\n<style>\n").append(asset("report.css")).append("</style>\n</head>\n")
                .append("<body data-overall=\"").append(overall.state).append("\">\n");
        banner(overall);
        out.append("<main class=\"wrap\">\n");
        transports();
        matrix();
        assertions();
        untracedFailures();
        skippedTests();
        legend();
        out.append("</main>\n<script>\n").append(asset("report.js")).append("</script>\n</body>\n</html>\n");
        return out.toString();
    }

    /** The verdict of the whole run, for the banner and the title. */
    private record Overall(String state, String word, String detail) {
    }

    private Overall overall() {
        List<String> unavailable = runs.stream().filter(r -> !r.available()).map(TransportRun::transport).toList();
        List<TransportRun> ran = runs.stream().filter(TransportRun::available).toList();
        if (result.anyFailed()) {
            List<String> parts = new ArrayList<>();
            for (TransportRun run : ran) {
                int assertions = result.failedAssertions(run).size();
                long tests = run.count(TestStatus.FAILED);
                if (tests > 0) {
                    parts.add(plural(assertions, "assertion") + " (" + plural(tests, "test") + ") on "
                            + run.transport());
                }
            }
            return new Overall("failed", "Failed:", String.join(", ", parts));
        }
        if (ran.isEmpty()) {
            return new Overall("not-checked", "Not checked:", runs.isEmpty() ? "no transport was chosen"
                    : "no transport could be used (" + String.join(", ", unavailable) + ")");
        }
        if (ran.stream().allMatch(r -> r.count(TestStatus.PASSED) == 0)) {
            return new Overall("not-checked", "Not checked:", "no test passed on "
                    + String.join(", ", ran.stream().map(TransportRun::transport).toList()) + " (all were skipped)");
        }
        String on = "on " + String.join(", ", ran.stream().map(TransportRun::transport).toList());
        long partial = result.catalogue().all().stream()
                .filter(a -> ran.stream().anyMatch(r -> result.verdict(a, r) == Verdict.PARTIAL)).count();
        if (partial > 0) {
            on += " (" + plural(partial, "assertion") + " only in part)";
        }
        if (!unavailable.isEmpty()) {
            return new Overall("incomplete", "Passed", on + "; not available: " + String.join(", ", unavailable));
        }
        return new Overall("passed", "Passed", on);
    }

    private void banner(Overall overall) {
        List<Assertion> all = result.catalogue().all();
        long kit = all.stream().filter(a -> a.testability().byKit()).count();
        long partial = all.stream().filter(a -> a.testability() == Testability.PARTIAL).count();
        long engine = all.stream().filter(a -> a.testability() == Testability.ENGINE).count();
        long no = all.size() - kit - engine;
        out.append("<header id=\"summary\" class=\"banner overall-").append(overall.state)
                .append("\">\n<div class=\"wrap\">\n")
                .append("<p class=\"kicker\">Portals3J conformance kit report</p>\n")
                .append("<h1 id=\"overall-verdict\" data-verdict=\"").append(overall.state)
                .append("\"><span class=\"word\">")
                .append(escape(overall.word)).append("</span> <span class=\"detail\">").append(escape(overall.detail))
                .append("</span></h1>\n<p class=\"meta\">")
                .append("<span>generated <time datetime=\"").append(escape(generated.toOffsetDateTime().toString()))
                .append("\">").append(escape(WHEN.format(generated))).append("</time></span>")
                .append("<span>Java ").append(escape(property("java.version"))).append(" on ")
                .append(escape(property("os.name") + " " + property("os.arch"))).append("</span>")
                .append("<span>").append(plural(result.tests().size(), "test")).append(" selected</span>")
                .append("<span>catalogue: ").append(plural(all.size(), "assertion")).append(", ").append(kit)
                .append(" checked by the kit (").append(partial).append(" of them only in part), ").append(engine)
                .append(" by engine unit tests, ").append(no)
                .append(" not testable</span></p>\n</div>\n</header>\n");
    }

    private void transports() {
        out.append("<section id=\"transports-section\">\n<h2>Transports</h2>\n<table id=\"transports\">\n<thead><tr>")
                .append("<th scope=\"col\">Transport</th><th scope=\"col\">Result</th><th scope=\"col\" "
                        + "class=\"num\">Tests</th>")
                .append("<th scope=\"col\" class=\"num\">Passed</th><th scope=\"col\" class=\"num\">Failed</th>")
                .append("<th scope=\"col\" class=\"num\">Skipped</th><th scope=\"col\" class=\"num\">Time</th>")
                .append("<th scope=\"col\">Failed assertions</th></tr></thead>\n<tbody>\n");
        for (TransportRun run : runs) {
            String state = runState(run);
            out.append("<tr data-transport=\"").append(escape(run.transport())).append("\" data-verdict=\"")
                    .append(state)
                    .append("\"><th scope=\"row\">").append(escape(run.transport())).append("</th>");
            if (!run.available()) {
                out.append("<td><span class=\"badge not-available\">not available</span></td><td colspan=\"6\" "
                        + "class=\"reason\">")
                        .append(escape(run.unavailableReason())).append("</td></tr>\n");
                continue;
            }
            out.append("<td><span class=\"badge ").append(state).append("\">").append(state.replace('-', ' '))
                    .append("</span></td>")
                    .append("<td class=\"num\">").append(run.outcomes().size()).append("</td>")
                    .append("<td class=\"num\">").append(run.count(TestStatus.PASSED)).append("</td>")
                    .append("<td class=\"num\">").append(run.count(TestStatus.FAILED)).append("</td>")
                    .append("<td class=\"num\">").append(run.count(TestStatus.SKIPPED)).append("</td>")
                    .append("<td class=\"num\">").append(escape(elapsed(run.elapsed())))
                    .append("</td><td class=\"failed-ids\">");
            for (String id : result.failedAssertions(run)) {
                out.append("<a href=\"#a-").append(escape(id)).append("\">").append(escape(id)).append("</a> ");
            }
            out.append("</td></tr>\n");
        }
        out.append("</tbody>\n</table>\n</section>\n");
    }

    private static String runState(TransportRun run) {
        if (!run.available()) {
            return "not-available";
        }
        if (run.count(TestStatus.FAILED) > 0) {
            return "failed";
        }
        return run.count(TestStatus.PASSED) > 0 ? "passed" : "skipped";
    }

    private void matrix() {
        out.append("<section id=\"matrix-section\">\n<h2>Results by spec area</h2>\n<table id=\"matrix\">\n")
                .append("<colgroup><col class=\"area\"><col class=\"scope\">");
        for (int i = 0; i < runs.size(); i++) {
            out.append("<col>");
        }
        out.append("</colgroup>\n<thead><tr><th scope=\"col\">Spec area</th>")
                .append("<th scope=\"col\" title=\"how its assertions are checked: by the kit, by engine unit tests, "
                        + "or not\">")
                .append("Assertions</th>");
        for (TransportRun run : runs) {
            out.append("<th scope=\"col\" class=\"transport").append(run.available() ? "" : " not-available")
                    .append("\" data-transport=\"").append(escape(run.transport())).append("\">")
                    .append(escape(run.transport()))
                    .append("<span class=\"sub\">");
            if (run.available()) {
                out.append(plural(run.outcomes().size(), "test")).append(", ").append(escape(elapsed(run.elapsed())));
            } else {
                out.append("not available: ").append(escape(run.unavailableReason()));
            }
            out.append("</span></th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (Spec spec : Spec.values()) {
            List<Assertion> ofSpec = result.catalogue().of(spec);
            if (ofSpec.isEmpty()) {
                continue;
            }
            out.append("<tr class=\"spec-heading\" data-spec=\"").append(spec.name()).append("\"><th colspan=\"")
                    .append(2 + runs.size()).append("\" scope=\"rowgroup\">").append(escape(spec.title()))
                    .append("</th></tr>\n");
            for (String area : result.catalogue().areas(spec)) {
                List<Assertion> inArea = ofSpec.stream().filter(a -> a.area().equals(area)).toList();
                out.append("<tr data-spec=\"").append(spec.name()).append("\" data-area=\"").append(escape(area))
                        .append("\">")
                        .append("<th scope=\"row\"><a href=\"#assertions-section\" data-spec=\"").append(spec.name())
                        .append("\" data-area=\"").append(escape(area)).append("\">").append(escape(area))
                        .append("</a></th>");
                matrixRow(spec, area, inArea);
            }
            out.append("<tr class=\"total\" data-spec=\"").append(spec.name())
                    .append("\" data-area=\"\"><th scope=\"row\">All of ")
                    .append(escape(spec.title())).append("</th>");
            matrixRow(spec, "", ofSpec);
        }
        out.append("</tbody>\n</table>\n</section>\n");
    }

    /** The scope cell and one cell per transport for {@code group}, ending the row. */
    private void matrixRow(Spec spec, String area, List<Assertion> group) {
        out.append("<td class=\"scope\">").append(count(group, Testability.KIT) + count(group, Testability.PARTIAL))
                .append(" kit");
        for (Testability t : List.of(Testability.PARTIAL, Testability.ENGINE, Testability.NO)) {
            long n = count(group, t);
            if (n > 0) {
                out.append(" <span class=\"other\">&middot; ").append(n).append(' ').append(t.token())
                        .append("</span>");
            }
        }
        out.append("</td>");
        for (TransportRun run : runs) {
            VerdictCounts c = VerdictCounts.of(result, group, run);
            out.append("<td class=\"cell state-").append(c.state()).append("\" data-spec=\"").append(spec.name())
                    .append("\" data-area=\"").append(escape(area)).append("\" data-transport=\"")
                    .append(escape(run.transport()))
                    .append("\" data-passed=\"").append(c.get(Verdict.PASSED))
                    .append("\" data-partial=\"").append(c.get(Verdict.PARTIAL))
                    .append("\" data-failed=\"").append(c.get(Verdict.FAILED))
                    .append("\" data-skipped=\"").append(c.get(Verdict.SKIPPED))
                    .append("\" data-not-run=\"").append(c.get(Verdict.NOT_RUN)).append("\">");
            if (!run.available()) {
                out.append("not available");
            } else if (c.total() == 0) {
                out.append("&mdash;");
            } else {
                part(c, Verdict.PASSED);
                part(c, Verdict.PARTIAL);
                part(c, Verdict.FAILED);
                part(c, Verdict.SKIPPED);
                part(c, Verdict.NOT_RUN);
            }
            out.append("</td>");
        }
        out.append("</tr>\n");
    }

    private void part(VerdictCounts c, Verdict v) {
        int n = c.get(v);
        if (n > 0) {
            out.append("<span class=\"part ").append(css(v)).append("\"><span class=\"n\">").append(n)
                    .append("</span> ")
                    .append(v.label()).append("</span>");
        }
    }

    private void assertions() {
        List<Assertion> all = result.catalogue().all();
        Map<Verdict, Integer> byVerdict = new LinkedHashMap<>();
        for (Verdict v : List.of(Verdict.FAILED, Verdict.PASSED, Verdict.PARTIAL, Verdict.SKIPPED, Verdict.NOT_RUN,
                Verdict.NOT_AVAILABLE, Verdict.ENGINE_TEST, Verdict.NOT_TESTABLE)) {
            int n = (int) all.stream().filter(a -> verdicts(a).contains(v)).count();
            if (n > 0) {
                byVerdict.put(v, n);
            }
        }
        out.append("<section id=\"assertions-section\">\n<h2>Assertions<span class=\"count\">").append(all.size())
                .append(" in the catalogue</span></h2>\n<div class=\"controls\">\n"
                        + "<div class=\"group\" id=\"verdict-filter\" role=\"group\" aria-label=\"verdict\">")
                .append("<button type=\"button\" data-filter=\"all\" aria-pressed=\"true\">All<span class=\"k\">")
                .append(all.size())
                .append("</span></button>");
        byVerdict.forEach((v, n) -> out.append("<button type=\"button\" data-filter=\"").append(css(v))
                .append("\" aria-pressed=\"false\" title=\"")
                .append(css(v).equals("engine-test") || css(v).equals("not-testable")
                        ? "not run per transport" : "on at least one transport").append("\">")
                .append(capitalised(v.label())).append("<span class=\"k\">").append(n).append("</span></button>"));
        out.append("</div>\n<select id=\"spec-filter\" aria-label=\"spec\"><option value=\"all\">Every spec</option>");
        for (Spec spec : Spec.values()) {
            out.append("<option value=\"").append(spec.name()).append("\">").append(escape(spec.title()))
                    .append("</option>");
        }
        out.append("</select>\n<span id=\"area-chip\" class=\"area-chip\" hidden>area: <b id=\"area-name\"></b>")
                .append("<button type=\"button\" id=\"area-clear\" aria-label=\"show every "
                        + "area\">&times;</button></span>\n")
                .append("<input id=\"search\" type=\"search\" placeholder=\"Search id, text, test, "
                        + "message\" aria-label=\"search\">\n")
                .append("<span id=\"shown-count\">").append(all.size()).append(" assertions</span>\n</div>\n")
                .append("<table id=\"assertions\">\n<colgroup><col class=\"id\"><col class=\"section\"><col "
                        + "class=\"text\"><col class=\"tests\">");
        for (int i = 0; i < runs.size(); i++) {
            out.append("<col class=\"transport\">");
        }
        out.append("</colgroup>\n<thead><tr><th scope=\"col\">Id</th><th scope=\"col\">Section</th><th "
                + "scope=\"col\">Assertion</th>")
                .append("<th scope=\"col\">Tests</th>");
        for (TransportRun run : runs) {
            out.append("<th scope=\"col\" class=\"num\" data-transport=\"").append(escape(run.transport()))
                    .append("\">")
                    .append(escape(run.transport())).append("</th>");
        }
        out.append("</tr></thead>\n");
        for (Assertion a : all) {
            assertion(a);
        }
        out.append("</table>\n</section>\n");
    }

    /** One assertion: a row group, so that its failures can sit under it in the same group. */
    private void assertion(Assertion a) {
        Set<Verdict> verdicts = verdicts(a);
        String id = escape(a.id());
        out.append("<tbody class=\"assertion\" id=\"a-").append(id).append("\" data-assertion=\"").append(id)
                .append("\" data-spec=\"").append(a.spec().name()).append("\" data-area=\"").append(escape(a.area()))
                .append("\" data-testability=\"").append(a.testability().token())
                .append("\" data-verdict=\"").append(css(rowVerdict(verdicts))).append("\" data-verdicts=\"")
                .append(String.join(" ", verdicts.stream().map(HtmlReport::css).toList())).append("\">\n<tr>")
                .append("<td class=\"id\"><a href=\"#a-").append(id).append("\">").append(id).append("</a></td>")
                .append("<td class=\"section\">").append(escape(a.section()))
                .append("<span class=\"refs\">").append(escape(a.refs())).append("</span>")
                .append("<span class=\"area\">").append(escape(a.area())).append("</span></td>")
                .append("<td class=\"text\"><p>").append(escape(a.text())).append("</p>");
        note(a);
        skips(a);
        out.append("</td>");
        tests(a);
        if (!a.testability().byKit()) {
            Verdict v = a.testability() == Testability.ENGINE ? Verdict.ENGINE_TEST : Verdict.NOT_TESTABLE;
            if (!runs.isEmpty()) {
                out.append("<td class=\"v wide\" colspan=\"").append(runs.size()).append("\" data-verdict=\"")
                        .append(css(v))
                        .append("\"><span class=\"badge ").append(css(v)).append("\">").append(v.label())
                        .append("</span></td>");
            }
        } else {
            for (TransportRun run : runs) {
                Verdict v = result.verdict(a, run);
                out.append("<td class=\"v\" data-transport=\"").append(escape(run.transport()))
                        .append("\" data-verdict=\"")
                        .append(css(v)).append("\"><span class=\"badge ").append(css(v)).append("\">").append(v.label())
                        .append("</span></td>");
            }
        }
        out.append("</tr>\n");
        failures(a);
        out.append("</tbody>\n");
    }

    private void note(Assertion a) {
        if (a.testability() == Testability.KIT && a.note().isEmpty()) {
            return;
        }
        out.append("<p class=\"note\">");
        if (a.testability() != Testability.KIT) {
            Verdict v = switch (a.testability()) {
                case PARTIAL -> Verdict.PARTIAL;
                case ENGINE -> Verdict.ENGINE_TEST;
                default -> Verdict.NOT_TESTABLE;
            };
            out.append("<span class=\"badge ").append(css(v)).append("\">testable: ").append(a.testability().token())
                    .append("</span>");
        }
        out.append(escape(a.note())).append("</p>");
    }

    /**
     * A row under the assertion, as wide as the table: per transport it failed on, the failing tests, their
     * messages and traces, and where the spec says it.
     */
    private void failures(Assertion a) {
        List<TransportRun> failedOn = runs.stream().filter(r -> result.verdict(a, r) == Verdict.FAILED).toList();
        if (failedOn.isEmpty()) {
            return;
        }
        out.append("<tr class=\"detail\"><td></td><td colspan=\"").append(3 + runs.size())
                .append("\"><div class=\"failures\">\n<p class=\"hint\">Where the spec says it: <span class=\"loc\">")
                .append(escape(a.specLocation())).append("</span></p>\n");
        for (TransportRun run : failedOn) {
            for (TestOutcome o : result.outcomesOf(a.id(), run)) {
                if (o.status() == TestStatus.FAILED) {
                    failure(run, o);
                }
            }
        }
        out.append("</div></td></tr>\n");
    }

    private void failure(TransportRun run, TestOutcome o) {
        out.append("<div class=\"failure\" data-transport=\"").append(escape(run.transport())).append("\" data-test=\"")
                .append(escape(o.test().shortName())).append("\">\n<p class=\"failure-head\"><span class=\"on\">")
                .append(escape(run.transport())).append("</span>: ");
        testName(o.test().shortName(), o.test().className());
        if (!o.test().displayName().equals(o.test().methodName() + "()")) {
            out.append(" <span class=\"display-name\">").append(escape(o.test().displayName())).append("</span>");
        }
        out.append(" failed</p>\n<p class=\"message\">")
                .append(escape(o.message().isEmpty() ? "(no message)" : o.message())).append("</p>\n");
        if (!o.detail().isEmpty()) {
            out.append("<details class=\"trace\"><summary>stack trace</summary><pre>").append(escape(o.detail()))
                    .append("</pre></details>\n");
        }
        out.append("</div>\n");
    }

    /** Each skipped test naming it and why, per transport where every test naming it was skipped. */
    private void skips(Assertion a) {
        for (TransportRun run : runs) {
            if (result.verdict(a, run) != Verdict.SKIPPED) {
                continue;
            }
            for (TestOutcome o : result.outcomesOf(a.id(), run)) {
                out.append("<p class=\"skip-reason\" data-transport=\"").append(escape(run.transport()))
                        .append("\">skipped on ").append(escape(run.transport())).append(": ");
                testName(o.test().shortName(), o.test().className());
                out.append(": ").append(escape(reason(o))).append("</p>");
            }
        }
    }

    /**
     * Every skipped test with why, per transport: also those of an assertion that passed through its other tests,
     * and those that name no assertion of the catalogue, which would show nowhere else.
     */
    private void skippedTests() {
        List<TransportRun> on = new ArrayList<>();
        List<TestOutcome> skipped = new ArrayList<>();
        for (TransportRun run : runs) {
            for (TestOutcome o : run.outcomes()) {
                if (o.status() == TestStatus.SKIPPED) {
                    on.add(run);
                    skipped.add(o);
                }
            }
        }
        if (skipped.isEmpty()) {
            return;
        }
        out.append("<section id=\"skipped\">\n<h2>Skipped tests<span class=\"count\">").append(skipped.size())
                .append("</span></h2>\n<ul class=\"skipped\">\n");
        for (int i = 0; i < skipped.size(); i++) {
            TestOutcome o = skipped.get(i);
            out.append("<li class=\"skip\" data-transport=\"").append(escape(on.get(i).transport()))
                    .append("\" data-test=\"").append(escape(o.test().shortName())).append("\"><span class=\"on\">")
                    .append(escape(on.get(i).transport())).append("</span>: ");
            testName(o.test().shortName(), o.test().className());
            if (!o.test().displayName().equals(o.test().methodName() + "()")) {
                out.append(" <span class=\"display-name\">").append(escape(o.test().displayName())).append("</span>");
            }
            out.append(" <span class=\"ids\">").append(escape(String.join(" ", o.test().assertionIds())))
                    .append("</span>: <span class=\"reason\">").append(escape(reason(o))).append("</span></li>\n");
        }
        out.append("</ul>\n</section>\n");
    }

    private static String reason(TestOutcome skipped) {
        return skipped.message().isEmpty() ? "(no reason given)" : skipped.message();
    }

    /** The tests naming it, once each (a parameterised test is one line with its number of invocations). */
    private void tests(Assertion a) {
        Map<String, Integer> names = new LinkedHashMap<>();
        Map<String, String> classes = new LinkedHashMap<>();
        for (KitTest t : result.testsOf(a.id())) {
            names.merge(t.shortName(), 1, Integer::sum);
            classes.put(t.shortName(), t.className());
        }
        Set<String> failing = new HashSet<>();
        for (TransportRun run : runs) {
            for (TestOutcome o : result.outcomesOf(a.id(), run)) {
                if (o.status() == TestStatus.FAILED) {
                    failing.add(o.test().shortName());
                }
            }
        }
        out.append("<td class=\"tests\">");
        if (names.isEmpty()) {
            out.append(a.testability().byKit() ? "<span class=\"none\">none selected in this run</span>" : "");
        } else {
            out.append("<ul>");
            names.forEach((name, n) -> {
                out.append("<li").append(failing.contains(name) ? " class=\"failing\"" : "").append(">");
                testName(name, Objects.requireNonNullElse(classes.get(name), name));
                out.append(n > 1 ? " &times;" + n : "").append("</li>");
            });
            out.append("</ul>");
        }
        out.append("</td>");
    }

    /**
     * {@code Class.method} in code type, the full class name on hover. Test names are long camel-case words, so
     * a line may break after the class and before each hump of the method name, not in the middle of a word.
     */
    private void testName(String shortName, String className) {
        int dot = shortName.indexOf('.');
        out.append("<code title=\"").append(escape(className)).append("\">")
                .append(escape(shortName.substring(0, dot + 1)))
                .append("<wbr>");
        String method = shortName.substring(dot + 1);
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            if (i > 0 && Character.isUpperCase(c) && Character.isLowerCase(method.charAt(i - 1))) {
                out.append("<wbr>");
            }
            out.append(escape(String.valueOf(c)));
        }
        out.append("</code>");
    }

    private static long count(List<Assertion> group, Testability t) {
        return group.stream().filter(a -> a.testability() == t).count();
    }

    /** Failed tests that name no assertion of the catalogue: they would show nowhere else. */
    private void untracedFailures() {
        List<TransportRun> on = new ArrayList<>();
        List<TestOutcome> untraced = new ArrayList<>();
        for (TransportRun run : runs) {
            for (TestOutcome o : run.outcomes()) {
                if (o.status() == TestStatus.FAILED
                        && o.test().assertionIds().stream().noneMatch(id -> result.catalogue().find(id).isPresent())) {
                    on.add(run);
                    untraced.add(o);
                }
            }
        }
        if (untraced.isEmpty()) {
            return;
        }
        out.append("<section id=\"untraced\">\n<h2>Failed tests that name no catalogue assertion<span class=\"count\">")
                .append(untraced.size()).append("</span></h2>\n<div class=\"failures\">\n");
        for (int i = 0; i < untraced.size(); i++) {
            failure(on.get(i), untraced.get(i));
        }
        out.append("</div>\n</section>\n");
    }

    private void legend() {
        out.append("<footer>\n<h2>Reading this report</h2>\n<dl>\n");
        legendEntry(Verdict.PASSED, "every test naming the assertion that ran on the transport passed");
        legendEntry(Verdict.PARTIAL,
                "every test naming it that ran passed, but the kit sees only part of the assertion;"
                + " the note says which part it cannot see and where that part is checked");
        legendEntry(Verdict.FAILED,
                "a test naming it failed; its message, stack trace and the spec's place are under the assertion");
        legendEntry(Verdict.SKIPPED,
                "every test naming it was skipped (disabled, or an assumption did not hold); each skipped test of the"
                + " run and why is listed under Skipped tests");
        legendEntry(Verdict.NOT_RUN, "no test naming it was selected in this run (a run of part of the kit)");
        legendEntry(Verdict.NOT_AVAILABLE, "the transport could not be used here, so nothing ran on it: not a pass");
        legendEntry(Verdict.ENGINE_TEST,
                "checked white-box by the engine unit test named in the note, once, not per transport");
        legendEntry(Verdict.NOT_TESTABLE, "cannot be checked, or does not apply to this binding; the note says why");
        out.append("</dl>\n<p>Matrix cells count the kit-testable assertions of a spec area, not tests. ")
                .append("Lines refer to the spec texts named in each failure's hint.</p>\n</footer>\n");
    }

    private void legendEntry(Verdict v, String meaning) {
        out.append("<dt><span class=\"badge ").append(css(v)).append("\">").append(v.label()).append("</span></dt><dd>")
                .append(escape(meaning)).append("</dd>\n");
    }

    /** The verdicts of {@code a} over all transports (one, for an assertion the kit does not run). */
    private Set<Verdict> verdicts(Assertion a) {
        Set<Verdict> set = EnumSet.noneOf(Verdict.class);
        if (a.testability() == Testability.ENGINE) {
            set.add(Verdict.ENGINE_TEST);
        } else if (a.testability() == Testability.NO) {
            set.add(Verdict.NOT_TESTABLE);
        } else if (runs.isEmpty()) {
            set.add(Verdict.NOT_RUN);
        } else {
            for (TransportRun run : runs) {
                set.add(result.verdict(a, run));
            }
        }
        return set;
    }

    /** The one verdict a row is marked with: failed anywhere wins, then passed, and so on. */
    private static Verdict rowVerdict(Set<Verdict> verdicts) {
        for (Verdict v : RUN_VERDICTS) {
            if (verdicts.contains(v)) {
                return v;
            }
        }
        return verdicts.iterator().next();
    }

    /** The class and filter name of a verdict: {@code not-available} for {@link Verdict#NOT_AVAILABLE}. */
    private static String css(Verdict v) {
        return v.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String elapsed(Duration d) {
        long ms = d.toMillis();
        if (ms < 10_000) {
            return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
        }
        if (ms < 120_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        return String.format(Locale.ROOT, "%d min %02d s", ms / 60_000, (ms / 1000) % 60);
    }

    private static String property(String key) {
        return Objects.requireNonNullElse(System.getProperty(key), "?");
    }

    /** A style or script file of this package, to inline. */
    private static String asset(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the report's " + name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report's " + name, e);
        }
    }
}
