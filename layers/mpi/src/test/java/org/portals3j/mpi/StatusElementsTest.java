package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Count;
import mpi.Datatype;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.Test;

/**
 * {@code Status.setElements} and {@code setElementsX} count basic elements of a derived type, not items (MPI 3.1
 * section 4.1.11): {@code getElements} answers what was set, {@code getCount} the whole items or UNDEFINED for a
 * partial one; a negative count is ERR_COUNT, DATATYPE_NULL ERR_TYPE.
 */
class StatusElementsTest {

    /** A status from a real receive on COMM_SELF (a status cannot be made by a program). */
    private static Status received() throws Exception {
        return MPI.COMM_SELF.sendRecv(new int[] {1}, 1, MPI.INT, 0, 0, new int[1], 1, MPI.INT, 0, 0);
    }

    @Test
    void setElementsOfAVectorCountsItsBasicElements() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Datatype three = Datatype.createVector(3, 1, 2, MPI.INT);
            three.commit();
            Status s = received();
            s.setElements(three, 7);
            assertThat(s.getElements(three)).isEqualTo(7);
            assertThat(s.getCount(three)).as("two whole items and one element more").isEqualTo(MPI.UNDEFINED);
            assertThat(s.getCount(MPI.INT)).isEqualTo(7);
            s.setElements(three, 6);
            assertThat(s.getCount(three)).isEqualTo(2);
            assertThat(s.getElements(MPI.INT)).isEqualTo(6);
            s.setElementsX(three, new Count(0));
            assertThat(s.getCount(three)).isZero();
            MPI.Finalize();
        });
    }

    @Test
    void setElementsOfAStructWalksItsMixedElements() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Datatype record = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8},
                    new Datatype[] {MPI.INT, MPI.DOUBLE});
            record.commit();
            Status s = received();
            s.setElements(record, 4); // one record (int, double, double) and the int of the next
            assertThat(s.getElements(record)).isEqualTo(4);
            assertThat(s.getCount(record)).isEqualTo(MPI.UNDEFINED);
            assertThat(s.getCount(MPI.BYTE)).isEqualTo(4 + 8 + 8 + 4);
            s.setElementsX(record, new Count(6));
            assertThat(s.getCount(record)).isEqualTo(2);
            assertThat(s.getElementsX(record).getCount()).isEqualTo(6);
            MPI.Finalize();
        });
    }

    @Test
    void wrongCountsAndTypesGiveTheReferenceErrorClasses() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            Status s = received();
            assertThat(MpiErrors.errorClassOf(() -> s.setElements(MPI.INT, -1))).isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> s.setElements(MPI.DATATYPE_NULL, 1))).isEqualTo(MPI.ERR_TYPE);
            MPI.Finalize();
        });
    }
}
