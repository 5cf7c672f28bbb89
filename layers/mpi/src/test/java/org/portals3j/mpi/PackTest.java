package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.DoubleBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.Test;

/**
 * {@code pack}, {@code unpack} and {@code packSize} with {@code PACKED}: mixed types packed into one message,
 * sent, and unpacked in order on another rank; positions and sizes; ERR_TRUNCATE, ERR_ARG and ERR_COUNT.
 */
class PackTest {

    @Test
    void mixedTypesPackedSentAndUnpacked() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int size = world.packSize(3, MPI.INT) + world.packSize(2, MPI.DOUBLE) + world.packSize(4, MPI.BOOLEAN)
                    + world.packSize(1, MPI.DOUBLE_COMPLEX);
            assertThat(size).isEqualTo(12 + 16 + 4 + 16);
            byte[] packed = new byte[size + 10];
            if (rank == 0) {
                int at = world.pack(new int[] {7, -8, 9}, 3, MPI.INT, packed, 0);
                assertThat(at).isEqualTo(12);
                at = world.pack(DoubleBuffer.wrap(new double[] {0.5, -2.25}), 2, MPI.DOUBLE, packed, at);
                at = world.pack(new boolean[] {true, false, false, true}, 4, MPI.BOOLEAN, packed, at);
                at = world.pack(new double[] {3, 4}, 1, MPI.DOUBLE_COMPLEX, packed, at);
                assertThat(at).isEqualTo(size);
                world.send(packed, at, MPI.PACKED, 1, 5);
            } else {
                Status s = world.recv(packed, packed.length, MPI.PACKED, 0, 5);
                assertThat(s.getCount(MPI.PACKED)).isEqualTo(size);
                int[] ints = new int[3];
                double[] doubles = new double[2];
                boolean[] flags = new boolean[4];
                double[] complex = new double[2];
                int at = world.unpack(packed, 0, ints, 3, MPI.INT);
                at = world.unpack(packed, at, doubles, 2, MPI.DOUBLE);
                at = world.unpack(packed, at, flags, 4, MPI.BOOLEAN);
                at = world.unpack(packed, at, complex, 1, MPI.DOUBLE_COMPLEX);
                assertThat(at).isEqualTo(size);
                assertThat(ints).containsExactly(7, -8, 9);
                assertThat(doubles).containsExactly(0.5, -2.25);
                assertThat(flags).containsExactly(true, false, false, true);
                assertThat(complex).containsExactly(3, 4);
            }
            MPI.Finalize();
        });
    }

    @Test
    void wrongUseGivesTheErrorClasses() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            byte[] small = new byte[10];
            assertThat(MpiErrors.errorClassOf(() -> world.pack(new int[3], 3, MPI.INT, small, 0)))
                    .isEqualTo(MPI.ERR_TRUNCATE);
            assertThat(MpiErrors.errorClassOf(() -> world.unpack(small, 4, new int[2], 2, MPI.INT)))
                    .isEqualTo(MPI.ERR_TRUNCATE);
            assertThat(MpiErrors.errorClassOf(() -> world.pack(new int[1], 1, MPI.INT, small, 11)))
                    .isEqualTo(MPI.ERR_ARG);
            assertThat(MpiErrors.errorClassOf(() -> world.packSize(-1, MPI.INT))).isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.pack(new int[1], 1, MPI.DATATYPE_NULL, small, 0)))
                    .isEqualTo(MPI.ERR_TYPE);
            assertThat(small).as("nothing written by a failed pack").containsOnly((byte) 0);
            assertThat(world.pack(new int[] {1, 2}, 2, MPI.INT, small, 2)).isEqualTo(10);
            MPI.Finalize();
        });
    }
}
