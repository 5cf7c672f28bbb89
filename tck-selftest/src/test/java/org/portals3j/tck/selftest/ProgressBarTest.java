package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.report.ConsoleMatrix;
import org.portals3j.tck.report.ProgressBar;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.selftest.fixtures.OutcomesFixture;

/** The progress display as a log or CI job shows it: counts that agree with the summary, plain text only. */
class ProgressBarTest {
    private static final Pattern STATUS = Pattern.compile("\\[inmem] \\[[#.]+] (\\d+)/(\\d+) .*");
    private static final Pattern SUMMARY = Pattern.compile("inmem: (\\d+) passed, (\\d+) failed, (\\d+) skipped .*");

    /**
     * OutcomesFixture has seven tests, one of them parameterised with three invocations: nine outcomes. The last
     * progress line must count nine of nine, as the summary does (it used to stop at seven of seven).
     */
    @Test
    void theLastProgressLineCountsTheTestsTheSummaryCounts() {
        String printed = run(false);
        List<String> lines = printed.lines().toList();
        assertThat(lines).first().asString()
                .isEqualTo("Running at least 7 tests on inmem (each invocation of its 1 parameterised test counts"
                        + " as a test)");
        String summary = lines.stream().filter(l -> SUMMARY.matcher(l).matches()).findFirst().orElseThrow();
        Matcher s = SUMMARY.matcher(summary);
        assertThat(s.matches()).isTrue();
        int outcomes = number(s, 1) + number(s, 2) + number(s, 3);
        assertThat(outcomes).isEqualTo(9);
        String last = lines.get(lines.indexOf(summary) - 1);
        Matcher m = STATUS.matcher(last);
        assertThat(m.matches()).as("the line before the summary is the final progress line: %s", last).isTrue();
        assertThat(List.of(number(m, 1), number(m, 2))).containsExactly(9, 9);
        for (String line : lines) {
            Matcher each = STATUS.matcher(line);
            if (each.matches()) {
                assertThat(number(each, 1)).as(line).isLessThanOrEqualTo(number(each, 2));
            }
        }
    }

    /** Escape codes and carriage returns are for a terminal: a log gets plain lines, progress and summary alike. */
    @Test
    void notOnATerminalNothingButPlainTextIsPrinted() {
        String printed = run(false);
        assertThat(printed).doesNotContain("\r", "\u001b")
                .containsPattern("  FAILED OutcomesFixture\\.fails \\[P-00[24], P-00[24]]: ");
        assertThat(run(true)).as("on a terminal the bar is redrawn in place").contains("\r");
    }

    /** The number group {@code group} of a matched line holds. */
    private static int number(Matcher matched, int group) {
        @Nullable String digits = matched.group(group);
        if (digits == null) {
            throw new AssertionError("no group " + group + " in " + matched);
        }
        return Integer.parseInt(digits);
    }

    /** The fixture run on inmem with a progress bar, then the summary matrix, as {@code portals tck} prints them. */
    private static String run(boolean terminal) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        TckResult result = TckRunner.builder()
                .transports(List.of("inmem"))
                .classes(List.of(OutcomesFixture.class))
                .patience(Duration.ofMillis(1234))
                .listener(new ProgressBar(out, terminal))
                .build().run();
        ConsoleMatrix.print(result, out);
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
