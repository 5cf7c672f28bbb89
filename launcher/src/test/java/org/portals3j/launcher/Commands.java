package org.portals3j.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Short system commands the scheduler tests run (ip, hostname, sinfo), each bounded to 60 s. */
final class Commands {
    private Commands() {
    }

    /** A command's exit status (127: it could not start; 124: it did not end in time) and its output. */
    record Result(int status, String output) {
    }

    static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    static Result run(String... cmd) throws InterruptedException {
        return run(Map.of(), cmd);
    }

    static Result run(Map<String, String> env, String... cmd) throws InterruptedException {
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().putAll(env);
            p = pb.start();
        } catch (IOException e) {
            return new Result(127, String.valueOf(e.getMessage()));
        }
        Process started = p;
        StringBuilder out = new StringBuilder();
        Thread pump = Thread.ofPlatform().daemon().start(() -> {
            try {
                out.append(new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the command is gone
            }
        });
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            pump.join(10_000);
            return new Result(124, String.join(" ", cmd) + " did not end within 60 s: " + out);
        }
        pump.join(10_000);
        return new Result(p.exitValue(), out.toString());
    }
}
