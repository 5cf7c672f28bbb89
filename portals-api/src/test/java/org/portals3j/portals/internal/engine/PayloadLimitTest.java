package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * A transport's largest payload, and a transport that refuses a message: an operation it cannot carry
 * is refused before anything is taken or logged, a get asking a process for more than its transport
 * carries is answered with what it carries, and an operation whose message the transport refuses still
 * completes (its FAIL event), leaving nothing pending. Rank 0 runs on a transport that carries
 * {@link #LIMIT} bytes; rank 1 on one without that limit, as a peer that ignores it would. Rank 0 stages
 * nothing: a message is refused before or instead of being sent from the MD ({@link StagedSendTest} has the
 * refusals of staged messages, whose END event is logged before the transport sees them).
 */
class PayloadLimitTest {
    private static final long LIMIT = 1024;
    private static final int PORTAL = 2;

    private final List<Transport> endpoints;
    private final ScriptedTransport limited;
    private final Arena arena = Arena.ofShared();
    private final PortalsEngine small;
    private final PortalsEngine peer;
    private final long smallNi;
    private final long peerNi;

    PayloadLimitTest() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        limited = new ScriptedTransport(endpoints.get(0), LIMIT);
        small = PortalsEngine.create(job, limited, PortalsConfig.DEFAULT.withStaging(0, 0));
        peer = PortalsEngine.create(job, endpoints.get(1), PortalsConfig.DEFAULT);
        small.init();
        peer.init();
        smallNi = small.niInit(0, ProcessId.PID_ANY, null).handle().value();
        peerNi = peer.niInit(0, ProcessId.PID_ANY, null).handle().value();
    }

    @AfterEach
    void tearDown() {
        small.fini();
        peer.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }

    @Test
    void aPutOrGetLongerThanOneMessageIsRefusedBeforeAnythingIsTakenOrLogged() {
        long eq = small.eqAlloc(smallNi, 16);
        long md = small.mdBind(smallNi, MemoryDescriptor.of(arena.allocate(2 * LIMIT)).withThreshold(2)
                .withEventQueue(new EqHandle(eq)));
        ProcessId target = peer.getId(peerNi);
        assertCode(ReturnCode.INV_MD, () -> small.put(md, AckRequest.ACK_REQ, target, PORTAL, 0, 0, 0, 0));
        assertCode(ReturnCode.INV_MD, () -> small.get(md, target, PORTAL, 0, 0, 0));
        assertCode(ReturnCode.ILL_MD, () -> small.putRegion(md, 0, LIMIT + 1, AckRequest.ACK_REQ, target, PORTAL, 0, 0,
                0, 0));
        assertCode(ReturnCode.ILL_MD, () -> small.getRegion(md, 1, LIMIT + 1, target, PORTAL, 0, 0, 0));
        assertThat(small.eqGet(eq, new Event())).as("nothing logged").isEqualTo(ReturnCode.EQ_EMPTY);
        assertThat(small.mdUpdate(md, null, 0L).previous().threshold()).as("no threshold taken").isEqualTo(2);
        // what one message carries still goes
        small.putRegion(md, 0, LIMIT, AckRequest.NOACK_REQ, target, PORTAL, 0, 0, 0, 0);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.SEND_START);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.SEND_END);
        small.mdUnlink(md); // nothing pending on it
    }

    @Test
    void aGetForMoreThanTheTargetsTransportCarriesIsAnsweredWithWhatItCarries() {
        long eq = small.eqAlloc(smallNi, 16);
        long me = small.meAttach(smallNi, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        MemorySegment exposed = arena.allocate(4 * LIMIT);
        small.mdAttach(me, MemoryDescriptor.of(exposed).withOptions(MdOption.OP_GET).withEventQueue(new EqHandle(eq)),
                Unlink.RETAIN, Unlink.RETAIN);
        long peerEq = peer.eqAlloc(peerNi, 16);
        long into = peer.mdBind(peerNi,
                MemoryDescriptor.of(arena.allocate(4 * LIMIT)).withEventQueue(new EqHandle(peerEq)));

        peer.get(into, small.getId(smallNi), PORTAL, 0, 0, 0);

        Event start = next(small, eq);
        assertThat(start.type()).isEqualTo(EventKind.GET_START);
        assertThat(start.rlength()).isEqualTo(4 * LIMIT);
        assertThat(start.mlength()).as("truncated to one message").isEqualTo(LIMIT);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.GET_END);
        assertThat(next(peer, peerEq).type()).isEqualTo(EventKind.REPLY_START);
        Event end = next(peer, peerEq);
        assertThat(end.type()).isEqualTo(EventKind.REPLY_END);
        assertThat(end.mlength()).isEqualTo(LIMIT);
        peer.mdUnlink(into); // the get is over
    }

    @Test
    void aPutWhoseMessageTheTransportRefusesEndsWithSendFailAndLeavesNothingPending() {
        long eq = small.eqAlloc(smallNi, 16);
        long md = small.mdBind(smallNi, MemoryDescriptor.of(arena.allocate(64)).withEventQueue(new EqHandle(eq)));
        limited.refuseNext(MessageType.PUT);
        small.put(md, AckRequest.ACK_REQ, peer.getId(peerNi), PORTAL, 0, 0, 0, 0);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.SEND_START);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.SEND_FAIL);
        small.mdUnlink(md);
    }

    @Test
    void aGetWhoseRequestTheTransportRefusesEndsWithReplyFailAndLeavesNothingPending() {
        long eq = small.eqAlloc(smallNi, 16);
        long md = small.mdBind(smallNi, MemoryDescriptor.of(arena.allocate(64)).withEventQueue(new EqHandle(eq)));
        limited.refuseNext(MessageType.GET);
        small.get(md, peer.getId(peerNi), PORTAL, 0, 0, 0);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.REPLY_START);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.REPLY_FAIL);
        small.mdUnlink(md);
    }

    @Test
    void aReplyOrAckTheTargetsTransportRefusesEndsTheOperationThereAndLeavesNothingPending() {
        long eq = small.eqAlloc(smallNi, 16);
        long me = small.meAttach(smallNi, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        long exposed = small.mdAttach(me, MemoryDescriptor.of(arena.allocate(64))
                .withOptions(MdOption.OP_GET, MdOption.OP_PUT, MdOption.MANAGE_REMOTE).withEventQueue(new EqHandle(eq)),
                Unlink.RETAIN, Unlink.RETAIN);
        long peerEq = peer.eqAlloc(peerNi, 16);
        long peerMd = peer.mdBind(peerNi, MemoryDescriptor.of(arena.allocate(64)).withEventQueue(new EqHandle(peerEq)));
        ProcessId target = small.getId(smallNi);

        limited.refuseNext(MessageType.REPLY);
        peer.get(peerMd, target, PORTAL, 0, 0, 0);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.GET_START);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.GET_FAIL);

        limited.refuseNext(MessageType.ACK);
        long peerPut = peer.mdBind(peerNi, MemoryDescriptor.of(arena.allocate(8)).withEventQueue(new EqHandle(peerEq)));
        peer.put(peerPut, AckRequest.ACK_REQ, target, PORTAL, 0, 0, 0, 0);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.PUT_START);
        assertThat(next(small, eq).type()).isEqualTo(EventKind.PUT_END);
        assertThat(next(peer, peerEq).type()).isEqualTo(EventKind.SEND_START);
        assertThat(next(peer, peerEq).type()).isEqualTo(EventKind.SEND_END);
        // the target's MD has nothing pending; the ack is lost, as one the network lost
        small.mdUnlink(exposed);
        assertThat(peer.eqGet(peerEq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
    }

    private static void assertCode(ReturnCode code, Runnable call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(PortalsException.class,
                e -> assertThat(e.code()).isEqualTo(code));
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
}
