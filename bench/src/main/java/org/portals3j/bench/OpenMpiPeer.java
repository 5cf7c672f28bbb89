package org.portals3j.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Open MPI peer of {@link MpiOsu}: compiles {@code osu_peer.c} (a resource of this module) with {@code mpicc}
 * into a temporary directory and runs it with {@code mpirun -np N --mca btl tcp,self} (TCP over loopback, no
 * shared memory) or {@code vader,self} (shared memory), returning its OSU table. Root may run it
 * ({@code OMPI_ALLOW_RUN_AS_ROOT}); more ranks than cores are allowed ({@code --oversubscribe}); mpirun's own
 * placement of the ranks stands, and {@code --report-bindings} makes it say what it was ({@link #bindings()}).
 */
final class OpenMpiPeer implements AutoCloseable {
    /** TCP over loopback, no shared memory. */
    static final String TCP = "tcp,self";
    /** Shared memory (Open MPI 4.1's vader), no network. */
    static final String SHARED_MEMORY = "vader,self";
    private static final String SOURCE = "osu/osu_peer.c";
    private static final long TIMEOUT_SECONDS = 600;
    /** A line of {@code mpirun --report-bindings}: {@code [host:pid] MCW rank 0 bound to socket 0[core 0]]: [B/.]}. */
    private static final Pattern BINDING = Pattern.compile("MCW rank (\\d+) (bound to .*|is not bound.*)");

    private final CProgram program;
    private String bindings = "not run yet";

    private OpenMpiPeer(CProgram program) {
        this.program = program;
    }

    /** Why the peer cannot run here (mpicc or mpirun not on PATH), or null when it can. */
    static String missingTools() {
        for (String tool : List.of("mpicc", "mpirun")) {
            if (CProgram.onPath(tool) == null) {
                return tool + " is not on PATH: install Open MPI (apt-get install openmpi-bin libopenmpi-dev)";
            }
        }
        return null;
    }

    /** Compiles the peer program with {@code mpicc -O2}. */
    static OpenMpiPeer build() throws IOException, InterruptedException {
        return new OpenMpiPeer(CProgram.compile(SOURCE, List.of("mpicc", "-O2", "-std=gnu11", "-Wall", "-Wextra",
                "-Werror")));
    }

    /**
     * Where mpirun placed the ranks of the last run, from its {@code --report-bindings} lines, e.g.
     * {@code "rank 0 bound to socket 0[core 0[hwt 0]]: [B/.]; rank 1 bound to socket 0[core 1[hwt 0]]: [./B]"}.
     */
    String bindings() {
        return bindings;
    }

    /** The bindings in mpirun's {@code --report-bindings} lines of {@code stderr}, by rank; "not bound" if none. */
    static String parseBindings(String stderr) {
        Matcher m = BINDING.matcher(stderr);
        Map<Integer, String> byRank = new TreeMap<>(); // the ranks report in any order
        while (m.find()) {
            byRank.put(Integer.parseInt(m.group(1)), "rank " + m.group(1) + " " + m.group(2).trim());
        }
        return byRank.isEmpty() ? "not bound (mpirun --report-bindings reported no binding)"
                : String.join("; ", byRank.values());
    }

    /** Runs {@code test} (latency, bw, allreduce, barrier) on {@code ranks} processes over TCP. */
    OsuTable run(String test, int ranks, int maxSize, int iterations, int warmup)
            throws IOException, InterruptedException {
        return run(TCP, test, ranks, maxSize, iterations, warmup);
    }

    /** Runs {@code test} on {@code ranks} processes with the byte transfer layers {@code btl} ({@link #TCP}, ...). */
    OsuTable run(String btl, String test, int ranks, int maxSize, int iterations, int warmup)
            throws IOException, InterruptedException {
        return OsuTable.parse(run(command(btl, test, ranks, maxSize, iterations, warmup)));
    }

    /**
     * The 2-rank ping-pong with every round trip timed: per size, the p50 and p99 half round trip in microseconds
     * ({@code osu_peer percentiles}).
     */
    Map<Integer, double[]> percentiles(String btl, int maxSize, int iterations, int warmup)
            throws IOException, InterruptedException {
        return parsePercentiles(run(command(btl, "percentiles", 2, maxSize, iterations, warmup)));
    }

    /** The rows "size p50 p99" of {@code osu_peer percentiles}' output. */
    static Map<Integer, double[]> parsePercentiles(String text) {
        Map<Integer, double[]> rows = new LinkedHashMap<>();
        for (String line : text.strip().split("\\R")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (f.length != 3) {
                throw new IllegalStateException("not a percentile row: '" + line + "' in\n" + text);
            }
            rows.put(Integer.parseInt(f[0]), new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2])});
        }
        if (rows.isEmpty()) {
            throw new IllegalStateException("osu_peer percentiles printed no rows:\n" + text);
        }
        return rows;
    }

    private List<String> command(String btl, String test, int ranks, int maxSize, int iterations, int warmup) {
        List<String> command = new ArrayList<>(List.of("mpirun", "--report-bindings", "-np", Integer.toString(ranks),
                "--oversubscribe", "--mca", "btl", btl));
        if (btl.equals(TCP)) {
            command.addAll(List.of("--mca", "btl_tcp_if_include", "lo"));
        }
        command.addAll(List.of(program.path().toString(), test, Integer.toString(maxSize), Integer.toString(iterations),
                Integer.toString(warmup)));
        return command;
    }

    /** Runs {@code command}, killed after the timeout; returns its output and keeps the bindings mpirun reported. */
    private String run(List<String> command) throws IOException, InterruptedException {
        CProgram.Output o = CProgram.run(command, Map.of("OMPI_ALLOW_RUN_AS_ROOT", "1",
                "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"), TIMEOUT_SECONDS);
        bindings = parseBindings(o.err());
        return o.out();
    }

    @Override
    public void close() throws IOException {
        program.close();
    }
}
