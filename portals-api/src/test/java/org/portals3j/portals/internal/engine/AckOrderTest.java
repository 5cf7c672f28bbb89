package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Collections;
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
import org.portals3j.portals.PortalsConfig;
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
 * The order of a put's ack against the events either side can see, recorded at the moment the target
 * hands the ack to its transport (in-memory delivery is inline, so the initiator has handled the ack
 * when the transport returns): the target's PUT_END is not visible yet, and the initiator has logged
 * SEND_END and ACK already. So an answer the target sends on PUT_END can never reach the initiator
 * before the ACK. Rank 0 puts, rank 1 is the target. Rank 0 stages nothing (SEND_END comes from the ack or the
 * transport's report, which its transport can hold back).
 */
class AckOrderTest {
    private static final int PORTAL = 6;

    private final List<Transport> endpoints;
    private final ScriptedTransport initiatorTransport;
    private final ScriptedTransport targetTransport;
    private final Arena arena = Arena.ofShared();
    private final PortalsEngine initiator;
    private final PortalsEngine target;
    private final long initiatorEq;
    private final long targetEq;
    private final long source;

    AckOrderTest() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        initiatorTransport = new ScriptedTransport(endpoints.get(0), Long.MAX_VALUE);
        targetTransport = new ScriptedTransport(endpoints.get(1), Long.MAX_VALUE);
        initiator = PortalsEngine.create(job, initiatorTransport, PortalsConfig.DEFAULT.withStaging(0, 0));
        target = PortalsEngine.create(job, targetTransport, PortalsConfig.DEFAULT);
        initiator.init();
        target.init();
        long ini = initiator.niInit(0, ProcessId.PID_ANY, null).handle().value();
        long tni = target.niInit(0, ProcessId.PID_ANY, null).handle().value();
        initiatorEq = initiator.eqAlloc(ini, 16);
        targetEq = target.eqAlloc(tni, 16);
        long me = target.meAttach(tni, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        target.mdAttach(me, MemoryDescriptor.of(arena.allocate(64)).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                .withEventQueue(new EqHandle(targetEq)), Unlink.RETAIN, Unlink.RETAIN);
        source = initiator.mdBind(ini,
                MemoryDescriptor.of(arena.allocate(8)).withEventQueue(new EqHandle(initiatorEq)));
    }

    @AfterEach
    void tearDown() {
        initiator.fini();
        target.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }

    @Test
    void theTargetsPutEndIsNotVisibleBeforeItsAckIsHandedToTheTransport() {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        targetTransport.onSend(type -> {
            if (type == MessageType.ACK) {
                takeAll(target, targetEq, "target ", seen);
                seen.add("ack handed to the transport");
            }
        });
        initiator.put(source, AckRequest.ACK_REQ, target.getId(niOf(target)), PORTAL, 0, 0, 0, 0);
        takeAll(target, targetEq, "target ", seen);
        assertThat(seen).containsExactly("target PUT_START", "ack handed to the transport", "target PUT_END");
    }

    @Test
    void theInitiatorLogsSendEndAndAckWhenTheAckArrivesBeforeTheTransportReportsTheSend() {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        targetTransport.onSent(type -> {
            if (type == MessageType.ACK) {
                takeAll(initiator, initiatorEq, "initiator ", seen);
                seen.add("ack handled by the initiator");
            }
        });
        initiatorTransport.holdCompletions(); // as a network transport reports the send after the ack came
        initiator.put(source, AckRequest.ACK_REQ, target.getId(niOf(target)), PORTAL, 0, 0, 0, 0);
        takeAll(initiator, initiatorEq, "initiator ", seen);
        assertThat(seen).containsExactly("initiator SEND_START", "initiator SEND_END", "initiator ACK",
                "ack handled by the initiator");
        assertThat(initiatorTransport.heldCompletions()).isEqualTo(1);
        initiatorTransport.releaseCompletions();
        takeAll(initiator, initiatorEq, "initiator ", seen);
        assertThat(seen).hasSize(4); // the report only freed the op
        initiator.mdUnlink(source); // nothing pending
    }

    private static long niOf(PortalsEngine engine) {
        return engine.niInit(0, ProcessId.PID_ANY, null).handle().value();
    }

    /** Takes every event now in {@code eq}, recording its kind. */
    private static void takeAll(PortalsEngine engine, long eq, String who, List<String> seen) {
        Event e = new Event();
        while (engine.eqGet(eq, e) != ReturnCode.EQ_EMPTY) {
            seen.add(who + e.type());
        }
    }
}
