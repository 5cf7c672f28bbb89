package org.portals3j.tck.report;

import java.io.Console;
import java.io.PrintStream;
import org.portals3j.tck.runner.TckListener;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;

/**
 * Shows a run as it goes. On a terminal one line is redrawn in place; otherwise (a log, a CI job) a line
 * is printed at every tenth of the run and at its end, with no carriage return or escape code. A failure is
 * always printed at once, on its own line, with its message. Its final count is the summary's.
 */
public final class ProgressBar implements TckListener {
    private static final int BAR = 30;
    private static final int LINE = 110;

    private final PrintStream out;
    private final boolean terminal;
    private String transport = "";
    private int total;
    private int done;
    private int passed;
    private int failed;
    private int skipped;
    private int lastTenth;
    private boolean lineOpen;

    /**
     * @param terminal whether {@code out} is a terminal that understands a carriage return
     */
    public ProgressBar(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A progress bar on standard output, redrawn in place when that is a terminal. */
    public static ProgressBar onStandardOutput() {
        Console console = System.console();
        return new ProgressBar(System.out, console != null && console.isTerminal());
    }

    @Override
    public synchronized void transportStarted(String transport, int tests) {
        transportStarted(transport, tests, 0);
    }

    @Override
    public synchronized void transportStarted(String transport, int tests, int parameterised) {
        this.transport = transport;
        this.total = tests;
        this.done = 0;
        this.passed = 0;
        this.failed = 0;
        this.skipped = 0;
        this.lastTenth = 0;
        out.println(parameterised == 0 ? "Running " + tests + " tests on " + transport
                : "Running at least " + tests + " tests on " + transport + " (each invocation of its " + parameterised
                        + " parameterised test" + (parameterised == 1 ? "" : "s") + " counts as a test)");
    }

    @Override
    public synchronized void testCountChanged(String transport, int tests) {
        total = Math.max(tests, done);
    }

    @Override
    public synchronized void testFinished(String transport, TestOutcome outcome) {
        done++;
        total = Math.max(total, done); // invocations of a parameterised test are counted as they come
        switch (outcome.status()) {
            case PASSED -> passed++;
            case FAILED -> failed++;
            case SKIPPED -> skipped++;
        }
        if (outcome.status() == TestStatus.FAILED) {
            endLine();
            out.println("  FAILED " + outcome.test().shortName() + " " + outcome.test().assertionIds() + ": "
                    + outcome.message());
        }
        if (terminal) {
            String line = status() + "  " + outcome.test().shortName();
            out.print("\r" + (line.length() > LINE ? line.substring(0, LINE) : line
                    + " ".repeat(LINE - line.length())));
            out.flush();
            lineOpen = true;
        } else {
            // Tenths before the last: the final count is printed once the transport finished.
            int tenth = total == 0 ? 10 : done * 10 / total;
            if (tenth > lastTenth && done < total) {
                lastTenth = tenth;
                out.println(status());
            }
        }
    }

    @Override
    public synchronized void transportFinished(TransportRun run) {
        endLine();
        if (!terminal && run.available()) {
            out.println(status());
        }
        if (!run.available()) {
            out.println(run.transport() + ": not available: " + run.unavailableReason());
        } else {
            out.printf("%s: %d passed, %d failed, %d skipped in %.1f s%n", run.transport(),
                    run.count(TestStatus.PASSED),
                    run.count(TestStatus.FAILED), run.count(TestStatus.SKIPPED), run.elapsed().toMillis() / 1000.0);
        }
    }

    /** The bar and counts, e.g. {@code [udp] [#########.....] 212/416  ok 210  failed 1  skipped 1}. */
    String status() {
        int filled = total == 0 ? BAR : done * BAR / total;
        return "[" + transport + "] [" + "#".repeat(filled) + ".".repeat(BAR - filled) + "] " + done + "/" + total
                + "  ok " + passed + "  failed " + failed + "  skipped " + skipped;
    }

    private void endLine() {
        if (lineOpen) {
            out.println();
            lineOpen = false;
        }
    }
}
