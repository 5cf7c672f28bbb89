package org.portals3j.mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** iSend, isSend, irSend, iRecv and every completion call of Request, with null elements in arrays. */
class NonblockingTest {

    @Test
    void requestsCompleteThroughWaitTestAndGetStatus() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                IntBuffer a = MPI.newIntBuffer(1).put(0, 1);
                IntBuffer b = IntBuffer.wrap(new int[] {2}); // a heap buffer: accepted unless strict
                IntBuffer c = MPI.newIntBuffer(20_000);
                c.put(19_999, 3);
                @Nullable Request[] sends = {
                    MPI.COMM_WORLD.iSend(a, 1, MPI.INT, 1, 1),
                    MPI.COMM_WORLD.irSend(b, 1, MPI.INT, 1, 2),
                    null,
                    MPI.COMM_WORLD.isSend(c, 20_000, MPI.INT, 1, 3),
                };
                Status[] statuses = Request.waitAllStatus(sends);
                assertThat(statuses).hasSize(4);
                assertThat(statuses[2].getSource()).isEqualTo(MPI.ANY_SOURCE);
                assertThat(MpiJob.present(sends[0]).isNull()).isTrue();
                assertThat(MpiJob.present(sends[3]).isNull()).isTrue();
            } else {
                IntBuffer a = MPI.newIntBuffer(1);
                IntBuffer b = MPI.newIntBuffer(1);
                IntBuffer c = MPI.newIntBuffer(20_000);
                Request ra = MPI.COMM_WORLD.iRecv(a, 1, MPI.INT, 0, 1);
                Request rb = MPI.COMM_WORLD.iRecv(b, 1, MPI.INT, 0, 2);
                Request rc = MPI.COMM_WORLD.iRecv(c, 20_000, MPI.INT, 0, 3);
                Status sa = ra.waitStatus();
                assertThat(a.get(0)).isEqualTo(1);
                assertThat(sa.getTag()).isEqualTo(1);
                assertThat(ra.isNull()).isTrue();
                ra.waitFor(); // a null request: returns at once
                ra.free();
                while (rb.getStatus() == null) {
                    Thread.onSpinWait();
                }
                assertThat(rb.isNull()).isFalse(); // getStatus does not release
                assertThat(rb.test()).isTrue();
                assertThat(rb.isNull()).isTrue();
                assertThat(b.get(0)).isEqualTo(2);
                Status sc;
                while ((sc = rc.testStatus()) == null) {
                    Thread.onSpinWait();
                }
                assertThat(sc.getCount(MPI.INT)).isEqualTo(20_000);
                assertThat(c.get(19_999)).isEqualTo(3);
            }
            MPI.Finalize();
        });
    }

    @Test
    @SuppressWarnings("nullness") // asserts on the nullable results of waitSome and testSome
    void anyAndSomeFormsReportIndicesAndSkipNulls() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                for (int tag = 0; tag < 6; tag++) {
                    MPI.COMM_WORLD.send(new int[] {tag}, 1, MPI.INT, 1, tag);
                }
            } else {
                IntBuffer[] in = new IntBuffer[6];
                Request[] r = new Request[6];
                for (int tag = 0; tag < 6; tag++) {
                    in[tag] = MPI.newIntBuffer(1);
                    r[tag] = MPI.COMM_WORLD.iRecv(in[tag], 1, MPI.INT, 0, tag);
                }
                @Nullable Request[] withNull = {null, r[0], r[1]};
                int first = Request.waitAny(withNull);
                assertThat(first).isIn(1, 2);
                Status any = Request.waitAnyStatus(withNull);
                assertThat(any.getIndex()).isEqualTo(3 - first);
                assertThat(Request.waitAny(withNull)).isEqualTo(MPI.UNDEFINED);
                int[] some = Request.waitSome(new Request[] {r[2], null, r[3]});
                assertThat(some).isNotEmpty();
                Request.waitAll(new Request[] {r[2], r[3]});
                assertThat(Request.waitSome(new Request[] {r[2], null})).isNull();
                while (!Request.testAll(new Request[] {r[4], null})) {
                    Thread.onSpinWait();
                }
                int index;
                while ((index = Request.testAny(new Request[] {null, r[5]})) == MPI.UNDEFINED) {
                    Thread.onSpinWait();
                }
                assertThat(index).isEqualTo(1);
                assertThat(Request.testSome(new Request[] {r[5]})).isNull();
                Status none = MpiJob.present(Request.testAnyStatus(new Request[] {null}));
                assertThat(none.getIndex()).isEqualTo(MPI.UNDEFINED);
                for (int tag = 0; tag < 6; tag++) {
                    assertThat(in[tag].get(0)).isEqualTo(tag);
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void anUnmatchedReceiveIsCancelledAndAMatchedOneCompletes() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 1) {
                Request r = MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 99);
                r.cancel();
                Status s = r.waitStatus();
                assertThat(s.isCancelled()).isTrue();
                IntBuffer in = MPI.newIntBuffer(1);
                Request m = MPI.COMM_WORLD.iRecv(in, 1, MPI.INT, 0, 1);
                MPI.COMM_WORLD.send(new int[0], 0, MPI.INT, 0, 0); // tell rank 0 to send
                while (m.getStatus() == null) {
                    Thread.onSpinWait();
                }
                m.cancel();
                Status ms = m.waitStatus();
                assertThat(ms.isCancelled()).isFalse();
                assertThat(in.get(0)).isEqualTo(5);
            } else {
                MPI.COMM_WORLD.recv(new int[0], 0, MPI.INT, 1, 0);
                MPI.COMM_WORLD.send(new int[] {5}, 1, MPI.INT, 1, 1);
            }
            MPI.Finalize();
        });
    }

    @Test
    void aFreedActiveRequestStillFinishesAndFinalizeWaitsForIt() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                IntBuffer big = MPI.newIntBuffer(50_000);
                big.put(49_999, 8);
                MPI.COMM_WORLD.iSend(big, 50_000, MPI.INT, 1, 0).free();
            } else {
                int[] in = new int[50_000];
                MPI.COMM_WORLD.recv(in, 50_000, MPI.INT, 0, 0);
                assertThat(in[49_999]).isEqualTo(8);
            }
            MPI.Finalize();
        });
    }

    @Test
    void strictModeRefusesHeapBuffersAsOpenMpiDoes() throws Exception {
        System.setProperty("portals3j.mpi.strictBuffers", "true");
        try {
            MpiJob.run(1, rank -> {
                MPI.Init(new String[0]);
                assertThatThrownBy(() -> MPI.COMM_WORLD.iSend(IntBuffer.allocate(1), 1, MPI.INT, 0, 0))
                        .isInstanceOf(IllegalArgumentException.class).hasMessage("The buffer must be direct.");
                MPI.Finalize();
            });
        } finally {
            System.clearProperty("portals3j.mpi.strictBuffers");
        }
    }
}
