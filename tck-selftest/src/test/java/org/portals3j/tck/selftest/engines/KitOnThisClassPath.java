package org.portals3j.tck.selftest.engines;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TestOutcome;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;

/**
 * The child JVM's main: runs the named kit classes (only their tests that name one of the {@value #ONLY} ids, if
 * given) on {@code inmem} with whatever engine classes come first on its class path, and prints one line per failed
 * assertion id ({@code FAILED-ASSERTION}) and per failed test.
 */
public final class KitOnThisClassPath {
    static final String FAILED_ASSERTION = "FAILED-ASSERTION ";
    static final String FAILED_TEST = "FAILED-TEST ";
    static final String RAN = "RAN ";
    /** The argument that restricts the run to the tests naming these assertion ids, comma separated. */
    static final String ONLY = "--only=";

    private KitOnThisClassPath() {
    }

    /** {@code args}: optionally {@value #ONLY}{@code ids}, then the kit's test classes, by name. */
    public static void main(String[] args) throws ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        Set<String> only = Set.of();
        for (String arg : args) {
            if (arg.startsWith(ONLY)) {
                only = Set.of(arg.substring(ONLY.length()).split(","));
            } else {
                classes.add(Class.forName(arg));
            }
        }
        TckRunner.Builder kit = TckRunner.builder().transports(List.of("inmem")).classes(classes)
                .patience(Duration.ofSeconds(2)) // what a lost event costs: the kit waits this long for it
                .testTimeout(Duration.ofSeconds(60))
                .seed(18L); // randomised tests replay the same traffic on every engine
        if (!only.isEmpty()) {
            kit.assertions(only);
        }
        TckResult result = kit.build().run();
        TransportRun run = result.runs().getFirst();
        if (!run.available()) {
            throw new IllegalStateException("inmem is not available: " + run.unavailableReason());
        }
        System.out.println(RAN + run.outcomes().size());
        for (String id : result.failedAssertions(run)) {
            System.out.println(FAILED_ASSERTION + id);
        }
        for (TestOutcome o : run.outcomes()) {
            if (o.status() == TestStatus.FAILED) {
                String message = o.message().replace('\n', ' ');
                System.out.println(FAILED_TEST + o.test().shortName() + " " + o.test().assertionIds() + ": " + message);
            }
        }
        System.out.flush();
        System.exit(0); // the kit's engines may leave non-daemon threads behind a failed test
    }
}
