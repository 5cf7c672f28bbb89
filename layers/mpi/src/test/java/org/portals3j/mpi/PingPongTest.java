package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** Blocking send and recv between two ranks, below and above the eager limit. */
class PingPongTest {

    @Test
    void twoRanksExchangeShortAndLongMessages() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            assertThat(MPI.COMM_WORLD.getSize()).isEqualTo(2);
            assertThat(MPI.COMM_WORLD.getRank()).isEqualTo(rank);
            for (int n : new int[] {0, 1, 100, 4096, 100_000}) {
                int[] data = new int[n];
                if (rank == 0) {
                    for (int i = 0; i < n; i++) {
                        data[i] = i * 7 + n;
                    }
                    MPI.COMM_WORLD.send(data, n, MPI.INT, 1, 5);
                    int[] back = new int[n];
                    Status s = MPI.COMM_WORLD.recv(back, n, MPI.INT, 1, 6);
                    assertThat(back).isEqualTo(data);
                    assertThat(s.getCount(MPI.INT)).isEqualTo(n);
                    assertThat(s.getSource()).isEqualTo(1);
                    assertThat(s.getTag()).isEqualTo(6);
                } else {
                    Status s = MPI.COMM_WORLD.recv(data, n, MPI.INT, 0, 5);
                    assertThat(s.getCount(MPI.INT)).isEqualTo(n);
                    MPI.COMM_WORLD.send(data, n, MPI.INT, 0, 6);
                }
            }
            MPI.Finalize();
            assertThat(MPI.isFinalized()).isTrue();
        });
    }
}
