package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nonblocking collectives over udp (ranks in this JVM, each on its own socket), several outstanding at once, on 3
 * and 8 ranks.
 */
class UdpNonblockingCollectivesTest {

    @ParameterizedTest
    @ValueSource(ints = {3, 8})
    void outstandingCollectivesOfSeveralKinds(int size) throws Exception {
        MpiJob.run("udp", size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int n = 50_000; // above the eager limit: rendezvous rounds
            DoubleBuffer big = MPI.newDoubleBuffer(n);
            for (int i = 0; i < n; i++) {
                big.put(i, i + rank);
            }
            int[] all = new int[size];
            int[] exchanged = new int[size];
            int[] mine = new int[size];
            Arrays.fill(mine, rank);
            int[] prefix = {rank + 1};
            Request[] rs = {
                world.iAllReduce(big, n, MPI.DOUBLE, MPI.SUM),
                world.iAllGather(IntBuffer.wrap(new int[] {rank * 7}), 1, MPI.INT, IntBuffer.wrap(all), 1, MPI.INT),
                world.iBarrier(),
                world.iAllToAll(IntBuffer.wrap(mine), 1, MPI.INT,
                        IntBuffer.wrap(exchanged), 1, MPI.INT),
                world.iScan(IntBuffer.wrap(prefix), 1, MPI.INT, MPI.SUM),
            };
            int[] token = {rank};
            int previous = (rank + size - 1) % size;
            world.sendRecvReplace(token, 1, MPI.INT, (rank + 1) % size, 0, previous, 0);
            assertThat(token[0]).isEqualTo(previous);
            while (!Request.testAll(rs)) {
                Thread.onSpinWait();
            }
            assertThat(big.get(n - 1)).isEqualTo((double) size * (n - 1) + size * (size - 1) / 2);
            for (int r = 0; r < size; r++) {
                assertThat(new int[] {all[r], exchanged[r]}).containsExactly(7 * r, r);
            }
            assertThat(prefix[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
            MPI.Finalize();
        });
    }
}
