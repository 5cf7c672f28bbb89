package org.portals3j.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Starts a class of this test class path in a fresh JVM with a clean PORTALS/SLURM/OMPI environment. */
final class ChildJvm {
    final Process process;
    final CompletableFuture<String> out;
    final CompletableFuture<String> err;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = drain(process, false);
        this.err = drain(process, true);
    }

    static ChildJvm start(Class<?> main, Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("SLURM_")
                || k.startsWith("OMPI_"));
        pb.environment().putAll(env);
        return new ChildJvm(pb.start());
    }

    private static CompletableFuture<String> drain(Process p, boolean stderr) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                byte[] bytes = (stderr ? p.getErrorStream() : p.getInputStream()).readAllBytes();
                f.complete(new String(bytes, StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    int await() throws Exception {
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child did not end; stderr: " + err.getNow("?"));
        }
        return process.exitValue();
    }

    String stdout() throws Exception {
        return out.get(30, TimeUnit.SECONDS);
    }

    String stderr() throws Exception {
        return err.get(30, TimeUnit.SECONDS);
    }
}
