package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import mpi.Comm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Context ids under THREAD_MULTIPLE: two threads of each rank make communicators at the same time from different
 * parents; every communicator a rank has must have a context id of its own (the id is in the default name), and
 * each must carry its own messages.
 */
class ConcurrentCommunicatorsTest {
    private static final int ROUNDS = 12;
    private static final int INTER_ROUNDS = 6;

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void twoThreadsPerRankMakeCommunicatorsFromDifferentParents(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            Intracomm other = MPI.COMM_WORLD.dup();
            List<Comm> made = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (Intracomm parent : new Intracomm[] {MPI.COMM_WORLD, other}) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < ROUNDS; i++) {
                            Comm c = switch (i % 4) {
                                case 0 -> parent.dup();
                                case 1 -> parent.split(0, -rank);
                                case 2 -> parent.createGroup(parent.getGroup(), 5);
                                default -> {
                                    Intracomm d = parent.iDup();
                                    MpiJob.present(d.getRequest()).waitFor();
                                    yield d;
                                }
                            };
                            ring(c);
                            synchronized (made) {
                                made.add(c);
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            Set<String> contexts = new HashSet<>();
            for (Comm c : made) {
                assertThat(contexts.add(c.getName().split(" ")[2])).as("context of %s used twice", c.getName())
                        .isTrue();
            }
            assertThat(contexts).hasSize(2 * ROUNDS);
            MPI.Finalize();
        });
    }

    /**
     * Rank 0 makes communicators from two parents in two threads at once, rank 1 makes them one after the other in
     * the opposite order: neither agreement may keep the other from finishing.
     */
    @Test
    void anAgreementWaitingForAnAbsentMemberDoesNotBlockAnother() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            Intracomm a = MPI.COMM_WORLD.dup();
            Intracomm b = MPI.COMM_WORLD.dup();
            if (rank == 0) {
                List<Throwable> failures = new ArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (Intracomm parent : new Intracomm[] {a, b}) {
                    threads.add(Thread.ofPlatform().start(() -> {
                        try {
                            ring(parent.dup());
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
            } else {
                ring(b.dup());
                ring(a.dup());
            }
            MPI.Finalize();
        });
    }

    /**
     * Two threads of each rank make intercommunicators between the even and the odd ranks at the same time, each
     * from a local communicator of its own and again and again: every intercommunicator gets context ids of its own
     * (both pairs, apart from every other communicator of the rank), and each carries only its own messages.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void twoThreadsPerRankCreateIntercommunicatorsAtOnce(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            Intracomm world = MPI.COMM_WORLD;
            Intracomm local = world.split(rank % 2, rank);
            Intracomm[] locals = {local, local.dup()};
            int remoteLeader = rank % 2 == 0 ? 1 : 0;
            Intercomm[][] made = new Intercomm[2][INTER_ROUNDS];
            List<Throwable> failures = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int thread = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < INTER_ROUNDS; i++) {
                            made[thread][i] = world.createIntercomm(locals[thread], 0, remoteLeader,
                                    40 + thread);
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            Set<Integer> contexts = new HashSet<>();
            for (Intracomm l : locals) {
                contexts.add(context(l));
            }
            for (Intercomm[] row : made) {
                for (Intercomm inter : row) {
                    int c = context(inter);
                    assertThat(contexts.add(c) && contexts.add(c + 2)).as("contexts of %s", inter.getName()).isTrue();
                }
            }
            // the leaders send on every intercommunicator, then receive in the opposite order: each message must
            // come on its own intercommunicator
            boolean leader = local.getRank() == 0;
            List<Request> sends = new ArrayList<>();
            if (leader) {
                for (int t = 0; t < 2; t++) {
                    for (int i = 0; i < INTER_ROUNDS; i++) {
                        sends.add(made[t][i].iSend(MPI.newIntBuffer(1).put(0, 100 * t + i), 1, MPI.INT, 0, 3));
                    }
                }
                for (int t = 1; t >= 0; t--) {
                    for (int i = INTER_ROUNDS - 1; i >= 0; i--) {
                        int[] in = new int[1];
                        made[t][i].recv(in, 1, MPI.INT, 0, 3);
                        assertThat(in[0]).as("the message of intercommunicator %d of thread %d", i, t)
                                .isEqualTo(100 * t + i);
                    }
                }
                for (Request r : sends) {
                    r.waitFor();
                }
            }
            for (int t = 1; t >= 0; t--) {
                for (int i = INTER_ROUNDS - 1; i >= 0; i--) {
                    int[] sum = new int[1];
                    made[t][i].allReduce(new int[] {100 * t + i + rank}, sum, 1, MPI.INT, MPI.MAX);
                    int highestRemote = (size - 1) % 2 != rank % 2 ? size - 1 : size - 2;
                    assertThat(sum[0]).as("allReduce over the remote group").isEqualTo(100 * t + i + highestRemote);
                }
            }
            MPI.Finalize();
        });
    }

    /** The context id in a communicator's default name ("MPI COMMUNICATOR 6 ..."). */
    private static int context(Comm c) throws MPIException {
        return Integer.parseInt(c.getName().split(" ")[2]);
    }

    /** Passes each rank's rank round the ring of {@code c} and checks what arrives. */
    private static void ring(Comm c) throws MPIException {
        int n = c.getSize();
        int me = c.getRank();
        int[] in = new int[1];
        c.sendRecv(new int[] {me}, 1, MPI.INT, (me + 1) % n, 1, in, 1, MPI.INT, (me - 1 + n) % n, 1);
        assertThat(in[0]).isEqualTo((me - 1 + n) % n);
    }
}
