package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The collectives and communicator management over udp (ranks in this JVM, each on its own socket), on three and
 * eight ranks.
 */
class UdpCollectivesTest {

    @ParameterizedTest
    @ValueSource(ints = {3, 8})
    void collectivesAndSplit(int size) throws Exception {
        MpiJob.run("udp", size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.barrier();
            // above the eager limit: the broadcast goes by rendezvous
            double[] big = new double[100_000];
            if (rank == size - 1) {
                for (int i = 0; i < big.length; i++) {
                    big[i] = i * 0.5;
                }
            }
            world.bcast(big, big.length, MPI.DOUBLE, size - 1);
            assertThat(big[big.length - 1]).isEqualTo((big.length - 1) * 0.5);
            long[] sums = new long[1000];
            for (int i = 0; i < sums.length; i++) {
                sums[i] = i + rank;
            }
            world.allReduce(sums, sums.length, MPI.LONG, MPI.SUM);
            assertThat(sums[999]).isEqualTo(size * 999L + size * (size - 1L) / 2);
            Intracomm pair = world.split(rank < 2 ? 0 : 1, 0);
            int[] all = new int[pair.getSize()];
            pair.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
            int[] expected = new int[rank < 2 ? 2 : size - 2];
            for (int i = 0; i < expected.length; i++) {
                expected[i] = rank < 2 ? i : i + 2;
            }
            assertThat(all).containsExactly(expected);
            int[] prefix = {rank + 1};
            world.scan(prefix, 1, MPI.INT, MPI.SUM);
            assertThat(prefix[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
            int[] scattered = new int[2];
            int[] source = new int[2 * size];
            for (int i = 0; i < source.length; i++) {
                source[i] = i;
            }
            world.scatter(rank == 0 ? source : null, 2, MPI.INT, scattered, 2, MPI.INT, 0);
            assertThat(scattered).containsExactly(2 * rank, 2 * rank + 1);
            int[] mine = new int[size];
            Arrays.fill(mine, rank);
            int[] exchanged = new int[size];
            world.allToAll(mine, 1, MPI.INT, exchanged, 1, MPI.INT);
            for (int i = 0; i < size; i++) {
                assertThat(exchanged[i]).isEqualTo(i);
            }
            pair.free();
            MPI.Finalize();
        });
    }
}
