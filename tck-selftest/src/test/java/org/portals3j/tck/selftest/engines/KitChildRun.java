package org.portals3j.tck.selftest.engines;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One run of kit classes in a child JVM ({@link KitOnThisClassPath}), optionally with a directory of engine classes
 * ahead of the build's on the class path: the ids of the assertions it failed and the failed tests' lines.
 */
record KitChildRun(List<String> failedAssertions, List<String> failedTests, int testsRun, String output) {
    /** A hung child is killed after this long: far beyond a run (seconds), so that only a real hang reaches it. */
    private static final long BOUND_SECONDS = 600;

    static KitChildRun of(@Nullable Path enginesFirst, List<String> kitClasses) throws IOException,
            InterruptedException {
        String classPath = System.getProperty("java.class.path");
        if (enginesFirst != null) {
            classPath = enginesFirst + File.pathSeparator + classPath;
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                KitOnThisClassPath.class.getName()));
        cmd.addAll(kitClasses);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("SLURM_")
                || k.startsWith("OMPI_"));
        Process child = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "reading the child's output failed: " + e;
            }
        });
        boolean ended;
        try {
            ended = child.waitFor(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            child.destroyForcibly(); // the self-test is being stopped: leave no kit JVM behind
            throw e;
        }
        if (!ended) {
            child.destroyForcibly();
            throw new AssertionError("the kit did not finish within " + BOUND_SECONDS + " s on " + kitClasses);
        }
        String output = out.join();
        if (child.exitValue() != 0) {
            throw new AssertionError("the kit's JVM exited with " + child.exitValue() + ":\n" + output);
        }
        List<String> failed = new ArrayList<>();
        List<String> tests = new ArrayList<>();
        int ran = -1;
        for (String line : output.split("\n")) {
            if (line.startsWith(KitOnThisClassPath.FAILED_ASSERTION)) {
                failed.add(line.substring(KitOnThisClassPath.FAILED_ASSERTION.length()).strip());
            } else if (line.startsWith(KitOnThisClassPath.FAILED_TEST)) {
                tests.add(line.substring(KitOnThisClassPath.FAILED_TEST.length()));
            } else if (line.startsWith(KitOnThisClassPath.RAN)) {
                ran = Integer.parseInt(line.substring(KitOnThisClassPath.RAN.length()).strip());
            }
        }
        if (ran < 0) {
            throw new AssertionError("the kit's JVM printed no result:\n" + output);
        }
        return new KitChildRun(List.copyOf(failed), List.copyOf(tests), ran, output);
    }

    /** The failed tests, one a line, for an assertion's message. */
    String failures() {
        return failedTests.isEmpty() ? "no test failed" : "failed tests:\n  " + String.join("\n  ", failedTests);
    }
}
