package org.portals3j.tck.runner;

import java.util.TreeSet;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.portals3j.tck.catalogue.Assertion;
import org.portals3j.tck.catalogue.Catalogue;
import org.portals3j.tck.catalogue.Testability;

/**
 * Passes a run to a report listener (the JUnit XML writer) and tells it, as a report entry {@code partial} of the
 * test, every assertion the test names that the kit checks only in part: its pass is never read as a whole one.
 */
final class PartialReportEntries implements TestExecutionListener {
    /** The key of the report entries this adds. */
    static final String KEY = "partial";

    private final TestExecutionListener report;
    private final Catalogue catalogue;

    PartialReportEntries(TestExecutionListener report, Catalogue catalogue) {
        this.report = report;
        this.catalogue = catalogue;
    }

    /** The text of the entry for {@code a}: its id, and what the kit cannot see of it. */
    static String entry(Assertion a) {
        return a.id() + " is checked only in part: " + a.note();
    }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        report.testPlanExecutionStarted(plan);
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        report.testPlanExecutionFinished(plan);
    }

    @Override
    public void dynamicTestRegistered(TestIdentifier id) {
        report.dynamicTestRegistered(id);
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        report.executionSkipped(id, reason);
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        report.executionStarted(id);
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (id.isTest() && id.getSource().orElse(null) instanceof MethodSource m) {
            for (String assertionId : new TreeSet<>(TckRunner.assertionIds(m))) {
                catalogue.find(assertionId).filter(a -> a.testability() == Testability.PARTIAL)
                        .ifPresent(a -> report.reportingEntryPublished(id, ReportEntry.from(KEY, entry(a))));
            }
        }
        report.executionFinished(id, result);
    }

    @Override
    public void reportingEntryPublished(TestIdentifier id, ReportEntry entry) {
        report.reportingEntryPublished(id, entry);
    }

    @Override
    public void fileEntryPublished(TestIdentifier id, FileEntry file) {
        report.fileEntryPublished(id, file);
    }
}
