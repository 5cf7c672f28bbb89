package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.UserFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Derived datatypes in the blocking collectives on 1, 3, 4 and 8 ranks: the matrix column types of textbook programs
 * (a vector resized to one element, so that item {@code i} is column {@code i}) in bcast, gather(v), scatter,
 * allGather (and in place), allToAll(v) and allToAllw with byte displacements; reductions on a vector of a basic
 * type, with a predefined and a user-defined operation.
 */
class DerivedCollectivesTest {

    /** Column {@code c} of a rows x cols row-major int matrix, with extent one int. */
    private static Datatype column(int rows, int cols) throws Exception {
        Datatype col = Datatype.createResized(Datatype.createVector(rows, 1, cols, MPI.INT), 0, 4);
        col.commit();
        return col;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 8})
    void rootedCollectivesWithColumns(int n) throws Exception {
        MpiJob.run(n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int root = n - 1;
            Datatype col = column(3, n);
            // bcast: the root's column 0 into everybody's column 0
            int[] m = new int[3 * n];
            if (rank == root) {
                m[0] = 5;
                m[n] = 6;
                m[2 * n] = 7;
            }
            world.bcast(m, 1, col, root);
            assertThat(new int[] {m[0], m[n], m[2 * n]}).containsExactly(5, 6, 7);
            // gather: rank r's three values become column r of the root's matrix
            int[] mine = {rank, 10 + rank, 20 + rank};
            int[] gathered = new int[3 * n];
            world.gather(mine, 3, MPI.INT, gathered, 1, col, root);
            if (rank == root) {
                for (int r = 0; r < n; r++) {
                    assertThat(new int[] {gathered[r], gathered[n + r], gathered[2 * n + r]})
                            .containsExactly(r, 10 + r, 20 + r);
                }
            }
            // scatter: the root's column r goes to rank r
            int[] got = new int[3];
            world.scatter(gathered, 1, col, got, 3, MPI.INT, root);
            assertThat(got).containsExactly(rank, 10 + rank, 20 + rank);
            // gatherv: column r at displacement n-1-r (reversed)
            int[] counts = new int[n];
            int[] displs = new int[n];
            for (int r = 0; r < n; r++) {
                counts[r] = 1;
                displs[r] = n - 1 - r;
            }
            int[] reversed = new int[3 * n];
            world.gatherv(mine, 3, MPI.INT, reversed, counts, displs, col, root);
            if (rank == root) {
                assertThat(reversed[0]).isEqualTo(n - 1);
                assertThat(reversed[2 * n + n - 1]).isEqualTo(20);
            }
            // in-place gather at the root with a column type
            int[] inPlace = new int[3 * n];
            if (rank == root) {
                inPlace[root] = root;
                inPlace[n + root] = 10 + root;
                inPlace[2 * n + root] = 20 + root;
                world.gather(inPlace, 1, col, root);
                assertThat(inPlace).containsExactly(gathered);
            } else {
                world.gather(mine, 3, MPI.INT, root);
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 8})
    void allGatherAndAllToAllWithColumns(int n) throws Exception {
        MpiJob.run(n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype col = column(3, n);
            int[] mine = {rank, 10 + rank, 20 + rank};
            int[] all = new int[3 * n];
            world.allGather(mine, 3, MPI.INT, all, 1, col);
            int[] expected = new int[3 * n];
            for (int r = 0; r < n; r++) {
                expected[r] = r;
                expected[n + r] = 10 + r;
                expected[2 * n + r] = 20 + r;
            }
            assertThat(all).containsExactly(expected);
            int[] inPlace = new int[3 * n];
            inPlace[rank] = rank;
            inPlace[n + rank] = 10 + rank;
            inPlace[2 * n + rank] = 20 + rank;
            world.allGather(inPlace, 1, col);
            assertThat(inPlace).containsExactly(expected);
            // allToAll: rank r sends column j of its matrix (values 100 r + j, ...) to rank j, received contiguous
            int[] m = new int[3 * n];
            for (int j = 0; j < n; j++) {
                m[j] = 100 * rank + j;
                m[n + j] = 100 * rank + j + 1000;
                m[2 * n + j] = 100 * rank + j + 2000;
            }
            int[] recv = new int[3 * n];
            world.allToAll(m, 1, col, recv, 3, MPI.INT);
            for (int r = 0; r < n; r++) {
                assertThat(new int[] {recv[3 * r], recv[3 * r + 1], recv[3 * r + 2]})
                        .containsExactly(100 * r + rank, 100 * r + rank + 1000, 100 * r + rank + 2000);
            }
            // allToAllv back into columns: each triple returns to its sender's column, restoring the matrix
            int[] ones = new int[n];
            int[] threes = new int[n];
            int[] at = new int[n];
            int[] byThree = new int[n];
            for (int r = 0; r < n; r++) {
                ones[r] = 1;
                threes[r] = 3;
                at[r] = r;
                byThree[r] = 3 * r;
            }
            int[] back = new int[3 * n];
            world.allToAllv(recv, threes, byThree, MPI.INT, back, ones, at, col);
            for (int j = 0; j < n; j++) {
                assertThat(new int[] {back[j], back[n + j], back[2 * n + j]})
                        .containsExactly(100 * rank + j, 100 * rank + j + 1000, 100 * rank + j + 2000);
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void allToAllwWithByteDisplacements(int n) throws Exception {
        MpiJob.run(n, rank -> {
            MPI.Init(new String[0]);
            Datatype pair = Datatype.createVector(2, 1, 2, MPI.LONG); // longs 0 and 2 of 3
            pair.commit();
            long[] send = new long[3 * n];
            for (int i = 0; i < send.length; i++) {
                send[i] = 1000L * rank + i;
            }
            int[] sendCount = new int[n];
            int[] sDispls = new int[n];
            int[] recvCount = new int[n];
            int[] rDispls = new int[n];
            Datatype[] sendTypes = new Datatype[n];
            Datatype[] recvTypes = new Datatype[n];
            for (int j = 0; j < n; j++) {
                sendCount[j] = 1;
                sDispls[j] = 24 * j; // bytes: the block of 3 longs for rank j
                sendTypes[j] = pair;
                recvCount[j] = 2;
                rDispls[j] = 16 * j;
                recvTypes[j] = MPI.LONG;
            }
            long[] recv = new long[2 * n];
            MPI.COMM_WORLD.allToAllw(send, sendCount, sDispls, sendTypes, recv, recvCount, rDispls, recvTypes);
            for (int r = 0; r < n; r++) {
                assertThat(new long[] {recv[2 * r], recv[2 * r + 1]})
                        .containsExactly(1000L * r + 3 * rank, 1000L * r + 3 * rank + 2);
            }
            MPI.Finalize();
        });
    }

    @Test
    void reductionsOnAVectorOfABasicType() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Datatype evens = Datatype.createVector(3, 1, 2, MPI.DOUBLE);
            evens.commit();
            double[] in = {rank, -1, rank + 1, -1, rank + 2};
            double[] out = new double[5];
            world.allReduce(in, out, 1, evens, MPI.SUM);
            assertThat(out).containsExactly(3, 0, 6, 0, 9);
            double[] max = {rank, 7, 2 * rank, 7, -rank};
            world.reduce(max, 1, evens, MPI.MAX, 0);
            if (rank == 0) {
                assertThat(max).containsExactly(2, 7, 4, 7, 0);
            }
            Op lowest = new Op(new UserFunction() {
                @Override
                public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                    double[] a = (double[]) inVec;
                    double[] b = (double[]) inOutVec;
                    for (int i = 0; i < count; i++) {
                        b[i] = Math.min(a[i], b[i]);
                    }
                }
            }, true);
            double[] low = {5, 5, 5, 5, 5};
            world.allReduce(in, low, 1, evens, lowest);
            assertThat(low).as("the user operation on the packed doubles, the gaps untouched")
                    .containsExactly(0, 5, 1, 5, 2);
            MPI.Finalize();
        });
    }
}
