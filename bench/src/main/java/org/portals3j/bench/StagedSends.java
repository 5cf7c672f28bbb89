package org.portals3j.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.transport.IdleMode;

/**
 * What staging small puts costs on udp: the put ping-pong ({@link PingPong}, datagram baseline) and the bandwidth of
 * windows of back-to-back puts, in jobs whose library stages puts of up to {@code --limit} bytes (copies them and
 * logs SEND_END before the network has them) alternating with jobs that stage nothing (SEND_END on the network's
 * report), {@code --rounds} times, so that both see the same machine; medians of each figure and their ratio.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.portals3j.bench.StagedSends [--limit 64K] [--sizes 1K,4K,8K]
 *     [--bandwidth-size 8K] [--rounds 3] [--iterations N] [--quick]</pre>
 */
public final class StagedSends {
    static final int[] DEFAULT_SIZES = {256, 1024, 4096, 8192, 16 * 1024, 32 * 1024, 64 * 1024};

    private StagedSends() {
    }

    /** The medians of one figure with and without staging, and of its raw datagram baseline over all jobs. */
    public record Figure(String name, double staged, double unstaged, double baseline, String unit) {
        public double ratio() {
            return staged / unstaged;
        }
    }

    /** The ping-pong p50s and p99s per size, then the bandwidth. */
    public record Result(int limit, int rounds, List<Figure> figures) {
    }

    public static void main(String[] args) throws Exception {
        int limit = 64 * 1024;
        int[] sizes = DEFAULT_SIZES;
        int bandwidthSize = 8192;
        int rounds = 3;
        int iterations = 5000;
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--limit" -> limit = parseSize(args[++i]);
                case "--sizes" -> sizes = PingPong.Options.parseSizes(args[++i]);
                case "--bandwidth-size" -> bandwidthSize = parseSize(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--quick" -> quick = true;
                default -> {
                    System.err.println("usage: StagedSends [--limit SIZE] [--sizes LIST] [--bandwidth-size SIZE]"
                            + " [--rounds N] [--iterations N] [--quick]");
                    System.exit(2);
                }
            }
        }
        print(measure(limit, sizes, bandwidthSize, rounds, quick ? 200 : iterations, quick), System.out);
    }

    private static int parseSize(String value) {
        return PingPong.Options.parseSizes(value)[0];
    }

    public static Result measure(int limit, int[] sizes, int bandwidthSize, int rounds, int iterations, boolean quick)
            throws Exception {
        Map<String, List<Double>> staged = new LinkedHashMap<>();
        Map<String, List<Double>> unstaged = new LinkedHashMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        Map<String, List<Double>> baseline = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            // which mode goes first alternates too, so that neither always runs on a warmer machine
            for (boolean stage : round % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                PingPong.Options o = new PingPong.Options("udp", Map.of(), PingPong.Baseline.DATAGRAM,
                        IdleMode.BACKOFF, sizes, iterations, quick, stage ? limit : 0, bandwidthSize);
                PingPong.Result r = PingPong.measure(o);
                Map<String, List<Double>> into = stage ? staged : unstaged;
                for (PingPong.Row row : r.rows()) {
                    String p50 = row.size() + " B half round trip p50";
                    String p99 = row.size() + " B half round trip p99";
                    add(into, units, p50, row.portalsP50(), "us");
                    add(into, units, p99, row.portalsP99(), "us");
                    add(baseline, units, p50, row.baselineP50(), "us");
                    add(baseline, units, p99, row.baselineP99(), "us");
                }
                String stream = bandwidthSize + " B puts, windows of " + PingPong.WINDOW;
                add(into, units, stream, r.bandwidth().portalsPut(), "GB/s");
                add(baseline, units, stream, r.bandwidth().baseline(), "GB/s");
            }
        }
        List<Figure> figures = new ArrayList<>();
        for (Map.Entry<String, List<Double>> e : staged.entrySet()) {
            figures.add(new Figure(e.getKey(), PingPong.median(e.getValue()), PingPong.median(unstaged.get(e.getKey())),
                    PingPong.median(baseline.get(e.getKey())), units.get(e.getKey())));
        }
        return new Result(limit, rounds, figures);
    }

    private static void add(Map<String, List<Double>> into, Map<String, String> units, String name, double value,
                            String unit) {
        into.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        units.put(name, unit);
    }

    public static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "udp, staged (limit %d B, %d buffers) vs unstaged, "
                + "medians of %d alternating jobs each:%n",
                r.limit(), PortalsConfig.DEFAULT_STAGING_BUFFERS, r.rounds());
        out.printf(Locale.ROOT, "%-40s %10s %10s %6s %10s %s%n", "figure", "staged", "unstaged", "ratio", "raw_udp",
                "unit");
        for (Figure f : r.figures()) {
            out.printf(Locale.ROOT, "%-40s %10.3f %10.3f %6.2f %10.3f %s%n", f.name(), f.staged(), f.unstaged(),
                    f.ratio(), f.baseline(), f.unit());
        }
        out.println("raw_udp: the raw DatagramChannel ping-pong and blast of the same jobs (the PingPong baseline)");
    }
}
