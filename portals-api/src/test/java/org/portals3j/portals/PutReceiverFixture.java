package org.portals3j.portals;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * Two initialised processes on the in-memory transport: a sender with an 8-byte source MD and a receiver whose
 * buffers on {@link #PORTAL} take puts; {@link #close()} finalises both and closes the endpoints.
 */
final class PutReceiverFixture implements AutoCloseable {
    static final int PORTAL = 4;

    final Portals sender;
    final Portals receiver;
    /** The receiver's interface. */
    final NiHandle nr;
    private final List<Transport> endpoints;
    private final Arena arena = Arena.ofShared();
    private final MdHandle source;
    private final ProcessId target;

    PutReceiverFixture() throws Exception {
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

    /** Attaches a 64-byte put buffer on {@link #PORTAL} that posts to {@code eq}, matching any sender; returns eq. */
    EqHandle attachPutBuffer(EqHandle eq) {
        MeHandle me = receiver.meAttach(nr, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        receiver.mdAttach(me, MemoryDescriptor.of(arena.allocate(64)).withOptions(MdOption.OP_PUT,
                MdOption.MANAGE_REMOTE).withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
        return eq;
    }

    /** One put without ack to the receiver's buffers on {@link #PORTAL}: they post PUT_START and PUT_END. */
    void putOne(long hdrData) {
        sender.put(source, AckRequest.NOACK_REQ, target, PORTAL, 0, 0, 0, hdrData);
    }

    @Override
    public void close() {
        sender.fini();
        receiver.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }
}
