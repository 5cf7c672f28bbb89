package org.portals3j.bench;

import java.nio.ByteBuffer;
import mpi.MPI;

/**
 * One rank of {@link MpiOsu}'s latency test with the ranks as separate JVM processes: {@code MPI.Init} joins the job
 * from the environment ({@code JobRuntime.join()}, set up by {@link MpiProcesses}). Arguments
 * {@code MAX_SIZE ITERATIONS WARMUP}, counted as {@link OsuRun} does; rank 0 prints the OSU latency table.
 */
public final class MpiLatencyRank {
    private MpiLatencyRank() {
    }

    public static void main(String[] args) throws Exception {
        OsuRun run = new OsuRun(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]), 1);
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer buf = MPI.newByteBuffer(run.maxSize());
        StringBuilder table = new StringBuilder("# OSU MPI Latency Test\n# Size          Latency (us)\n");
        long quiet = MpiOsuLayer.warmUp(run, buf, rank);
        for (int size = 0; size <= run.maxSize(); size = OsuRun.next(size)) {
            table.append(String.format("%-10d%18.6f%n", size, MpiOsuLayer.latencyRow(run, buf, rank, size)));
        }
        MPI.Finalize();
        if (rank == 0) {
            System.out.print(MpiOsu.jitNote(quiet) + "\n" + table);
        }
    }
}
