package org.portals3j.portals;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * The locks one 8-byte put round trip takes on inmem, counted by call site (JFR method tracing of
 * {@code SpinLock.lock} on the test's own thread: exact invocation counts, not times). One thread does both ranks'
 * work, as {@code CpuRoundTrip} in bench does: put, PtlEQWait for PUT_START and for PUT_END, and back.
 */
class LockCountTest {
    private static final int PORTAL = 4;
    private static final long BITS = 0x5eedL;
    private static final int ROUND_TRIPS = 200;
    private static final String SPIN_LOCK = "org.portals3j.transport.internal.SpinLock";
    private static final String LIBRARY_STATE = "org.portals3j.portals.internal.engine.LibraryState";

    @Test
    void eachHalfOfAPutRoundTripTakesALockSixTimes() throws Exception {
        Job job = Job.local(2);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try (Arena arena = Arena.ofShared()) {
            Portals[] p = new Portals[2];
            EqHandle[] eq = new EqHandle[2];
            MdHandle[] send = new MdHandle[2];
            ProcessId[] id = new ProcessId[2];
            for (int r = 0; r < 2; r++) {
                p[r] = Portals.create(job, endpoints.get(r));
                p[r].init();
                NiHandle ni = p[r].niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
                id[r] = p[r].getId(ni);
                eq[r] = p[r].eqAlloc(ni, 64);
                MeHandle me = p[r].meAttach(ni, PORTAL, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
                p[r].mdAttach(me, MemoryDescriptor.of(arena.allocate(8)).withOptions(MdOption.OP_PUT,
                        MdOption.MANAGE_REMOTE).withEventQueue(eq[r]), Unlink.RETAIN, Unlink.RETAIN);
                send[r] = p[r].mdBind(ni, MemoryDescriptor.of(arena.allocate(8)));
            }
            Event event = new Event();
            roundTrips(p, eq, send, id, event, ROUND_TRIPS); // every path taken once before counting
            Map<String, Long> sites = countLockTakes(() -> roundTrips(p, eq, send, id, event, ROUND_TRIPS));
            long n = ROUND_TRIPS;
            // Per half round trip, the library lock of the initiator twice (PtlPut; the send's completion) and of the
            // target four times (the header with its match and PUT_START; the deposit with PUT_END; PtlEQWait twice).
            // The send channel's turn takes no lock.
            assertThat(sites).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "Initiator.put", 2 * n,
                    "PortalsEngine.onSendComplete", 2 * n,
                    "PortalsEngine.onHeader", 2 * n,
                    "Target.putDeposited", 2 * n,
                    "EventQueues.awaitEvent", 4 * n));
            for (Portals portals : p) {
                portals.fini();
            }
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    /**
     * Both ranks' work of {@code n} round trips, on this thread (the source MDs have no event queue): every event is
     * there before its PtlEQWait.
     */
    private static void roundTrips(Portals[] p, EqHandle[] eq, MdHandle[] send, ProcessId[] id, Event event, int n) {
        for (int i = 0; i < n; i++) {
            for (int from = 0; from < 2; from++) {
                int to = 1 - from;
                p[from].put(send[from], AckRequest.NOACK_REQ, id[to], PORTAL, 0, BITS, 0L, 0L);
                assertThat(p[to].eqWait(eq[to], event)).isEqualTo(ReturnCode.OK);
                assertThat(event.type()).isEqualTo(EventKind.PUT_START);
                assertThat(p[to].eqWait(eq[to], event)).isEqualTo(ReturnCode.OK);
                assertThat(event.type()).isEqualTo(EventKind.PUT_END);
            }
        }
    }

    /**
     * The takes of a {@code SpinLock} by this thread while {@code work} ran, per call site: the first frame outside the
     * lock and the library's acquire.
     */
    private static Map<String, Long> countLockTakes(Runnable work) throws Exception {
        Path file = Files.createTempFile("lock-count", ".jfr");
        try {
            try (Recording r = new Recording()) {
                r.enable("jdk.MethodTrace").with("filter", SPIN_LOCK + "::lock").withStackTrace();
                r.start();
                work.run();
                r.stop();
                r.dump(file);
            }
            long me = Thread.currentThread().threadId();
            Map<String, Long> out = new TreeMap<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                @Nullable RecordedThread thread = e.getThread();
                if (!e.getEventType().getName().equals("jdk.MethodTrace") || thread == null
                        || thread.getJavaThreadId() != me) {
                    continue;
                }
                out.merge(site(e.getStackTrace()), 1L, Long::sum);
            }
            return out;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String site(@Nullable RecordedStackTrace stack) {
        if (stack == null) {
            throw new AssertionError("a traced lock take without its stack");
        }
        for (RecordedFrame f : stack.getFrames()) {
            String type = f.getMethod().getType().getName();
            if (!type.equals(SPIN_LOCK) && !type.equals(LIBRARY_STATE)) {
                return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
            }
        }
        throw new AssertionError("a lock take with no caller in its stack");
    }
}
