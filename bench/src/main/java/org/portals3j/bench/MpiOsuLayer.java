package org.portals3j.bench;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The MPI layer's side of {@link MpiOsu}: the work {@code osu_peer.c} does, written against package {@code mpi},
 * its ranks as threads of this JVM ({@link MpiRanks}). Messages live in direct buffers ({@code MPI.newByteBuffer},
 * as a C program's malloc'd memory). Latency is half the round trip averaged over the timed iterations;
 * bandwidth sends windows of {@link OsuRun#WINDOW} {@code iSend}s answered by one 4-byte ack; allreduce and
 * barrier report the mean over ranks of each rank's average. Latency, allreduce and barrier time the steady state:
 * a JIT warm-up through the loop they time, then a wait for the JIT to go quiet ({@link JitQuiet}).
 */
final class MpiOsuLayer {
    private static final int TAG = 1;
    private static final int BW_TAG = 100;
    private static final int ACK_TAG = 101;

    private final String transport;
    private final OsuRun run;
    /** What the last latency table's warm-up returned: milliseconds until the JIT went quiet, or -1. */
    private volatile long jitQuietMillis = -1;

    /** Untimed round trips (or collectives) before a latency table, for the JIT: this many times the warm-up. */
    static final int JIT_WARMUP_FACTOR = 15;
    /** Round trips of one size in a row, after a barrier, in the JIT warm-up. */
    static final int WARMUP_RUN = 16;

    MpiOsuLayer(String transport, OsuRun run) {
        this.transport = transport;
        this.run = run;
    }

    /**
     * Untimed round trips between ranks 0 and 1 until the JIT has compiled the path, cycling through the table's
     * sizes up to {@link OsuRun#LARGE}: a size's own warm-up is too short (on a quiet machine 0-8 B measured 10-28 us
     * after it, 16 B 4.6 us), and a warm-up of one size leaves the others to deoptimise the compiled path when they
     * first come (bench/README.md, the MPI section: 1-4 B stayed 16-35 us after an 8-byte warm-up). As in the table,
     * each size runs {@link #WARMUP_RUN} round trips in a row after a barrier: without the barriers the table's first
     * one deoptimised the compiled send and receive paths (its operations are of other classes), and the first size
     * measured (0 B) ran while they were compiled again (bench/README.md, the MPI section: the 0 B row). The runs go
     * through {@link #roundTrips}, the method the table times, so that it is compiled before it is timed rather than
     * compiled on stack in the middle of a row; then each rank waits for the JIT to go quiet ({@link JitQuiet}) and
     * for the other rank. Returns the milliseconds the JIT took to go quiet, or -1 (see {@link JitQuiet#await()}).
     */
    static long warmUp(OsuRun run, ByteBuffer buf, int rank) throws MPIException, InterruptedException {
        int largest = Math.min(run.maxSize(), OsuRun.LARGE);
        int size = 0;
        for (int i = 0; i < JIT_WARMUP_FACTOR * run.warmup(); i += WARMUP_RUN) {
            MPI.COMM_WORLD.barrier();
            roundTrips(rank, buf, size, WARMUP_RUN);
            size = OsuRun.next(size) > largest ? 0 : OsuRun.next(size);
        }
        return settle();
    }

    /**
     * {@code count} blocking round trips of {@code size} bytes between world ranks 0 and 1 from {@code rank}'s side;
     * returns the nanoseconds they took. The one loop the warm-up and the tables run.
     */
    static long roundTrips(int rank, ByteBuffer buf, int size, int count) throws MPIException {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            MpiPingPongArgs.roundTrip(rank, buf, size, TAG);
        }
        return System.nanoTime() - start;
    }

    /** The mean half round trip in microseconds of {@code size} bytes, as a row of the latency table. */
    static double latencyRow(OsuRun run, ByteBuffer buf, int rank, int size) throws MPIException {
        int n = run.iterationsFor(size);
        MPI.COMM_WORLD.barrier();
        roundTrips(rank, buf, size, run.warmupFor(size));
        return roundTrips(rank, buf, size, n) / 1e3 / (2.0 * n);
    }

    OsuTable latency() throws Exception {
        List<double[]> perRank = MpiRanks.run(transport, 2, rank -> {
            MPI.Init(new String[0]);
            ByteBuffer buf = MPI.newByteBuffer(run.maxSize());
            double[] out = new double[sizes(0).length];
            long quiet = warmUp(run, buf, rank);
            if (rank == 0) {
                jitQuietMillis = quiet;
            }
            int k = 0;
            for (int size : sizes(0)) {
                out[k++] = latencyRow(run, buf, rank, size);
            }
            MPI.Finalize();
            return out;
        });
        return table("# OSU MPI Latency Test", "# Size          Latency (us)", sizes(0), perRank.get(0));
    }

    /** Milliseconds the JIT took to go quiet after the last latency table's warm-up, or -1 (it did not, or unknown). */
    long jitQuietMillis() {
        return jitQuietMillis;
    }

    OsuTable bandwidth() throws Exception {
        List<double[]> perRank = MpiRanks.run(transport, 2, rank -> {
            MPI.Init(new String[0]);
            ByteBuffer buf = MPI.newByteBuffer(run.maxSize());
            ByteBuffer ack = MPI.newByteBuffer(4);
            Request[] window = new Request[OsuRun.WINDOW];
            double[] out = new double[sizes(1).length];
            int k = 0;
            for (int size : sizes(1)) {
                int n = run.bandwidthIterationsFor(size);
                int w = run.warmupFor(size);
                long start = 0;
                MPI.COMM_WORLD.barrier();
                for (int i = 0; i < n + w; i++) {
                    if (i == w) {
                        start = System.nanoTime();
                    }
                    if (rank == 0) {
                        for (int m = 0; m < window.length; m++) {
                            window[m] = MPI.COMM_WORLD.iSend(buf, size, MPI.BYTE, 1, BW_TAG);
                        }
                        Request.waitAll(window);
                        MPI.COMM_WORLD.recv(ack, 4, MPI.BYTE, 1, ACK_TAG);
                    } else {
                        for (int m = 0; m < window.length; m++) {
                            window[m] = MPI.COMM_WORLD.iRecv(buf, size, MPI.BYTE, 0, BW_TAG);
                        }
                        Request.waitAll(window);
                        MPI.COMM_WORLD.send(ack, 4, MPI.BYTE, 0, ACK_TAG);
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                out[k++] = (double) size * OsuRun.WINDOW * n / seconds / 1e6;
            }
            MPI.Finalize();
            return out;
        });
        return table("# OSU MPI Bandwidth Test", "# Size      Bandwidth (MB/s)", sizes(1), perRank.get(0));
    }

    OsuTable allreduce(int ranks) throws Exception {
        List<double[]> perRank = MpiRanks.run(transport, ranks, rank -> {
            MPI.Init(new String[0]);
            DoubleBuffer in = MPI.newDoubleBuffer(run.maxSize() / Double.BYTES);
            DoubleBuffer out = MPI.newDoubleBuffer(run.maxSize() / Double.BYTES);
            int largest = Math.min(run.maxSize(), OsuRun.LARGE);
            int warmUpSize = Double.BYTES;
            for (int i = 0; i < JIT_WARMUP_FACTOR * run.warmup(); i += WARMUP_RUN) {
                MPI.COMM_WORLD.barrier();
                allReduces(in, out, warmUpSize, WARMUP_RUN);
                warmUpSize = OsuRun.next(warmUpSize) > largest ? Double.BYTES : OsuRun.next(warmUpSize);
            }
            settle();
            double[] avg = new double[sizes(Double.BYTES).length];
            int k = 0;
            for (int size : sizes(Double.BYTES)) {
                int n = run.iterationsFor(size);
                MPI.COMM_WORLD.barrier();
                allReduces(in, out, size, run.warmupFor(size));
                avg[k++] = allReduces(in, out, size, n) / 1e3 / n;
            }
            MPI.Finalize();
            return avg;
        });
        return table("# OSU MPI Allreduce Latency Test", "# Size       Avg Latency(us)", sizes(8), mean(perRank));
    }

    /** {@code count} sums of {@code size} bytes of doubles over every rank; returns the nanoseconds they took. */
    private static long allReduces(DoubleBuffer in, DoubleBuffer out, int size, int count) throws MPIException {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            MPI.COMM_WORLD.allReduce(in, out, size / Double.BYTES, MPI.DOUBLE, MPI.SUM);
        }
        return System.nanoTime() - start;
    }

    OsuTable barrier(int ranks) throws Exception {
        List<double[]> perRank = MpiRanks.run(transport, ranks, rank -> {
            MPI.Init(new String[0]);
            for (int i = 0; i < JIT_WARMUP_FACTOR * run.warmup(); i += WARMUP_RUN) {
                barriers(WARMUP_RUN);
            }
            settle();
            barriers(run.warmup());
            double avg = barriers(run.iterations()) / 1e3 / run.iterations();
            MPI.Finalize();
            return new double[] {avg};
        });
        return table("# OSU MPI Barrier Latency Test", "# Avg Latency(us)", new int[] {0}, mean(perRank));
    }

    /** {@code count} barriers; returns the nanoseconds they took. */
    private static long barriers(int count) throws MPIException {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            MPI.COMM_WORLD.barrier();
        }
        return System.nanoTime() - start;
    }

    /** After a warm-up: this JVM's JIT goes quiet ({@link JitQuiet}), then every rank waits for the others. */
    private static long settle() throws MPIException, InterruptedException {
        long quiet = JitQuiet.await();
        MPI.COMM_WORLD.barrier();
        return quiet;
    }

    /** first, 2 * first (1 after 0), ... up to the largest size. */
    private int[] sizes(int first) {
        int count = 0;
        for (int s = first; s <= run.maxSize(); s = OsuRun.next(s)) {
            count++;
        }
        int[] sizes = new int[count];
        int k = 0;
        for (int s = first; s <= run.maxSize(); s = OsuRun.next(s)) {
            sizes[k++] = s;
        }
        return sizes;
    }

    private static double[] mean(List<double[]> perRank) {
        double[] sum = new double[perRank.get(0).length];
        for (double[] r : perRank) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += r[i] / perRank.size();
            }
        }
        return sum;
    }

    private static OsuTable table(String header, String columns, int[] sizes, double[] values) {
        Map<Integer, Double> rows = new LinkedHashMap<>();
        for (int i = 0; i < sizes.length; i++) {
            rows.put(sizes[i], values[i]);
        }
        return new OsuTable(header, columns, rows);
    }
}
