package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.transport.Job;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;

/**
 * Backpressure as a Portals program meets it: {@code PtlPut} in a loop over udp with a small send queue waits in
 * the call for room, and every put arrives, intact and in order, with the queue never beyond its bound.
 */
class PortalsBackpressureTest {
    private static final int BOUND = 8;
    private static final int PUTS = 1_000;
    private static final int SIZE = 512;
    private static final int PORTAL = 4;

    /** Rank 1 is stopped (its socket frozen) until a put of rank 0 has waited for room, then runs again. */
    @Test
    void aPutLoopWaitsInPtlPutForRoomAndEveryPutArrivesIntactAndInOrder() throws Exception {
        Job job = Job.local(2);
        Map<String, String> options = Map.of(UdpOptions.SEND_QUEUE_MESSAGES, Integer.toString(BOUND),
                UdpOptions.PEER_TIMEOUT_MILLIS, "120000");
        try (UdpJobs jobs = new UdpJobs(); Arena arena = Arena.ofShared()) {
            UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, options);
            UdpJobs.Controlled c1 = jobs.openControlled(job, 1, options);
            Portals p0 = Portals.create(job, t0);
            Portals p1 = Portals.create(job, c1.endpoint());
            p0.init();
            p1.init();
            NiHandle ni0 = p0.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            NiHandle ni1 = p1.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            MemorySegment source = arena.allocate((long) PUTS * SIZE);
            source.copyFrom(Recorder.payload(PUTS * SIZE, 5));
            MemorySegment target = arena.allocate((long) PUTS * SIZE);
            EqHandle eq1 = p1.eqAlloc(ni1, 2 * PUTS + 8);
            MeHandle me = p1.meAttach(ni1, PORTAL, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            p1.mdAttach(me, MemoryDescriptor.of(target).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                    .withEventQueue(eq1), Unlink.RETAIN, Unlink.RETAIN);
            ProcessId targetId = p1.getId(ni1);
            c1.io().freeze();

            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread putter = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < PUTS; i++) {
                        MdHandle md = p0.mdBind(ni0, MemoryDescriptor.of(source.asSlice((long) i * SIZE, SIZE))
                                .withThreshold(1));
                        p0.put(md, AckRequest.NOACK_REQ, targetId, PORTAL, 0, 0, (long) i * SIZE, i);
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            Recorder.await("a PtlPut waits for room", 60_000, () -> counter(t0, "sends.waited") > 0);
            c1.io().thaw(false);
            putter.join(Duration.ofSeconds(120));
            assertThat(putter.isAlive()).as("the put loop ends").isFalse();
            assertThat(failure.get()).isNull();

            List<Long> arrived = new ArrayList<>();
            Event e = new Event();
            Recorder.await("every PUT_END", 120_000, () -> {
                while (p1.eqGet(eq1, e) == ReturnCode.OK) {
                    if (e.type() == EventKind.PUT_END) {
                        arrived.add(e.hdrData());
                    }
                }
                return arrived.size() >= PUTS;
            });
            assertThat(arrived).as("hdr_data of the PUT_END events, in order")
                    .containsExactlyElementsOf(LongStream.range(0, PUTS).boxed().toList());
            assertThat(target.mismatch(source)).as("every byte arrived").isEqualTo(-1L);
            assertThat(counter(t0, "sends.waited")).as("puts that waited for room").isPositive();
            assertThat(counter(t0, "sendQueue.highWater")).as("most puts unacknowledged at once")
                    .isBetween(1L, (long) BOUND);
            p0.fini();
            p1.fini();
        }
    }

    private static long counter(UdpEndpoint t, String name) {
        return t.counters().getOrDefault(name, 0L);
    }
}
