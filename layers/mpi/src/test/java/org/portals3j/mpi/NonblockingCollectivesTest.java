package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every nonblocking collective and its in-place overloads on 1 to 4 and 8 ranks over inmem (3: not a power of two),
 * with the root away from rank 0 where the size allows; direct buffers, heap buffers and slices of arrays.
 */
class NonblockingCollectivesTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void barrierBroadcastGatherAndScatter(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int root = size - 1;
            world.iBarrier().waitFor();
            IntBuffer b = MPI.newIntBuffer(3);
            if (rank == root) {
                b.put(0, 7).put(1, 8).put(2, 9);
            }
            world.iBcast(b, 3, MPI.INT, root).waitFor();
            assertThat(new int[] {b.get(0), b.get(1), b.get(2)}).containsExactly(7, 8, 9);
            double[] big = new double[5000];
            if (rank == 0) {
                for (int i = 0; i < big.length; i++) {
                    big[i] = i * 0.25;
                }
            }
            world.iBcast(DoubleBuffer.wrap(big), big.length, MPI.DOUBLE, 0).waitFor();
            assertThat(big[4999]).isEqualTo(4999 * 0.25);

            long[] all = new long[2 * size];
            world.iGather(LongBuffer.wrap(new long[] {rank * 10L, rank * 10L + 1}), 2, MPI.LONG,
                    rank == root ? LongBuffer.wrap(all) : null, 2, MPI.LONG, root).waitFor();
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    assertThat(all[2 * r]).isEqualTo(r * 10L);
                    assertThat(all[2 * r + 1]).isEqualTo(r * 10L + 1);
                }
            }
            int[] inPlace = new int[size];
            inPlace[rank] = rank + 100;
            world.iGather(rank == root ? IntBuffer.wrap(inPlace) : MPI.slice(inPlace, rank), 1, MPI.INT, root)
                    .waitFor();
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    assertThat(inPlace[r]).isEqualTo(r + 100);
                }
            }
            int[] counts = new int[size];
            int[] displs = new int[size];
            for (int r = 0; r < size; r++) {
                counts[r] = r + 1;
                displs[r] = r * (size + 1);
            }
            int[] v = new int[size * (size + 1)];
            int[] mine = new int[rank + 1];
            Arrays.fill(mine, rank);
            Request gv = rank == root
                    ? world.iGatherv(IntBuffer.wrap(mine), rank + 1, MPI.INT, IntBuffer.wrap(v), counts, displs,
                            MPI.INT, root)
                    : world.iGatherv(IntBuffer.wrap(mine), rank + 1, MPI.INT, root);
            gv.waitFor();
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    for (int k = 0; k <= r; k++) {
                        assertThat(v[displs[r] + k]).isEqualTo(r);
                    }
                }
            }

            int[] source = new int[2 * size];
            for (int i = 0; i < source.length; i++) {
                source[i] = i * 3;
            }
            int[] got = new int[2];
            world.iScatter(rank == root ? IntBuffer.wrap(source) : null, 2, MPI.INT, IntBuffer.wrap(got), 2,
                    MPI.INT, root).waitFor();
            assertThat(got).containsExactly(6 * rank, 6 * rank + 3);
            int[] sameBuf = rank == root ? source.clone() : new int[2];
            world.iScatter(IntBuffer.wrap(sameBuf), 2, MPI.INT, root).waitFor();
            assertThat(sameBuf[rank == root ? 2 * rank : 0]).isEqualTo(6 * rank);
            int[] part = new int[rank + 1];
            Request sv = rank == root
                    ? world.iScatterv(IntBuffer.wrap(filled(size, displs)), counts,
                            displs, MPI.INT, IntBuffer.wrap(part), rank + 1, MPI.INT, root)
                    : world.iScatterv(IntBuffer.wrap(part), rank + 1, MPI.INT, root);
            sv.waitFor();
            for (int k = 0; k <= rank; k++) {
                assertThat(part[k]).isEqualTo(rank * 1000 + k);
            }
            MPI.Finalize();
        });
    }

    /** A buffer where element {@code displs[r] + k} holds {@code r * 1000 + k}. */
    private static int[] filled(int size, int[] displs) {
        int[] data = new int[size * (size + 1)];
        for (int r = 0; r < size; r++) {
            for (int k = 0; k <= r; k++) {
                data[displs[r] + k] = r * 1000 + k;
            }
        }
        return data;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void allGatherAndAllToAllInEveryForm(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            IntBuffer all = MPI.newIntBuffer(size);
            world.iAllGather(IntBuffer.wrap(new int[] {rank * 2}), 1, MPI.INT, all, 1, MPI.INT).waitFor();
            for (int r = 0; r < size; r++) {
                assertThat(all.get(r)).isEqualTo(r * 2);
            }
            int[] inPlace = new int[size];
            inPlace[rank] = rank + 5;
            world.iAllGather(IntBuffer.wrap(inPlace), 1, MPI.INT).waitFor();
            for (int r = 0; r < size; r++) {
                assertThat(inPlace[r]).isEqualTo(r + 5);
            }
            int[] counts = new int[size];
            int[] displs = new int[size];
            for (int r = 0; r < size; r++) {
                counts[r] = r + 1;
                displs[r] = r * (size + 1);
            }
            int[] mine = new int[rank + 1];
            Arrays.fill(mine, rank + 1);
            int[] v = new int[size * (size + 1)];
            world.iAllGatherv(IntBuffer.wrap(mine), rank + 1, MPI.INT, IntBuffer.wrap(v), counts, displs, MPI.INT)
                    .waitFor();
            int[] vInPlace = new int[size * (size + 1)];
            for (int k = 0; k <= rank; k++) {
                vInPlace[displs[rank] + k] = rank + 1;
            }
            world.iAllGatherv(IntBuffer.wrap(vInPlace), counts, displs, MPI.INT).waitFor();
            for (int r = 0; r < size; r++) {
                for (int k = 0; k <= r; k++) {
                    assertThat(v[displs[r] + k]).isEqualTo(r + 1);
                    assertThat(vInPlace[displs[r] + k]).isEqualTo(r + 1);
                }
            }

            int[] out = new int[size];
            for (int r = 0; r < size; r++) {
                out[r] = rank * 100 + r;
            }
            IntBuffer in = MPI.newIntBuffer(size);
            world.iAllToAll(IntBuffer.wrap(out), 1, MPI.INT, in, 1, MPI.INT).waitFor();
            for (int r = 0; r < size; r++) {
                assertThat(in.get(r)).isEqualTo(r * 100 + rank);
            }
            // rank r sends r + 1 elements to everyone
            int[] sendCounts = new int[size];
            int[] sendDispls = new int[size];
            int[] recvCounts = new int[size];
            int[] recvDispls = new int[size];
            for (int r = 0; r < size; r++) {
                sendCounts[r] = rank + 1;
                sendDispls[r] = r * (rank + 1);
                recvCounts[r] = r + 1;
                recvDispls[r] = r * size;
            }
            int[] sendV = new int[size * (rank + 1)];
            for (int r = 0; r < size; r++) {
                for (int k = 0; k <= rank; k++) {
                    sendV[sendDispls[r] + k] = rank * 10 + r;
                }
            }
            int[] recvV = new int[size * size];
            world.iAllToAllv(IntBuffer.wrap(sendV), sendCounts, sendDispls, MPI.INT, IntBuffer.wrap(recvV),
                    recvCounts, recvDispls, MPI.INT).waitFor();
            for (int r = 0; r < size; r++) {
                for (int k = 0; k <= r; k++) {
                    assertThat(recvV[recvDispls[r] + k]).isEqualTo(r * 10 + rank);
                }
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void reductionsAndScansInEveryForm(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int root = size / 2;
            int total = size * (size + 1) / 2;
            IntBuffer sum = MPI.newIntBuffer(2);
            world.iReduce(IntBuffer.wrap(new int[] {rank + 1, 1}), rank == root ? sum : null, 2, MPI.INT, MPI.SUM,
                    root).waitFor();
            if (rank == root) {
                assertThat(sum.get(0)).isEqualTo(total);
                assertThat(sum.get(1)).isEqualTo(size);
            }
            int[] reduceInPlace = {rank + 1};
            world.iReduce(IntBuffer.wrap(reduceInPlace), 1, MPI.INT, MPI.MAX, root).waitFor();
            if (rank == root) {
                assertThat(reduceInPlace[0]).isEqualTo(size);
            }
            DoubleBuffer avg = MPI.newDoubleBuffer(1000);
            double[] contribution = new double[1000];
            for (int i = 0; i < contribution.length; i++) {
                contribution[i] = i + rank * 0.5;
            }
            world.iAllReduce(DoubleBuffer.wrap(contribution), avg, 1000, MPI.DOUBLE, MPI.SUM).waitFor();
            assertThat(avg.get(999)).isEqualTo(999.0 * size + 0.5 * (size - 1) * size / 2);
            long[] prod = {rank + 1L};
            world.iAllReduce(LongBuffer.wrap(prod), 1, MPI.LONG, MPI.PROD).waitFor();
            long factorial = 1;
            for (int r = 1; r <= size; r++) {
                factorial *= r;
            }
            assertThat(prod[0]).isEqualTo(factorial);

            int[] counts = new int[size];
            for (int r = 0; r < size; r++) {
                counts[r] = r + 1;
            }
            int[] input = new int[total];
            Arrays.fill(input, rank + 1);
            int[] block = new int[rank + 1];
            world.iReduceScatter(IntBuffer.wrap(input), IntBuffer.wrap(block), counts, MPI.INT, MPI.SUM).waitFor();
            assertThat(block).containsOnly(total);
            int[] inPlaceInput = input.clone();
            world.iReduceScatter(IntBuffer.wrap(inPlaceInput), counts, MPI.INT, MPI.SUM).waitFor();
            for (int k = 0; k <= rank; k++) {
                assertThat(inPlaceInput[k]).isEqualTo(total);
            }
            int[] blocks = new int[2 * size];
            for (int i = 0; i < blocks.length; i++) {
                blocks[i] = i;
            }
            int[] two = new int[2];
            world.iReduceScatterBlock(IntBuffer.wrap(blocks), IntBuffer.wrap(two), 2, MPI.INT, MPI.SUM).waitFor();
            assertThat(two).containsExactly(2 * rank * size, (2 * rank + 1) * size);
            int[] blocksInPlace = blocks.clone();
            world.iReduceScatterBlock(IntBuffer.wrap(blocksInPlace), 2, MPI.INT, MPI.SUM).waitFor();
            assertThat(blocksInPlace[0]).isEqualTo(2 * rank * size);
            assertThat(blocksInPlace[1]).isEqualTo((2 * rank + 1) * size);

            int[] prefix = new int[1];
            world.iScan(IntBuffer.wrap(new int[] {rank + 1}), IntBuffer.wrap(prefix), 1, MPI.INT, MPI.SUM)
                    .waitFor();
            assertThat(prefix[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
            int[] scanInPlace = {rank + 1};
            world.iScan(IntBuffer.wrap(scanInPlace), 1, MPI.INT, MPI.SUM).waitFor();
            assertThat(scanInPlace[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
            int[] exclusive = {-1};
            world.iExScan(IntBuffer.wrap(new int[] {rank + 1}), IntBuffer.wrap(exclusive), 1, MPI.INT, MPI.SUM)
                    .waitFor();
            if (rank > 0) {
                assertThat(exclusive[0]).isEqualTo(rank * (rank + 1) / 2);
            }
            int[] exInPlace = {rank + 1};
            world.iExScan(IntBuffer.wrap(exInPlace), 1, MPI.INT, MPI.SUM).waitFor();
            if (rank > 0) {
                assertThat(exInPlace[0]).isEqualTo(rank * (rank + 1) / 2);
            }
            MPI.Finalize();
        });
    }
}
