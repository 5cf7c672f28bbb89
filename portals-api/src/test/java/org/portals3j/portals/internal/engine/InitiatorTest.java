package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.Job;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;

/**
 * The initiator side ({@link Initiator}) on a {@link RecordingTransport}, the test playing the target: what a put,
 * a get and a {@code PtlGetPut} send, and how their acks, replies, send completions and failures end them.
 * Rank 0 initiates, rank 1 is the target.
 */
class InitiatorTest {
    private static final int PORTAL = 5;
    private static final long BITS = 0x42L;

    private final Arena arena = Arena.ofShared();
    private final Job job = Job.local(2);
    private final RecordingTransport transport = new RecordingTransport();
    private final ProcessId peer = new ProcessId(job.peers().member(1).nid(), 3);
    private @Nullable PortalsEngine engine;
    private long ni;
    private long eq;
    private ProcessId self = ProcessId.ANY;
    private final Event event = new Event();

    private void start(Dialect dialect, PortalsConfig config) {
        PortalsEngine e = PortalsEngine.create(job, transport, config, dialect);
        engine = e;
        e.init();
        ni = engine().niInit(0, ProcessId.PID_ANY, null).handle().value();
        eq = engine().eqAlloc(ni, 64);
        self = engine().getId(ni);
    }

    /** The engine {@code start} made. */
    private PortalsEngine engine() {
        PortalsEngine e = engine;
        if (e == null) {
            throw new IllegalStateException("start() first");
        }
        return e;
    }

    @AfterEach
    void tearDown() {
        if (engine != null) {
            engine().fini();
        }
        arena.close();
    }

    private long bind(MemorySegment memory) {
        return engine().mdBind(ni, MemoryDescriptor.of(memory).withEventQueue(new EqHandle(eq)));
    }

    /** The kinds of every event in the queue now, taken. */
    private List<EventKind> events() {
        List<EventKind> kinds = new ArrayList<>();
        while (engine().eqGet(eq, event) == ReturnCode.OK) {
            kinds.add(event.type());
        }
        return kinds;
    }

    private Event next() {
        assertThat(engine().eqGet(eq, event)).isEqualTo(ReturnCode.OK);
        return new Event().copyFrom(event);
    }

    /** An answer from the target to the request {@code request}, of {@code type}. */
    private MessageHeader answer(MessageType type, MessageHeader request, long mlength) {
        return new MessageHeader().begin(type, 0).initiator(peer.nid(), peer.pid()).user(0)
                .target(self.nid(), self.pid()).portal(request.portal()).matchBits(request.matchBits())
                .offset(request.offset()).mdHandle(request.mdHandle()).length(request.length())
                .manipulatedLength(mlength).exchange(request.exchange());
    }

    /** Delivers {@code h} from rank 1, with {@code payload} as its bytes if it is accepted. */
    private Deposit deliver(MessageHeader h, byte[] payload) {
        DepositWriter writer = new DepositWriter();
        Deposit deposit = writer.deposit();
        engine().onHeader(1, h.segment(), MessageHeader.LENGTH, payload.length, deposit);
        if (deposit.accepted()) {
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, deposit.segment(), deposit.offset(),
                    deposit.length());
            writer.addDeposited(deposit.length());
        }
        engine().onDeposited(1, deposit);
        return deposit;
    }

    @Test
    void anAckThatOvertakesItsSendCompletionLogsSendEndThenAck() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT.withStaging(0, 0));
        long md = bind(arena.allocate(16));
        engine().put(md, AckRequest.ACK_REQ, peer, PORTAL, 0, BITS, 4, 9);

        RecordingTransport.Sent put = transport.only();
        assertThat(put.peer()).isEqualTo(1);
        assertThat(put.header().typeCode()).isEqualTo(MessageType.PUT.code());
        assertThat(put.header().mdHandle()).as("an ack is asked for").isEqualTo(md);
        assertThat(put.header().length()).isEqualTo(16);
        assertThat(put.header().hdrData()).isEqualTo(9);
        assertThat(put.payload()).hasSize(16);
        Event started = next();
        assertThat(started.type()).isEqualTo(EventKind.SEND_START);

        deliver(answer(MessageType.ACK, put.header(), 16), new byte[0]);
        Event sent = next();
        assertThat(sent.type()).isEqualTo(EventKind.SEND_END);
        assertThat(sent.link()).isEqualTo(started.sequence());
        assertThat(next().type()).isEqualTo(EventKind.ACK);

        engine().onSendComplete(put.token(), true);
        assertThat(events()).as("the report only frees the op").isEmpty();
        engine().mdUnlink(md); // nothing pending on it any more
    }

    @Test
    void anAckIsAskedForOnlyWithAckReqAndAnEventQueue() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT);
        engine().put(bind(arena.allocate(8)), AckRequest.NOACK_REQ, peer, PORTAL, 0, BITS, 0, 0);
        long noQueue = engine().mdBind(ni, MemoryDescriptor.of(arena.allocate(8)));
        engine().put(noQueue, AckRequest.ACK_REQ, peer, PORTAL, 0, BITS, 0, 0);
        assertThat(transport.sent).extracting(s -> s.header().mdHandle()).containsExactly(0L, 0L);
    }

    @Test
    void aPutTheTransportRefusesEndsWithSendFail() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT.withStaging(0, 0));
        transport.refusal = new IllegalStateException("closed");
        long md = bind(arena.allocate(8));
        engine().put(md, AckRequest.NOACK_REQ, peer, PORTAL, 0, BITS, 0, 0);
        assertThat(next().type()).isEqualTo(EventKind.SEND_START);
        Event failed = next();
        assertThat(failed.type()).isEqualTo(EventKind.SEND_FAIL);
        assertThat(failed.niFailType()).isEqualTo(NiFailType.FAIL);
        engine().mdUnlink(md);
    }

    @Test
    void aGetsReplyLandsAtOffsetZeroOnlyOnce() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT);
        MemorySegment memory = arena.allocate(8);
        long md = bind(memory);
        engine().get(md, peer, PORTAL, 0, BITS, 32);
        RecordingTransport.Sent get = transport.only();
        assertThat(get.header().typeCode()).isEqualTo(MessageType.GET.code());
        assertThat(get.header().length()).isEqualTo(8);
        assertThat(get.header().offset()).isEqualTo(32);
        assertThat(get.payload()).isEmpty();

        byte[] bytes = {1, 2, 3, 4, 5, 6, 7, 8};
        deliver(answer(MessageType.REPLY, get.header(), 8), bytes);
        Event started = next();
        assertThat(started.type()).isEqualTo(EventKind.REPLY_START);
        assertThat(started.mlength()).isEqualTo(8);
        assertThat(started.offset()).as("3.2 reports the remote offset").isEqualTo(32);
        Event ended = next();
        assertThat(ended.type()).isEqualTo(EventKind.REPLY_END);
        assertThat(ended.link()).isEqualTo(started.sequence());
        assertThat(memory.toArray(ValueLayout.JAVA_BYTE)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);

        deliver(answer(MessageType.REPLY, get.header(), 8), bytes);
        assertThat(events()).as("a second reply names no pending get").isEmpty();
        assertThat(engine().niStatus(ni, StatusRegister.DROP_STALE_MD)).isEqualTo(1);
        engine().mdUnlink(md);
    }

    @Test
    void aGetWhosePeerFailsEndsWithReplyFailPeerDead() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT);
        long md = bind(arena.allocate(8));
        engine().get(md, peer, PORTAL, 0, BITS, 0);
        engine().onPeerFailure(1);
        Event started = next();
        assertThat(started.type()).isEqualTo(EventKind.REPLY_START);
        Event failed = next();
        assertThat(failed.type()).isEqualTo(EventKind.REPLY_FAIL);
        assertThat(failed.niFailType()).isEqualTo(NiFailType.PEER_DEAD);
        assertThat(failed.link()).isEqualTo(started.sequence());
        engine().onSendComplete(transport.only().token(), true);
        assertThat(events()).isEmpty();
        engine().mdUnlink(md);
    }

    @Test
    void aGetPutsReplyBeforeItsSendCompletionLogsSendEndFirst() {
        start(Dialect.PORTALS_3_3, PortalsConfig.DEFAULT);
        MemorySegment into = arena.allocate(4);
        MemorySegment from = arena.allocate(4);
        from.fill((byte) 7);
        long getMd = bind(into);
        long putMd = bind(from);
        engine().getPut(getMd, putMd, peer, PORTAL, 0, BITS, 0, 0x99L);
        RecordingTransport.Sent request = transport.only();
        assertThat(request.header().typeCode()).isEqualTo(MessageType.GETPUT.code());
        assertThat(request.header().mdHandle()).as("the reply goes to the get MD").isEqualTo(getMd);
        assertThat(request.payload()).containsOnly((byte) 7);

        deliver(answer(MessageType.REPLY, request.header(), 4), new byte[] {1, 2, 3, 4});
        assertThat(events()).containsExactly(EventKind.SEND_START, EventKind.SEND_END, EventKind.REPLY_START,
                EventKind.REPLY_END);
        assertThat(into.toArray(ValueLayout.JAVA_BYTE)).containsExactly(1, 2, 3, 4);

        engine().onSendComplete(request.token(), true);
        assertThat(events()).as("SEND_END is logged once").isEmpty();
        engine().mdUnlink(getMd);
        engine().mdUnlink(putMd);
    }
}
