package org.portals3j.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The kernel's loopback floor: compiles {@code socket_floor.c} (a resource of this module) with the C compiler and
 * runs its busy-polling UDP or TCP ping-pong of two processes, one per CPU, returning p50 and p99 half round trips.
 */
final class SocketFloor implements AutoCloseable {
    /** Datagrams, as the udp transport sends them. */
    static final String UDP = "udp";
    /** A TCP stream, as Open MPI's TCP transport uses. */
    static final String TCP = "tcp";
    private static final String SOURCE = "sockets/socket_floor.c";
    private static final long TIMEOUT_SECONDS = 300;

    private final Path dir;
    private final Path program;
    private String placement = "not run yet";

    private SocketFloor(Path dir, Path program) {
        this.dir = dir;
        this.program = program;
    }

    /** Why the floor cannot be measured here (no C compiler on PATH), or null when it can. */
    static String missingTools() {
        return compiler() == null ? "no C compiler (cc or gcc) on PATH: install gcc" : null;
    }

    private static String compiler() {
        String path = System.getenv("PATH");
        for (String tool : List.of("cc", "gcc")) {
            for (String d : (path == null ? "" : path).split(":")) {
                if (Files.isExecutable(Path.of(d.isEmpty() ? "." : d, tool))) {
                    return tool;
                }
            }
        }
        return null;
    }

    /** Compiles the program with {@code -O2}. */
    static SocketFloor build() throws IOException, InterruptedException {
        String cc = compiler();
        if (cc == null) {
            throw new IllegalStateException(missingTools());
        }
        Path dir = Files.createTempDirectory("socket-floor");
        Path source = dir.resolve("socket_floor.c");
        try (InputStream in = SocketFloor.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + SOURCE + " is missing from the bench jar");
            }
            Files.copy(in, source);
        }
        Path program = dir.resolve("socket_floor");
        exec(List.of(cc, "-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-o", program.toString(),
                source.toString()));
        return new SocketFloor(dir, program);
    }

    /**
     * The ping-pong over {@code protocol} ({@link #UDP} or {@link #TCP}): per size from 1 byte to {@code maxSize}
     * (udp: to 32 KiB) doubling, the p50 and p99 half round trip in microseconds.
     */
    Map<Integer, double[]> percentiles(String protocol, int maxSize, int iterations, int warmup)
            throws IOException, InterruptedException {
        String out = exec(List.of(program.toString(), protocol, Integer.toString(maxSize),
                Integer.toString(iterations), Integer.toString(warmup)));
        placement = out.lines().filter(l -> l.startsWith("# socket_floor")).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("placement not reported");
        return OpenMpiPeer.parsePercentiles(out);
    }

    /** Where the last run's processes ran, as the program reported it ("2 processes bound to CPUs 0 and 1"). */
    String placement() {
        return placement;
    }

    /** Runs {@code command}, its output and errors in files, killed after the timeout; returns its output. */
    private static String exec(List<String> command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("socket-floor", ".out");
        Path errors = Files.createTempFile("socket-floor", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(log.toFile()).redirectError(errors.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end in " + TIMEOUT_SECONDS
                        + " s");
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + p.exitValue() + ":\n"
                        + out + Files.readString(errors, StandardCharsets.UTF_8));
            }
            return out;
        } finally {
            Files.deleteIfExists(log);
            Files.deleteIfExists(errors);
        }
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(program);
        Files.deleteIfExists(dir.resolve("socket_floor.c"));
        Files.deleteIfExists(dir);
    }
}
