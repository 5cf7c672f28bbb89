package org.portals3j.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import org.checkerframework.checker.nullness.qual.Nullable;
import picocli.CommandLine.Option;

/**
 * The MPI layer's barrier and 8-byte allreduce on N ranks, as threads of this JVM ({@link MpiRanks}) or as JVM
 * processes ({@link MpiProcesses}), with the context switches per call of the ranks' processes: one line per mode,
 * rank count and benchmark. See bench/README.md, the MPI section.
 */
public final class MpiCollectives {
    static final String USAGE = "usage: MpiCollectives [--transport inmem|udp] [--ranks 2,4]"
            + " [--mode threads,processes] [--bench barrier,allreduce] [--iterations N] [--warmup N]";

    @Option(names = {"-h", "--help"}, usageHelp = true)
    boolean help;

    @Option(names = "--transport")
    String transport = "udp";

    @Option(names = "--ranks", split = ",")
    List<Integer> ranks = List.of(2, 4);

    @Option(names = "--mode", split = ",")
    List<String> modes = List.of("threads");

    @Option(names = "--bench", split = ",")
    List<String> benches = List.of("barrier", "allreduce");

    @Option(names = "--iterations")
    int iterations = 2000;

    @Option(names = "--warmup")
    int warmup = 2000;

    private MpiCollectives() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the measurements; 0 on success (or help), 2 on bad options (said on {@code err}). */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        MpiCollectives a = new MpiCollectives();
        try {
            if (!PingPongArgs.parse(a, args)) {
                out.println(USAGE);
                return 0;
            }
            a.check();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        }
        out.println("# MPI layer collectives, transport " + a.transport + ", " + a.iterations + " calls after "
                + a.warmup + " warm-up; load " + Suite.load(Path.of("/proc/loadavg")));
        for (String mode : a.modes) {
            for (int n : a.ranks) {
                for (String bench : a.benches) {
                    out.println(mode + " " + a.measure(mode, n, bench).trim());
                }
            }
        }
        return 0;
    }

    private void check() {
        if (iterations <= 0 || warmup < 0) {
            throw new IllegalArgumentException("--iterations needs a number > 0, --warmup one >= 0");
        }
        if (ranks.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("--ranks needs rank counts >= 1, not " + ranks);
        }
        for (String m : modes) {
            if (!m.equals("threads") && !m.equals("processes")) {
                throw new IllegalArgumentException("unknown mode '" + m + "': use threads or processes");
            }
        }
        for (String b : benches) {
            if (!b.equals("barrier") && !b.equals("allreduce")) {
                throw new IllegalArgumentException("unknown benchmark '" + b + "': use barrier or allreduce");
            }
        }
    }

    /** Rank 0's line for one mode, rank count and benchmark. */
    private String measure(String mode, int n, String bench) throws Exception {
        if (mode.equals("processes")) {
            return MpiProcesses.run(transport, n, MpiCollectiveRank.class,
                    List.of(bench, Integer.toString(iterations), Integer.toString(warmup)));
        }
        AtomicReference<String> line = new AtomicReference<>("");
        MpiRanks.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            @Nullable String mine = MpiCollectiveRank.run(bench, iterations, warmup, true);
            MPI.Finalize();
            if (mine != null) {
                line.set(mine);
            }
            return new double[0];
        });
        return line.get();
    }
}
