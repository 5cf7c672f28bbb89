package org.portals3j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * LAPI_Amsend against PtlPut from C, in one run: native-shim's {@code lapi_bench.c} built with portalscc and run as a
 * 2-process job on udp, each rank bound to one CPU as {@code portals run} binds it (unbound where it cannot), and rank
 * 0's table read back: half round trips of 8 B and 1 KiB (medians), 1 MiB bandwidth (medians of its rounds).
 */
final class LapiCBench {
    static final String SOURCE = "lapi_bench.c";
    /** A row of lapi_bench's tables: size, Put's figure, Amsend's, Amsend / Put. */
    private static final Pattern ROW = Pattern.compile("(?m)^(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)$");
    private static final Pattern JIT = Pattern.compile(
            "# rank 0: the JIT's compiler threads used (\\d+) ms of CPU during the 1 MiB rounds");

    private LapiCBench() {
    }

    /** One latency size: the half round trips in microseconds. */
    record Row(int size, double put, double amsend) {
    }

    /**
     * @param rows          the latency rows (8 B and 1 KiB)
     * @param putMiBs       1 MiB Put bandwidth, MiB/s
     * @param amsendMiBs    1 MiB Amsend bandwidth, MiB/s
     * @param jitMillis     CPU rank 0's JIT compiler threads used during the 1 MiB rounds, or -1 if not said
     * @param placement     where the ranks ran
     */
    record Result(List<Row> rows, double putMiBs, double amsendMiBs, long jitMillis, String placement) {
    }

    /** Why lapi_bench cannot run with {@code nativeDir} and {@code sources}, or null when it can. */
    static String missing(Path nativeDir, Path sources) {
        return CProgram.shimMissing(nativeDir, sources, SOURCE);
    }

    /**
     * Builds and runs {@code lapi_bench ITERATIONS COUNT WARMUP SECONDS} (round trips per latency size, 1 MiB
     * messages per bandwidth round, warm-up round trips, the program's own time limit).
     */
    static Result measure(Path nativeDir, Path sources, int iterations, int count, int warmup, int seconds)
            throws Exception {
        Path work = Files.createTempDirectory("lapibench");
        try {
            Path program = work.resolve("lapi_bench");
            CProgram.run(List.of(nativeDir.resolve("bin/portalscc").toString(), "-O2", "-I" + sources,
                    sources.resolve(SOURCE).toString(), "-o", program.toString()), Map.of(), 300);
            StringBuilder unbound = new StringBuilder();
            int[] cpus = UdpJob.bindingCpus(unbound);
            String out = UdpJob.run(List.of(program.toString()), List.of(Integer.toString(iterations),
                    Integer.toString(count), Integer.toString(warmup), Integer.toString(seconds)), true, cpus, work,
                    seconds / 60 + 2);
            String placement = cpus == null ? "ranks not bound (" + unbound + ")"
                    : "rank 0 on CPU " + cpus[0] + ", rank 1 on CPU " + cpus[1] + " (taskset, as portals run binds)";
            return parse(out, placement);
        } finally {
            delete(work);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** Rank 0's output: its two tables and the JIT line. */
    static Result parse(String out, String placement) {
        List<Row> rows = new ArrayList<>();
        double put = Double.NaN;
        double amsend = Double.NaN;
        Matcher m = ROW.matcher(out);
        while (m.find()) {
            int size = Integer.parseInt(m.group(1));
            double p = Double.parseDouble(m.group(2));
            double a = Double.parseDouble(m.group(3));
            if (size == Suite.MIB) {
                put = p;
                amsend = a;
            } else {
                rows.add(new Row(size, p, a));
            }
        }
        if (rows.isEmpty() || Double.isNaN(put)) {
            throw new IllegalStateException("lapi_bench printed no latency rows or no 1 MiB row:\n" + out);
        }
        Matcher jit = JIT.matcher(out);
        return new Result(List.copyOf(rows), put, amsend, jit.find() ? Long.parseLong(jit.group(1)) : -1, placement);
    }
}
