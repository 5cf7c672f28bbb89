package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;

/**
 * Wrong use of the collectives under {@code ERRORS_RETURN}: the error classes of the reference, found before any
 * message is sent (every rank makes the same mistake, so none waits for another), and a collective that still
 * works afterwards; the job abort under the default {@code ERRORS_ARE_FATAL}.
 */
class CollectiveErrorsTest {

    @Test
    void wrongArgumentsGiveTheReferencesErrorClasses() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int[] buf = new int[4];
            assertThat(MpiErrors.errorClassOf(() -> world.bcast(buf, 1, MPI.INT, 3))).isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> world.reduce(buf, 1, MPI.INT, MPI.SUM, -1)))
                    .isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> world.gather(buf, 1, MPI.INT, MPI.ROOT)))
                    .isEqualTo(MPI.ERR_ROOT);
            assertThat(MpiErrors.errorClassOf(() -> world.bcast(buf, -1, MPI.INT, 0))).isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(buf, -2, MPI.INT, MPI.SUM)))
                    .isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.allGatherv(buf, new int[] {1, -1, 1}, new int[] {0, 1, 2},
                    MPI.INT))).isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.bcast(buf, 1, MPI.DATATYPE_NULL, 0)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(buf, 1, null, MPI.SUM)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(buf, new double[4], 4, MPI.DOUBLE, MPI.SUM)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(buf, new int[2], 4, MPI.INT, MPI.SUM)))
                    .isEqualTo(MPI.ERR_BUFFER);
            assertThat(MpiErrors.errorClassOf(() -> world.bcast(null, 1, MPI.INT, 0))).isEqualTo(MPI.ERR_BUFFER);
            assertThat(MpiErrors.errorClassOf(() -> world.allGather(new int[2], 1, MPI.INT)))
                    .isEqualTo(MPI.ERR_BUFFER);
            assertThat(MpiErrors.errorClassOf(() -> world.allGatherv(buf, new int[] {1, 1, 1}, new int[] {0, -1, 2},
                    MPI.INT))).isEqualTo(MPI.ERR_BUFFER);
            assertThat(MpiErrors.errorClassOf(() -> world.allToAllv(buf, new int[] {1}, new int[] {0}, MPI.INT, buf,
                    new int[] {1}, new int[] {0}, MPI.INT))).isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(new boolean[1], 1, MPI.BOOLEAN, MPI.SUM)))
                    .isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(new double[1], 1, MPI.DOUBLE, MPI.BAND)))
                    .isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.reduce(buf, 1, MPI.INT, null, 0))).isEqualTo(MPI.ERR_OP);
            assertThat(MpiErrors.errorClassOf(() -> world.scan(buf, 1, MPI.INT, MPI.REPLACE)))
                    .isEqualTo(MPI.ERR_OP);
            Intracomm dup = world.dup();
            dup.free();
            assertThat(MpiErrors.errorClassOf(() -> dup.allReduce(buf, 1, MPI.INT, MPI.SUM)))
                    .isEqualTo(MPI.ERR_COMM);
            // nothing was sent: the next collective works
            int[] sum = {rank};
            world.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(3);
            MPI.Finalize();
        });
    }

    @Test
    void theFormsOfOneSideCalledByTheOtherAreErrRootAndMismatchedCountsErrTruncate() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int[] counts = {1, 1};
            int[] displs = {0, 1};
            int[] buf = {rank, rank};
            if (rank == 1) {
                // the root's in-place form on a rank that is not the root, then the right form
                assertThat(MpiErrors.errorClassOf(() -> world.gatherv(buf, counts, displs, MPI.INT, 0)))
                        .isEqualTo(MPI.ERR_ROOT);
                assertThat(MpiErrors.errorClassOf(() -> world.scatterv(buf, counts, displs, MPI.INT, 0)))
                        .isEqualTo(MPI.ERR_ROOT);
                world.gatherv(buf, 1, MPI.INT, 0);
            } else {
                assertThat(MpiErrors.errorClassOf(() -> world.gatherv(buf, 1, MPI.INT, 0))).isEqualTo(MPI.ERR_ROOT);
                assertThat(MpiErrors.errorClassOf(() -> world.scatterv(buf, 1, MPI.INT, 0)))
                        .isEqualTo(MPI.ERR_ROOT);
                world.gatherv(buf, counts, displs, MPI.INT, 0);
                assertThat(buf).containsExactly(0, 1);
            }
            // the root expects 1 element from each rank, rank 1 sends 2
            int[] all = new int[2];
            if (rank == 0) {
                assertThat(MpiErrors.errorClassOf(() -> world.gather(new int[] {5}, 1, MPI.INT, all, 1, MPI.INT, 0)))
                        .isEqualTo(MPI.ERR_TRUNCATE);
                assertThat(all[1]).isEqualTo(6);
            } else {
                world.gather(new int[] {6, 7}, 2, MPI.INT, null, 0, MPI.INT, 0);
            }
            // the same with a strided type: one item expected, two sent; then a bcast of mismatched counts
            Datatype t = StridedInts.ends();
            if (rank == 0) {
                int[] items = StridedInts.strided(9, 2);
                assertThat(MpiErrors.errorClassOf(() -> world.gatherv(StridedInts.strided(0, 1), 1, t, items,
                        new int[] {1, 1}, new int[] {0, 1}, t, 0))).isEqualTo(MPI.ERR_TRUNCATE);
                world.bcast(StridedInts.strided(0, 3), 3, t, 0);
            } else {
                world.gatherv(StridedInts.strided(1, 2), 2, t, 0);
                assertThat(MpiErrors.errorClassOf(() -> world.bcast(StridedInts.strided(9, 2), 2, t, 0)))
                        .isEqualTo(MPI.ERR_TRUNCATE);
            }
            world.barrier();
            int[] sum = StridedInts.strided(9, 1);
            world.allReduce(StridedInts.strided(rank, 1), sum, 1, t, MPI.SUM);
            assertThat(sum).as("the communicator goes on").containsExactly(StridedInts.sums(2, 1));
            MPI.Finalize();
        });
    }

    @Test
    void anErrorUnderTheDefaultHandlerAbortsTheJob() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            try {
                MPI.COMM_WORLD.bcast(new int[1], 1, MPI.INT, 1);
                throw new AssertionError("no abort");
            } catch (MpiJob.Aborted e) {
                assertThat(e.status).isEqualTo(MPI.ERR_ROOT);
            }
            MPI.Finalize();
        });
    }
}
