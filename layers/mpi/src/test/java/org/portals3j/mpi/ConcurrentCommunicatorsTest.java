package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
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

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
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

    /** Passes each rank's rank round the ring of {@code c} and checks what arrives. */
    private static void ring(Comm c) throws MPIException {
        int n = c.getSize();
        int me = c.getRank();
        int[] in = new int[1];
        c.sendRecv(new int[] {me}, 1, MPI.INT, (me + 1) % n, 1, in, 1, MPI.INT, (me - 1 + n) % n, 1);
        assertThat(in[0]).isEqualTo((me - 1 + n) % n);
    }
}
