package org.portals3j.bench;

import java.io.IOException;
import java.nio.DoubleBuffer;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One rank of {@link MpiCollectives}: times {@code barrier} or an 8-byte {@code allReduce} (SUM of one double) and
 * counts the context switches of its process's threads over the timed calls; as a process, arguments {@code BENCH
 * ITERATIONS WARMUP}. Rank 0 returns (as a process, prints) the mean time per call over the ranks and the switches of
 * every rank's process, summed, per call.
 */
public final class MpiCollectiveRank {
    private MpiCollectiveRank() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        @Nullable String out = run(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]), false);
        MPI.Finalize();
        if (out != null) {
            System.out.println(out);
        }
    }

    /**
     * The measurement, between {@code MPI.Init} and {@code MPI.Finalize}; rank 0's line, null on the others.
     * {@code shared}: every rank is a thread of this JVM, so rank 0 alone counts the switches.
     */
    static @Nullable String run(String bench, int iterations, int warmup, boolean shared)
            throws MPIException, IOException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        DoubleBuffer in = MPI.newDoubleBuffer(1);
        DoubleBuffer res = MPI.newDoubleBuffer(1);
        boolean barrier = switch (bench) {
            case "barrier" -> true;
            case "allreduce" -> false;
            default -> throw new IllegalArgumentException("unknown benchmark '" + bench + "': barrier or allreduce");
        };
        for (int i = 0; i < warmup; i++) {
            step(barrier, in, res);
        }
        MPI.COMM_WORLD.barrier();
        boolean counts = !shared || rank == 0;
        long[] before = counts ? switches() : new long[2];
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            step(barrier, in, res);
        }
        double us = (System.nanoTime() - start) / 1e3 / iterations;
        long[] after = counts ? switches() : new long[2];
        LongBuffer sw = MPI.newLongBuffer(2);
        sw.put(0, after[0] - before[0]).put(1, after[1] - before[1]);
        LongBuffer swSum = MPI.newLongBuffer(2);
        MPI.COMM_WORLD.allReduce(sw, swSum, 2, MPI.LONG, MPI.SUM);
        DoubleBuffer t = MPI.newDoubleBuffer(1).put(0, us);
        DoubleBuffer tSum = MPI.newDoubleBuffer(1);
        MPI.COMM_WORLD.allReduce(t, tSum, 1, MPI.DOUBLE, MPI.SUM);
        if (rank != 0) {
            return null;
        }
        return line(bench, size, tSum.get(0) / size, swSum.get(0) / (double) iterations,
                swSum.get(1) / (double) iterations);
    }

    static String line(String bench, int ranks, double us, double voluntary, double involuntary) {
        return String.format(Locale.ROOT, "%-9s ranks %d: %10.2f us, per call %8.3f voluntary and %8.3f involuntary"
                + " context switches (all threads)", bench, ranks, us, voluntary, involuntary);
    }

    private static void step(boolean barrier, DoubleBuffer in, DoubleBuffer res) throws MPIException {
        if (barrier) {
            MPI.COMM_WORLD.barrier();
        } else {
            MPI.COMM_WORLD.allReduce(in, res, 1, MPI.DOUBLE, MPI.SUM);
        }
    }

    /** Voluntary and involuntary context switches of every thread of this process so far (/proc, Linux). */
    static long[] switches() throws IOException {
        long[] sum = new long[2];
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return sum;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path task : ds) {
                try {
                    for (String l : Files.readAllLines(task.resolve("status"), StandardCharsets.UTF_8)) {
                        if (l.startsWith("voluntary_ctxt_switches:")) {
                            sum[0] += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                        } else if (l.startsWith("nonvoluntary_ctxt_switches:")) {
                            sum[1] += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile: its switches are gone from both counts' sums alike
                }
            }
        }
        return sum;
    }
}
