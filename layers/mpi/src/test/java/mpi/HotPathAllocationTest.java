package mpi;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.portals3j.mpi.MpiJob;

/**
 * Round trips and collectives of 2 ranks on inmem allocate nothing but the objects the API returns: a blocking
 * receive its {@code Status}, an {@code iSend} or {@code iRecv} its {@code Request} (completed by {@code waitFor},
 * {@code test} or {@code waitAll}). Counted with the JVM's bytes
 * allocated by each rank thread (counts, not timings); inmem delivers on the sending thread, so the rank threads are
 * every thread of the job. The test keeps every returned object, so that no compiler removes one.
 */
class HotPathAllocationTest {
    private static final int BATCH = 2_000;
    /**
     * Batches of each kind, all run by both ranks; the first ones allocate while the JIT compiles the path. A
     * batch allocating exactly the returned objects shows there is nothing else per call: a per-call allocation
     * would be in every batch.
     */
    private static final int BATCHES = 12;

    @FunctionalInterface
    private interface Step {
        void run(int rank, int i) throws MPIException;
    }

    @Test
    void blockingAndNonblockingRoundTripsAndCollectivesAllocateOnlyWhatTheApiReturns() throws Exception {
        List<String> failures = new CopyOnWriteArrayList<>();
        MpiJob.run("inmem", 2, rank -> {
            MPI.Init(new String[0]);
            ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            Status[] statuses = new Status[BATCH];
            Request[] requests = new Request[2 * BATCH];
            long statusBytes = statusBytes(threads, statuses);
            long requestBytes = requestBytes(threads, requests);
            ByteBuffer small = MPI.newByteBuffer(8);
            ByteBuffer kib = MPI.newByteBuffer(1024);
            DoubleBuffer direct = MPI.newDoubleBuffer(1);
            double[] array = new double[1];
            Comm world = MPI.COMM_WORLD;
            int peer = 1 - rank;
            check(failures, rank, "blocking send/recv 8 B", statusBytes, threads, (r, i) -> {
                if (r == 0) {
                    world.send(small, 8, MPI.BYTE, peer, 1);
                    statuses[i] = world.recv(small, 8, MPI.BYTE, peer, 1);
                } else {
                    statuses[i] = world.recv(small, 8, MPI.BYTE, peer, 1);
                    world.send(small, 8, MPI.BYTE, peer, 1);
                }
            });
            check(failures, rank, "iSend/iRecv + waitFor 8 B", 2 * requestBytes, threads,
                    (r, i) -> nonblocking(world, r, peer, small, 8, requests, i));
            check(failures, rank, "iSend/iRecv + waitFor 1 KiB", 2 * requestBytes, threads,
                    (r, i) -> nonblocking(world, r, peer, kib, 1024, requests, i));
            check(failures, rank, "iSend/iRecv + test 8 B", 2 * requestBytes, threads, (r, i) -> {
                Request first = r == 0 ? world.iSend(small, 8, MPI.BYTE, peer, 3)
                        : world.iRecv(small, 8, MPI.BYTE, peer, 3);
                requests[2 * i] = first;
                while (!first.test()) {
                    Thread.onSpinWait();
                }
                Request second = r == 0 ? world.iRecv(small, 8, MPI.BYTE, peer, 3)
                        : world.iSend(small, 8, MPI.BYTE, peer, 3);
                requests[2 * i + 1] = second;
                while (!second.test()) {
                    Thread.onSpinWait();
                }
            });
            Request[] pair = new Request[2];
            check(failures, rank, "exchange: iRecv + iSend + waitAll 8 B", 2 * requestBytes, threads, (r, i) -> {
                pair[0] = world.iRecv(kib, 8, MPI.BYTE, peer, 4);
                pair[1] = world.iSend(small, 8, MPI.BYTE, peer, 4);
                requests[2 * i] = pair[0];
                requests[2 * i + 1] = pair[1];
                Request.waitAll(pair);
            });
            check(failures, rank, "barrier", 0, threads, (r, i) -> world.barrier());
            check(failures, rank, "allReduce of a DoubleBuffer", 0, threads,
                    (r, i) -> world.allReduce(direct, 1, MPI.DOUBLE, MPI.SUM));
            check(failures, rank, "allReduce of a double[]", 0, threads,
                    (r, i) -> world.allReduce(array, 1, MPI.DOUBLE, MPI.SUM));
            assertThat(statuses[BATCH - 1]).isNotNull();
            assertThat(requests[2 * BATCH - 1]).isNotNull();
            MPI.Finalize();
        });
        assertThat(failures).isEmpty();
    }

    private static void nonblocking(Comm world, int rank, int peer, ByteBuffer buf, int size, Request[] kept, int i)
            throws MPIException {
        if (rank == 0) {
            Request s = world.iSend(buf, size, MPI.BYTE, peer, 2);
            kept[2 * i] = s;
            s.waitFor();
            Request r = world.iRecv(buf, size, MPI.BYTE, peer, 2);
            kept[2 * i + 1] = r;
            r.waitFor();
        } else {
            Request r = world.iRecv(buf, size, MPI.BYTE, peer, 2);
            kept[2 * i] = r;
            r.waitFor();
            Request s = world.iSend(buf, size, MPI.BYTE, peer, 2);
            kept[2 * i + 1] = s;
            s.waitFor();
        }
    }

    /**
     * Runs {@link #BATCHES} batches of {@code step} and records a failure unless one of them allocated exactly
     * {@code perCall} bytes per call on this rank's thread.
     */
    private static void check(List<String> failures, int rank, String what, long perCall, ThreadMXBean threads,
            Step step) throws MPIException {
        long[] batches = new long[BATCHES];
        boolean exact = false;
        for (int b = 0; b < BATCHES; b++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < BATCH; i++) {
                step.run(rank, i);
            }
            batches[b] = threads.getCurrentThreadAllocatedBytes() - before;
            exact |= batches[b] == perCall * BATCH;
        }
        if (!exact) {
            failures.add("rank " + rank + ", " + what + ": no batch of " + BATCH + " allocated exactly " + perCall
                    + " B per round trip or call; bytes per batch " + Arrays.toString(batches));
        }
    }

    /** Bytes of one {@code Status}, as this JVM lays it out. */
    private static long statusBytes(ThreadMXBean threads, Status[] keep) {
        keep[0] = Status.empty();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < keep.length; i++) {
            keep[i] = Status.empty();
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / keep.length;
    }

    /** Bytes of one {@code Request}. */
    private static long requestBytes(ThreadMXBean threads, Request[] keep) {
        keep[0] = new Request();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < keep.length; i++) {
            keep[i] = new Request();
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / keep.length;
    }
}
