package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Transport;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.gm.internal.nativeaccess.GmStatus;
import org.portals3j.transport.gm.internal.protocol.Bounce;
import org.portals3j.transport.gm.internal.protocol.RegistrationCache;
import org.portals3j.transport.gm.internal.protocol.WireHeader;

/**
 * An endpoint's send side: a message staged (eager copy, or registered or bounced for RMA), queued in a slot, posted
 * on a credit; its slot freed, and its token completed, once GM gave the buffer back and the peer's FIN came.
 */
final class SendPath {
    /** How often a sender that waits for room looks at the receive path again. */
    private static final long ROOM_RECHECK_NANOS = 100_000L;

    private SendPath() {
    }

    /** A send to a live, resolved {@code peer} whose arguments were checked: staged outside every lock, then queued. */
    static void send(GmEndpoint e, int peer, MemorySegment header, int headerLength,
                     MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        Peer p = e.peers[peer];
        if (p.failed) {
            e.complete(token, false);
            return;
        }
        boolean readable = payloadLength == 0 || payload.scope().isAlive();
        boolean eager = !readable || e.threshold.eager(headerLength, payloadLength);
        RegistrationCache.@Nullable Registration registration = null;
        @Nullable Bounce bounce = null;
        if (!eager) { // staged outside every lock: registering and copying a heap payload take time
            try {
                if (payload.isNative()) {
                    registration = e.cache.acquire(payload.address() + payloadOffset, payloadLength);
                } else {
                    bounce = Bounce.stageOut(payload, payloadOffset, payloadLength, e.port);
                    e.bounceCopies.incrementAndGet();
                }
            } catch (IllegalStateException x) { // the memory went away, or libgm refused it
                GmEndpoint.LOG.log(System.Logger.Level.DEBUG, "rank " + e.rank + ": cannot stage a payload of "
                        + payloadLength + " bytes for rank " + peer + ": " + x.getMessage());
                readable = false;
                eager = true;
            }
        }
        if (!enqueue(e, p, header, headerLength, readable ? payload : MemorySegment.NULL, payloadOffset,
                payloadLength, token, eager, registration, bounce)) {
            e.release(registration, bounce);
            e.complete(token, false);
        }
    }

    /** Takes a slot (waiting for one unless on the progress thread), fills it and posts it if there is a credit. */
    private static boolean enqueue(GmEndpoint e, Peer p, MemorySegment header, int headerLength,
                                   MemorySegment payload, long offset, long length, long token, boolean eager,
                                   RegistrationCache.@Nullable Registration registration,
                                   @Nullable Bounce bounce) {
        boolean fromReceivePath = e.isReceivePathThread();
        boolean overflow = false;
        boolean interrupted = false;
        p.lock.lock();
        try {
            while (!p.failed && !e.closed() && p.inUse() >= (fromReceivePath ? p.slots.length : e.bound)) {
                if (fromReceivePath) {
                    overflow = true;
                    break;
                }
                interrupted |= awaitRoom(e, p); // backpressure: wait for a completion
            }
            if (p.failed || e.closed() || overflow) {
                return false;
            }
            SendSlot s = p.takeSlot();
            if (s.buffer.equals(MemorySegment.NULL)) { // once per slot, for a handler callback's burst
                MemorySegment b = e.port.dmaMalloc(e.dataSizes.largestLength());
                if (b.equals(MemorySegment.NULL)) {
                    p.freeSlot(s);
                    overflow = true;
                    return false;
                }
                s.buffer = b;
            }
            s.token = token;
            s.headerLength = headerLength;
            s.payloadLength = length;
            s.rma = !eager;
            MemorySegment.copy(header, 0, s.buffer, WireHeader.LENGTH, headerLength);
            s.unreadable = false;
            if (eager && length > 0 && !payload.equals(MemorySegment.NULL)) {
                try {
                    MemorySegment.copy(payload, offset, s.buffer, WireHeader.LENGTH + headerLength, length);
                } catch (IllegalStateException x) { // its memory went away since send checked
                    s.unreadable = true;
                }
            } else if (eager && length > 0) {
                s.unreadable = true;
            }
            if (s.unreadable) { // the receiver ends the message failed, the send completes not delivered
                s.messageLength = WireHeader.LENGTH + headerLength;
            } else if (eager) {
                s.messageLength = WireHeader.LENGTH + headerLength + length;
            } else {
                s.messageLength = WireHeader.LENGTH + headerLength;
                s.registration = registration;
                s.bounce = bounce;
                s.rmaAddress = bounce != null ? bounce.address() : payload.address() + offset;
                s.rmaKey = bounce != null ? bounce.key() : registration == null ? 0 : registration.key();
                e.rmaPayloadsSent.incrementAndGet();
            }
            s.sizeIndex = e.threshold.sizeIndex(s.messageLength);
            p.queueForCredit(s);
            postWaiting(e, p);
            return true;
        } finally {
            p.lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (overflow) {
                PeerFailures.peerFailed(e, p.rank, "a handler callback sent more than " + p.slots.length
                        + " messages that wait, or gm_dma_malloc had no memory left for them");
            }
        }
    }

    /**
     * Waits a little for a completion that makes room towards {@code p} (its lock held, and released meanwhile),
     * running the receive path itself when nobody does: the thread that would have run it may be waiting for this one
     * (an upper layer's callback for which this sender holds something), and this thread may have been its poller.
     * Returns whether the thread was interrupted (the flag is cleared: the wait goes on, the caller sets it again).
     */
    private static boolean awaitRoom(GmEndpoint e, Peer p) {
        ReceivePath path = e.receivePath;
        if (path == null) {
            p.room.awaitUninterruptibly();
            return false;
        }
        p.lock.unlock();
        boolean ran;
        try {
            ran = path.runIfUnattended();
        } finally {
            p.lock.lock();
        }
        if (p.inUse() >= e.bound && !p.failed && !e.closed()) {
            try {
                p.room.awaitNanos(ran ? ROOM_RECHECK_NANOS : ROOM_RECHECK_NANOS * 10);
            } catch (InterruptedException x) {
                return true;
            }
        }
        return false;
    }

    /** Posts queued messages while there are credits, each carrying a FIN that waits (peer lock held). */
    private static void postWaiting(GmEndpoint e, Peer p) {
        while (!p.failed && p.hasWaiting() && p.credits.tryTake()) {
            SendSlot s = p.nextWaiting();
            if (s == null) {
                return;
            }
            WireHeader.write(s.buffer, s.unreadable ? WireHeader.KIND_UNREADABLE
                    : s.rma ? WireHeader.KIND_RMA : WireHeader.KIND_EAGER, s.headerLength,
                    p.returns.take(), p.sendSequence++, s.index, p.takeFin(), s.payloadLength, s.rmaAddress,
                    s.rmaKey);
            s.withGm = true;
            e.port.send(s.buffer, e.dataSizes.size(s.sizeIndex), s.messageLength, GmPort.LOW_PRIORITY, p.node,
                    p.gmPort, Contexts.of(Contexts.DATA, p.rank, s.index));
        }
    }

    /** GM gave a data message's buffer back (progress thread). */
    static void dataSent(GmEndpoint e, Peer p, int index, int status) {
        if (index >= p.slots.length) {
            return;
        }
        SendSlot s = p.slots[index];
        long token = Transport.NO_NOTIFY;
        boolean report = false;
        boolean sent = status == GmStatus.SUCCESS;
        boolean delivered = sent;
        RegistrationCache.@Nullable Registration registration = null;
        @Nullable Bounce bounce = null;
        p.lock.lock();
        try {
            if (!s.inUse || !s.withGm) {
                return;
            }
            s.withGm = false;
            delivered = sent && !s.unreadable;
            if (!sent || s.finReceived || p.failed) { // else the peer's FIN completes it
                report = !s.completed;
                s.completed = true;
                token = s.token;
                registration = s.registration;
                bounce = s.bounce;
                p.freeSlot(s);
            }
        } finally {
            p.lock.unlock();
        }
        e.release(registration, bounce);
        if (report) {
            e.complete(token, delivered);
        }
        if (!sent && status != GmStatus.SEND_DROPPED) {
            PeerFailures.peerFailed(e, p.rank, "a send completed with " + GmStatus.name(status));
        }
    }

    /** What {@link #creditsAndFin} found wrong, if anything. */
    enum Returned { OK, CREDITS, FIN }

    /**
     * A message's returned credits (waiting messages are posted with them), then, if {@code fin}, the peer's FIN for
     * its slot {@code finIndex}, under one take of the peer's lock (progress thread). CREDITS: the peer returned more
     * than it had; FIN: no message waits for a FIN in that slot (both protocol violations).
     */
    static Returned creditsAndFin(GmEndpoint e, Peer p, long credits, boolean fin, long finIndex, boolean read) {
        if (credits == 0 && !fin) {
            return Returned.OK;
        }
        long token = Transport.NO_NOTIFY;
        boolean report = false;
        boolean delivered = read;
        RegistrationCache.@Nullable Registration registration = null;
        @Nullable Bounce bounce = null;
        p.lock.lock();
        try {
            if (credits != 0) {
                if (!p.credits.give(credits)) {
                    return Returned.CREDITS;
                }
                postWaiting(e, p);
            }
            if (!fin) {
                return Returned.OK;
            }
            if (finIndex < 0 || finIndex >= p.slots.length) {
                return Returned.FIN;
            }
            SendSlot s = p.slots[(int) finIndex];
            if (!s.inUse || s.finReceived) {
                return Returned.FIN;
            }
            s.finReceived = true;
            delivered &= !s.unreadable;
            report = !s.completed;
            s.completed = true;
            token = s.token;
            registration = s.registration;
            bounce = s.bounce;
            s.registration = null;
            s.bounce = null;
            if (!s.withGm) {
                p.freeSlot(s);
            }
        } finally {
            p.lock.unlock();
        }
        e.release(registration, bounce);
        if (report) {
            e.complete(token, delivered);
        }
        return Returned.OK;
    }
}
