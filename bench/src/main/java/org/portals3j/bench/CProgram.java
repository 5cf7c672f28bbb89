package org.portals3j.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A C program shipped as a resource of this module: compiled into a temporary directory that {@link #close} removes,
 * and run with its output and errors captured in files (no pipe to block on), killed after a timeout.
 */
final class CProgram implements AutoCloseable {
    private final Path dir;
    private final Path source;
    private final Path program;

    private CProgram(Path dir, Path source, Path program) {
        this.dir = dir;
        this.source = source;
        this.program = program;
    }

    /** What a run printed. */
    record Output(String out, String err) {
    }

    /** {@code tool} as found on PATH, or null. */
    static Path onPath(String tool) {
        String path = System.getenv("PATH");
        for (String d : (path == null ? "" : path).split(":")) {
            Path p = Path.of(d.isEmpty() ? "." : d, tool);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Copies the resource {@code resource} (relative to this class) into a temporary directory and compiles it with
     * {@code compiler} ({@code "gcc", "-O2", ...}), to which the output and source paths are added.
     */
    static CProgram compile(String resource, List<String> compiler) throws IOException, InterruptedException {
        String name = resource.substring(resource.lastIndexOf('/') + 1);
        Path dir = Files.createTempDirectory(name.replace(".c", "-"));
        Path source = dir.resolve(name);
        Path program = dir.resolve(name.replace(".c", ""));
        CProgram p = new CProgram(dir, source, program);
        try {
            try (InputStream in = CProgram.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("resource " + resource + " is missing from the bench jar");
                }
                Files.copy(in, source);
            }
            List<String> command = new ArrayList<>(compiler);
            command.addAll(List.of("-o", program.toString(), source.toString()));
            run(command, Map.of(), 300);
            return p;
        } catch (IOException | InterruptedException | RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /**
     * Why a program through libportals3 cannot be built from {@code sources}/{@code source} with native-shim's build in
     * {@code nativeDir} (its portalscc missing, or the source), or null when it can.
     */
    static String shimMissing(Path nativeDir, Path sources, String source) {
        if (!Files.isExecutable(nativeDir.resolve("bin/portalscc"))) {
            return "native-shim is not built (no " + nativeDir.resolve("bin/portalscc") + "): mvn -pl native-shim"
                    + " -am install";
        }
        if (!Files.isRegularFile(sources.resolve(source))) {
            return "no " + source + " in " + sources;
        }
        return null;
    }

    /** The compiled program. */
    Path path() {
        return program;
    }

    /**
     * Runs {@code command} with {@code environment} added, killing it and its descendants after
     * {@code timeoutSeconds}; returns what it printed, or throws with its output if it failed.
     */
    static Output run(List<String> command, Map<String, String> environment, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("c-program", ".out");
        Path errors = Files.createTempFile("c-program", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(log.toFile()).redirectError(errors.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            pb.environment().putAll(environment);
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end in " + timeoutSeconds
                        + " s");
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            String err = Files.readString(errors, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + p.exitValue() + ":\n"
                        + out + err);
            }
            return new Output(out, err);
        } finally {
            Files.deleteIfExists(log);
            Files.deleteIfExists(errors);
        }
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(program);
        Files.deleteIfExists(source);
        Files.deleteIfExists(dir);
    }
}
