package org.portals3j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.portals3j.transport.TransportException;

/**
 * The native shim's cost: a C Put ping-pong through libportals3 ({@code native-shim/src/test/c/bench_pingpong.c},
 * built here with portalscc) against the same ping-pong written with the Java API ({@link PutPingPongRank}),
 * each as two processes on udp, alternating in rounds, medians of the half round trip p50. Also the
 * per-call cost of the C boundary: {@code PtlGetUid} in a loop from C against {@code Portals.getUid} in Java.
 *
 * <pre>
 * ./portals shimbench [--sizes 8,1K] [--iterations N] [--rounds R]
 * java -cp bench/target/benchmarks.jar org.portals3j.bench.ShimPingPong --native native-shim/target/native \
 *      --source native-shim/src/test/c
 * </pre>
 */
public final class ShimPingPong {
    private static final Pattern P50 = Pattern.compile("half_rtt_p50_ns=(\\d+)");
    private static final Pattern UPCALL = Pattern.compile("getuid_ns=([0-9.]+)");

    private ShimPingPong() {
    }

    public static void main(String[] args) throws Exception {
        Path nativeDir = Path.of("native-shim/target/native");
        Path sources = Path.of("native-shim/src/test/c");
        int iterations = 20_000;
        int rounds = 3;
        int[] sizes = {8, 1024};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--native" -> nativeDir = Path.of(args[++i]);
                case "--source" -> sources = Path.of(args[++i]);
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(ShimPingPong::bytes).toArray();
                case "--quick" -> {
                    iterations = 2_000;
                    rounds = 1;
                }
                default -> {
                    System.err.println("usage: ShimPingPong [--native DIR] [--source DIR] [--sizes 8,1K]"
                            + " [--iterations N] [--rounds R] [--quick]");
                    System.exit(2);
                }
            }
        }
        Result r = measure(nativeDir, sources, sizes, iterations, rounds);
        System.out.printf("C ping-pong through libportals3 vs the same in Java, 2 processes each on udp,"
                + " %d iterations, %d rounds (median of the rounds' p50)%n", iterations, rounds);
        System.out.printf("%8s %14s %14s %7s%n", "size", "C half-RTT", "Java half-RTT", "ratio");
        for (Row row : r.rows()) {
            System.out.printf("%8d %11.2f us %11.2f us %7.2f%n", row.size(), row.c(), row.java(), row.ratio());
        }
        System.out.printf("PtlGetUid from C: %.1f ns per call; Portals.getUid in Java: %.1f ns (the C boundary:"
                + " %.1f ns)%n", r.cCallNanos(), r.javaCallNanos(), r.cCallNanos() - r.javaCallNanos());
    }

    /** One size: the medians over the rounds of each side's p50 half round trip, in microseconds. */
    record Row(int size, double c, double java) {
        double ratio() {
            return c / java;
        }
    }

    /** The rows, and the per-call cost of PtlGetUid from C and of Portals.getUid in Java (last round), in ns. */
    record Result(List<Row> rows, double cCallNanos, double javaCallNanos) {
    }

    /** Why the C side cannot run with {@code nativeDir} (portalscc missing), or null when it can. */
    static String missing(Path nativeDir, Path sources) {
        return CProgram.shimMissing(nativeDir, sources, "bench_pingpong.c");
    }

    /**
     * Builds bench_pingpong.c with portalscc and runs it and {@link PutPingPongRank}, each as a 2-process job on udp,
     * alternating in {@code rounds} rounds per size.
     */
    static Result measure(Path nativeDir, Path sources, int[] sizes, int iterations, int rounds) throws Exception {
        Path work = Files.createTempDirectory("shimbench");
        Path program = work.resolve("bench_pingpong");
        Process cc = new ProcessBuilder(nativeDir.resolve("bin/portalscc").toString(), "-O2", "-I" + sources,
                sources.resolve("bench_pingpong.c").toString(), "-o", program.toString()).inheritIO().start();
        if (cc.waitFor() != 0) {
            throw new IllegalStateException("portalscc failed (is native-shim built? --native " + nativeDir + ")");
        }
        int warmup = Math.max(1_000, iterations / 4);
        double cUpcall = 0;
        double javaCall = 0;
        List<Row> rows = new ArrayList<>();
        for (int size : sizes) {
            long[] c = new long[rounds];
            long[] java = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                String cOut = job(List.of(program.toString()), true, iterations, size, warmup, work);
                String jOut = job(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                        PutPingPongRank.class.getName()), false, iterations, size, warmup, work);
                c[r] = Long.parseLong(find(P50, cOut));
                java[r] = Long.parseLong(find(P50, jOut));
                cUpcall = Double.parseDouble(find(UPCALL, cOut));
                javaCall = Double.parseDouble(find(UPCALL, jOut));
            }
            Arrays.sort(c);
            Arrays.sort(java);
            rows.add(new Row(size, c[rounds / 2] / 1000.0, java[rounds / 2] / 1000.0));
        }
        return new Result(rows, cUpcall, javaCall);
    }

    /** Runs one 2-rank job of {@code command ITERATIONS SIZE WARMUP}, unbound; rank 0's output. */
    private static String job(List<String> command, boolean isProgram, int iterations, int size, int warmup, Path work)
            throws IOException, InterruptedException, TransportException {
        return UdpJob.run(command, List.of(Integer.toString(iterations), Integer.toString(size),
                Integer.toString(warmup)), isProgram, null, work, 10);
    }

    private static String find(Pattern p, String text) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + p.pattern() + " in: " + text);
        }
        return m.group(1);
    }

    private static int bytes(String s) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        if (t.endsWith("K")) {
            return Integer.parseInt(t.substring(0, t.length() - 1)) * 1024;
        }
        if (t.endsWith("M")) {
            return Integer.parseInt(t.substring(0, t.length() - 1)) * 1024 * 1024;
        }
        return Integer.parseInt(t);
    }
}
