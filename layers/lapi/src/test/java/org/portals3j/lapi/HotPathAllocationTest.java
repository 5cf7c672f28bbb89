package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MeHandle;

/**
 * An 8-byte Amsend round trip (header handler returning its buffer, inline completion, Waitcntr on the target
 * counter) allocates nothing in any thread of the job but the two handle values Portals returns when a full ring
 * buffer is attached again (one ME and one MD per ring cycle of hundreds of messages). Counted with the JVM's bytes
 * allocated per thread (counts, not timings): the rank threads count their own round trips, the layer's threads
 * are counted around each batch.
 */
class HotPathAllocationTest {
    private static final int BATCH = 2_000;
    /**
     * Batches run until one allocates exactly the ring's handles. The first allocate while the JIT compiles the
     * path; later ones may catch a one-off cost (an event queue growing a chunk when its backlog first reaches a
     * new depth), which no per-message allocation could hide in every batch.
     */
    private static final int MAX_BATCHES = 30;
    private static final int SIZE = 8;

    @Test
    void anEightByteAmsendRoundTripAllocatesOnlyTheRingReattachHandles() throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        long perAttach = handleBytes(threads);
        try (LapiJob job = LapiJob.start(2)) {
            MemorySegment[] data = {job.pattern(SIZE, 1), job.pattern(SIZE, 2)};
            MemorySegment[] landing = {job.allocate(SIZE), job.allocate(SIZE)};
            LapiCounter[] arrived = new LapiCounter[2];
            long[][] handlers = new long[2][2];
            long[][] counters = new long[2][2];
            CompletionHandler empty = (c, info) -> { };
            job.onAll(r -> {
                LapiContext c = job.task(r);
                arrived[r] = c.newCounter();
                HeaderHandler handler = (ctx, uhdr, info) -> {
                    info.setCompletion(empty, null);
                    info.setRetFlags(RetFlag.SEND_REPLY);
                    return landing[r];
                };
                c.addressInit(c.address(handler), handlers[r]);
                c.addressInit(arrived[r].address(), counters[r]);
            });
            Ranks ranks = new Ranks(job, data, arrived, handlers, counters);
            job.submit(() -> ranks.run(0));
            job.submit(() -> ranks.run(1));
            List<String> batches = new ArrayList<>();
            boolean exact = false;
            try {
                for (int b = 0; b < MAX_BATCHES && !exact; b++) {
                    long attaches = job.task(0).ringAttaches() + job.task(1).ringAttaches();
                    long layer = layerThreadBytes(threads);
                    ranks.gate.await(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS); // the batch starts
                    ranks.gate.await(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS); // and has ended
                    long bytes = layerThreadBytes(threads) - layer + ranks.bytes[0] + ranks.bytes[1];
                    long reattached = job.task(0).ringAttaches() + job.task(1).ringAttaches() - attaches;
                    batches.add(bytes + " B, " + reattached + " re-attaches");
                    exact = bytes == reattached * perAttach;
                }
            } finally {
                ranks.stop = true;
                ranks.gate.await(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
            assertThat(exact).as("a batch of %d round trips allocating only the re-attached rings' handles (%d B"
                    + " each); batches: %s", BATCH, perAttach, batches).isTrue();
        }
    }

    /** The two rank threads' round trips, in batches the test starts and ends through {@link #gate}. */
    private static final class Ranks {
        final CyclicBarrier gate = new CyclicBarrier(3);
        final long[] bytes = new long[2];
        volatile boolean stop;
        private final LapiJob job;
        private final MemorySegment[] data;
        private final LapiCounter[] arrived;
        private final long[][] handlers;
        private final long[][] counters;

        Ranks(LapiJob job, MemorySegment[] data, LapiCounter[] arrived, long[][] handlers, long[][] counters) {
            this.job = job;
            this.data = data;
            this.arrived = arrived;
            this.handlers = handlers;
            this.counters = counters;
        }

        Void run(int rank) throws Exception {
            ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            LapiContext c = job.task(rank);
            int peer = 1 - rank;
            long handler = handlers[rank][peer];
            long counter = counters[rank][peer];
            while (true) {
                gate.await(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS);
                if (stop) {
                    return null;
                }
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < BATCH; i++) {
                    if (rank == 0) {
                        c.amsend(peer, handler, null, 0, data[rank], SIZE, counter, null, null);
                        c.waitcntr(arrived[rank], 1);
                    } else {
                        c.waitcntr(arrived[rank], 1);
                        c.amsend(peer, handler, null, 0, data[rank], SIZE, counter, null, null);
                    }
                }
                bytes[rank] = threads.getCurrentThreadAllocatedBytes() - before;
                gate.await(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    /** Bytes allocated so far by the layer's own threads (dispatchers, completion threads). */
    private static long layerThreadBytes(ThreadMXBean threads) {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("lapi-")) {
                long b = threads.getThreadAllocatedBytes(t.threadId());
                sum += Math.max(0, b);
            }
        }
        return sum;
    }

    /** Bytes of one {@link MeHandle} and one {@link MdHandle}, as this JVM lays them out. */
    private static long handleBytes(ThreadMXBean threads) {
        int n = 1_000;
        Object[] keep = new Object[2 * n];
        keep[0] = new MeHandle(0); // the classes loaded first: loading allocates too
        keep[1] = new MdHandle(0);
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            keep[2 * i] = new MeHandle(i);
            keep[2 * i + 1] = new MdHandle(i);
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(keep[2 * n - 1]).isNotNull();
        return bytes / n;
    }
}
