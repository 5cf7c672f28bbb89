package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.catalogue.Spec;
import org.portals3j.tck.report.HtmlReport;
import org.portals3j.tck.runner.KitTest;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;

/** The HTML report's content, read as text: no browser needed (HtmlReportBrowserTest has one). */
class HtmlReportTest {
    static final String HOSTILE = "<script>alert(1)</script> & \"x\"";
    static final String HOSTILE_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;";
    private static final ZonedDateTime WHEN = ZonedDateTime.of(2026, 11, 22, 9, 30, 0, 0, ZoneOffset.UTC);

    /** Three areas: one with a passing, a failing and an untestable assertion, one engine-tested, one skipped. */
    private static final Catalogue CATALOGUE = Catalogue.parse(Spec.PORTALS, "p.tsv", List.of(Catalogue.HEADER,
            "P-001\tInitialisation\t3.3.1 PtlInit\t§3.3.1, §3.3.1.2\tkit\tPtlInit succeeds.\t",
            "P-002\tInitialisation\t3.3.1 PtlInit\t§3.3.1\tkit\tPtlInit may be called again.\tresolution A-01",
            "P-003\tInitialisation\t3.3.1.1 Return Codes\t§3.3.1.1\tno\tA NULL holder fails with PTL_SEGV.\t"
            + "not applicable to Java",
            "P-004\tNetwork interfaces\t3.4.1 PtlNIInit\t§3.4.1\tengine\tThe NI table is sized <max>.\t"
            + "NiTableTest checks it",
            "P-005\tEvents\t3.11 Events\t§3.9.2\tkit\tAn event is delivered once.\t"));

    private static final KitTest INIT = test("InitTest", "initSucceeds", "P-001");
    private static final KitTest AGAIN = test("InitTest", "initAgain", "P-002");
    private static final KitTest EVENT = test("EventTest", "once", "P-005");
    private static final KitTest STRAY = test("StrayTest", "namesNothingKnown", "P-999");

    @Test
    void aHostileFailureMessageIsShownAsTextAndNeverAsMarkup() {
        String html = render(failingRun(), unavailableUdp());
        assertThat(html).contains(HOSTILE_ESCAPED).doesNotContain(HOSTILE).doesNotContain("<script>alert");
        assertThat(count(html, "<script")).as("the report's own script is the only one").isEqualTo(1);
        assertThat(row(html, "P-002")).contains(HOSTILE_ESCAPED);
    }

    @Test
    void theMatrixCountsKitAssertionsPerAreaAndTransport() {
        String html = render(failingRun(), unavailableUdp());
        assertThat(cell(html, "PORTALS", "Initialisation", "inmem"))
                .contains("data-passed=\"1\"", "data-failed=\"1\"", "data-skipped=\"0\"", "data-not-run=\"0\"")
                .contains("class=\"cell state-failed\"");
        // P-004 is engine-tested: the area has no kit assertion, so no count and no colour
        assertThat(cell(html, "PORTALS", "Network interfaces", "inmem"))
                .contains("data-passed=\"0\"", "data-failed=\"0\"", "state-empty");
        assertThat(cell(html, "PORTALS", "Events", "inmem")).contains("data-skipped=\"1\"", "state-skipped");
        assertThat(cell(html, "PORTALS", "", "inmem")).as("the spec's total row")
                .contains("data-passed=\"1\"", "data-failed=\"1\"", "data-skipped=\"1\"");
        assertThat(html).contains("id=\"matrix\"").doesNotContain("data-spec=\"ISOTACH\" data-area");

        // a run of part of the kit: what was not selected is "not run", which is not coloured as a warning
        TransportRun part = new TransportRun("inmem", "", List.of(
                new TestOutcome(INIT, TestStatus.PASSED, "", "", Duration.ofMillis(12))), Duration.ofMillis(20));
        String partial = render(part);
        assertThat(cell(partial, "PORTALS", "Initialisation", "inmem"))
                .contains("state-passed-some", "data-passed=\"1\"", "data-not-run=\"1\"");
        assertThat(cell(partial, "PORTALS", "Events", "inmem")).contains("state-not-run", "data-not-run=\"1\"");
        assertThat(cell(render(passingRun()), "PORTALS", "Initialisation", "inmem"))
                .contains("state-passed", "data-passed=\"2\"");
    }

    @Test
    void anUnavailableTransportSaysWhyAndIsNeverCountedAsAPass() {
        String html = render(failingRun(), unavailableUdp());
        assertThat(html).contains("not available: no route to loopback &lt;lo&gt;");
        String udpCell = cell(html, "PORTALS", "Initialisation", "udp");
        assertThat(udpCell).contains("state-not-available", "data-passed=\"0\"", ">not available<");
        assertThat(row(html, "P-001"))
                .contains("data-transport=\"udp\" data-verdict=\"not-available\"")
                .contains("data-transport=\"inmem\" data-verdict=\"passed\"");

        String onlyUnavailable = render(passingRun(), unavailableUdp());
        assertThat(onlyUnavailable).contains("<body data-overall=\"incomplete\">")
                .contains("not available: udp");
        assertThat(render(passingRun())).contains("<body data-overall=\"passed\">");
        assertThat(render(unavailableUdp())).contains("<body data-overall=\"not-checked\">");
    }

    @Test
    void aFailedAssertionsRowShowsTheTestItsMessageTheSpecPlaceAndTheTrace() {
        String html = render(failingRun(), unavailableUdp());
        String row = row(html, "P-002");
        assertThat(row).contains("data-verdict=\"failed\"")
                .contains("data-transport=\"inmem\" data-verdict=\"failed\"")
                .contains("<li class=\"failing\"><code "
                        + "title=\"org.portals3j.tck.portals.InitTest\">InitTest.<wbr>init<wbr>Again</code></li>")
                .contains("Where the spec says it: <span class=\"loc\">Portals 3.2 §3.3.1 PtlInit: "
                        + "The Portals 3.2 Message Passing Interface, Revision 1.1 §3.3.1</span>")
                .contains("<details class=\"trace\"><summary>stack trace</summary><pre>java.lang.AssertionError: "
                        + HOSTILE_ESCAPED
                        + "\n\tat org.portals3j.tck.portals.InitTest.initAgain(InitTest.java:12)</pre></details>")
                .contains("resolution A-01");
        assertThat(html).contains("<a href=\"#a-P-002\">P-002</a>")
                .contains("<body data-overall=\"failed\">")
                .contains("<span class=\"word\">Failed:</span> <span class=\"detail\">1 assertion (2 tests) "
                        + "on inmem</span>");
        // the passing and skipped rows carry no failure block; the skip says why
        assertThat(row(html, "P-001")).doesNotContain("class=\"failures\"");
        assertThat(row(html, "P-005")).contains("data-verdict=\"skipped\"", "skipped on inmem: <code "
                + "title=\"org.portals3j.tck.portals.EventTest\">EventTest.<wbr>once</code>: needs 4 ranks");
    }

    /**
     * Every skipped test is named with its reason: also one whose assertion passed through another test, and one
     * that names no catalogue assertion (before, only an assertion whose every test was skipped showed one reason).
     */
    @Test
    void theReportNamesEverySkippedTestAndWhy() {
        KitTest initOnUdp = test("InitTest", "initOverUdp", "P-001");
        TransportRun run = new TransportRun("inmem", "", List.of(
                new TestOutcome(INIT, TestStatus.PASSED, "", "", Duration.ofMillis(12)),
                new TestOutcome(initOnUdp, TestStatus.SKIPPED, "Assumption failed: only over udp", "", Duration.ZERO),
                new TestOutcome(EVENT, TestStatus.SKIPPED, "needs 4 ranks <of " + HOSTILE + ">", "", Duration.ZERO),
                new TestOutcome(STRAY, TestStatus.SKIPPED, "", "", Duration.ZERO)), Duration.ofMillis(50));
        String html = HtmlReport.render(new TckResult(CATALOGUE, List.of(INIT, initOnUdp, EVENT, STRAY),
                List.of(run)), WHEN);
        assertThat(row(html, "P-001")).as("the assertion passed through its other test").contains(
                "data-verdict=\"passed\"");
        int start = html.indexOf("<section id=\"skipped\">");
        assertThat(start).as("the report has a section of skipped tests").isNotNegative();
        String skipped = html.substring(start, html.indexOf("</section>", start));
        assertThat(skipped).contains("<h2>Skipped tests<span class=\"count\">3</span></h2>")
                .contains("data-transport=\"inmem\" data-test=\"InitTest.initOverUdp\"")
                .contains("<span class=\"reason\">Assumption failed: only over udp</span>")
                .contains("data-test=\"EventTest.once\"")
                .contains("<span class=\"reason\">needs 4 ranks &lt;of " + HOSTILE_ESCAPED + "&gt;</span>")
                .contains("data-test=\"StrayTest.namesNothingKnown\"", "<span class=\"ids\">P-999</span>")
                .contains("<span class=\"reason\">(no reason given)</span>");
        assertThat(count(skipped, "<li class=\"skip\"")).isEqualTo(3);
        assertThat(render(passingRun())).as("no skip, no section").doesNotContain("id=\"skipped\"");
    }

    @Test
    void assertionsTheKitDoesNotRunShowHowTheyAreCheckedInsteadOfAVerdict() {
        String html = render(failingRun(), unavailableUdp());
        assertThat(row(html, "P-003"))
                .contains("data-verdict=\"not-testable\"", "testable: no", "not applicable to Java")
                .doesNotContain("data-transport=\"inmem\"");
        assertThat(row(html, "P-004")).contains("data-verdict=\"engine-test\"", "NiTableTest checks it",
                "The NI table is sized &lt;max&gt;.");
    }

    @Test
    void aFailedTestThatNamesNoCatalogueAssertionIsStillShown() {
        String html = render(failingRun(), unavailableUdp());
        assertThat(html).contains("id=\"untraced\"").contains("StrayTest.namesNothingKnown")
                .contains("untraced failure");
    }

    @Test
    void thePageIsSelfContained(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub/report.html");
        HtmlReport.write(result(failingRun(), unavailableUdp()), file);
        String html = Files.readString(file);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<style>", "<script>")
                .doesNotContain("src=", "<link", "@import", "url(", "http://", "https://");
    }

    // --- fixture ---

    static KitTest test(String cls, String method, String... ids) {
        String className = "org.portals3j.tck.portals." + cls;
        return new KitTest("[engine:junit-jupiter]/[class:" + className + "]/[method:" + method + "()]", className,
                method, method + "()", Set.of(ids));
    }

    private static TransportRun failingRun() {
        return new TransportRun("inmem", "", List.of(
                new TestOutcome(INIT, TestStatus.PASSED, "", "", Duration.ofMillis(12)),
                new TestOutcome(AGAIN, TestStatus.FAILED, "AssertionError: " + HOSTILE,
                        "java.lang.AssertionError: " + HOSTILE
                        + "\n\tat org.portals3j.tck.portals.InitTest.initAgain(InitTest.java:12)",
                        Duration.ofMillis(30)),
                new TestOutcome(EVENT, TestStatus.SKIPPED, "needs 4 ranks", "", Duration.ZERO),
                new TestOutcome(STRAY, TestStatus.FAILED, "untraced failure", "", Duration.ZERO)),
                Duration.ofMillis(1234));
    }

    private static TransportRun passingRun() {
        return new TransportRun("inmem", "", List.of(
                new TestOutcome(INIT, TestStatus.PASSED, "", "", Duration.ofMillis(12)),
                new TestOutcome(AGAIN, TestStatus.PASSED, "", "", Duration.ofMillis(12))), Duration.ofMillis(50));
    }

    private static TransportRun unavailableUdp() {
        return new TransportRun("udp", "no route to loopback <lo>", List.of(), Duration.ZERO);
    }

    private static TckResult result(TransportRun... runs) {
        return new TckResult(CATALOGUE, List.of(INIT, AGAIN, EVENT, STRAY), List.of(runs));
    }

    private static String render(TransportRun... runs) {
        return HtmlReport.render(result(runs), WHEN);
    }

    /** The row group of one assertion in a rendered report. */
    static String row(String html, String id) {
        int start = html.indexOf("<tbody class=\"assertion\" id=\"a-" + id + "\"");
        assertThat(start).as("the report has a row for %s", id).isNotNegative();
        return html.substring(start, html.indexOf("</tbody>", start));
    }

    /** The matrix cell of one area (empty: the spec's total) on one transport. */
    static String cell(String html, String spec, String area, String transport) {
        Matcher m = Pattern.compile("<td class=\"cell [^\"]*\" data-spec=\"" + spec + "\" data-area=\""
                + Pattern.quote(area)
                + "\" data-transport=\"" + Pattern.quote(transport) + "\"[^>]*>.*?</td>").matcher(html);
        assertThat(m.find()).as("the matrix has a cell for %s / %s / %s", spec, area, transport).isTrue();
        return m.group();
    }

    static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
