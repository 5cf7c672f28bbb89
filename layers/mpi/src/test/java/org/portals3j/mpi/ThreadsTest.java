package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** THREAD_MULTIPLE: several threads of one rank send and receive at the same time, over inmem and udp. */
class ThreadsTest {
    private static final int THREADS = 3;
    private static final int MESSAGES = 200;

    @ParameterizedTest
    @ValueSource(strings = {"inmem", "udp"})
    void threadsOfOneRankSendAndReceiveConcurrently(String transport) throws Exception {
        MpiJob.run(transport, 2, rank -> {
            assertThat(MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE)).isEqualTo(MPI.THREAD_MULTIPLE);
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int tag = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        exchange(rank, tag);
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
            MPI.Finalize();
        });
    }

    /**
     * A thread blocked waiting for a receive that another thread cancels wakes up: the cancel completes the request
     * without an event, so the waiting thread, blocked in PtlEQWait for the rank's next event, is woken by the
     * 0-byte put the rank sends itself. One rank: no other traffic could wake it.
     */
    @Test
    void aReceiveCancelledByAnotherThreadWakesTheThreadWaitingForIt() throws Exception {
        MpiJob.run(1, rank -> {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
            Request posted = MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 77);
            CompletableFuture<Status> waited = new CompletableFuture<>();
            Thread waiter = Thread.ofPlatform().start(() -> {
                try {
                    waited.complete(posted.waitStatus());
                } catch (Throwable e) {
                    waited.completeExceptionally(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (waiter.getState() != Thread.State.WAITING && waiter.getState() != Thread.State.TIMED_WAITING) {
                assertThat(System.nanoTime()).as("the waiter blocks within 60 s").isLessThan(deadline);
                Thread.sleep(1);
            }

            posted.cancel();

            assertThat(waited.get(60, TimeUnit.SECONDS).isCancelled()).isTrue();
            MPI.Finalize();
        });
    }

    /** Thread {@code tag} of each rank: rank 0 sends its messages on that tag, rank 1 receives them in order. */
    private static void exchange(int rank, int tag) throws MPIException {
        for (int i = 0; i < MESSAGES; i++) {
            int length = i % 10 == 0 ? 10_000 : 1 + i % 7;
            int[] data = new int[length];
            if (rank == 0) {
                data[0] = i;
                MPI.COMM_WORLD.send(data, length, MPI.INT, 1, tag);
            } else {
                Status s = MPI.COMM_WORLD.recv(data, length, MPI.INT, 0, tag);
                assertThat(data[0]).isEqualTo(i);
                assertThat(s.getCount(MPI.INT)).isEqualTo(length);
            }
        }
    }
}
