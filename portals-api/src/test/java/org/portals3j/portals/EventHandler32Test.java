package org.portals3j.portals;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * The extension {@code Portals.eqAlloc(ni, count, handler)}: a 3.2 queue runs its handler once for each event
 * deposited, before it can be taken, and the queue keeps the event and the 3.2 numbering.
 */
class EventHandler32Test {
    private static final int PORTAL = 4;

    private final List<Transport> endpoints;
    private final Arena arena = Arena.ofShared();
    private final Portals sender;
    private final Portals receiver;
    private final NiHandle nr;
    private final MdHandle source;
    private final ProcessId target;

    EventHandler32Test() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        sender = Portals.create(job, endpoints.get(0));
        receiver = Portals.create(job, endpoints.get(1));
        sender.init();
        receiver.init();
        NiHandle ns = sender.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        nr = receiver.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        source = sender.mdBind(ns, MemoryDescriptor.of(arena.allocate(8)));
        target = receiver.getId(nr);
    }

    @AfterEach
    void tearDown() {
        sender.fini();
        receiver.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }

    private EqHandle attach(EqHandle eq) {
        MeHandle me = receiver.meAttach(nr, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        receiver.mdAttach(me, MemoryDescriptor.of(arena.allocate(64)).withOptions(MdOption.OP_PUT,
                MdOption.MANAGE_REMOTE).withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
        return eq;
    }

    @Test
    void theHandlerSeesEveryEventBeforeItIsTakenAndTheQueueKeepsIt() {
        List<String> seen = new ArrayList<>();
        EqHandle eq = attach(receiver.eqAlloc(nr, 16, e -> {
            synchronized (seen) {
                seen.add(e.type() + ":" + e.hdrData());
            }
        }));

        sender.put(source, AckRequest.NOACK_REQ, target, PORTAL, 0, 0, 0, 42);
        Event e = new Event();
        assertThat(receiver.eqWait(eq, e)).isEqualTo(ReturnCode.OK);
        assertThat(e.type()).isEqualTo(EventKind.PUT_START);
        long first = e.sequence();
        synchronized (seen) {
            assertThat(seen).as("both events were deposited before the first was taken")
                    .containsExactly("PUT_START:42", "PUT_END:42");
        }
        assertThat(receiver.eqWait(eq, e)).isEqualTo(ReturnCode.OK);
        assertThat(e.type()).isEqualTo(EventKind.PUT_END);
        assertThat(e.sequence()).as("numbered as any 3.2 queue's events").isGreaterThan(first);
    }

    @Test
    void handlerNoneIsAPlainQueue() {
        EqHandle eq = attach(receiver.eqAlloc(nr, 16, EventHandler.NONE));

        sender.put(source, AckRequest.NOACK_REQ, target, PORTAL, 0, 0, 0, 7);
        Event e = new Event();
        assertThat(receiver.eqWait(eq, e)).isEqualTo(ReturnCode.OK);
        assertThat(e.hdrData()).isEqualTo(7);
    }
}
