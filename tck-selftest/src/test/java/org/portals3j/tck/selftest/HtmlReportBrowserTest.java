package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.selftest.HtmlReportTest.HOSTILE;
import static org.portals3j.tck.selftest.HtmlReportTest.count;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.report.Chromium;
import org.portals3j.tck.report.ChromiumException;
import org.portals3j.tck.report.HtmlReport;
import org.portals3j.tck.runner.KitTest;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;

/**
 * The HTML report as a real browser shows it: a report of a real run of part of the kit on inmem, beside a
 * transport that does not exist and a copy of the inmem run in which one test failed with a hostile message,
 * is loaded in headless Chromium. The report and its picture stay in {@code target/html-report-browser-test/}
 * for people to look at.
 */
class HtmlReportBrowserTest {
    private static final Path OUT = Path.of("target", "html-report-browser-test");
    private static final String BROKEN = "inmem-broken";
    private static final String MISSING = "no-such-transport";

    private static final Path REPORT = OUT.resolve("report.html");

    private static @Nullable Chromium chromium;
    /** The assertion the broken run failed. */
    private static String failedId = "";

    @BeforeAll
    static void runPartOfTheKitAndWriteItsReport() throws Exception {
        try {
            // a headless screenshot took over a minute at load 20 on 2 cores: a test waits longer than a user would
            chromium = Chromium.find().withTimeout(Duration.ofMinutes(4));
        } catch (ChromiumException e) {
            Assumptions.abort("the browser test needs Chromium: " + e.getMessage());
        }
        TckResult real = TckRunner.builder()
                .transports(List.of("inmem", MISSING))
                .classes(List.of(Class.forName("org.portals3j.tck.portals.InitializationTest"),
                        Class.forName("org.portals3j.tck.isotach.IsochronOrderTest")))
                .patience(Duration.ofSeconds(5))
                .build().run();
        TransportRun inmem = real.runs().get(0);
        assertThat(inmem.available()).isTrue();
        assertThat(inmem.count(TestStatus.PASSED)).as("the real run passed").isEqualTo(inmem.outcomes().size())
                .isPositive();
        assertThat(real.runs().get(1).available()).isFalse();

        // The same run with one test failed (one that names a single assertion): a broken transport's report.
        List<TestOutcome> outcomes = new ArrayList<>(inmem.outcomes());
        int victim = 0;
        while (outcomes.get(victim).test().assertionIds().size() != 1) {
            victim++;
        }
        TestOutcome first = outcomes.get(victim);
        KitTest test = first.test();
        failedId = test.assertionIds().iterator().next();
        outcomes.set(victim, new TestOutcome(test, TestStatus.FAILED, "AssertionError: " + HOSTILE,
                "java.lang.AssertionError: " + HOSTILE + "\n\tat " + test.className() + "." + test.methodName()
                + "(Test.java:1)", first.duration()));
        TransportRun broken = new TransportRun(BROKEN, "", outcomes, inmem.elapsed());
        TckResult result = new TckResult(real.catalogue(), real.tests(), List.of(inmem, broken, real.runs().get(1)));

        HtmlReport.write(result, REPORT);
    }

    @Test
    void theBrowserShowsTheMatrixAndTheFailingRowWithItsMessage() {
        Set<String> before = chromiumLeftovers();
        String dom = browser().dumpDom(REPORT);

        assertThat(dom).as("the page's script ran").contains("data-script=\"ready\"");
        assertThat(dom).contains("<table id=\"matrix\">");
        String initialisation = cell(dom, "Initialisation", "inmem");
        // part of the kit ran: the area's other assertions are "not run", so the cell is not all green
        assertThat(initialisation).contains("state-passed-some", "data-failed=\"0\"")
                .containsPattern("data-passed=\"[1-9]");
        assertThat(cell(dom, "Initialisation", BROKEN)).contains("state-failed", "data-failed=\"1\"");
        assertThat(cell(dom, "Initialisation", MISSING)).contains("state-not-available", "not available");
        assertThat(dom).contains("not available: no transport provider named '" + MISSING + "'");

        String row = row(dom, failedId);
        assertThat(row).contains("data-verdict=\"failed\"")
                // a browser serialises a text node with <, > and & escaped and quotes as they are
                .contains("<p class=\"message\">AssertionError: &lt;script&gt;alert(1)&lt;/script&gt; &amp; \"x\"</p>")
                .contains("Where the spec says it:");
        assertThat(count(dom, "<script")).as("the hostile message did not become a script").isEqualTo(1);
        assertThat(dom).doesNotContain(HOSTILE);
        assertThat(chromiumLeftovers()).as("browser processes and directories left behind").isSubsetOf(before);
    }

    @Test
    void openedAsFailedTheListShowsOnlyTheFailedAssertion() throws IOException {
        URI failedView = URI.create(REPORT.toAbsolutePath().toUri() + "#failed");
        String dom = browser().dumpDom(failedView);
        Matcher rows = Pattern.compile("<tbody class=\"assertion\"[^>]*>").matcher(dom);
        List<String> shown = new ArrayList<>();
        int all = 0;
        while (rows.find()) {
            all++;
            if (!rows.group().contains(" hidden=")) {
                shown.add(rows.group());
            }
        }
        assertThat(all).isGreaterThan(400);
        assertThat(shown).singleElement().asString().contains("data-assertion=\"" + failedId + "\"");
        assertThat(dom).contains("<span id=\"shown-count\">showing 1 of " + all + "</span>");
    }

    @Test
    void aScreenshotIsAPictureOfTheRequestedSize() throws IOException {
        Path png = OUT.resolve("report.png");
        browser().screenshot(REPORT, png, 1280, 1800);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("%s is a PNG", png).isNotNull();
        assertThat(image.getWidth()).isEqualTo(1280);
        assertThat(image.getHeight()).isEqualTo(1800);
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 7) {
            for (int x = 0; x < image.getWidth(); x += 7) {
                colours.add(image.getRGB(x, y));
            }
        }
        assertThat(colours.size()).as("distinct colours: the page was drawn, not a blank").isGreaterThan(20);
    }

    private static Chromium browser() {
        Chromium found = chromium;
        if (found == null) {
            throw new IllegalStateException("no browser: @BeforeAll should have skipped the tests");
        }
        return found;
    }

    /** The matrix cell of an area of Portals 3.2 or Isotach on a transport, as serialised by the browser. */
    private static String cell(String dom, String area, String transport) {
        Matcher m = Pattern.compile("<td class=\"cell [^\"]*\" data-spec=\"[A-Z]+\" data-area=\"" + Pattern.quote(area)
                + "\" data-transport=\"" + Pattern.quote(transport) + "\"[^>]*>.*?</td>").matcher(dom);
        assertThat(m.find()).as("a matrix cell for %s on %s", area, transport).isTrue();
        return m.group();
    }

    private static String row(String dom, String id) {
        int start = dom.indexOf("<tbody class=\"assertion\" id=\"a-" + id + "\"");
        assertThat(start).as("a row for %s", id).isNotNegative();
        return dom.substring(start, dom.indexOf("</tbody>", start));
    }

    /**
     * This JVM's browser temp directories and processes that exist now (a run's own must be gone when it returns);
     * those of other JVMs, such as another module's tests in a parallel build, are not this test's.
     */
    private static Set<String> chromiumLeftovers() {
        Set<String> found = new HashSet<>();
        String mine = Chromium.WORK_PREFIX + ProcessHandle.current().pid() + "-";
        try (Stream<Path> tmp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            tmp.map(p -> String.valueOf(p.getFileName())).filter(n -> n.startsWith(mine)).forEach(found::add);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            all.filter(h -> h.info().commandLine().map(c -> c.contains(mine)).orElse(false))
                    .forEach(h -> found.add("pid " + h.pid()));
        }
        return found;
    }
}
