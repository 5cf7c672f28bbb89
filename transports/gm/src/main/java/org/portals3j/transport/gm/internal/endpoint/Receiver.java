package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.gm.internal.nativeaccess.GmEvents;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.gm.internal.nativeaccess.GmStatus;
import org.portals3j.transport.gm.internal.protocol.Bounce;
import org.portals3j.transport.gm.internal.protocol.RegistrationCache;
import org.portals3j.transport.gm.internal.protocol.WireHeader;

/**
 * What gmx_poll's events start: the two-phase receive, the RMA reads, the control messages FIN, CREDIT and BYE, the
 * send completions; and the close. Run under the {@link ReceivePath}'s lock only; it allocates nothing per message.
 */
final class Receiver {
    private static final long BYE_DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1000);
    private static final int BATCH = 64;
    private static final System.Logger LOG = ReceivePath.LOG;

    private final GmEndpoint endpoint;
    private final MessageHandler handler;
    private final GmPort port;
    private final Peer[] peers;
    private final ReceiveBuffers buffers;
    private final GmEvents events = new GmEvents(BATCH);
    private final ControlSender controls;

    Receiver(GmEndpoint endpoint, MessageHandler handler) {
        this.endpoint = endpoint;
        this.handler = handler;
        this.port = endpoint.port;
        this.peers = endpoint.peers;
        this.buffers = endpoint.receiveBuffers;
        this.controls = new ControlSender(endpoint.port, endpoint.peers);
    }

    /**
     * One gmx_poll waiting up to {@code timeoutNanos}, and its events (lock held); -1 when the port failed. FINs left
     * by earlier rounds go first. The FINs this round makes go at its end, unless {@code leaveFins}: a polling
     * application thread's next send to the peer (its answer, typically) carries one, or its next round sends it.
     */
    int round(long timeoutNanos, boolean leaveFins) {
        controls.sendFins();
        int n = port.poll(events, timeoutNanos);
        if (n < 0) {
            LOG.log(System.Logger.Level.ERROR, "rank " + endpoint.rank + ": gmx_poll failed (" + port.lastError()
                    + "); the endpoint stops");
            endpoint.close();
            return -1;
        }
        for (int i = 0; i < n && !endpoint.closed(); i++) { // a closed endpoint's handler hears nothing more
            dispatch(i);
        }
        controls.returnCredits();
        if (!leaveFins) {
            controls.sendFins();
        }
        return n;
    }

    private void dispatch(int i) {
        switch (events.type(i)) {
            case GmEvents.RECV -> received(events.context(i), events.length(i), events.senderNode(i),
                    events.senderPort(i));
            case GmEvents.SENT -> sent(events.context(i), events.status(i));
            case GmEvents.PEER_FAILED -> {
                int node = events.senderNode(i);
                if (node >= 1 && node <= peers.length) {
                    PeerFailures.peerFailed(endpoint, node - 1,
                            "libgm reported it (no keep-alive answer or a broken connection)");
                }
            }
            default -> {
                // GMX_NO_EVENT and GMX_ALARM are never returned; anything else is a newer library's: ignored
            }
        }
    }

    private void received(long context, long length, int node, int senderPort) {
        int index = Contexts.index(context);
        if (Contexts.kind(context) != Contexts.RECEIVE || index >= buffers.count()) {
            LOG.log(System.Logger.Level.ERROR, "rank " + endpoint.rank + ": libgm returned an unknown receive "
                    + "context " + Long.toHexString(context));
            return;
        }
        if (length < 0 || length > buffers.memory[index].byteSize()) {
            buffers.post(port, index);
            LOG.log(System.Logger.Level.ERROR, "rank " + endpoint.rank + ": libgm returned " + length
                    + " bytes in a buffer of " + buffers.memory[index].byteSize());
            return;
        }
        if (node < 1 || node > peers.length || senderPort != peers[node - 1].gmPort) {
            buffers.post(port, index);
            endpoint.protocolErrors.incrementAndGet();
            return; // nobody of this job: there is no peer to blame
        }
        Peer p = peers[node - 1];
        if (p.failed) {
            buffers.post(port, index);
            return;
        }
        if (!buffers.isData(index)) {
            control(p, index, length);
        } else if (p.reading || p.hasHeld()) {
            if (!p.hold(index, length)) {
                buffers.post(port, index);
                violation(p, "more data messages than credits");
            }
        } else {
            data(p, index, length);
        }
    }

    private void control(Peer p, int index, long length) {
        MemorySegment m = buffers.memory[index];
        @Nullable String bad = WireHeader.malformed(m, length, GmEndpoint.MAX_HEADER, GmEndpoint.MAX_PAYLOAD);
        int kind = WireHeader.kind(m);
        long credits = WireHeader.credits(m);
        long slot = WireHeader.slot(m);
        boolean read = WireHeader.payloadLength(m) == 1;
        buffers.post(port, index); // control messages spend no credit: the buffer goes straight back
        if (bad == null && kind != WireHeader.KIND_FIN && kind != WireHeader.KIND_CREDIT
                && kind != WireHeader.KIND_BYE) {
            bad = "a data message at control priority";
        }
        if (bad != null) {
            violation(p, bad);
        } else {
            SendPath.Returned r = SendPath.creditsAndFin(endpoint, p, credits, kind == WireHeader.KIND_FIN, slot, read);
            if (r == SendPath.Returned.CREDITS) {
                violation(p, "it returned " + credits + " credits it never had");
            } else if (r == SendPath.Returned.FIN) {
                violation(p, "a FIN for slot " + slot + ", where no message waits");
            } else if (kind == WireHeader.KIND_BYE) {
                PeerFailures.peerFailed(endpoint, p.rank, PeerFailures.CLOSED);
            }
        }
    }

    /** One data message, in order: the two-phase receive, eager or by RMA. */
    private void data(Peer p, int index, long length) {
        MemorySegment m = buffers.memory[index];
        @Nullable String bad = WireHeader.malformed(m, length, GmEndpoint.MAX_HEADER, GmEndpoint.MAX_PAYLOAD);
        int kind = WireHeader.kind(m);
        if (bad == null && kind != WireHeader.KIND_EAGER && kind != WireHeader.KIND_RMA
                && kind != WireHeader.KIND_UNREADABLE) {
            bad = "a control message at data priority";
        }
        if (bad == null && WireHeader.sequence(m) != p.receiveSequence) {
            bad = "message " + WireHeader.sequence(m) + " where " + p.receiveSequence + " was due";
        }
        long slot = WireHeader.slot(m);
        if (bad == null && slot >= PortSetup.slotsPerPeer(endpoint.settings)) {
            bad = "a message from slot " + slot;
        }
        int fin = WireHeader.finField(m);
        if (bad == null) { // one take of the peer's lock for both
            boolean hasFin = fin != WireHeader.NO_FIN;
            SendPath.Returned r = SendPath.creditsAndFin(endpoint, p, WireHeader.credits(m), hasFin,
                    hasFin ? WireHeader.finSlot(fin) : -1, hasFin && WireHeader.finRead(fin));
            if (r == SendPath.Returned.CREDITS) {
                bad = "it returned credits it never had";
            } else if (r == SendPath.Returned.FIN) {
                bad = "a FIN for slot " + WireHeader.finSlot(fin) + ", where no message waits";
            }
        }
        if (bad != null) {
            buffers.post(port, index);
            violation(p, bad);
            return;
        }
        p.receiveSequence++;
        int headerLength = WireHeader.headerLength(m);
        long payload = WireHeader.payloadLength(m);
        long address = WireHeader.rmaAddress(m);
        long key = WireHeader.rmaKey(m);
        Deposit d = p.writer.reset();
        try {
            handler.onHeader(p.rank, buffers.headers[index], headerLength, payload, d);
            if (kind == WireHeader.KIND_UNREADABLE && d.accepted() && d.length() > 0) {
                p.writer.fail(); // the sender could not read the payload
            }
            long n = d.accepted() ? Math.min(d.length(), payload) : 0;
            if (kind == WireHeader.KIND_EAGER && n > 0) {
                MemorySegment.copy(m, WireHeader.LENGTH + headerLength, d.segment(), d.offset(), n);
                p.writer.addDeposited(n);
            }
        } catch (RuntimeException e) { // the handler threw, or its memory went away: the message is lost
            LOG.log(System.Logger.Level.WARNING, "rank " + endpoint.rank + ": message from rank " + p.rank
                    + " failed: " + e);
            p.writer.fail();
        }
        buffers.post(port, index);
        p.returns.reposted();
        long n = d.accepted() && !d.failed() ? Math.min(d.length(), payload) : 0;
        if (kind == WireHeader.KIND_RMA && n > 0) {
            startRead(p, d, address, key, n, (int) slot);
            return;
        }
        deposited(p, d);
        fin(p, (int) slot, !d.failed()); // the send completes once its payload is where the handler wanted it
    }

    /** Reads an RMA payload straight into the accepted native segment, or through a bounce buffer for the heap. */
    private void startRead(Peer p, Deposit d, long address, long key, long n, int slot) {
        MemorySegment target = d.segment();
        long offset = d.offset();
        RegistrationCache.@Nullable Registration registration = null;
        @Nullable Bounce bounce = null;
        try {
            if (!target.scope().isAlive()) { // never let libfabric write into freed memory
                throw new IllegalStateException("the accepted segment's memory has gone away");
            }
            MemorySegment local;
            if (target.isNative()) {
                registration = endpoint.cache.acquire(target.address() + offset, n);
                local = target.asSlice(offset, n);
            } else {
                bounce = Bounce.allocate(n, port);
                local = bounce.memory();
            }
            p.reading = true;
            p.readLength = n;
            p.readSlot = slot;
            p.readTarget = target;
            p.readOffset = offset;
            p.readRegistration = registration;
            p.readBounce = bounce;
            port.get(address, key, local, n, GmPort.LOW_PRIORITY, p.node, p.gmPort,
                    Contexts.of(Contexts.READ, p.rank, 0));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "rank " + endpoint.rank + ": cannot read " + n + " bytes from rank "
                    + p.rank + ": " + e.getMessage());
            p.reading = false;
            endpoint.release(registration, bounce);
            p.readRegistration = null;
            p.readBounce = null;
            p.writer.fail();
            deposited(p, d);
            fin(p, slot, false);
        }
    }

    /** The RMA read of {@code p}'s current message finished with {@code status}. */
    private void readFinished(Peer p, int status) {
        if (!p.reading) {
            return;
        }
        p.reading = false;
        Deposit d = p.writer.deposit();
        boolean ok = status == GmStatus.SUCCESS;
        @Nullable Bounce bounce = p.readBounce;
        if (ok && bounce != null) {
            try {
                bounce.copyTo(p.readTarget, p.readOffset, p.readLength);
                endpoint.bounceCopies.incrementAndGet();
            } catch (RuntimeException e) { // the heap destination went away
                ok = false;
            }
        }
        if (ok) {
            endpoint.rmaPayloadsRead.incrementAndGet();
            p.writer.addDeposited(p.readLength);
        } else {
            p.writer.fail();
        }
        endpoint.release(p.readRegistration, bounce);
        p.readRegistration = null;
        p.readBounce = null;
        deposited(p, d);
        fin(p, p.readSlot, ok);
        if (status != GmStatus.SUCCESS) {
            PeerFailures.peerFailed(endpoint, p.rank, "an RMA read completed with " + GmStatus.name(status));
        }
        while (!p.reading && p.hasHeld()) {
            int index = p.heldBuffer();
            long length = p.heldLength();
            p.dropHeld();
            if (p.failed) {
                buffers.post(port, index);
            } else {
                data(p, index, length);
            }
        }
    }

    private void deposited(Peer p, Deposit d) {
        try {
            handler.onDeposited(p.rank, d);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "rank " + endpoint.rank + ": handler threw from onDeposited", e);
        }
    }

    private void sent(long context, int status) {
        int peer = Contexts.peer(context);
        if (peer < 0 || peer >= peers.length) {
            return;
        }
        Peer p = peers[peer];
        switch (Contexts.kind(context)) {
            case Contexts.DATA -> SendPath.dataSent(endpoint, p, Contexts.index(context), status);
            case Contexts.READ -> readFinished(p, status);
            case Contexts.CONTROL -> {
                int index = Contexts.index(context);
                if (index < p.controlBusy.length) {
                    p.controlBusy[index] = false;
                }
                if (status != GmStatus.SUCCESS && status != GmStatus.SEND_DROPPED) {
                    PeerFailures.peerFailed(endpoint, p.rank,
                            "a control message completed with " + GmStatus.name(status));
                }
            }
            default -> {
                // DROP: nothing to do
            }
        }
    }

    /** Queues the FIN of the message from {@code p}'s send slot {@code slot}: see {@link #round}. */
    private void fin(Peer p, int slot, boolean read) {
        boolean queued;
        p.lock.lock();
        try {
            queued = p.failed || p.queueFin(slot, read);
        } finally {
            p.lock.unlock();
        }
        if (!queued) {
            violation(p, "more messages in flight than slots");
        }
    }

    private void violation(Peer p, String why) {
        endpoint.protocolErrors.incrementAndGet();
        PeerFailures.peerFailed(endpoint, p.rank, "protocol violation: " + why);
    }

    /** At close: fails the sends, says BYE to every live peer, waits (bounded) for those to go, closes the port. */
    void shutdown() {
        PeerFailures.failAllSends(endpoint);
        int byes = 0;
        for (Peer p : peers) {
            if (p.rank != endpoint.rank && !p.failed && p.freeControl() >= 0) {
                controls.send(p, WireHeader.KIND_BYE, 0, 0);
                byes++;
            }
        }
        long deadline = System.nanoTime() + BYE_DRAIN_NANOS;
        while (byes > 0 && System.nanoTime() - deadline < 0) {
            int n = port.poll(events, Math.min(ReceivePath.POLL_NANOS, deadline - System.nanoTime()));
            if (n < 0) {
                break;
            }
            for (int i = 0; i < n; i++) {
                if (events.type(i) == GmEvents.SENT && Contexts.kind(events.context(i)) == Contexts.CONTROL) {
                    byes--;
                }
            }
        }
        for (Peer p : peers) {
            if (p.readRegistration != null) {
                endpoint.cache.release(p.readRegistration);
                p.readRegistration = null;
            }
        }
        endpoint.cache.clear();
        endpoint.closePort();
        PeerFailures.abandonBounces(endpoint);
        for (Peer p : peers) {
            if (p.reading) { // the read will never finish: its message ends failed
                p.reading = false;
                p.writer.fail();
                deposited(p, p.writer.deposit());
            }
            if (p.readBounce != null) {
                p.readBounce.abandon();
                p.readBounce = null;
            }
        }
        events.close();
    }
}
