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
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.Job;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.Transport;

/**
 * The target side ({@link Target}) driven as a transport drives it, on a {@link RecordingTransport} (what the
 * target sends is recorded, nothing is reported until the test does): the events of a get, a {@code PtlGetPut}
 * and a put, the reply or ack each owes, what is counted, and what is dropped. Rank 0 is the target, rank 1 the
 * initiator.
 */
class TargetTest {
    private static final int PORTAL = 2;
    private static final long BITS = 0x77L;
    private static final long HDR_DATA = 0x5eed_0000_0000_0001L;

    private final Arena arena = Arena.ofShared();
    private final Job job = Job.local(2);
    private final RecordingTransport transport = new RecordingTransport();
    private final MemorySegment memory = arena.allocate(64);
    private @Nullable PortalsEngine engine;
    private long ni;
    private long eq;
    private final Event event = new Event();

    private void start(Dialect dialect, PortalsConfig config) {
        transport.onSend = sent -> kindsLoggedAtSend.add(queued());
        PortalsEngine e = PortalsEngine.create(job, transport, config, dialect);
        engine = e;
        e.init();
        ni = engine().niInit(0, ProcessId.PID_ANY, null).handle().value();
        eq = engine().eqAlloc(ni, 64);
        long me = engine().meAttach(ni, PORTAL, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
        for (int i = 0; i < 64; i++) {
            memory.set(ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        engine().mdAttach(me, MemoryDescriptor.of(memory).withOptions(MdOption.OP_PUT, MdOption.OP_GET,
                MdOption.MANAGE_REMOTE).withEventQueue(new EqHandle(eq)), Unlink.RETAIN, Unlink.RETAIN);
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

    private MessageHeader request(MessageType type, long length, long offset) {
        return new MessageHeader().begin(type, 0).initiator(job.peers().member(1).nid(), 9).user(0)
                .target(job.peers().member(0).nid(), job.peers().member(0).pid()).portal(PORTAL).matchBits(BITS)
                .offset(offset).mdHandle(0xabcdL).length(length).hdrData(HDR_DATA).exchange(0x1234L);
    }

    private Deposit deliver(MessageHeader h, long payloadLength) {
        return deliver(h, payloadLength, new DepositWriter());
    }

    private Deposit deliver(MessageHeader h, long payloadLength, DepositWriter writer) {
        engine().onHeader(1, h.segment(), MessageHeader.LENGTH, payloadLength, writer.deposit());
        return writer.deposit();
    }

    /** The next event: one the transport looked at during a send, else one taken from the queue now. */
    private Event next() {
        if (!requeued.isEmpty()) {
            return requeued.removeFirst();
        }
        assertThat(engine().eqGet(eq, event)).isEqualTo(ReturnCode.OK);
        return new Event().copyFrom(event);
    }

    private long register(StatusRegister r) {
        return engine().niStatus(ni, r);
    }

    @Test
    void aGetLogsGetStartRepliesWithTheMatchedBytesAndEndsWhenTheReplyIsSent() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT.withStaging(0, 0));
        Deposit deposit = deliver(request(MessageType.GET, 8, 16), 0);
        engine().onDeposited(1, deposit);

        Event started = next();
        assertThat(started.type()).isEqualTo(EventKind.GET_START);
        assertThat(started.initiatorPid()).isEqualTo(9);
        assertThat(started.rlength()).isEqualTo(8);
        assertThat(started.mlength()).isEqualTo(8);
        assertThat(started.offset()).isEqualTo(16);
        assertThat(started.hdrData()).isZero();
        assertThat(register(StatusRegister.GETS_RECEIVED)).isEqualTo(1);
        assertThat(register(StatusRegister.BYTES_SENT)).isEqualTo(8);

        RecordingTransport.Sent reply = transport.only();
        assertThat(reply.peer()).isEqualTo(1);
        assertThat(reply.header().typeCode()).isEqualTo(MessageType.REPLY.code());
        assertThat(reply.header().manipulatedLength()).isEqualTo(8);
        assertThat(reply.header().mdHandle()).as("echoes the initiator's MD").isEqualTo(0xabcdL);
        assertThat(reply.header().exchange()).as("echoes the exchange id").isEqualTo(0x1234L);
        assertThat(reply.payload()).containsExactly(16, 17, 18, 19, 20, 21, 22, 23);
        assertThat(engine().eqGet(eq, event)).as("GET_END waits for the send").isEqualTo(ReturnCode.EQ_EMPTY);

        engine().onSendComplete(reply.token(), true);
        Event ended = next();
        assertThat(ended.type()).isEqualTo(EventKind.GET_END);
        assertThat(ended.link()).isEqualTo(started.sequence());
        assertThat(ended.niFailType()).isEqualTo(NiFailType.OK);
    }

    @Test
    void aGetWhoseReplyIsLostEndsWithGetFail() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT.withStaging(0, 0));
        engine().onDeposited(1, deliver(request(MessageType.GET, 8, 0), 0));
        next();
        engine().onSendComplete(transport.only().token(), false);
        Event failed = next();
        assertThat(failed.type()).isEqualTo(EventKind.GET_FAIL);
        assertThat(failed.niFailType()).isEqualTo(NiFailType.FAIL);
    }

    @Test
    void aStagedReplyEndsItsGetBeforeTheTransportHasIt() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT.withStaging(64, 2));
        engine().onDeposited(1, deliver(request(MessageType.GET, 8, 0), 0));
        assertThat(kindsLoggedAtSend).containsExactly(List.of(EventKind.GET_START, EventKind.GET_END));
        engine().onSendComplete(transport.only().token(), false);
        assertThat(register(StatusRegister.SENDS_LOST)).as("counted: GET_END cannot be taken back").isEqualTo(1);
    }

    @Test
    void aGetPutSwapsTheBytesRepliesWithTheOldOnesAndCarriesItsHeaderData() {
        start(Dialect.PORTALS_3_3, PortalsConfig.DEFAULT);
        DepositWriter writer = new DepositWriter();
        Deposit deposit = deliver(request(MessageType.GETPUT, 4, 8), 4, writer);
        Event started = next();
        assertThat(started.type()).isEqualTo(EventKind.GETPUT_START);
        assertThat(started.hdrData()).isEqualTo(HDR_DATA);
        assertThat(started.offset()).isEqualTo(8);
        assertThat(register(StatusRegister.GETS_RECEIVED)).as("a GetPut is not a get").isZero();
        assertThat(transport.sent).as("nothing before the bytes are in").isEmpty();

        assertThat(deposit.accepted()).isTrue();
        deposit.segment().asSlice(deposit.offset(), 4).fill((byte) 0x55);
        writer.addDeposited(4);
        engine().onDeposited(1, deposit);

        RecordingTransport.Sent reply = transport.only();
        assertThat(reply.header().typeCode()).isEqualTo(MessageType.REPLY.code());
        assertThat(reply.header().offset()).as("echoes the request's offset").isEqualTo(8);
        assertThat(reply.payload()).containsExactly(8, 9, 10, 11);
        assertThat(memory.asSlice(8, 4).toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0x55);
        assertThat(register(StatusRegister.BYTES_SENT)).isEqualTo(4);

        engine().onSendComplete(reply.token(), true);
        Event ended = next();
        assertThat(ended.type()).isEqualTo(EventKind.GETPUT_END);
        assertThat(ended.hdrData()).isEqualTo(HDR_DATA);
        assertThat(ended.link()).isEqualTo(started.sequence());
        assertThat(ended.niFailType()).isEqualTo(NiFailType.OK);
    }

    @Test
    void aGetPutWhoseReplyIsLostEndsWithGetPutEndSayingWhy() {
        start(Dialect.PORTALS_3_3, PortalsConfig.DEFAULT);
        DepositWriter writer = new DepositWriter();
        Deposit deposit = deliver(request(MessageType.GETPUT, 4, 0), 4, writer);
        writer.addDeposited(4);
        engine().onDeposited(1, deposit);
        Event started = next();
        engine().onSendComplete(transport.only().token(), false);
        Event ended = next();
        assertThat(ended.type()).isEqualTo(EventKind.GETPUT_END);
        assertThat(ended.niFailType()).isEqualTo(NiFailType.FAIL);
        assertThat(ended.hdrData()).isEqualTo(HDR_DATA);
        assertThat(ended.link()).isEqualTo(started.sequence());
        assertThat(register(StatusRegister.SENDS_LOST)).as("an unstaged reply is not counted lost").isZero();
    }

    @Test
    void aPutThatAsksForAnAckGetsItBeforeItsPutEndIsVisible() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT);
        DepositWriter writer = new DepositWriter();
        Deposit deposit = deliver(request(MessageType.PUT, 8, 24), 8, writer);
        writer.addDeposited(8);
        engine().onDeposited(1, deposit);

        RecordingTransport.Sent ack = transport.only();
        assertThat(ack.header().typeCode()).isEqualTo(MessageType.ACK.code());
        assertThat(ack.header().offset()).isEqualTo(24);
        assertThat(ack.header().manipulatedLength()).isEqualTo(8);
        assertThat(ack.header().mdHandle()).isEqualTo(0xabcdL);
        assertThat(ack.token()).isEqualTo(Transport.NO_NOTIFY);
        assertThat(kindsLoggedAtSend).containsExactly(List.of(EventKind.PUT_START));
        assertThat(next().type()).isEqualTo(EventKind.PUT_START);
        assertThat(next().type()).isEqualTo(EventKind.PUT_END);
        assertThat(register(StatusRegister.PUTS_RECEIVED)).isEqualTo(1);
    }

    @Test
    void aRequestTheTablesRefuseIsDroppedAndCountedWithNothingSent() {
        start(Dialect.PORTALS_3_2, PortalsConfig.DEFAULT);
        engine().onDeposited(1, deliver(request(MessageType.GET, 8, 0).matchBits(BITS + 1), 0));
        engine().onDeposited(1, deliver(request(MessageType.GET, 8, 0).cookie(1000), 0));
        engine().onDeposited(1, deliver(request(MessageType.GET, 8, 0).portal(1000), 0));
        assertThat(register(StatusRegister.DROP_NO_MATCH)).isEqualTo(1);
        assertThat(register(StatusRegister.DROP_ACL)).isEqualTo(1);
        assertThat(register(StatusRegister.DROP_INV_PORTAL)).isEqualTo(1);
        assertThat(register(StatusRegister.DROP_COUNT)).isEqualTo(3);
        assertThat(transport.sent).isEmpty();
        assertThat(engine().eqGet(eq, event)).isEqualTo(ReturnCode.EQ_EMPTY);
    }

    /** The kinds in the target's queue when a message was handed over (taken, then given back by next()). */
    private final List<List<EventKind>> kindsLoggedAtSend = new ArrayList<>();

    /** The kinds in the target's queue now (the engine lock is free during a send); next() gives them back. */
    private List<EventKind> queued() {
        List<EventKind> kinds = new ArrayList<>();
        Event e = new Event();
        while (engine().eqGet(eq, e) == ReturnCode.OK) {
            kinds.add(e.type());
            requeued.add(new Event().copyFrom(e));
        }
        return kinds;
    }

    /** Events the transport looked at during a send, given back to {@link #next} first. */
    private final List<Event> requeued = new ArrayList<>();
}
