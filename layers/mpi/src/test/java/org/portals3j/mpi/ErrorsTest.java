package org.portals3j.mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Wrong use under ERRORS_RETURN gives Open MPI's error classes; under ERRORS_ARE_FATAL the job aborts. */
class ErrorsTest {

    private static void assertErrorClass(ThrowingCallable call, int errorClass) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(String.valueOf(e.getMessage())).isEqualTo(errorClass);
        });
    }

    @Test
    void badArgumentsGiveTheirErrorClasses() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(MPI.COMM_WORLD.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
            int[] one = new int[1];
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, 1, MPI.INT, 2, 0), MPI.ERR_RANK);
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, 1, MPI.INT, -7, 0), MPI.ERR_RANK);
            assertErrorClass(() -> MPI.COMM_WORLD.recv(one, 1, MPI.INT, 5, 0), MPI.ERR_RANK);
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, 1, MPI.INT, 0, -1), MPI.ERR_TAG);
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, 1, MPI.INT, 0, MPI.ANY_TAG), MPI.ERR_TAG);
            assertErrorClass(() -> MPI.COMM_WORLD.recv(one, 1, MPI.INT, 0, -5), MPI.ERR_TAG);
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, -1, MPI.INT, 0, 0), MPI.ERR_COUNT);
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, 2, MPI.INT, 0, 0), MPI.ERR_BUFFER);
            assertErrorClass(() -> MPI.COMM_WORLD.send(null, 1, MPI.INT, 0, 0), MPI.ERR_BUFFER);
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, 1, MPI.DOUBLE, 0, 0), MPI.ERR_TYPE);
            assertErrorClass(() -> MPI.COMM_WORLD.send(one, 1, MPI.DATATYPE_NULL, 0, 0), MPI.ERR_TYPE);
            assertErrorClass(() -> MPI.COMM_WORLD.iRecv(IntBuffer.allocate(1).asReadOnlyBuffer(), 1, MPI.INT, 0, 0),
                    MPI.ERR_BUFFER);
            assertErrorClass(() -> MPI.COMM_WORLD.free(), MPI.ERR_COMM);
            assertErrorClass(() -> MPI.INT.free(), MPI.ERR_TYPE);
            Request done = MPI.COMM_WORLD.iSend(IntBuffer.allocate(0), 0, MPI.INT, MPI.PROC_NULL, 0);
            done.waitFor();
            assertErrorClass(done::cancel, MPI.ERR_REQUEST);
            assertErrorClass(() -> MPI.COMM_WORLD.callErrhandler(MPI.ERR_OTHER), MPI.ERR_OTHER);
            wrongProbesAndNonblockingAndPersistentCalls();
            MPI.Finalize();
        });
    }

    /**
     * The probe, nonblocking and persistent families' wrong uses (bad rank, bad tag, negative count, bad datatype),
     * then every point-to-point family on a freed communicator: ERR_COMM (a freed communicator's handle is
     * COMM_NULL, whose errors go through COMM_WORLD's handler, set to ERRORS_RETURN here).
     */
    private static void wrongProbesAndNonblockingAndPersistentCalls() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        IntBuffer buf = MPI.newIntBuffer(4);
        assertErrorClass(() -> world.probe(2, 0), MPI.ERR_RANK);
        assertErrorClass(() -> world.iProbe(-7, 0), MPI.ERR_RANK);
        assertErrorClass(() -> world.iProbe(0, -3), MPI.ERR_TAG);
        assertErrorClass(() -> new Message().mProbe(0, -3, world), MPI.ERR_TAG);
        assertErrorClass(() -> world.iSend(buf, 1, MPI.INT, 2, 0), MPI.ERR_RANK);
        assertErrorClass(() -> world.iRecv(buf, 1, MPI.INT, 0, -2), MPI.ERR_TAG);
        assertErrorClass(() -> world.iSend(buf, -1, MPI.INT, 0, 0), MPI.ERR_COUNT);
        assertErrorClass(() -> world.isSend(buf, 1, MPI.DATATYPE_NULL, 0, 0), MPI.ERR_TYPE);
        assertErrorClass(() -> world.irSend(buf, 5, MPI.INT, 0, 0), MPI.ERR_BUFFER);
        assertErrorClass(() -> world.recvInit(buf, 1, MPI.INT, 9, 0), MPI.ERR_RANK);
        assertErrorClass(() -> world.sSendInit(buf, 1, MPI.DATATYPE_NULL, 0, 0), MPI.ERR_TYPE);
        assertErrorClass(() -> world.bSend(new int[1], 1, MPI.INT, 0, MPI.ANY_TAG), MPI.ERR_TAG);
        Intracomm freed = world.dup();
        freed.free();
        assertErrorClass(() -> freed.send(new int[1], 1, MPI.INT, 0, 0), MPI.ERR_COMM);
        assertErrorClass(() -> freed.recv(new int[1], 1, MPI.INT, 0, 0), MPI.ERR_COMM);
        assertErrorClass(() -> freed.iSend(buf, 1, MPI.INT, 0, 0), MPI.ERR_COMM);
        assertErrorClass(() -> freed.iRecv(buf, 1, MPI.INT, 0, 0), MPI.ERR_COMM);
        assertErrorClass(() -> freed.iProbe(0, 0), MPI.ERR_COMM);
        assertErrorClass(() -> new Message().imProbe(0, 0, freed), MPI.ERR_COMM);
        assertErrorClass(() -> freed.sendInit(buf, 1, MPI.INT, 0, 0), MPI.ERR_COMM);
        assertErrorClass(() -> freed.sendRecv(new int[1], 1, MPI.INT, 0, 0, new int[1], 1, MPI.INT, 0, 0),
                MPI.ERR_COMM);
    }

    @Test
    void truncationReportsTheBytesThatFitForEagerAndRendezvousMessages() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            if (rank == 0) {
                MPI.COMM_WORLD.send(new int[] {1, 2, 3, 4}, 4, MPI.INT, 1, 0);
                int[] big = new int[30_000];
                big[1] = 9;
                MPI.COMM_WORLD.send(big, big.length, MPI.INT, 1, 1);
                MPI.COMM_WORLD.send(new int[] {5, 6, 7}, 3, MPI.INT, 1, 2);
            } else {
                int[] two = new int[4];
                assertErrorClass(() -> MPI.COMM_WORLD.recv(two, 2, MPI.INT, 0, 0), MPI.ERR_TRUNCATE);
                assertThat(two).containsExactly(1, 2, 0, 0);
                int[] part = new int[3];
                assertErrorClass(() -> MPI.COMM_WORLD.recv(part, 2, MPI.INT, 0, 1), MPI.ERR_TRUNCATE);
                assertThat(part).containsExactly(0, 9, 0);
                IntBuffer in = MPI.newIntBuffer(2);
                Request r = MPI.COMM_WORLD.iRecv(in, 2, MPI.INT, 0, 2);
                assertErrorClass(r::waitFor, MPI.ERR_TRUNCATE);
                assertThat(r.isNull()).isTrue();
                assertThat(in.get(1)).isEqualTo(6);
            }
            MPI.Finalize();
        });
    }

    @Test
    void errorsInArraysOfRequestsAreErrInStatus() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            if (rank == 0) {
                MPI.COMM_WORLD.send(new int[] {1, 2}, 2, MPI.INT, 1, 0);
            } else {
                @Nullable Request[] r = {MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0), null};
                assertErrorClass(() -> Request.waitAll(r), MPI.ERR_IN_STATUS);
                assertThat(MpiJob.present(r[0]).isNull()).isTrue();
            }
            MPI.Finalize();
        });
    }

    @Test
    void underErrorsAreFatalAnErrorAbortsTheJob() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            assertThat(MPI.COMM_WORLD.getErrhandler()).isSameAs(MPI.ERRORS_ARE_FATAL);
            assertThatThrownBy(() -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 3, 0))
                    .isInstanceOfSatisfying(MpiJob.Aborted.class, e -> {
                        assertThat(e.status).isEqualTo(MPI.ERR_RANK);
                        assertThat(String.valueOf(e.getMessage())).contains("invalid destination rank 3");
                    });
            assertThatThrownBy(() -> MPI.COMM_WORLD.abort(300)).isInstanceOfSatisfying(MpiJob.Aborted.class,
                    e -> assertThat(e.status).isEqualTo(1));
            assertThatThrownBy(() -> MPI.COMM_WORLD.abort(42)).isInstanceOfSatisfying(MpiJob.Aborted.class,
                    e -> assertThat(e.status).isEqualTo(42));
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ABORT);
            assertThatThrownBy(() -> MPI.COMM_WORLD.callErrhandler(MPI.ERR_ARG))
                    .isInstanceOf(MpiJob.Aborted.class);
            MPI.Finalize();
        });
    }
}
