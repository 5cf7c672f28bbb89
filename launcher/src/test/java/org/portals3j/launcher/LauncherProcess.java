package org.portals3j.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** The real launcher ({@code PortalsCommand.main}) in a child JVM, its output collected line by line. */
final class LauncherProcess {
    final Process process;
    final List<String> out = new CopyOnWriteArrayList<>();
    final List<String> err = new CopyOnWriteArrayList<>();
    private final Thread outPump;
    private final Thread errPump;

    private LauncherProcess(Process process) {
        this.process = process;
        this.outPump = Thread.ofPlatform().daemon().start(() -> collect(process.getInputStream(), out));
        this.errPump = Thread.ofPlatform().daemon().start(() -> collect(process.getErrorStream(), err));
    }

    static LauncherProcess start(String... args) throws IOException {
        return startWithEnv(Map.of(), args);
    }

    /** {@link #start} with extra environment variables for the launcher (and so its ranks). */
    static LauncherProcess startWithEnv(Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:TieredStopAtLevel=1");
        // as users start the launcher jar (package-info): run --transport gm loads libgm in the launcher to check it
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(PortalsCommand.class.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("SLURM_")
                || k.startsWith("OMPI_"));
        // The ranks inherit it: quick-starting JVMs keep the tests short on a small machine.
        pb.environment().put("JDK_JAVA_OPTIONS", "-XX:TieredStopAtLevel=1");
        pb.environment().putAll(env);
        return new LauncherProcess(pb.start());
    }

    private static void collect(InputStream in, List<String> lines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.startsWith("NOTE: Picked up JDK_JAVA_OPTIONS")
                        && !line.matches("\\[\\d+] NOTE: Picked up JDK_JAVA_OPTIONS.*")) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            // the launcher is gone
        }
    }

    /** Waits for the launcher to end and returns its exit status. */
    int await() throws Exception {
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("the launcher did not end; stdout " + out + " stderr " + err);
        }
        outPump.join(10_000);
        errPump.join(10_000);
        return process.exitValue();
    }

    /** Waits until {@code count} stdout lines match. */
    List<String> awaitOut(Predicate<String> match, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            List<String> found = out.stream().filter(match).toList();
            if (found.size() >= count) {
                return found;
            }
            if (!process.isAlive() && !outPump.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("expected " + count + " matching lines; stdout " + out + " stderr " + err);
    }
}
