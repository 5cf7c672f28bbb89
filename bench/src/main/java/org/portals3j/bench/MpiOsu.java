package org.portals3j.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * OSU-style micro-benchmarks of the MPI layer (package {@code mpi}) against Open MPI in the same run: latency,
 * bandwidth, allreduce and barrier (2 and 4 ranks for the collectives), the layer's ranks as threads of this JVM on
 * one transport (default udp: each rank its own socket on loopback; the 2-rank latency also with the ranks as
 * separate JVM processes, {@link MpiProcesses}), Open MPI's as processes of
 * {@code mpirun --mca btl tcp,self} (TCP over loopback), and the layer's 8-byte latency over a raw Portals Put
 * ping-pong on the same transport. Ends with the ratios of the goals. See bench/README.md.
 */
public final class MpiOsu {
    private static final String USAGE = "usage: MpiOsu [--quick] [--transport udp] [--iterations N] [--warmup N]"
            + " [--bw-iterations N] [--max-size BYTES]\n  defaults: --iterations 10000 --warmup 2000"
            + " (a tenth above 8 KiB); shorter runs measure the JIT and single stalls";

    private MpiOsu() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the benchmarks; 0 on success, 2 on bad options, 1 when a run failed (printed to {@code err}). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String transport = "udp";
        int iterations = OsuRun.ITERATIONS;
        int warmup = OsuRun.WARMUP;
        int bwIterations = OsuRun.BANDWIDTH_ITERATIONS;
        int maxSize = 1 << 20;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> {
                        OsuRun quick = OsuRun.standard(maxSize, true);
                        iterations = quick.iterations();
                        warmup = quick.warmup();
                        bwIterations = quick.bandwidthIterations();
                    }
                    case "--transport" -> transport = args[++i];
                    case "--iterations" -> iterations = positive(args[++i]);
                    case "--warmup" -> warmup = positive(args[++i]);
                    case "--bw-iterations" -> bwIterations = positive(args[++i]);
                    case "--max-size" -> maxSize = positive(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                }
            }
            if (maxSize < 8) {
                throw new IllegalArgumentException("--max-size must be at least 8 bytes");
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            err.println(e instanceof ArrayIndexOutOfBoundsException ? "an option is missing its value"
                    : e.getMessage());
            err.println(USAGE);
            return 2;
        }
        String missing = OpenMpiPeer.missingTools();
        if (missing != null) {
            err.println("the Open MPI peer cannot run: " + missing);
            return 1;
        }
        try {
            measure(transport, new OsuRun(maxSize, iterations, warmup, bwIterations), out);
            return 0;
        } catch (Exception e) {
            e.printStackTrace(err);
            return 1;
        }
    }

    /** A positive count or size; sizes may end in K or M. */
    private static int positive(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        int shift = t.endsWith("K") ? 10 : t.endsWith("M") ? 20 : 0;
        int v = Integer.parseInt(shift == 0 ? t : t.substring(0, t.length() - 1)) << shift;
        if (v <= 0) {
            throw new IllegalArgumentException("expected a positive number, got '" + text + "'");
        }
        return v;
    }

    private static void measure(String transport, OsuRun run, PrintStream out) throws Exception {
        String layer = "Portals3J MPI layer, transport " + transport + ", ranks as threads of one JVM";
        String peer = "Open MPI (mpirun --mca btl tcp,self, TCP over loopback), ranks as processes";
        out.printf("# iterations %d (sizes above %d B: a tenth), warm-up %d, bandwidth windows %d x %d; means%n%n",
                run.iterations(), OsuRun.LARGE, run.warmup(), run.bandwidthIterations(), OsuRun.WINDOW);
        MpiOsuLayer mine = new MpiOsuLayer(transport, run);
        try (OpenMpiPeer ompi = OpenMpiPeer.build()) {
            OsuTable latency = mine.latency();
            latency.print(out, layer + ", 2 ranks");
            out.println(jitNote(mine.jitQuietMillis()));
            out.println();
            OsuTable ompiLatency = ompi.run("latency", 2, run.maxSize(), run.iterations(), run.warmup());
            ompiLatency.print(out, peer + ", 2 ranks");
            OsuTable processes = null;
            if (!transport.equals("inmem")) {
                String text = MpiProcesses.run(transport, 2, MpiLatencyRank.class, List.of(
                        Integer.toString(run.maxSize()), Integer.toString(run.iterations()),
                        Integer.toString(run.warmup())));
                int table = text.indexOf("# OSU MPI");
                processes = OsuTable.parse(table < 0 ? text : text.substring(table));
                processes.print(out, "Portals3J MPI layer, transport " + transport
                        + ", ranks as separate JVM processes, 2 ranks");
                text.lines().filter(line -> line.startsWith("# the JIT")).forEach(out::println);
                out.println();
            }
            double raw = RawPutLatency.measure(transport, 8, run.iterations(),
                    MpiOsuLayer.JIT_WARMUP_FACTOR * run.warmup(), run.warmup()); // the layer's warm-ups
            out.printf("# raw Portals Put ping-pong, transport %s, ranks as threads of one JVM%n", transport);
            out.printf("# Size          Latency (us)%n%-10d%18.2f%n%n", 8, raw);

            OsuTable bw = mine.bandwidth();
            bw.print(out, layer + ", 2 ranks");
            OsuTable ompiBw = ompi.run("bw", 2, run.maxSize(), run.bandwidthIterations(), run.warmup());
            ompiBw.print(out, peer + ", 2 ranks");

            double[][] collectives = new double[4][];
            int k = 0;
            for (int ranks : new int[] {2, 4}) {
                OsuTable a = mine.allreduce(ranks);
                a.print(out, layer + ", " + ranks + " ranks");
                OsuTable oa = ompi.run("allreduce", ranks, run.maxSize(), run.iterations(), run.warmup());
                oa.print(out, peer + ", " + ranks + " ranks");
                OsuTable b = mine.barrier(ranks);
                b.print(out, layer + ", " + ranks + " ranks");
                OsuTable ob = ompi.run("barrier", ranks, run.maxSize(), run.iterations(), run.warmup());
                ob.print(out, peer + ", " + ranks + " ranks");
                collectives[k++] = new double[] {ranks, a.at(8), oa.at(8), a.at(run.maxSize()), oa.at(run.maxSize())};
                collectives[k++] = new double[] {ranks, b.at(0), ob.at(0)};
            }
            out.println("# Ratios (layer / peer, same run)");
            ratio(out, "latency 8 B, 2 ranks: layer / Open MPI", latency.at(8), ompiLatency.at(8), "us", "<= 1.0");
            ratio(out, "bandwidth " + run.maxSize() + " B, 2 ranks: layer / Open MPI", bw.at(run.maxSize()),
                    ompiBw.at(run.maxSize()), "MB/s", ">= 0.5");
            if (processes != null) {
                ratio(out, "latency 8 B, 2 ranks as processes: layer / Open MPI", processes.at(8),
                        ompiLatency.at(8), "us", "<= 1.0");
            }
            ratio(out, "latency 8 B, 2 ranks: layer / raw Portals Put", latency.at(8), raw, "us", "<= 1.3");
            for (int i = 0; i < collectives.length; i += 2) {
                double[] a = collectives[i];
                double[] b = collectives[i + 1];
                int ranks = (int) a[0];
                ratio(out, "allreduce 8 B, " + ranks + " ranks: layer / Open MPI", a[1], a[2], "us", null);
                if (run.maxSize() > 8) {
                    ratio(out, "allreduce " + run.maxSize() + " B, " + ranks + " ranks: layer / Open MPI", a[3],
                            a[4], "us", null);
                }
                ratio(out, "barrier, " + ranks + " ranks: layer / Open MPI", b[1], b[2], "us", null);
            }
        }
    }

    /** The comment line that says how the JIT settled after a latency table's warm-up ({@link JitQuiet}). */
    static String jitNote(long quietMillis) {
        return quietMillis < 0 ? "# the JIT was still compiling " + JitQuiet.LIMIT_MILLIS + " ms after the warm-up"
                : "# the JIT went quiet " + quietMillis + " ms after the warm-up";
    }

    private static void ratio(PrintStream out, String what, double layer, double peer, String unit, String goal) {
        out.printf(Locale.ROOT, "ratio %s = %s (%s / %s %s)%s%n", what, figure(layer / peer), figure(layer),
                figure(peer), unit, goal == null ? "" : ", goal " + goal);
    }

    /** 2 decimals, or 6 below 1 so that no measured figure prints as 0.00. */
    private static String figure(double v) {
        return String.format(Locale.ROOT, v < 1 ? "%.6f" : "%.2f", v);
    }
}
