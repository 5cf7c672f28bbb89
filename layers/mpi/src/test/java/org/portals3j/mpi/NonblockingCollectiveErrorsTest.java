package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.Test;

/**
 * Wrong use of the nonblocking collectives under {@code ERRORS_RETURN}: the reference's error classes, raised by the
 * call itself before anything is sent (every rank makes the same mistake), a collective that still works after
 * them, a mismatch found while the schedule runs reported by the request's completion, and the strict-buffer switch.
 */
class NonblockingCollectiveErrorsTest {

    @Test
    void wrongArgumentsGiveTheReferencesErrorClassesAtTheCall() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            IntBuffer buf = MPI.newIntBuffer(4);
            assertThat(MpiErrors.errorClassOf(() -> world.iBcast(buf, 1, MPI.INT, 3))).isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> world.iReduce(buf, 1, MPI.INT, MPI.SUM, -1)))
                    .isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> world.iGather(buf, 1, MPI.INT, buf, 1, MPI.INT, 7)))
                    .isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> world.iBcast(buf, -1, MPI.INT, 0))).isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.iAllReduce(buf, -2, MPI.INT, MPI.SUM)))
                    .isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.iAllGatherv(buf, new int[] {1, -1, 1},
                    new int[] {0, 1, 2}, MPI.INT))).isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.iScan(buf, 1, MPI.DATATYPE_NULL, MPI.SUM)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> world.iAllReduce(buf, MPI.newIntBuffer(2), 4, MPI.INT,
                    MPI.SUM))).isEqualTo(MPI.ERR_BUFFER);
            assertThat(MpiErrors.errorClassOf(() -> world.iAllToAllv(buf, new int[] {1}, new int[] {0}, MPI.INT,
                    buf, new int[] {1}, new int[] {0}, MPI.INT))).isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> world.iExScan(buf, 1, MPI.INT, MPI.REPLACE)))
                    .isEqualTo(MPI.ERR_OP);
            Intracomm dup = world.dup();
            dup.free();
            assertThat(MpiErrors.errorClassOf(() -> dup.iBarrier())).isEqualTo(MPI.ERR_COMM);
            if (rank == 1) {
                // the root's in-place form of gatherv called by a rank that is not the root
                assertThat(MpiErrors.errorClassOf(() -> world.iGatherv(buf, new int[] {1, 1, 1},
                        new int[] {0, 1, 2}, MPI.INT, 0))).isEqualTo(MPI.ERR_ROOT);
            }
            // nothing was sent: the next collectives work, blocking and nonblocking
            int[] sum = {rank};
            world.iAllReduce(IntBuffer.wrap(sum), 1, MPI.INT, MPI.SUM).waitFor();
            assertThat(sum[0]).isEqualTo(3);
            world.barrier();
            MPI.Finalize();
        });
    }

    @Test
    void mismatchedCountsEndTheRequestWithErrTruncate() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            // the root sends 4 ints, rank 1 expects 2: its receive is truncated
            IntBuffer data = MPI.newIntBuffer(4);
            Request r = world.iBcast(data, rank == 0 ? 4 : 2, MPI.INT, 0);
            if (rank == 1) {
                assertThat(MpiErrors.errorClassOf(r::waitFor)).isEqualTo(MPI.ERR_TRUNCATE);
            } else {
                r.waitFor();
            }
            // in an array of requests: ERR_IN_STATUS, the request's own class in its status
            Request[] rs = {world.iBcast(data, rank == 0 ? 4 : 2, MPI.INT, 0), world.iBarrier()};
            if (rank == 1) {
                assertThat(MpiErrors.errorClassOf(() -> Request.waitAll(rs))).isEqualTo(MPI.ERR_IN_STATUS);
            } else {
                Request.waitAll(rs);
            }
            assertThat(rs[0].isNull()).isTrue();
            int[] one = {1};
            world.allReduce(one, 1, MPI.INT, MPI.SUM);
            assertThat(one[0]).isEqualTo(2);
            MPI.Finalize();
        });
    }

    @Test
    void strictModeRefusesHeapBuffersAsOpenMpiDoes() throws Exception {
        System.setProperty("portals3j.mpi.strictBuffers", "true");
        try {
            MpiJob.run(1, rank -> {
                MPI.Init(new String[0]);
                assertThatThrownBy(() -> MPI.COMM_WORLD.iAllReduce(IntBuffer.allocate(1), 1, MPI.INT, MPI.SUM))
                        .isInstanceOf(IllegalArgumentException.class).hasMessage("The buffer must be direct.");
                IntBuffer direct = MPI.newIntBuffer(1).put(0, 3);
                MPI.COMM_WORLD.iAllReduce(direct, 1, MPI.INT, MPI.SUM).waitFor();
                assertThat(direct.get(0)).isEqualTo(3);
                MPI.Finalize();
            });
        } finally {
            System.clearProperty("portals3j.mpi.strictBuffers");
        }
    }
}
