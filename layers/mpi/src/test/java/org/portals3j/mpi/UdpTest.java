package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** The same protocols over udp (ranks in this JVM, each on its own socket). */
class UdpTest {

    @Test
    void pingPongAcrossTheEagerLimitAndSynchronousSends() throws Exception {
        MpiJob.run("udp", 2, rank -> {
            MPI.Init(new String[0]);
            int other = 1 - rank;
            for (int n : new int[] {0, 10, 2000, 200_000}) {
                double[] data = new double[n];
                if (rank == 0) {
                    for (int i = 0; i < n; i++) {
                        data[i] = i + 0.5;
                    }
                    MPI.COMM_WORLD.sSend(data, n, MPI.DOUBLE, other, n % 7);
                    MPI.COMM_WORLD.recv(data, n, MPI.DOUBLE, other, n % 7);
                } else {
                    Status s = MPI.COMM_WORLD.recv(data, n, MPI.DOUBLE, other, MPI.ANY_TAG);
                    assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(n);
                    MPI.COMM_WORLD.send(data, n, MPI.DOUBLE, other, s.getTag());
                }
                if (n > 0) {
                    assertThat(data[n - 1]).isEqualTo(n - 0.5);
                }
            }
            DoubleBuffer out = MPI.newDoubleBuffer(3).put(0, rank);
            DoubleBuffer in = MPI.newDoubleBuffer(3);
            Request[] both = {MPI.COMM_WORLD.iRecv(in, 3, MPI.DOUBLE, other, 1),
                MPI.COMM_WORLD.iSend(out, 3, MPI.DOUBLE, other, 1)};
            Request.waitAll(both);
            assertThat(in.get(0)).isEqualTo(other);
            MPI.Finalize();
        });
    }

    @Test
    void randomizedMatchingKeepsMpiOrder() throws Exception {
        MatchingOrderTest.run("udp", 11);
    }
}
