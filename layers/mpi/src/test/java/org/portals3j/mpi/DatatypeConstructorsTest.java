package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;

/**
 * The derived-type factories of {@code Datatype} and their bounds in base elements (mpi-java-api.md section 1.4),
 * the units of their arguments (extents of the old type for vector and indexed, bytes for the H forms, struct and
 * resized), {@code commit}, {@code free}, {@code dup}, {@code clone} and names, packing through a type map, and the
 * error classes of wrong use.
 */
class DatatypeConstructorsTest {

    @Test
    void boundsAndSizesOfEveryConstructor() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Datatype vector = Datatype.createVector(3, 2, 4, MPI.INT);
            assertBounds(vector, 0, 10, 0, 10, 6);
            Datatype hvector = Datatype.createHVector(2, 1, 12, MPI.INT);
            assertBounds(hvector, 0, 4, 0, 4, 2);
            Datatype indexed = Datatype.createIndexed(new int[] {2, 1}, new int[] {3, 0}, MPI.INT);
            assertBounds(indexed, 0, 5, 0, 5, 3);
            Datatype shifted = Datatype.createIndexed(new int[] {1}, new int[] {2}, MPI.INT);
            assertBounds(shifted, 2, 1, 2, 1, 1);
            Datatype hindexed = Datatype.createHIndexed(new int[] {1, 1}, new int[] {8, 0}, MPI.DOUBLE);
            assertBounds(hindexed, 0, 2, 0, 2, 2);
            Datatype struct = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8},
                    new Datatype[] {MPI.INT, MPI.DOUBLE});
            assertBounds(struct, 0, 24, 0, 24, 20);
            Datatype resized = Datatype.createResized(MPI.INT, 0, 12);
            assertBounds(resized, 0, 3, 0, 1, 1);
            Datatype contiguous = Datatype.createContiguous(4, MPI.INT);
            assertBounds(contiguous, 0, 4, 0, 4, 4);
            Datatype nested = Datatype.createVector(2, 1, 3, vector);
            assertBounds(nested, 0, 40, 0, 40, 12);
            Datatype ofComplex = Datatype.createContiguous(2, MPI.DOUBLE_COMPLEX);
            assertBounds(ofComplex, 0, 4, 0, 4, 4);
            Datatype empty = Datatype.createIndexed(new int[0], new int[0], MPI.INT);
            assertBounds(empty, 0, 0, 0, 0, 0);
            Datatype longRun = Datatype.createContiguous(1 << 24, MPI.INT); // one merged block, no per-copy memory
            assertBounds(longRun, 0, 1 << 24, 0, 1 << 24, 1 << 24);
            MPI.Finalize();
        });
    }

    private static void assertBounds(Datatype t, int lb, int extent, int trueLb, int trueExtent, int size)
            throws Exception {
        assertThat(new int[] {t.getLb(), t.getExtent(), t.getTrueLb(), t.getTrueExtent(), t.getSize()})
                .as("lb, extent, true lb, true extent, size").containsExactly(lb, extent, trueLb, trueExtent, size);
    }

    @Test
    void commitFreeDupCloneAndNames() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Datatype v = Datatype.createVector(2, 1, 2, MPI.INT);
            assertThat(v.getName()).isEmpty();
            v.setName("pairs");
            assertThat(v.getName()).isEqualTo("pairs");
            assertThat(v.isNull()).isFalse();
            Datatype d = v.dup();
            Datatype c = v.clone();
            assertThat(d).isNotSameAs(v);
            assertThat(d.getExtent()).isEqualTo(3);
            assertThat(c.getSize()).isEqualTo(2);
            v.commit();
            Datatype committedDup = v.dup();
            v.free();
            assertThat(v.isNull()).isTrue();
            // a type built from a freed one, and a dup of a committed one, still work
            int[] out = new int[3];
            int[] in = {5, 6, 7};
            byte[] packed = new byte[8];
            MPI.COMM_WORLD.pack(in, 1, committedDup, packed, 0);
            MPI.COMM_WORLD.unpack(packed, 0, out, 1, committedDup);
            assertThat(out).containsExactly(5, 0, 7);
            Datatype p = MPI.INT.dup();
            p.commit();
            assertThat(p.getExtent()).isEqualTo(1);
            MPI.Finalize();
        });
    }

    @Test
    void packAndUnpackThroughTheTypeMap() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            Datatype column = Datatype.createVector(3, 1, 4, MPI.DOUBLE);
            column.commit();
            double[] matrix = new double[12];
            for (int i = 0; i < matrix.length; i++) {
                matrix[i] = i;
            }
            assertThat(world.packSize(1, column)).isEqualTo(24);
            Datatype columns = Datatype.createResized(column, 0, 8);
            columns.commit();
            byte[] packed = new byte[world.packSize(2, columns)];
            int at = world.pack(matrix, 2, columns, packed, 0);
            assertThat(at).isEqualTo(48);
            double[] plain = new double[6];
            world.unpack(packed, 0, plain, 6, MPI.DOUBLE);
            assertThat(plain).containsExactly(0, 4, 8, 1, 5, 9);
            double[] back = new double[12];
            world.unpack(packed, 0, back, 2, columns);
            assertThat(back).containsExactly(0, 1, 0, 0, 4, 5, 0, 0, 8, 9, 0, 0);
            MPI.Finalize();
        });
    }

    @Test
    void wrongUseGivesTheErrorClasses() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MpiErrors.errorClassOf(() -> Datatype.createVector(-1, 1, 1, MPI.INT)))
                    .isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> Datatype.createContiguous(2, MPI.DATATYPE_NULL)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> Datatype.createIndexed(new int[2], new int[1], MPI.INT)))
                    .isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> Datatype.createStruct(new int[] {1}, new int[] {0},
                    new Datatype[] {null}))).isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> MPI.INT.free())).isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> Datatype.createVector((1 << 20) + 1, 1, 2, MPI.INT)))
                    .as("more than 2^20 separate blocks").isEqualTo(MPI.ERR_ARG);
            Datatype uncommitted = Datatype.createVector(2, 1, 2, MPI.INT);
            assertThat(MpiErrors.errorClassOf(() -> world.send(new int[3], 1, uncommitted, 1 - rank, 0)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> world.recv(new int[3], 1, uncommitted, 1 - rank, 0)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> world.bcast(new int[3], 1, uncommitted, 0)))
                    .isEqualTo(MPI.ERR_TYPE);
            Datatype freed = Datatype.createContiguous(2, MPI.INT);
            freed.commit();
            freed.free();
            assertThat(MpiErrors.errorClassOf(() -> world.send(new int[2], 1, freed, 1 - rank, 0)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(freed::free)).isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(freed::getExtent)).isEqualTo(MPI.ERR_TYPE);
            Datatype v = Datatype.createVector(2, 1, 3, MPI.INT);
            v.commit();
            assertThat(MpiErrors.errorClassOf(() -> world.send(new long[4], 1, v, 1 - rank, 0)))
                    .as("a buffer of another base type").isEqualTo(MPI.ERR_TYPE);
            assertThat(MpiErrors.errorClassOf(() -> world.send(new int[3], 1, v, 1 - rank, 0)))
                    .as("a buffer shorter than the type map").isEqualTo(MPI.ERR_BUFFER);
            Datatype below = Datatype.createIndexed(new int[] {1}, new int[] {-1}, MPI.INT);
            below.commit();
            assertThat(MpiErrors.errorClassOf(() -> world.send(new int[4], 1, below, 1 - rank, 0)))
                    .as("a type map before element 0").isEqualTo(MPI.ERR_BUFFER);
            Datatype struct = Datatype.createStruct(new int[] {2}, new int[] {0}, new Datatype[] {MPI.INT});
            struct.commit();
            assertThat(MpiErrors.errorClassOf(() -> world.allReduce(new byte[8], new byte[8], 1, struct, MPI.SUM)))
                    .isEqualTo(MPI.ERR_OP);
            assertThatThrownBy(() -> MPI.DATATYPE_NULL.dup().clone()).isInstanceOf(Exception.class);
            world.barrier();
            MPI.Finalize();
        });
    }
}
