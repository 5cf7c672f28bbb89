package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** probe and iProbe find the oldest matching message without receiving it. */
class ProbeTest {

    @Test
    void probeReportsSourceTagAndCountAndTheNextReceiveGetsThatMessage() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                MPI.COMM_WORLD.send(new long[] {1, 2, 3}, 3, MPI.LONG, 1, 7);
                MPI.COMM_WORLD.send(new long[40_000], 40_000, MPI.LONG, 1, 8);
                MPI.COMM_WORLD.send(new int[0], 0, MPI.INT, 1, 9);
            } else {
                assertThat(MPI.COMM_WORLD.iProbe(0, 100)).isNull();
                Status s = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertThat(s.getSource()).isZero();
                assertThat(s.getTag()).isEqualTo(7);
                assertThat(s.getCount(MPI.LONG)).isEqualTo(3);
                assertThat(s.getCount(MPI.INT)).isEqualTo(6);
                long[] v = new long[s.getCount(MPI.LONG)];
                MPI.COMM_WORLD.recv(v, v.length, MPI.LONG, s.getSource(), s.getTag());
                assertThat(v).containsExactly(1, 2, 3);
                Status big = MPI.COMM_WORLD.probe(0, 8);
                assertThat(big.getCount(MPI.LONG)).isEqualTo(40_000);
                // a standard send this long is a rendezvous: rank 0 waits in it until it is received
                MPI.COMM_WORLD.recv(new long[40_000], 40_000, MPI.LONG, 0, 8);
                Status empty;
                while ((empty = MPI.COMM_WORLD.iProbe(0, 9)) == null) {
                    Thread.onSpinWait();
                }
                assertThat(empty.getCount(MPI.INT)).isZero();
                MPI.COMM_WORLD.recv(new int[0], 0, MPI.INT, 0, 9);
                assertThat(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG)).isNull();
            }
            MPI.Finalize();
        });
    }
}
