package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * PtlEQAlloc of any legal count: the queue's memory is allocated without the engine lock, so the
 * process's other calls and the deliveries to it go on meanwhile, and a JVM without the memory makes it
 * PTL_NOSPACE with the queue's slot still free.
 */
class EqAllocTest {
    private static final int PORTAL = 3;
    private static final int QUEUES = 4;

    private final HoldingAllocator allocator = new HoldingAllocator();
    private final List<Transport> endpoints;
    private final Arena arena = Arena.ofShared();
    private final PortalsEngine target;
    private final PortalsEngine peer;
    private final long targetNi;
    private final long peerNi;

    EqAllocTest() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        target = PortalsEngine.create(job, endpoints.get(0), PortalsConfig.DEFAULT, Dialect.PORTALS_3_2, allocator);
        peer = PortalsEngine.create(job, endpoints.get(1), PortalsConfig.DEFAULT);
        target.init();
        peer.init();
        NiLimits limits = new NiLimits(64, 64, QUEUES, 63, 63);
        targetNi = target.niInit(0, ProcessId.PID_ANY, limits).handle().value();
        peerNi = peer.niInit(0, ProcessId.PID_ANY, null).handle().value();
    }

    @AfterEach
    void tearDown() {
        allocator.release.countDown();
        target.fini();
        peer.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }

    @Test
    void aJvmWithoutTheMemoryIsNoSpaceAndTheSlotStaysFree() {
        allocator.failNext = true;
        assertThatThrownBy(() -> target.eqAlloc(targetNi, EventQueues.MAX_EQ_COUNT))
                .isInstanceOfSatisfying(PortalsException.class, e -> assertThat(e.code()).isEqualTo(ReturnCode.NOSPACE))
                .hasMessageContaining("no memory");
        // every one of the interface's queues can still be allocated, and used
        List<Long> queues = new ArrayList<>();
        for (int i = 0; i < QUEUES; i++) {
            queues.add(target.eqAlloc(targetNi, 8));
        }
        assertThatThrownBy(() -> target.eqAlloc(targetNi, 8))
                .isInstanceOfSatisfying(PortalsException.class, e -> assertThat(e.code()).isEqualTo(ReturnCode.NOSPACE))
                .hasMessageContaining("max_event_queues");
        target.eqFree(queues.get(0));
        long again = target.eqAlloc(targetNi, EventQueues.MAX_EQ_COUNT);
        assertThat(target.eqGet(again, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
    }

    @Test
    void aCountBeyondTheLargestQueueIsNoSpaceAndTakesNoSlot() {
        for (long count : new long[] {EventQueues.MAX_EQ_COUNT + 1, Long.MAX_VALUE, -1L}) {
            assertThatThrownBy(() -> target.eqAlloc(targetNi, count))
                    .isInstanceOfSatisfying(PortalsException.class,
                            e -> assertThat(e.code()).isEqualTo(ReturnCode.NOSPACE));
        }
        for (int i = 0; i < QUEUES; i++) {
            target.eqAlloc(targetNi, 8);
        }
    }

    @Test
    void callsAndDeliveriesGoOnWhileAQueueIsBeingAllocated() throws Exception {
        long eq = target.eqAlloc(targetNi, 16);
        MemorySegment landing = arena.allocate(64);
        long me = target.meAttach(targetNi, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        target.mdAttach(me, MemoryDescriptor.of(landing).withOptions(MdOption.OP_PUT).withEventQueue(new EqHandle(eq)),
                Unlink.RETAIN, Unlink.RETAIN);
        long peerEq = peer.eqAlloc(peerNi, 16);
        long peerMd = peer.mdBind(peerNi, MemoryDescriptor.of(arena.allocate(64)).withEventQueue(new EqHandle(peerEq)));
        long targetMd = target.mdBind(targetNi,
                MemoryDescriptor.of(arena.allocate(8)).withEventQueue(new EqHandle(eq)));
        ProcessId targetId = target.getId(targetNi);

        allocator.holdNext = true;
        AtomicReference<Object> allocated = new AtomicReference<>();
        Thread allocating = Thread.ofPlatform().start(() -> {
            try {
                allocated.set(target.eqAlloc(targetNi, EventQueues.MAX_EQ_COUNT));
            } catch (RuntimeException e) {
                allocated.set(e);
            }
        });
        assertThat(allocator.holding.await(30, TimeUnit.SECONDS)).as("the allocation started").isTrue();

        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<?> progress = other.submit(() -> {
                // the process's own calls
                assertThat(target.niStatus(targetNi, StatusRegister.DROP_COUNT)).isZero();
                target.put(targetMd, AckRequest.NOACK_REQ, peer.getId(peerNi), PORTAL, 0, 0, 0, 0);
                assertThat(next(target, eq).type()).isEqualTo(EventKind.SEND_START);
                assertThat(next(target, eq).type()).isEqualTo(EventKind.SEND_END);
                // a put delivered to it
                peer.put(peerMd, AckRequest.NOACK_REQ, targetId, PORTAL, 0, 0, 0, 0);
                assertThat(next(target, eq).type()).isEqualTo(EventKind.PUT_START);
                assertThat(next(target, eq).type()).isEqualTo(EventKind.PUT_END);
                return null;
            });
            // generous: the work takes microseconds; it never finishes while the lock is held
            progress.get(20, TimeUnit.SECONDS);
            assertThat(allocating.isAlive()).as("the allocation was still in progress").isTrue();
        } finally {
            allocator.release.countDown();
            other.shutdownNow();
            allocating.join(30_000);
        }
        assertThat(allocated.get()).isInstanceOf(Long.class);
    }

    private static Event next(PortalsEngine engine, long eq) {
        Event e = new Event();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (engine.eqGet(eq, e) == ReturnCode.EQ_EMPTY) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no event within 20 s");
            }
            Thread.yield();
        }
        return e;
    }

    /** The reported symptom, in a JVM of its own with a 64 MiB heap: PtlEQAlloc(2^24) there. */
    @Test
    void theLargestQueueAllocatesInASmallHeap() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                SmallHeapEqAlloc.class.getName()).redirectErrorStream(true).start();
        String out;
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the child JVM finished").isTrue();
        } finally {
            out = output(p);
            p.destroyForcibly();
        }
        assertThat(out).contains(SmallHeapEqAlloc.DONE);
        assertThat(p.exitValue()).as(out).isZero();
    }

    private static String output(Process p) throws IOException {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Fails or holds the next allocation of a queue's first chunk, as a test asks. */
    private static final class HoldingAllocator implements EventStorage.ChunkAllocator {
        volatile boolean failNext;
        volatile boolean holdNext;
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Event[] allocate(int events) {
            if (failNext) {
                failNext = false;
                throw new OutOfMemoryError("test: Java heap space");
            }
            if (holdNext) {
                holdNext = false;
                holding.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return EventStorage.ChunkAllocator.DEFAULT.allocate(events);
        }
    }
}
