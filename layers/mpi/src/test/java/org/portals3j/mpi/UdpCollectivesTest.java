package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;

/** The collectives and communicator management over udp (ranks in this JVM, each on its own socket). */
class UdpCollectivesTest {

    @Test
    void collectivesAndSplitOnThreeRanks() throws Exception {
        MpiJob.run("udp", 3, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.barrier();
            // above the eager limit: the broadcast goes by rendezvous
            double[] big = new double[100_000];
            if (rank == 2) {
                for (int i = 0; i < big.length; i++) {
                    big[i] = i * 0.5;
                }
            }
            world.bcast(big, big.length, MPI.DOUBLE, 2);
            assertThat(big[big.length - 1]).isEqualTo((big.length - 1) * 0.5);
            long[] sums = new long[1000];
            for (int i = 0; i < sums.length; i++) {
                sums[i] = i + rank;
            }
            world.allReduce(sums, sums.length, MPI.LONG, MPI.SUM);
            assertThat(sums[999]).isEqualTo(3 * 999 + 3);
            Intracomm pair = world.split(rank < 2 ? 0 : 1, 0);
            int[] all = new int[pair.getSize()];
            pair.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
            assertThat(all).containsExactly(rank < 2 ? new int[] {0, 1} : new int[] {2});
            int[] prefix = {rank + 1};
            world.scan(prefix, 1, MPI.INT, MPI.SUM);
            assertThat(prefix[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
            int[] scattered = new int[2];
            world.scatter(rank == 0 ? new int[] {0, 1, 2, 3, 4, 5} : null, 2, MPI.INT, scattered, 2, MPI.INT, 0);
            assertThat(scattered).containsExactly(2 * rank, 2 * rank + 1);
            int[] exchanged = new int[3];
            world.allToAll(new int[] {rank, rank, rank}, 1, MPI.INT, exchanged, 1, MPI.INT);
            assertThat(exchanged).containsExactly(0, 1, 2);
            pair.free();
            MPI.Finalize();
        });
    }
}
