package org.portals3j.bench;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * libfabric's own ping-pongs as a server and a client process on 127.0.0.1: {@code fi_pingpong} of libfabric-bin (the
 * peer {@link GmPingPong} compares the gm transport with, on the same provider) or fabtests' {@code fi_rdm_pingpong}.
 *
 * <p>Both print the mean time per transfer (half a round trip) over all iterations, and its timer
 * may include the first exchange. So each figure is the difference of two runs, {@code n / 5} and {@code n}
 * iterations: {@code (T(n) - T(n/5)) / (2 (n - n/5))}, where {@code T} is the printed time per transfer times the
 * transfers. What one run costs once (connection set-up, first-touch faults) cancels.
 */
final class FiPingPong {
    /** How long one process pair may take before it counts as hung. */
    private static final long TIMEOUT_SECONDS = 120;
    private static final long LISTEN_WAIT_MILLIS = 10_000;

    /** The two programs: how each is told the provider and the control port, and where it prints usec/xfer. */
    enum Tool {
        /** libfabric-bin's fi_pingpong: "bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec". */
        FI_PINGPONG("fi_pingpong", 8, 6),
        /** fabtests' fi_rdm_pingpong, addresses exchanged out of band: "bytes iters total time MB/sec usec/xfer". */
        FI_RDM_PINGPONG("fi_rdm_pingpong", 7, 5);

        final String program;
        final int columns;
        final int usecColumn;

        Tool(String program, int columns, int usecColumn) {
            this.program = program;
            this.columns = columns;
            this.usecColumn = usecColumn;
        }
    }

    private final Tool tool;
    private final String program;

    /** @param program the fi_pingpong executable (a path, or a name looked up on PATH) */
    FiPingPong(String program) {
        this(Tool.FI_PINGPONG, program);
    }

    /** @param program {@code tool}'s executable (a path, or a name looked up on PATH) */
    FiPingPong(Tool tool, String program) {
        this.tool = tool;
        this.program = program;
    }

    /** The first libfabric-bin fi_pingpong on PATH, or null when there is none. */
    static Path onPath() {
        return onPath(Tool.FI_PINGPONG.program);
    }

    /** The first executable {@code name} on PATH, or null when there is none. */
    static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Why libfabric cannot run {@code gmProvider} here (fi_info missing, or {@code fi_info -p} finds no such
     * provider), or null when it can.
     */
    static String providerMissing(String gmProvider) throws InterruptedException {
        String provider = libfabricProvider(gmProvider);
        Path fiInfo = onPath("fi_info");
        if (fiInfo == null) {
            return "fi_info is not on PATH (install libfabric-bin): cannot tell whether libfabric has " + provider;
        }
        try {
            Process p = new ProcessBuilder(fiInfo.toString(), "-p", provider).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "fi_info -p " + provider + " did not end within " + TIMEOUT_SECONDS + " s";
            }
            return p.exitValue() == 0 ? null : "libfabric has no provider " + provider + " here (fi_info -p "
                    + provider + " exited " + p.exitValue() + ")";
        } catch (IOException e) {
            return "fi_info -p " + provider + " could not run: " + e.getMessage();
        }
    }

    /** libfabric's name for a gm.provider value: tcp is tcp;ofi_rxm, udp is udp;ofi_rxd. */
    static String libfabricProvider(String gmProvider) {
        return switch (gmProvider) {
            case "tcp" -> "tcp;ofi_rxm";
            case "udp" -> "udp;ofi_rxd";
            default -> gmProvider;
        };
    }

    /**
     * One measurement: mean half round trip in microseconds (marginal, see the class comment), or NaN when the
     * difference came out not positive (on a loaded machine the set-up's noise can exceed the transfers' time).
     */
    double halfRoundTripMicros(String gmProvider, int size, int iterations) throws IOException, InterruptedException {
        int n = Math.max(10, iterations);
        int few = Math.max(2, n / 5);
        double all = once(gmProvider, size, n) * 2 * n;
        double some = once(gmProvider, size, few) * 2 * few;
        double marginal = (all - some) / (2.0 * (n - few));
        return marginal > 0 ? marginal : Double.NaN; // the set-up's noise exceeded the transfers' time
    }

    /** One run of a server and a client; the client's microseconds per transfer. */
    double once(String gmProvider, int size, int iterations) throws IOException, InterruptedException {
        String provider = libfabricProvider(gmProvider);
        int port = freePort();
        List<String> common = new ArrayList<>(List.of(program, "-p", provider, "-I", Integer.toString(iterations),
                "-S", Integer.toString(size)));
        List<String> serverArgs;
        List<String> clientArgs;
        if (tool == Tool.FI_PINGPONG) {
            common.addAll(List.of("-e", "rdm"));
            serverArgs = List.of("-B", Integer.toString(port));
            clientArgs = List.of("-P", Integer.toString(port), "127.0.0.1");
        } else { // fabtests: the control socket of -E carries the addresses, so any provider's addressing works
            common.add("-E=" + port);
            serverArgs = List.of();
            clientArgs = List.of("127.0.0.1");
        }
        Path serverOut = Files.createTempFile(tool.program + "-server", ".txt");
        Path clientOut = Files.createTempFile(tool.program + "-client", ".txt");
        Process server = null;
        Process client = null;
        try {
            server = start(common, serverArgs, serverOut);
            awaitListening(port, server);
            client = start(common, clientArgs, clientOut);
            int clientExit = waitFor(client);
            int serverExit = waitFor(server);
            String out = Files.readString(clientOut, StandardCharsets.UTF_8);
            if (clientExit != 0 || serverExit != 0) {
                throw new IOException(tool.program + " -p " + provider + " -S " + size + " failed (client exit "
                        + clientExit + ", server exit " + serverExit + "): " + out.strip() + " / "
                        + Files.readString(serverOut, StandardCharsets.UTF_8).strip());
            }
            return parseMicrosPerTransfer(tool, out, size);
        } finally {
            destroy(client);
            destroy(server);
            Files.deleteIfExists(serverOut);
            Files.deleteIfExists(clientOut);
        }
    }

    /**
     * The usec/xfer column of fi_pingpong's result line (the one size of the run, {@code size}): "bytes #sent #ack
     * total time MB/sec usec/xfer Mxfers/sec".
     */
    static double parseMicrosPerTransfer(String output, int size) throws IOException {
        return parseMicrosPerTransfer(Tool.FI_PINGPONG, output, size);
    }

    /** The usec/xfer column of {@code tool}'s result line (the one size of the run, {@code size}). */
    static double parseMicrosPerTransfer(Tool tool, String output, int size) throws IOException {
        for (String line : output.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == tool.columns && !f[0].equals("bytes")) { // one size per run; 1048576 prints as "1m"
                try {
                    return Double.parseDouble(f[tool.usecColumn]);
                } catch (NumberFormatException e) {
                    throw new IOException(tool.program + " printed '" + line + "': no usec/xfer in column "
                            + (tool.usecColumn + 1), e);
                }
            }
        }
        throw new IOException(tool.program + " printed no result line for " + size + " B: " + output.strip());
    }

    private Process start(List<String> common, List<String> extra, Path out) throws IOException {
        List<String> command = new ArrayList<>(common);
        command.addAll(extra);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }

    private static int waitFor(Process p) throws InterruptedException, IOException {
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IOException("the libfabric ping-pong did not end within " + TIMEOUT_SECONDS + " s");
        }
        return p.exitValue();
    }

    private static void destroy(Process p) {
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
        }
    }

    /** A TCP port nobody listens on now (fi_pingpong's control connection). */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Waits until the server listens on its control port, read from /proc/net/tcp (connecting to find out would
     * take the one connection the server accepts).
     */
    private static void awaitListening(int port, Process server) throws IOException, InterruptedException {
        String hexPort = String.format(Locale.ROOT, ":%04X ", port);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LISTEN_WAIT_MILLIS);
        while (System.nanoTime() < deadline) {
            for (String file : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
                Path p = Path.of(file);
                if (Files.exists(p)) {
                    for (String line : Files.readAllLines(p, StandardCharsets.US_ASCII)) {
                        String[] f = line.trim().split("\\s+");
                        if (f.length > 3 && (f[1] + " ").endsWith(hexPort) && f[3].equals("0A")) {
                            return;
                        }
                    }
                }
            }
            if (!server.isAlive()) {
                throw new IOException("the fi_pingpong server exited (" + server.exitValue() + ") before listening");
            }
            Thread.sleep(5);
        }
        throw new IOException("the fi_pingpong server did not listen on port " + port + " within "
                + LISTEN_WAIT_MILLIS + " ms");
    }
}
