package org.portals3j.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.report.Chromium;
import org.portals3j.tck.report.ChromiumException;
import org.portals3j.tck.report.ConsoleMatrix;
import org.portals3j.tck.report.HtmlReport;
import org.portals3j.tck.report.ProgressBar;
import org.portals3j.tck.report.TapReport;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TransportRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code portals tck}: runs the conformance kit against one or more transports, in this JVM, and writes
 * its reports. See {@link TckRunner} for how a transport is chosen.
 */
@Command(name = "tck", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the conformance kit (Portals 3.2, Isotach and LAPI) against transports, shows progress"
                + " and a matrix of spec areas by transport, and writes an HTML report, JUnit XML and TAP.",
            "A transport that cannot be used here is reported as not available, with the reason, never as a pass."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every test that ran passed, and at least one ran", "1:a test failed, no test ran, or a"
                + " transport named with --transport is not available", "2:a usage or configuration error (an"
                + " --assertion id not in the catalogue, or a --transport no provider on the class path has,"
                + " included); nothing is run or written"},
        footer = {"%nExamples:", "  portals tck                                   # every transport found",
            "  portals tck --transport udp --report /tmp/tck",
            "  portals tck --list-assertions                 # the ids --assertion takes",
            "  portals tck --assertion I-079 --seed 42       # replay a randomised test with the seed it printed",
            "  portals tck -cp my-transport.jar --transport mine   # a third-party transport"})
public final class TckCommand implements Callable<Integer> {

    @Option(names = "--transport", paramLabel = "NAME",
            description = "a transport to run on (repeatable); default: every transport on the class path")
    List<String> transports = new ArrayList<>();

    @Option(names = "--report", paramLabel = "DIR", defaultValue = "tck-report",
            description = "where the reports go (default: ${DEFAULT-VALUE}): index.html, junit/NAME/*.xml, "
                    + "tck-NAME.tap")
    Path reportDir = Path.of("tck-report");

    @Option(names = {"-cp", "--class-path"}, paramLabel = "PATH", defaultValue = "",
            description = "jars or folders (':'-separated) with more transport providers, e.g. your own")
    String classPath = "";

    @Option(names = "--assertion", paramLabel = "ID", split = ",",
            description = "run only the tests naming these assertion ids (e.g. P-061,I-017,L-042)")
    List<String> assertions = new ArrayList<>();

    @Option(names = "--list-assertions", description = "list the catalogue's assertions (id, area, how it is"
            + " checked: kit, partial (the kit sees only part of it), engine or no; text) and run nothing")
    boolean listAssertions;

    @Option(names = "--patience", paramLabel = "SECONDS", defaultValue = "10",
            description = "how long a test waits for what must come (default: ${DEFAULT-VALUE})")
    double patienceSeconds = 10;

    @Option(names = "--seed", paramLabel = "N", description = "the seed of every randomised test, to replay a run"
            + " (each prints its seed: 'seed N (replay with -Dportals3j.tck.seed=N)'); default: a new one per test")
    @Nullable Long seed;

    @Option(names = "--screenshot", description = "also save index.png, a picture of the HTML report taken by a"
            + " headless Chromium (apt-get install chromium, or PORTALS3J_CHROMIUM=PATH)")
    boolean screenshot;

    @Override
    public Integer call() throws Exception {
        if (!(patienceSeconds > 0)) {
            throw new LauncherException("--patience must be a positive number of seconds, not " + patienceSeconds);
        }
        if (listAssertions) {
            for (Assertion a : Catalogue.builtIn().all()) {
                System.out.println(a.id() + "\t" + a.area() + "\t" + a.testability().token() + "\t" + a.text());
            }
            return 0;
        }
        for (String id : assertions) {
            if (!id.matches("[PIL]-\\d{3}")) {
                throw new LauncherException("--assertion takes ids like P-061, I-017 or L-042, not '" + id + "'");
            }
        }
        List<String> unknown = TckRunner.unknownAssertions(Set.copyOf(assertions));
        if (!unknown.isEmpty()) {
            throw new LauncherException("--assertion " + String.join(", ", unknown)
                    + (unknown.size() == 1 ? " is" : " are")
                    + " not in the kit's catalogue; list the known ids with: portals tck --list-assertions");
        }
        @Nullable Chromium browser = null;
        if (screenshot) {
            try {
                browser = Chromium.find(); // before the run: a missing browser is a set-up error, found at once
            } catch (ChromiumException e) {
                throw new LauncherException("--screenshot: " + e.getMessage());
            }
        }
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(MainClasses.loader(classPath));
        TckResult result;
        try {
            requireProviders(); // before anything is written: a misspelt name leaves the last report as it was
            try {
                Files.createDirectories(reportDir);
            } catch (IOException e) {
                throw new LauncherException("cannot create the report folder " + reportDir + ": " + e.getMessage());
            }
            TckRunner.Builder runner = TckRunner.builder()
                    .transports(transports)
                    .assertions(Set.copyOf(assertions))
                    .patience(Duration.ofMillis(Math.round(patienceSeconds * 1000)))
                    .junitXml(reportDir.resolve("junit"))
                    .listener(ProgressBar.onStandardOutput());
            if (seed != null) {
                runner.seed(seed);
            }
            result = runner.build().run();
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        ConsoleMatrix.print(result, System.out);
        TapReport.write(result, reportDir);
        Path html = reportDir.resolve("index.html").toAbsolutePath();
        HtmlReport.write(result, html);
        boolean screenshotFailed = false;
        if (browser != null) {
            Path png = reportDir.resolve("index.png").toAbsolutePath();
            try {
                browser.screenshot(html, png, 1400, 2000);
                System.out.println("Screenshot: " + png);
            } catch (ChromiumException e) {
                System.err.println("portals tck: no screenshot: " + e.getMessage());
                screenshotFailed = true;
            }
        }
        System.out.println("HTML report: " + html);
        boolean namedUnavailable = !transports.isEmpty() && result.runs().stream().anyMatch(r -> !r.available());
        boolean anyAvailable = result.runs().stream().anyMatch(TransportRun::available);
        boolean ranNothing = anyAvailable && result.executedTests() == 0;
        if (ranNothing) {
            System.err.println("portals tck: no test ran, so nothing passed: " + (result.tests().isEmpty()
                    ? (assertions.isEmpty() ? "the kit found no test" : "the kit has no test of "
                            + String.join(", ", assertions) + " (an assertion marked engine or no in"
                            + " portals tck --list-assertions is checked elsewhere or not at all)")
                    : "every selected test was skipped (the report says why)"));
        }
        return result.anyFailed() || namedUnavailable || screenshotFailed || !anyAvailable || ranNothing ? 1 : 0;
    }

    /**
     * Refuses a {@code --transport} name no provider on the class path has (a typo, or a jar missing from
     * {@code -cp}) as a usage error. A provider that is there but cannot be used here is not refused: the run
     * reports it as not available, with its reason.
     */
    private void requireProviders() throws LauncherException {
        List<String> found = TckRunner.everyTransport();
        List<String> unknown = transports.stream().distinct().filter(t -> !found.contains(t)).toList();
        if (!unknown.isEmpty()) {
            throw new LauncherException("--transport " + String.join(", ", unknown) + ": no transport provider"
                    + (unknown.size() == 1 ? " of that name" : " of those names") + " on the class path (found: "
                    + String.join(", ", found) + "; a transport of your own comes with -cp JAR); nothing was run and "
                    + reportDir + " was left as it was");
        }
    }
}
