package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.Test;

/** Nonblocking collectives over udp (ranks in this JVM, each on its own socket), several outstanding at once. */
class UdpNonblockingCollectivesTest {

    @Test
    void outstandingCollectivesOfSeveralKindsOnThreeRanks() throws Exception {
        MpiJob.run("udp", 3, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int n = 50_000; // above the eager limit: rendezvous rounds
            DoubleBuffer big = MPI.newDoubleBuffer(n);
            for (int i = 0; i < n; i++) {
                big.put(i, i + rank);
            }
            int[] all = new int[3];
            int[] exchanged = new int[3];
            int[] prefix = {rank + 1};
            Request[] rs = {
                world.iAllReduce(big, n, MPI.DOUBLE, MPI.SUM),
                world.iAllGather(IntBuffer.wrap(new int[] {rank * 7}), 1, MPI.INT, IntBuffer.wrap(all), 1, MPI.INT),
                world.iBarrier(),
                world.iAllToAll(IntBuffer.wrap(new int[] {rank, rank, rank}), 1, MPI.INT,
                        IntBuffer.wrap(exchanged), 1, MPI.INT),
                world.iScan(IntBuffer.wrap(prefix), 1, MPI.INT, MPI.SUM),
            };
            int[] token = {rank};
            world.sendRecvReplace(token, 1, MPI.INT, (rank + 1) % 3, 0, (rank + 2) % 3, 0);
            assertThat(token[0]).isEqualTo((rank + 2) % 3);
            while (!Request.testAll(rs)) {
                Thread.onSpinWait();
            }
            assertThat(big.get(n - 1)).isEqualTo(3.0 * (n - 1) + 3);
            assertThat(all).containsExactly(0, 7, 14);
            assertThat(exchanged).containsExactly(0, 1, 2);
            assertThat(prefix[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
            MPI.Finalize();
        });
    }
}
