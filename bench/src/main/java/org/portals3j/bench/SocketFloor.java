package org.portals3j.bench;

import java.io.IOException;
import java.util.List;
import java.util.Map;

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

    private final CProgram program;
    private String placement = "not run yet";

    private SocketFloor(CProgram program) {
        this.program = program;
    }

    /** Why the floor cannot be measured here (no C compiler on PATH), or null when it can. */
    static String missingTools() {
        return compiler() == null ? "no C compiler (cc or gcc) on PATH: install gcc" : null;
    }

    private static String compiler() {
        for (String tool : List.of("cc", "gcc")) {
            if (CProgram.onPath(tool) != null) {
                return tool;
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
        return new SocketFloor(CProgram.compile(SOURCE, List.of(cc, "-O2", "-std=gnu11", "-Wall", "-Wextra",
                "-Werror")));
    }

    /**
     * The ping-pong over {@code protocol} ({@link #UDP} or {@link #TCP}): per size from 1 byte to {@code maxSize}
     * (udp: to 32 KiB) doubling, the p50 and p99 half round trip in microseconds.
     */
    Map<Integer, double[]> percentiles(String protocol, int maxSize, int iterations, int warmup)
            throws IOException, InterruptedException {
        String out = CProgram.run(List.of(program.path().toString(), protocol, Integer.toString(maxSize),
                Integer.toString(iterations), Integer.toString(warmup)), Map.of(), TIMEOUT_SECONDS).out();
        placement = out.lines().filter(l -> l.startsWith("# socket_floor")).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("placement not reported");
        return OpenMpiPeer.parsePercentiles(out);
    }

    /** Where the last run's processes ran, as the program reported it ("2 processes bound to CPUs 0 and 1"). */
    String placement() {
        return placement;
    }

    @Override
    public void close() throws IOException {
        program.close();
    }
}
