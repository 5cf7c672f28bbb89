package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
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
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;

/**
 * A large Portals Put or Get between native (off-heap) MDs moves by RMA straight from and to MD memory, with no
 * bounce copy at either end; a heap MD's payload goes through a bounce buffer, and the counter says so.
 */
class GmZeroCopyTest {
    private static final int LARGE = 1 << 20;
    private static final int PORTAL = 4;
    private static final long BITS = 0x19;

    private final Arena arena = Arena.ofShared();
    private List<Transport> endpoints = List.of();

    /** Two ranks' Portals, each with an NI and an EQ; rank 1 has a native MD of LARGE bytes on PORTAL. */
    private record Ranks(Portals a, Portals b, NiHandle na, NiHandle nb, EqHandle eqa, EqHandle eqb,
                         MemorySegment target) {
    }

    private Ranks startTwoRanks() throws Exception {
        GmTestSupport.assumeAvailable("tcp");
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(new GmTransportProvider(), job, IdleMode.BACKOFF,
                Map.of(GmOptions.PROVIDER, "tcp"));
        Portals a = Portals.create(job, endpoints.get(0));
        Portals b = Portals.create(job, endpoints.get(1));
        a.init();
        b.init();
        NiHandle na = a.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        NiHandle nb = b.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        EqHandle eqb = b.eqAlloc(nb, 64);
        MemorySegment target = arena.allocate(LARGE, 64);
        MeHandle me = b.meAttach(nb, PORTAL, ProcessId.ANY, BITS, 0, Unlink.RETAIN, InsertPosition.AFTER);
        b.mdAttach(me, MemoryDescriptor.of(target)
                .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE)
                .withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);
        return new Ranks(a, b, na, nb, a.eqAlloc(na, 64), eqb, target);
    }

    @AfterEach
    void closeAll() {
        endpoints.forEach(Transport::close);
        arena.close();
    }

    @Test
    void aLargePutAndGetBetweenNativeMdsMoveByRmaWithoutABounceCopy() throws Exception {
        Ranks r = startTwoRanks();
        MemorySegment target = r.target();
        MemorySegment source = GmTestSupport.pattern(arena, LARGE, 3);
        long bouncesA = counter(0, "bounceCopies");
        long bouncesB = counter(1, "bounceCopies");
        long sentA = counter(0, "rmaPayloadsSent");
        long readB = counter(1, "rmaPayloadsRead");
        put(r, source);
        assertThat(target.mismatch(source)).as("the put's bytes").isEqualTo(-1);
        assertThat(counter(0, "rmaPayloadsSent")).as("the put offered by RMA").isEqualTo(sentA + 1);
        assertThat(counter(1, "rmaPayloadsRead")).as("the put read by RMA").isEqualTo(readB + 1);

        MemorySegment back = arena.allocate(LARGE, 64);
        long sentB = counter(1, "rmaPayloadsSent");
        long readA = counter(0, "rmaPayloadsRead");
        get(r, back);
        assertThat(back.mismatch(source)).as("the get's bytes").isEqualTo(-1);
        assertThat(counter(1, "rmaPayloadsSent")).as("the reply offered by RMA").isEqualTo(sentB + 1);
        assertThat(counter(0, "rmaPayloadsRead")).as("the reply read by RMA").isEqualTo(readA + 1);

        assertThat(counter(0, "bounceCopies")).as("bounce copies at the initiator").isEqualTo(bouncesA);
        assertThat(counter(1, "bounceCopies")).as("bounce copies at the target").isEqualTo(bouncesB);
    }

    @Test
    void aHeapMdsPayloadIsBouncedAndCounted() throws Exception {
        Ranks r = startTwoRanks();
        MemorySegment target = r.target();
        byte[] heap = GmTestSupport.patternBytes(LARGE, 4);
        long bounces = counter(0, "bounceCopies");
        put(r, MemorySegment.ofArray(heap));
        assertThat(target.mismatch(MemorySegment.ofArray(heap))).as("the put's bytes").isEqualTo(-1);
        assertThat(counter(0, "bounceCopies")).as("a heap source is staged out").isEqualTo(bounces + 1);

        byte[] back = new byte[LARGE];
        get(r, MemorySegment.ofArray(back));
        assertThat(back).as("the get's bytes").isEqualTo(heap);
        assertThat(counter(0, "bounceCopies")).as("a heap destination is read through a bounce buffer")
                .isEqualTo(bounces + 2);
        assertThat(counter(1, "bounceCopies")).as("the target's MD is native: no bounce there").isZero();
    }

    private static void put(Ranks r, MemorySegment source) throws Exception {
        MdHandle md = r.a().mdBind(r.na(), MemoryDescriptor.of(source).withEventQueue(r.eqa()));
        r.a().put(md, AckRequest.ACK_REQ, r.b().getId(r.nb()), PORTAL, 0, BITS, 0, 0);
        awaitEvent(r.b(), r.eqb(), EventKind.PUT_END);
        awaitEvent(r.a(), r.eqa(), EventKind.ACK);
        r.a().mdUnlink(md);
    }

    private static void get(Ranks r, MemorySegment destination) throws Exception {
        MdHandle md = r.a().mdBind(r.na(), MemoryDescriptor.of(destination).withEventQueue(r.eqa()));
        r.a().get(md, r.b().getId(r.nb()), PORTAL, 0, BITS, 0);
        awaitEvent(r.a(), r.eqa(), EventKind.REPLY_END);
        r.a().mdUnlink(md);
    }

    /** Waits (bounded) for an event of {@code kind} on {@code eq}, passing over the others; a failure event fails. */
    private static void awaitEvent(Portals p, EqHandle eq, EventKind kind) throws Exception {
        Event e = new Event();
        long deadline = System.nanoTime() + GmTestSupport.PATIENCE.toNanos();
        while (true) {
            ReturnCode rc = p.eqGet(eq, e);
            if (rc == ReturnCode.OK || rc == ReturnCode.EQ_DROPPED) {
                assertThat(e.type().isFail()).as("%s while waiting for %s: %s", e.type(), kind,
                        e).isFalse();
                if (e.type() == kind) {
                    return;
                }
                continue;
            }
            assertThat(rc).isEqualTo(ReturnCode.EQ_EMPTY);
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + kind + " within " + GmTestSupport.PATIENCE);
            }
            Thread.sleep(1);
        }
    }

    private long counter(int rank, String name) {
        Map<String, Long> counters = endpoints.get(rank).counters();
        assertThat(counters).as("the counters of rank " + rank).containsKey(name);
        return counters.getOrDefault(name, -1L);
    }
}
