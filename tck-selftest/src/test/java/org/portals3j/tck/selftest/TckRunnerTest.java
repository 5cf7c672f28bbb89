package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.catalogue.Testability;
import org.portals3j.tck.report.ConsoleMatrix;
import org.portals3j.tck.report.HtmlReport;
import org.portals3j.tck.report.TapReport;
import org.portals3j.tck.runner.TckListener;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;
import org.portals3j.tck.runner.Verdict;
import org.portals3j.tck.selftest.fixtures.BrokenSetUpFixture;
import org.portals3j.tck.selftest.fixtures.OutcomesFixture;

/** The runner turns what JUnit reports into outcomes and verdicts without losing or inventing any. */
class TckRunnerTest {
    @TempDir
    @SuppressWarnings("initialization.static.field.uninitialized") // JUnit injects it before @BeforeAll
    static Path dir;

    private static TckResult result = new TckResult(Catalogue.builtIn(), List.of(), List.of());
    private static final List<String> heard = new ArrayList<>();
    private static final @Nullable String transportBefore = System.getProperty(TckTransport.PROPERTY);
    private static final @Nullable String patienceBefore = System.getProperty(TckTransport.PATIENCE_PROPERTY);

    @BeforeAll
    static void runTheFixturesOnInmemAndOnATransportThatIsNotThere() {
        result = TckRunner.builder()
                .transports(List.of("inmem", "no-such-transport"))
                .classes(List.of(OutcomesFixture.class, BrokenSetUpFixture.class))
                .patience(Duration.ofMillis(1234))
                .junitXml(dir.resolve("junit"))
                .listener(new TckListener() {
                    @Override
                    public void transportStarted(String transport, int tests) {
                        heard.add("start " + transport);
                    }

                    @Override
                    public void testFinished(String transport, TestOutcome outcome) {
                        heard.add(transport + " " + outcome.test().methodName() + " " + outcome.status());
                    }

                    @Override
                    public void transportFinished(TransportRun run) {
                        heard.add("end " + run.transport());
                    }
                })
                .build().run();
    }

    private static TransportRun inmem() {
        return result.runs().get(0);
    }

    private static Map<String, List<TestStatus>> statusByMethod() {
        return inmem().outcomes().stream().collect(Collectors.groupingBy(o -> o.test().methodName(),
                Collectors.mapping(TestOutcome::status, Collectors.toList())));
    }

    @Test
    void everyTestIsRecordedOnceWithItsStatus() {
        assertThat(statusByMethod()).containsOnly(
                Map.entry("passes", List.of(TestStatus.PASSED)),
                Map.entry("fails", List.of(TestStatus.FAILED)),
                Map.entry("isSkippedByAnAssumption", List.of(TestStatus.SKIPPED)),
                Map.entry("isDisabled", List.of(TestStatus.SKIPPED)),
                Map.entry("oneInvocationOfThreeFails",
                        List.of(TestStatus.PASSED, TestStatus.FAILED, TestStatus.PASSED)),
                Map.entry("seesTheTransportTheRunnerChose", List.of(TestStatus.PASSED)),
                Map.entry("passesAnAssertionTheKitSeesOnlyInPart", List.of(TestStatus.PASSED)),
                Map.entry("first", List.of(TestStatus.FAILED)),
                Map.entry("second", List.of(TestStatus.FAILED)));
    }

    @Test
    void messagesSayWhatFailedOrWhySomethingWasSkipped() {
        TestOutcome failed = outcome("fails");
        assertThat(failed.message()).startsWith("AssertionFailedError: [a message]").contains("delivered <twice>");
        assertThat(failed.detail()).contains("OutcomesFixture.fails(OutcomesFixture.java:");
        assertThat(outcome("isSkippedByAnAssumption").message()).contains("not on this transport");
        assertThat(outcome("isDisabled").message()).isEqualTo("disabled on purpose");
        assertThat(outcome("first").message())
                .startsWith("in BrokenSetUpFixture: IllegalStateException: no fabric here");
    }

    @Test
    void verdictsAggregateTheTestsOfEachAssertion() {
        assertThat(verdict("P-001")).isEqualTo(Verdict.PASSED);
        assertThat(verdict("P-002")).isEqualTo(Verdict.FAILED);
        assertThat(verdict("P-005")).as("one failing invocation fails the assertion").isEqualTo(Verdict.FAILED);
        assertThat(verdict("P-006")).as("the transport and patience were set for the run").isEqualTo(Verdict.PASSED);
        assertThat(verdict("P-010")).isEqualTo(Verdict.FAILED);
        assertThat(verdict("P-061")).isEqualTo(Verdict.NOT_RUN);
        assertThat(verdict("P-003")).isEqualTo(Verdict.NOT_TESTABLE);
        assertThat(verdict("I-136")).isEqualTo(Verdict.ENGINE_TEST);
        // P-004 is on the class: its passing tests make it pass, its failing ones fail it.
        assertThat(verdict("P-004")).isEqualTo(Verdict.FAILED);
        assertThat(result.failedAssertions(inmem())).containsExactly("P-002", "P-004", "P-005", "P-010", "P-011");
        assertThat(result.anyFailed()).isTrue();
    }

    @Test
    void executedTestsCountsWhatPassedOrFailedAndAnUnknownAssertionIsRefusedUpFront() {
        long passedOrFailed = result.runs().stream()
                .mapToLong(r -> r.count(TestStatus.PASSED) + r.count(TestStatus.FAILED)).sum();
        assertThat(result.executedTests()).isEqualTo(passedOrFailed).isPositive();
        assertThat(new TckResult(Catalogue.builtIn(), List.of(), List.of()).executedTests()).isZero();
        assertThat(TckRunner.unknownAssertions(Set.of("P-001", "P-999", "I-998")))
                .containsExactly("I-998", "P-999");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TckRunner.builder()
                        .assertions(Set.of("P-001", "P-999")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("P-999 is not in the kit's catalogue");
    }

    @Test
    void aTransportThatIsNotThereRunsNothingAndSaysWhy() {
        TransportRun missing = result.runs().get(1);
        assertThat(missing.available()).isFalse();
        assertThat(missing.unavailableReason())
                .startsWith("no transport provider named 'no-such-transport' on the class path");
        assertThat(missing.outcomes()).isEmpty();
        Assertion p001 = result.catalogue().find("P-001").orElseThrow();
        assertThat(result.verdict(p001, missing)).isEqualTo(Verdict.NOT_AVAILABLE);
        assertThat(TapReport.render(result, missing))
                .startsWith("TAP version 14\n1..0 # SKIP not available: no transport");
    }

    @Test
    void theRunLeavesTheKitPropertiesAsItFoundThem() {
        assertThat(Objects.toString(System.getProperty(TckTransport.PATIENCE_PROPERTY), "(unset)"))
                .isEqualTo(Objects.toString(patienceBefore, "(unset)"));
        assertThat(Objects.toString(System.getProperty(TckTransport.PROPERTY), "(unset)"))
                .isEqualTo(Objects.toString(transportBefore, "(unset)"));
    }

    @Test
    void theListenerHearsEveryTestBetweenStartAndEnd() {
        assertThat(heard).first().isEqualTo("start inmem");
        assertThat(heard).contains("inmem fails FAILED", "end no-such-transport")
                .doesNotContain("start no-such-transport");
        assertThat(heard.indexOf("end inmem")).isEqualTo(1 + inmem().outcomes().size());
    }

    @Test
    void tapAndJunitXmlCarryTheFailures() throws Exception {
        String tap = TapReport.render(result, inmem());
        assertThat(tap).startsWith("TAP version 14\n1.." + inmem().outcomes().size() + "\n")
                .contains("not ok ").contains("  message: \"AssertionFailedError: [a message]")
                .contains("OutcomesFixture.isSkippedByAnAssumption # SKIP TestAbortedException: Assumption failed: "
                        + "not on this transport")
                .contains("not ok 3 - P-004,P-005 OutcomesFixture.oneInvocationOfThreeFails [2] 2\n")
                .contains("    - \"P-002: Portals 3.2 §");
        try (var files = Files.list(dir.resolve("junit").resolve("inmem"))) {
            String xml = Files.readString(files.filter(p -> p.toString().endsWith(".xml")).findFirst().orElseThrow());
            assertThat(xml).contains("<testcase name=\"fails()\"").contains("delivered &lt;twice&gt;");
        }
    }

    /**
     * I-020 is marked partial in the catalogue: its passing test makes it "partial" in every report, never "passed".
     */
    @Test
    void anAssertionTheKitSeesOnlyInPartIsPartialInEveryReportNeverPassed() throws Exception {
        Assertion i020 = result.catalogue().find("I-020").orElseThrow();
        assertThat(i020.testability()).isEqualTo(Testability.PARTIAL);
        assertThat(verdict("I-020")).isEqualTo(Verdict.PARTIAL);

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        ConsoleMatrix.print(result, new PrintStream(console, true, StandardCharsets.UTF_8));
        String isochrons = console.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("  Isochrons"))
                .findFirst().orElseThrow();
        assertThat(isochrons).contains("1 partial").doesNotContain(" ok");

        assertThat(TapReport.render(result, inmem())).containsPattern(
                "ok \\d+ - I-020,P-004 OutcomesFixture.passesAnAssertionTheKitSeesOnlyInPart\n  ---\n  partial:\n"
                        + "    - \"I-020 is checked only in part: The ids are not visible");

        String xml;
        try (var files = Files.list(dir.resolve("junit").resolve("inmem"))) {
            xml = Files.readString(files.filter(p -> p.toString().endsWith(".xml")).findFirst().orElseThrow());
        }
        String testcase = xml.substring(xml.indexOf("<testcase name=\"passesAnAssertionTheKitSeesOnlyInPart()\""));
        testcase = testcase.substring(0, testcase.indexOf("</testcase>"));
        assertThat(testcase).contains("\t- partial: I-020 is checked only in part: The ids are not visible");
        String plain = xml.substring(xml.indexOf("<testcase name=\"passes()\""));
        assertThat(plain.substring(0, plain.indexOf("</testcase>"))).as("a plain pass carries no such entry")
                .doesNotContain("partial");

        String html = HtmlReport.render(result, ZonedDateTime.now());
        String row = HtmlReportTest.row(html, "I-020");
        assertThat(row).contains("data-verdict=\"partial\"", "data-transport=\"inmem\" data-verdict=\"partial\"",
                "testable: partial").doesNotContain("data-verdict=\"passed\"");
        assertThat(HtmlReportTest.cell(html, "ISOTACH", "Isochrons", "inmem"))
                .contains("data-passed=\"0\"", "data-partial=\"1\"");
    }

    private static Verdict verdict(String id) {
        return result.verdict(result.catalogue().find(id).orElseThrow(), inmem());
    }

    private static TestOutcome outcome(String method) {
        return inmem().outcomes().stream().filter(o -> o.test().methodName().equals(method)).findFirst().orElseThrow();
    }
}
