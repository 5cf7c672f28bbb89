package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.IntStream;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reductions, every overload, on 1 to 4 ranks over inmem: results, in-place forms, MPI's rank order for a
 * non-commutative user operation, and bit-identical allReduce results on every rank.
 */
class ReductionsTest {

    /** 2x2 integer matrices (4 ints each, row-major) multiplied: associative, not commutative. */
    static final class MatrixProduct extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
            int[] a = (int[]) inVec;
            int[] b = (int[]) inOutVec;
            for (int m = 0; m < count; m += 4) {
                int[] p = multiply(a, b, m);
                System.arraycopy(p, 0, b, m, 4);
            }
        }
    }

    static int[] multiply(int[] a, int[] b, int at) {
        return new int[] {
            a[at] * b[at] + a[at + 1] * b[at + 2], a[at] * b[at + 1] + a[at + 1] * b[at + 3],
            a[at + 2] * b[at] + a[at + 3] * b[at + 2], a[at + 2] * b[at + 1] + a[at + 3] * b[at + 3]};
    }

    /** Rank r's matrix: [[r + 1, 1], [1, 0]]. */
    static int[] matrixOf(int r) {
        return new int[] {r + 1, 1, 1, 0};
    }

    /** The product of the matrices of ranks {@code from} to {@code to - 1}, in rank order. */
    static int[] product(int from, int to) {
        int[] p = {1, 0, 0, 1};
        for (int r = from; r < to; r++) {
            p = multiply(p, matrixOf(r), 0);
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void reduceAndAllReduceInEveryForm(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int root = size - 1;
            int sum = size * (size + 1) / 2;
            int[] in = {rank + 1, -(rank + 1), rank};
            int[] out = new int[3];
            world.reduce(in, rank == root ? out : null, 3, MPI.INT, MPI.SUM, root);
            if (rank == root) {
                assertThat(out).containsExactly(sum, -sum, sum - size);
            }
            long[] inPlace = {rank, 1L << rank};
            world.reduce(inPlace, 2, MPI.LONG, MPI.BOR, 0);
            if (rank == 0) {
                assertThat(inPlace).containsExactly(orOfRanks(size), (1L << size) - 1);
            }
            double[] max = new double[1];
            world.allReduce(new double[] {rank * 1.5}, max, 1, MPI.DOUBLE, MPI.MAX);
            assertThat(max[0]).isEqualTo((size - 1) * 1.5);
            boolean[] all = {rank % 2 == 0, true};
            world.allReduce(all, 2, MPI.BOOLEAN, MPI.LAND);
            assertThat(all).containsExactly(size == 1, true);
            int[] matrix = matrixOf(rank);
            Op product = new Op(new MatrixProduct(), false);
            assertThat(product.isCommutative()).isFalse();
            world.allReduce(matrix, 4, MPI.INT, product);
            assertThat(matrix).containsExactly(product(0, size));
            int[] atRoot = new int[4];
            world.reduce(matrixOf(rank), atRoot, 4, MPI.INT, product, root);
            if (rank == root) {
                assertThat(atRoot).containsExactly(product(0, size));
            }
            product.free();
            assertThat(product.isNull()).isTrue();
            MPI.Finalize();
        });
    }

    private static long orOfRanks(int size) {
        long or = 0;
        for (int r = 0; r < size; r++) {
            or |= r;
        }
        return or;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void allReduceGivesTheSameBitsOnEveryRank(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            double[] values = new double[64];
            for (int i = 0; i < values.length; i++) {
                values[i] = Math.pow(10, (rank * 7 + i) % 17 - 8) / 3 * (i % 2 == 0 ? 1 : -1);
            }
            double[] result = new double[64];
            MPI.COMM_WORLD.allReduce(values, result, 64, MPI.DOUBLE, MPI.SUM);
            long[] bits = new long[64];
            for (int i = 0; i < 64; i++) {
                bits[i] = Double.doubleToRawLongBits(result[i]);
            }
            long[] everyone = new long[64 * size];
            MPI.COMM_WORLD.allGather(bits, 64, MPI.LONG, everyone, 64, MPI.LONG);
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < 64; i++) {
                    assertThat(everyone[r * 64 + i]).isEqualTo(bits[i]);
                }
            }
            double[] reduced = new double[64];
            MPI.COMM_WORLD.reduce(values, reduced, 64, MPI.DOUBLE, MPI.SUM, 1);
            if (rank == 1) {
                assertThat(reduced).containsExactly(result);
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void reduceScatterInEveryForm(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int[] counts = IntStream.range(0, size).map(r -> r + 1).toArray();
            int total = size * (size + 1) / 2;
            int offset = rank * (rank + 1) / 2;
            int[] in = IntStream.range(0, total).map(i -> i * (rank + 1)).toArray();
            int factor = size * (size + 1) / 2;
            int[] out = new int[rank + 1];
            world.reduceScatter(in, out, counts, MPI.INT, MPI.SUM);
            assertThat(out).containsExactly(IntStream.range(offset, offset + rank + 1).map(i -> i * factor)
                    .toArray());
            int[] inPlace = in.clone();
            world.reduceScatter(inPlace, counts, MPI.INT, MPI.SUM);
            assertThat(Arrays.copyOf(inPlace, rank + 1)).containsExactly(out);
            float[] blocks = new float[2 * size];
            for (int i = 0; i < blocks.length; i++) {
                blocks[i] = i == 2 * rank ? 100 : rank;
            }
            float[] mine = new float[2];
            world.reduceScatterBlock(blocks, mine, 2, MPI.FLOAT, MPI.MAX);
            assertThat(mine[0]).isEqualTo(100f);
            assertThat(mine[1]).isEqualTo(size - 1f);
            world.reduceScatterBlock(blocks, 2, MPI.FLOAT, MPI.MAX);
            assertThat(blocks[0]).isEqualTo(100f);
            assertThat(blocks[1]).isEqualTo(size - 1f);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void scanAndExScanInRankOrder(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int[] prefix = new int[1];
            world.scan(new int[] {rank + 1}, prefix, 1, MPI.INT, MPI.SUM);
            assertThat(prefix[0]).isEqualTo((rank + 1) * (rank + 2) / 2);
            int[] inPlace = {rank + 1};
            world.scan(inPlace, 1, MPI.INT, MPI.PROD);
            assertThat(inPlace[0]).isEqualTo(IntStream.rangeClosed(1, rank + 1).reduce(1, (a, b) -> a * b));
            int[] ex = {-7};
            world.exScan(new int[] {rank + 1}, ex, 1, MPI.INT, MPI.SUM);
            assertThat(ex[0]).isEqualTo(rank == 0 ? -7 : rank * (rank + 1) / 2);
            Op product = new Op(new MatrixProduct(), false);
            int[] scanned = new int[4];
            world.scan(matrixOf(rank), scanned, 4, MPI.INT, product);
            assertThat(scanned).containsExactly(product(0, rank + 1));
            int[] exInPlace = matrixOf(rank);
            world.exScan(exInPlace, 4, MPI.INT, product);
            assertThat(exInPlace).containsExactly(rank == 0 ? matrixOf(0) : product(0, rank));
            MPI.Finalize();
        });
    }
}
