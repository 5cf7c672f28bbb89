package org.portals3j.bench;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import mpi.MPI;

/**
 * Bytes the MPI layer allocates per round trip of its blocking ping-pong, on each rank's thread: two ranks as
 * threads of this JVM ({@link MpiRanks}), {@code send}/{@code recv} of {@code size} bytes from direct buffers, as
 * {@link MpiOsuLayer#latency} does. Each rank thread counts its own allocations
 * ({@link ThreadMXBean#getCurrentThreadAllocatedBytes}) over the timed round trips, after warm-up round trips that
 * let the JIT compile the path; the transport's own threads are not counted. See bench/README.md.
 *
 * <p>Usage: {@code MpiAllocations [--transport inmem|udp] [--size BYTES] [--iterations N] [--warmup N]}
 */
public final class MpiAllocations {

    private MpiAllocations() {
    }

    public static void main(String[] args) throws Exception {
        MpiPingPongArgs a = MpiPingPongArgs.parse("MpiAllocations", args);
        if (a == null) {
            return;
        }
        double[] perRank = measure(a.transport, a.size, a.iterations, a.warmup);
        System.out.println(a.title());
        System.out.printf(Locale.ROOT, "bytes allocated per round trip: rank 0 %.1f, rank 1 %.1f%n", perRank[0],
                perRank[1]);
    }

    /** Bytes allocated per round trip by each rank's thread. */
    static double[] measure(String transport, int size, int iterations, int warmup) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<double[]> perRank = MpiRanks.run(transport, 2, rank -> {
            MPI.Init(new String[0]);
            ByteBuffer buf = MPI.newByteBuffer(Math.max(1, size));
            long before = 0;
            MPI.COMM_WORLD.barrier();
            for (int i = 0; i < iterations + warmup; i++) {
                if (i == warmup) {
                    before = threads.getCurrentThreadAllocatedBytes();
                }
                MpiPingPongArgs.roundTrip(rank, buf, size);
            }
            double bytes = (double) (threads.getCurrentThreadAllocatedBytes() - before) / iterations;
            MPI.Finalize();
            return new double[] {bytes};
        });
        return new double[] {perRank.get(0)[0], perRank.get(1)[0]};
    }
}
