package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.FloatComplex;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Status;
import mpi.UserFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code FLOAT_COMPLEX} and {@code DOUBLE_COMPLEX} with {@code FloatComplex} and {@code DoubleComplex}: extents,
 * point-to-point counts, SUM and PROD through reduce and allReduce on 1 to 8 ranks, ERR_OP for the others, and the
 * counts a user operation sees.
 */
class ComplexTest {

    /** The product of (r + 1) + i over ranks 0..size-1, as {real, imaginary} (exact: small integers). */
    static double[] product(int size) {
        double re = 1;
        double im = 0;
        for (int r = 0; r < size; r++) {
            double a = r + 1;
            double nre = re * a - im;
            im = re + im * a;
            re = nre;
        }
        return new double[] {re, im};
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void sumAndProductThroughReduceAndAllReduce(int size) throws Exception {
        double[] prod = product(size);
        double sumRe = size * (size + 1) / 2.0;
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            float[] mine = new float[4];
            FloatComplex.get(mine, 0).putReal(rank + 1);
            FloatComplex.get(mine, 0).putImag(1);
            FloatComplex.get(mine, 1).putReal(rank);
            FloatComplex.get(mine, 1).putImag(-rank);
            float[] sum = new float[4];
            world.allReduce(mine, sum, 2, MPI.FLOAT_COMPLEX, MPI.SUM);
            assertThat(sum).containsExactly((float) sumRe, size, (float) (sumRe - size), (float) (size - sumRe));
            float[] product = mine.clone();
            world.allReduce(product, 1, MPI.FLOAT_COMPLEX, MPI.PROD);
            assertThat(FloatComplex.get(product).getReal()).isEqualTo((float) prod[0]);
            assertThat(FloatComplex.get(product).getImag()).isEqualTo((float) prod[1]);
            assertThat(product[2]).as("the second item is untouched by a count of 1").isEqualTo(rank);

            ByteBuffer in = MPI.newByteBuffer(16);
            DoubleComplex z = DoubleComplex.get(in);
            z.putReal(rank + 1);
            z.putImag(1);
            DoubleBuffer out = MPI.newDoubleBuffer(2);
            int root = size - 1;
            world.reduce(in.asDoubleBuffer(), rank == root ? out : null, 1, MPI.DOUBLE_COMPLEX, MPI.PROD, root);
            if (rank == root) {
                assertThat(DoubleComplex.get(out).getReal()).isEqualTo(prod[0]);
                assertThat(DoubleComplex.get(out).getImag()).isEqualTo(prod[1]);
            }
            double[] inPlace = {rank + 1, 1};
            world.reduce(inPlace, 1, MPI.DOUBLE_COMPLEX, MPI.SUM, 0);
            if (rank == 0) {
                assertThat(inPlace).containsExactly(sumRe, size);
            }
            MPI.Finalize();
        });
    }

    @Test
    void extentsCountsAndViews() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            assertThat(MPI.FLOAT_COMPLEX.getExtent()).isEqualTo(2);
            assertThat(MPI.DOUBLE_COMPLEX.getSize()).isEqualTo(2);
            if (rank == 0) {
                double[] data = {1, 2, 3, 4, 5, 6};
                world.send(data, 3, MPI.DOUBLE_COMPLEX, 1, 7);
            } else {
                double[] got = new double[8];
                Status s = world.recv(got, 4, MPI.DOUBLE_COMPLEX, 0, 7);
                assertThat(s.getCount(MPI.DOUBLE_COMPLEX)).isEqualTo(3);
                assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(6);
                assertThat(DoubleComplex.get(got, 2).getReal()).isEqualTo(5);
                assertThat(DoubleComplex.get(got, 2).getImag()).isEqualTo(6);
                assertThat(DoubleComplex.get(got, 1).getBuffer().get(1)).isEqualTo(4);
            }
            ByteBuffer bytes = MPI.newByteBuffer(16);
            bytes.position(12);
            FloatComplex.get(bytes, 1).putImag(9);
            assertThat(bytes.getFloat(12)).as("item 1's imaginary part, from byte 0 whatever the position")
                    .isEqualTo(9);
            MPI.Finalize();
        });
    }

    /** Adds the parts, and records the count and array length it was called with. */
    static final class PartSum extends UserFunction {
        volatile int count;
        volatile int length;

        @Override
        public void call(Object inVec, Object inOutVec, int n, Datatype datatype) throws MPIException {
            float[] a = (float[]) inVec;
            float[] b = (float[]) inOutVec;
            count = n;
            length = b.length;
            for (int i = 0; i < b.length; i++) {
                b[i] += a[i];
            }
        }
    }

    @Test
    void otherOperationsAreErrOpAndUserOperationsSeeItems() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            float[] v = {1, 2};
            for (Op op : new Op[] {MPI.MAX, MPI.MIN, MPI.LAND, MPI.BOR, MPI.BXOR}) {
                assertThat(MpiErrors.errorClassOf(() -> world.allReduce(v, new float[2], 1, MPI.FLOAT_COMPLEX, op)))
                        .isEqualTo(MPI.ERR_OP);
            }
            PartSum f = new PartSum();
            float[] w = {rank, 1, 2, 3};
            world.allReduce(w, 2, MPI.FLOAT_COMPLEX, new Op(f, true));
            assertThat(w).containsExactly(1, 2, 4, 6);
            int[] seen = {f.count, f.length};
            world.allReduce(seen, 2, MPI.INT, MPI.MAX);
            assertThat(seen).as("count and array length of the call on the rank that combined").containsExactly(2, 4);
            MPI.Finalize();
        });
    }
}
