package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** Matched probe: {@code Message.mProbe}/{@code imProbe} tie a message to a handle; {@code mRecv} receives it. */
class MatchedProbeTest {
    /** Longer than the eager limit (16 KiB): sent by rendezvous. */
    private static final int LONG_INTS = 10_000;

    @Test
    void messagesOfUnknownSizeEagerAndRendezvousAreReceivedThroughTheirHandles() throws Exception {
        MpiJob.run(3, rank -> {
            MPI.Init(new String[0]);
            if (rank > 0) {
                int n = rank == 1 ? 5 : LONG_INTS;
                int[] data = new int[n];
                data[n - 1] = rank * 100;
                MPI.COMM_WORLD.send(data, n, MPI.INT, 0, 40 + rank);
            } else {
                for (int k = 0; k < 2; k++) {
                    Message m = new Message();
                    assertThat(m.isNull()).isTrue();
                    Status s = m.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.COMM_WORLD);
                    assertThat(m.isNull()).isFalse();
                    assertThat(m.isNoProc()).isFalse();
                    assertThat(s.getTag()).isEqualTo(40 + s.getSource());
                    int[] in = new int[s.getCount(MPI.INT)];
                    Status r = m.mRecv(in, in.length, MPI.INT);
                    assertThat(m.isNull()).isTrue();
                    assertThat(r.getSource()).isEqualTo(s.getSource());
                    assertThat(r.getCount(MPI.INT)).isEqualTo(s.getSource() == 1 ? 5 : LONG_INTS);
                    assertThat(in[in.length - 1]).isEqualTo(s.getSource() * 100);
                }
                assertThat(new Message().imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.COMM_WORLD)).isNull();
            }
            MPI.Finalize();
        });
    }

    @Test
    void aClaimedMessageIsInvisibleToReceivesAndProbes() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, 1, 5);
                MPI.COMM_WORLD.send(new int[] {2}, 1, MPI.INT, 1, 6);
                MPI.COMM_WORLD.send(new int[LONG_INTS], LONG_INTS, MPI.INT, 1, 7);
            } else {
                Message first = new Message();
                first.mProbe(0, 5, MPI.COMM_WORLD);
                Status next = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertThat(next.getTag()).isEqualTo(6);
                int[] v = new int[1];
                MPI.COMM_WORLD.recv(v, 1, MPI.INT, 0, MPI.ANY_TAG);
                assertThat(v[0]).isEqualTo(2);
                Message big = new Message();
                Status s = big.mProbe(0, MPI.ANY_TAG, MPI.COMM_WORLD);
                assertThat(s.getTag()).isEqualTo(7);
                assertThat(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG)).isNull();
                IntBuffer into = MPI.newIntBuffer(LONG_INTS);
                Request r = big.imRecv(into, LONG_INTS, MPI.INT);
                assertThat(big.isNull()).isTrue();
                assertThat(r.waitStatus().getCount(MPI.INT)).isEqualTo(LONG_INTS);
                first.mRecv(v, 1, MPI.INT);
                assertThat(v[0]).isEqualTo(1);
            }
            MPI.Finalize();
        });
    }

    @Test
    void aProbeOfProcNullGivesTheNoProcessMessage() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.Init(new String[0]);
            Message m = new Message();
            Status s = m.mProbe(MPI.PROC_NULL, 3, MPI.COMM_WORLD);
            assertThat(s.getSource()).isEqualTo(MPI.PROC_NULL);
            assertThat(m.isNoProc()).isTrue();
            Status r = m.mRecv(new int[1], 1, MPI.INT);
            assertThat(r.getSource()).isEqualTo(MPI.PROC_NULL);
            assertThat(r.getTag()).isEqualTo(MPI.ANY_TAG);
            assertThat(r.getCount(MPI.INT)).isZero();
            assertThat(m.isNull()).isTrue();
            assertThat(MpiJob.present(m.imProbe(MPI.PROC_NULL, MPI.ANY_TAG, MPI.COMM_WORLD)).getSource())
                    .isEqualTo(MPI.PROC_NULL);
            assertThat(m.imRecv(MPI.newIntBuffer(1), 1, MPI.INT).waitStatus().getSource()).isEqualTo(MPI.PROC_NULL);
            MPI.Finalize();
        });
    }

    @Test
    void twoThreadsProbingTheSameMessagesReceiveEachExactlyOnce() throws Exception {
        int messages = 300;
        int stop = 1_000_000;
        MpiJob.run(2, rank -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            if (rank == 0) {
                for (int i = 0; i < messages; i++) {
                    int n = i % 25 == 0 ? LONG_INTS : 1 + i % 9;
                    int[] data = new int[n];
                    data[0] = i;
                    data[n - 1] = i;
                    MPI.COMM_WORLD.send(data, n, MPI.INT, 1, i);
                }
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1, stop);
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1, stop);
            } else {
                Set<Integer> received = ConcurrentHashMap.newKeySet();
                List<Throwable> failures = new ArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    threads.add(Thread.ofPlatform().start(() -> {
                        try {
                            receiveUntilStop(MPI.COMM_WORLD, stop, received);
                        } catch (Throwable e) {
                            synchronized (failures) {
                                failures.add(e);
                            }
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
                assertThat(failures).isEmpty();
                assertThat(received).hasSize(messages);
            }
            MPI.Finalize();
        });
    }

    /** Receives by matched probe until a stop message; each message id must be new. */
    private static void receiveUntilStop(Comm comm, int stop, Set<Integer> received) throws MPIException {
        Message m = new Message();
        while (true) {
            Status s = m.mProbe(0, MPI.ANY_TAG, comm);
            int[] data = new int[s.getCount(MPI.INT)];
            m.mRecv(data, data.length, MPI.INT);
            if (s.getTag() == stop) {
                return;
            }
            assertThat(data[0]).isEqualTo(s.getTag());
            assertThat(data[data.length - 1]).isEqualTo(s.getTag());
            assertThat(received.add(s.getTag())).as("message %d received twice", s.getTag()).isTrue();
        }
    }

    @Test
    void wrongUseGivesTheReferenceErrorClasses() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            if (rank == 0) {
                MPI.COMM_WORLD.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 1);
            } else {
                Message m = new Message();
                assertThat(MpiErrors.errorClassOf(() -> m.mRecv(new int[1], 1, MPI.INT))).isEqualTo(MPI.ERR_REQUEST);
                assertThat(MpiErrors.errorClassOf(() -> m.mProbe(5, 1, MPI.COMM_WORLD))).isEqualTo(MPI.ERR_RANK);
                assertThat(MpiErrors.errorClassOf(() -> m.imProbe(0, -7, MPI.COMM_WORLD))).isEqualTo(MPI.ERR_TAG);
                m.mProbe(0, 1, MPI.COMM_WORLD);
                assertThat(MpiErrors.errorClassOf(() -> m.mProbe(0, 1, MPI.COMM_WORLD))).isEqualTo(MPI.ERR_REQUEST);
                // a bad receive leaves the message with the handle
                assertThat(MpiErrors.errorClassOf(() -> m.mRecv(new long[3], 3, MPI.INT))).isEqualTo(MPI.ERR_TYPE);
                assertThat(MpiErrors.errorClassOf(() -> m.mRecv(new int[3], -1, MPI.INT))).isEqualTo(MPI.ERR_COUNT);
                assertThat(m.isNull()).isFalse();
                int[] two = new int[2];
                assertThat(MpiErrors.errorClassOf(() -> m.mRecv(two, 2, MPI.INT))).isEqualTo(MPI.ERR_TRUNCATE);
                assertThat(two).containsExactly(1, 2);
                assertThat(m.isNull()).isTrue();
                assertThat(MpiErrors.errorClassOf(() -> m.mRecv(two, 2, MPI.INT))).isEqualTo(MPI.ERR_REQUEST);
            }
            MPI.Finalize();
        });
    }

    @Test
    void matchedProbeOverUdp() throws Exception {
        MpiJob.run("udp", 2, rank -> {
            MPI.Init(new String[0]);
            if (rank == 0) {
                MPI.COMM_WORLD.send(new int[LONG_INTS], LONG_INTS, MPI.INT, 1, 2);
                MPI.COMM_WORLD.send(new int[] {9}, 1, MPI.INT, 1, 3);
            } else {
                Message m = new Message();
                for (int tag = 2; tag <= 3; tag++) {
                    Status s = m.mProbe(0, tag, MPI.COMM_WORLD);
                    int[] in = new int[s.getCount(MPI.INT)];
                    assertThat(m.mRecv(in, in.length, MPI.INT).getCount(MPI.INT)).isEqualTo(tag == 2 ? LONG_INTS : 1);
                }
            }
            MPI.Finalize();
        });
    }
}
