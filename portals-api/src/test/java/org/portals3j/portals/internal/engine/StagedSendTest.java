package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * When SEND_END and GET_END are logged: a put (a get's reply) of at most the staging limit is copied into one of
 * the library's buffers, and its END event is logged once the transport has taken the copy, before the call
 * returns; a larger one, or one that finds no buffer free, is read from the MD by the transport, and its END event
 * waits for the transport's report. Each rank runs on a {@link ScriptedTransport} that holds the messages it takes
 * (reading their payloads only when let go) or its reports of sends complete, as a network transport does until
 * the peer acknowledges. Rank 0 initiates, rank 1 is the target.
 */
class StagedSendTest {
    private static final int LIMIT = 256;
    private static final int BUFFERS = 2;
    private static final int PORTAL = 3;

    private final List<Transport> endpoints;
    private final ScriptedTransport initiatorTransport;
    private final ScriptedTransport targetTransport;
    private final Arena arena = Arena.ofShared();
    private final PortalsEngine initiator;
    private final PortalsEngine target;
    private long initiatorNi;
    private long initiatorEq;
    private final long targetNi;
    private final long targetEq;
    /** What the target's MD holds: puts land here, gets read from here. */
    private final MemorySegment targetMemory = arena.allocate(4 * LIMIT);

    StagedSendTest() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        initiatorTransport = new ScriptedTransport(endpoints.get(0), Long.MAX_VALUE);
        targetTransport = new ScriptedTransport(endpoints.get(1), Long.MAX_VALUE);
        PortalsConfig config = PortalsConfig.DEFAULT.withStaging(LIMIT, BUFFERS);
        initiator = PortalsEngine.create(job, initiatorTransport, config);
        target = PortalsEngine.create(job, targetTransport, config);
        initiator.init();
        target.init();
        initiatorNi = initiator.niInit(0, ProcessId.PID_ANY, null).handle().value();
        targetNi = target.niInit(0, ProcessId.PID_ANY, null).handle().value();
        initiatorEq = initiator.eqAlloc(initiatorNi, 64);
        targetEq = target.eqAlloc(targetNi, 64);
        long me = target.meAttach(targetNi, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        target.mdAttach(me, MemoryDescriptor.of(targetMemory)
                .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE, MdOption.TRUNCATE)
                .withEventQueue(new EqHandle(targetEq)), Unlink.RETAIN, Unlink.RETAIN);
    }

    @AfterEach
    void tearDown() {
        initiatorTransport.releaseSends();
        initiatorTransport.releaseCompletions();
        targetTransport.releaseSends();
        initiator.fini();
        target.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }

    @Test
    void aSmallPutLogsSendEndBeforeItReturnsAndTheTargetGetsTheBytesAsTheyWereThen() {
        MemorySegment source = arena.allocate(64).fill((byte) 'A');
        long md = sendMd(source);
        initiatorTransport.holdSends();
        put(md, AckRequest.NOACK_REQ);
        assertThat(initiatorTransport.heldSends()).isEqualTo(1); // taken, not sent: the target has nothing yet
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_END");
        assertThat(kinds(target, targetEq)).isEmpty();
        source.fill((byte) 'B'); // the buffer is the application's again (P-170)
        initiatorTransport.releaseSends();
        assertThat(kinds(target, targetEq)).containsExactly("PUT_START", "PUT_END");
        assertThat(targetMemory.asSlice(0, 64).toArray(ValueLayout.JAVA_BYTE))
                .containsOnly((byte) 'A');
        assertThat(kinds(initiator, initiatorEq)).isEmpty(); // the transport's report only freed the op
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
        initiator.mdUnlink(md); // nothing pending
    }

    @Test
    void aPutLargerThanTheLimitLogsSendEndOnlyWhenTheTransportReportsIt() {
        MemorySegment source = arena.allocate(LIMIT + 1).fill((byte) 'L');
        long md = sendMd(source);
        initiatorTransport.holdSends();
        put(md, AckRequest.NOACK_REQ);
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START");
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
        initiatorTransport.releaseSends();
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_END");
        assertThat(kinds(target, targetEq)).containsExactly("PUT_START", "PUT_END");
    }

    @Test
    void aPutThatFindsNoBufferFreeIsSentFromTheMdAndItsSendEndWaitsForTheReport() {
        MemorySegment source = arena.allocate(16).fill((byte) 'x');
        long md = sendMd(source);
        initiatorTransport.holdSends();
        for (int i = 0; i <= BUFFERS; i++) {
            put(md, AckRequest.NOACK_REQ);
        }
        assertThat(initiator.freeStagingBuffers()).isZero();
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_END", "SEND_START", "SEND_END",
                "SEND_START");
        initiatorTransport.releaseSends();
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_END");
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS); // back once the transport has let go

        initiatorTransport.holdSends();
        put(md, AckRequest.NOACK_REQ);
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_END");
    }

    @Test
    void anAckThatArrivesBeforeThePutReturnsLogsSendEndOnceAndThenTheAck() {
        long md = sendMd(arena.allocate(16));
        initiatorTransport.holdCompletions(); // inmem delivers inline: the ack is in before send returns
        for (int i = 0; i < BUFFERS; i++) {
            put(md, AckRequest.ACK_REQ);
            assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_END", "ACK");
        }
        assertThat(initiator.freeStagingBuffers()).isZero(); // the transport may still read them until it reports
        assertThat(initiatorTransport.heldCompletions()).isEqualTo(BUFFERS);
        initiatorTransport.releaseCompletions();
        assertThat(kinds(initiator, initiatorEq)).isEmpty();
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
        initiator.mdUnlink(md);
    }

    @Test
    void anAckThatArrivesAfterTheStagedSendEndIsLoggedAfterIt() {
        long md = sendMd(arena.allocate(16));
        initiatorTransport.holdSends();
        initiatorTransport.holdCompletions();
        put(md, AckRequest.ACK_REQ);
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_END");
        initiatorTransport.releaseSends(); // delivered inline; the target's ack comes back inline
        assertThat(kinds(initiator, initiatorEq)).containsExactly("ACK");
        initiatorTransport.releaseCompletions();
        assertThat(kinds(initiator, initiatorEq)).isEmpty();
        assertThat(initiator.niStatus(initiatorNi, StatusRegister.SENDS_LOST)).isZero();
    }

    @Test
    void aStagedSendTheTransportFailsLaterIsCountedNotReportedAndALargeOneFails() {
        long small = sendMd(arena.allocate(16));
        long large = sendMd(arena.allocate(LIMIT + 1));
        initiatorTransport.holdSends();
        put(small, AckRequest.ACK_REQ);
        put(large, AckRequest.NOACK_REQ);
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_END", "SEND_START");
        initiatorTransport.failHeldSends();
        List<Event> events = events(initiator, initiatorEq);
        assertThat(events).extracting(e -> e.type().name()).containsExactly("SEND_FAIL"); // the large one
        assertThat(events.get(0).niFailType()).isNotEqualTo(NiFailType.OK);
        assertThat(initiator.niStatus(initiatorNi, StatusRegister.SENDS_LOST)).isEqualTo(1); // no ACK will come
        assertThat(initiator.niStatus(initiatorNi, StatusRegister.DROP_COUNT)).isZero();
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
        assertThat(kinds(target, targetEq)).isEmpty();
    }

    @Test
    void aSmallPutToAPeerKnownDeadFailsAsWithoutStaging() {
        long md = sendMd(arena.allocate(16));
        endpoints.get(1).close(); // the target's endpoint: the initiator's transport knows the peer is gone
        put(md, AckRequest.NOACK_REQ);
        List<Event> events = events(initiator, initiatorEq);
        assertThat(events).extracting(e -> e.type().name()).containsExactly("SEND_START", "SEND_FAIL");
        assertThat(events.get(1).niFailType()).isEqualTo(NiFailType.PEER_DEAD);
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
    }

    @Test
    void aSmallPutFromAClosedEndpointFailsAsWithoutStaging() {
        long md = sendMd(arena.allocate(16));
        endpoints.get(0).close();
        put(md, AckRequest.NOACK_REQ);
        assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_FAIL");
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
    }

    @Test
    void aSmallPutTheTransportRefusesUnexpectedlyIsCountedLostAndGivesItsBufferBack() {
        long md = sendMd(arena.allocate(16));
        for (int i = 0; i <= BUFFERS; i++) {
            initiatorTransport.refuseNext(MessageType.PUT);
            put(md, AckRequest.ACK_REQ);
            assertThat(kinds(initiator, initiatorEq)).containsExactly("SEND_START", "SEND_END");
        }
        assertThat(initiator.niStatus(initiatorNi, StatusRegister.SENDS_LOST)).isEqualTo(BUFFERS + 1);
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
        assertThat(kinds(target, targetEq)).isEmpty();
    }

    @Test
    void aSmallGetsReplyLogsGetEndWhenTheTransportTakesItAndCarriesTheBytesAsTheyWereThen() {
        targetMemory.asSlice(0, 64).fill((byte) 'G');
        MemorySegment into = arena.allocate(64);
        long md = initiator.mdBind(initiatorNi, MemoryDescriptor.of(into).withEventQueue(new EqHandle(initiatorEq)));
        targetTransport.holdSends();
        initiator.get(md, target.getId(targetNi), PORTAL, 0, 0, 0);
        assertThat(kinds(target, targetEq)).containsExactly("GET_START", "GET_END");
        assertThat(kinds(initiator, initiatorEq)).isEmpty(); // the reply is held
        targetMemory.asSlice(0, 64).fill((byte) 'H');
        targetTransport.releaseSends();
        assertThat(kinds(initiator, initiatorEq)).containsExactly("REPLY_START", "REPLY_END");
        assertThat(into.toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 'G');
        assertThat(target.freeStagingBuffers()).isEqualTo(BUFFERS);
    }

    @Test
    void aLargeGetsReplyLogsGetEndWhenTheTransportReportsIt() {
        long md = initiator.mdBind(initiatorNi, MemoryDescriptor.of(arena.allocate(LIMIT + 1))
                .withEventQueue(new EqHandle(initiatorEq)));
        targetTransport.holdSends();
        initiator.get(md, target.getId(targetNi), PORTAL, 0, 0, 0);
        assertThat(kinds(target, targetEq)).containsExactly("GET_START");
        targetTransport.releaseSends();
        assertThat(kinds(target, targetEq)).containsExactly("GET_END");
        assertThat(kinds(initiator, initiatorEq)).containsExactly("REPLY_START", "REPLY_END");
    }

    @Test
    void aStagedSendOutlivesItsInterfaceAndItsBufferComesBackWithTheTransportsReport() {
        long md = sendMd(arena.allocate(16).fill((byte) 'f'));
        initiatorTransport.holdSends();
        put(md, AckRequest.NOACK_REQ);
        initiator.niFini(initiatorNi);
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS - 1); // still the transport's
        initiatorTransport.releaseSends();
        assertThat(kinds(target, targetEq)).containsExactly("PUT_START", "PUT_END");
        assertThat(targetMemory.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 'f');
        assertThat(initiator.freeStagingBuffers()).isEqualTo(BUFFERS);
        initiatorNi = initiator.niInit(0, ProcessId.PID_ANY, null).handle().value();
        initiatorEq = initiator.eqAlloc(initiatorNi, 64);
        assertThat(initiator.niStatus(initiatorNi, StatusRegister.SENDS_LOST)).isZero();
    }

    private long sendMd(MemorySegment source) {
        return initiator.mdBind(initiatorNi, MemoryDescriptor.of(source).withEventQueue(new EqHandle(initiatorEq)));
    }

    private void put(long md, AckRequest ack) {
        initiator.put(md, ack, target.getId(targetNi), PORTAL, 0, 0, 0, 0);
    }

    /** The kinds of every event now in {@code eq}, taken off it. */
    private static List<String> kinds(PortalsEngine engine, long eq) {
        return events(engine, eq).stream().map(e -> e.type().name()).toList();
    }

    private static List<Event> events(PortalsEngine engine, long eq) {
        List<Event> taken = new ArrayList<>();
        while (true) {
            Event e = new Event();
            if (engine.eqGet(eq, e) == ReturnCode.EQ_EMPTY) {
                return taken;
            }
            taken.add(e);
        }
    }
}
