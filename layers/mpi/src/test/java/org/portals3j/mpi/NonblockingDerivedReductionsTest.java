package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.mpi.StridedInts.GAP;
import static org.portals3j.mpi.StridedInts.ends;
import static org.portals3j.mpi.StridedInts.strided;
import static org.portals3j.mpi.StridedInts.sum;
import static org.portals3j.mpi.StridedInts.sums;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The nonblocking reductions (iReduce, iAllReduce, iReduceScatter, iReduceScatterBlock, iScan, iExScan and their
 * in-place forms) on a strided type (two ints of every four): the packed elements reduced by the schedule, the
 * results unpacked into the strided layout at completion with the gaps untouched, several outstanding at once.
 */
class NonblockingDerivedReductionsTest {
    @ParameterizedTest
    @CsvSource({"inmem,1", "inmem,2", "inmem,3", "inmem,4", "inmem,8", "udp,3"})
    void reduceAndAllReduceOfAStridedType(String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = ends();
            int root = n - 1;
            int[] reduced = new int[12];
            Arrays.fill(reduced, GAP);
            int[] all = new int[12];
            Arrays.fill(all, GAP);
            int[] allInPlace = strided(rank, 3);
            int[] rootInPlace = strided(rank, 3);
            Request[] outstanding = {
                world.iReduce(IntBuffer.wrap(strided(rank, 3)), IntBuffer.wrap(reduced), 3, t, MPI.SUM, root),
                world.iAllReduce(IntBuffer.wrap(strided(rank, 3)), IntBuffer.wrap(all), 3, t, MPI.SUM),
                world.iAllReduce(IntBuffer.wrap(allInPlace), 3, t, MPI.SUM),
                world.iReduce(IntBuffer.wrap(rootInPlace), 3, t, MPI.SUM, root),
            };
            for (Request r : outstanding) {
                r.waitFor();
            }
            if (rank == root) {
                assertThat(reduced).containsExactly(sums(n, 3));
                assertThat(rootInPlace).as("in place at the root").containsExactly(sums(n, 3));
            } else {
                assertThat(reduced).as("a non-root's receive buffer is not written").containsOnly(GAP);
                assertThat(rootInPlace).as("a non-root's buffer is only read").containsExactly(strided(rank, 3));
            }
            assertThat(all).containsExactly(sums(n, 3));
            assertThat(allInPlace).containsExactly(sums(n, 3));
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @CsvSource({"inmem,1", "inmem,2", "inmem,3", "inmem,4", "inmem,8", "udp,3"})
    void reduceScatterOfAStridedType(String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = ends();
            int[] block = {GAP, GAP, GAP, GAP};
            int[] counts = new int[n];
            int total = 0;
            int first = 0;
            for (int i = 0; i < n; i++) {
                counts[i] = i % 2 + 1;
                first += i < rank ? counts[i] : 0;
                total += counts[i];
            }
            int[] mine = new int[4 * counts[rank]];
            Arrays.fill(mine, GAP);
            int[] blockInPlace = strided(rank, n);
            int[] vInPlace = strided(rank, total);
            Request[] outstanding = {
                world.iReduceScatterBlock(IntBuffer.wrap(strided(rank, n)), IntBuffer.wrap(block), 1, t, MPI.SUM),
                world.iReduceScatter(IntBuffer.wrap(strided(rank, total)), IntBuffer.wrap(mine), counts, t, MPI.SUM),
                world.iReduceScatterBlock(IntBuffer.wrap(blockInPlace), 1, t, MPI.SUM),
                world.iReduceScatter(IntBuffer.wrap(vInPlace), counts, t, MPI.SUM),
            };
            for (Request r : outstanding) {
                r.waitFor();
            }
            assertThat(block).containsExactly(sum(n, rank, 0), GAP, GAP, sum(n, rank, 1));
            int[] expectedV = strided(rank, total);
            for (int k = 0; k < counts[rank]; k++) {
                assertThat(new int[] {mine[4 * k], mine[4 * k + 1], mine[4 * k + 2], mine[4 * k + 3]})
                        .containsExactly(sum(n, first + k, 0), GAP, GAP, sum(n, first + k, 1));
                expectedV[4 * k] = sum(n, first + k, 0);
                expectedV[4 * k + 3] = sum(n, first + k, 1);
            }
            int[] expected = strided(rank, n);
            expected[0] = sum(n, rank, 0);
            expected[3] = sum(n, rank, 1);
            assertThat(blockInPlace).as("this rank's block written at the start, the rest as it was")
                    .containsExactly(expected);
            assertThat(vInPlace).as("this rank's blocks written at the start, the rest as it was")
                    .containsExactly(expectedV);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @CsvSource({"inmem,1", "inmem,2", "inmem,3", "inmem,4", "inmem,8", "udp,3"})
    void scansOfAStridedType(String transport, int n) throws Exception {
        MpiJob.run(transport, n, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype t = ends();
            int[] in = strided(rank + 1, 2);
            int[] out = new int[8];
            Arrays.fill(out, GAP);
            int[] inPlace = strided(rank + 1, 2);
            int[] ex = new int[8];
            Arrays.fill(ex, 5);
            int[] exInPlace = strided(rank + 1, 2);
            Request[] outstanding = {
                world.iScan(IntBuffer.wrap(in), IntBuffer.wrap(out), 2, t, MPI.SUM),
                world.iScan(IntBuffer.wrap(inPlace), 2, t, MPI.SUM),
                world.iExScan(IntBuffer.wrap(in), IntBuffer.wrap(ex), 2, t, MPI.SUM),
                world.iExScan(IntBuffer.wrap(exInPlace), 2, t, MPI.SUM),
            };
            for (Request r : outstanding) {
                r.waitFor();
            }
            int prefix = 100 * (rank + 1) * (rank + 2) / 2;
            assertThat(out).containsExactly(prefix, GAP, GAP, prefix + (rank + 1), prefix + 10 * (rank + 1), GAP,
                    GAP, prefix + 11 * (rank + 1));
            assertThat(inPlace).containsExactly(out);
            if (rank == 0) {
                assertThat(ex).as("rank 0's receive buffer left as it was").containsOnly(5);
                assertThat(exInPlace).as("rank 0's buffer left as it was").containsExactly(strided(1, 2));
            } else {
                int before = 100 * rank * (rank + 1) / 2;
                assertThat(ex).containsExactly(before, 5, 5, before + rank, before + 10 * rank, 5, 5,
                        before + 11 * rank);
                assertThat(exInPlace).containsExactly(before, GAP, GAP, before + rank, before + 10 * rank, GAP, GAP,
                        before + 11 * rank);
            }
            MPI.Finalize();
        });
    }
}
