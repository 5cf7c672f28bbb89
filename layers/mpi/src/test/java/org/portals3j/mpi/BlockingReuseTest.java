package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.junit.jupiter.api.Test;

/**
 * Blocking calls reuse their thread's operation and buffer segment (BlockingOperations): a receive a wait left
 * posted (its thread was interrupted) is never reused, so the message meant for it still lands in its buffer and
 * the thread's next receive gets its own message; the same buffer sent again with other contents and counts goes
 * out as it is at each call.
 */
class BlockingReuseTest {

    @Test
    void aReceiveLeftPostedByAnInterruptIsNotReusedByTheNextOne() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            IntBuffer first = MPI.newIntBuffer(4);
            IntBuffer second = MPI.newIntBuffer(4);
            if (rank == 0) {
                Thread.currentThread().interrupt();
                assertThatThrownBy(() -> MPI.COMM_WORLD.recv(first, 4, MPI.INT, 1, 1))
                        .isInstanceOf(MPIException.class);
                assertThat(Thread.interrupted()).isTrue();
                MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, 1, 9); // the first receive is posted: go on
                Status s = MPI.COMM_WORLD.recv(second, 4, MPI.INT, 1, 2);
                assertThat(s.getTag()).isEqualTo(2);
                assertThat(s.getCount(MPI.INT)).isEqualTo(3);
                assertThat(new int[] {second.get(0), second.get(1), second.get(2)}).containsExactly(20, 21, 22);
                // the first message went to the abandoned receive's buffer, before the second (ordered delivery)
                assertThat(new int[] {first.get(0), first.get(1)}).containsExactly(10, 11);
            } else {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 9);
                MPI.COMM_WORLD.send(new int[] {10, 11}, 2, MPI.INT, 0, 1);
                MPI.COMM_WORLD.send(new int[] {20, 21, 22}, 3, MPI.INT, 0, 2);
            }
            MPI.Finalize();
        });
    }

    @Test
    void oneBufferSentAgainGoesOutWithItsContentsAndCountOfEachCall() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            IntBuffer buf = MPI.newIntBuffer(8);
            for (int round = 0; round < 6; round++) {
                int count = round % 2 == 0 ? 8 : 3;
                if (rank == 0) {
                    for (int i = 0; i < 8; i++) {
                        buf.put(i, round * 100 + i);
                    }
                    MPI.COMM_WORLD.send(buf, count, MPI.INT, 1, round);
                } else {
                    Status s = MPI.COMM_WORLD.recv(buf, 8, MPI.INT, 0, MPI.ANY_TAG);
                    assertThat(s.getTag()).isEqualTo(round);
                    assertThat(s.getCount(MPI.INT)).isEqualTo(count);
                    for (int i = 0; i < count; i++) {
                        assertThat(buf.get(i)).isEqualTo(round * 100 + i);
                    }
                }
            }
            MPI.Finalize();
        });
    }
}
