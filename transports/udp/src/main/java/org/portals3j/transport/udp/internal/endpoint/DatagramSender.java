package org.portals3j.transport.udp.internal.endpoint;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.portals3j.transport.udp.internal.io.DatagramIo;
import org.portals3j.transport.udp.internal.reliability.OutgoingMessage;
import org.portals3j.transport.udp.internal.reliability.SendWindow;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * The sending side: per-peer send queues and their bound, window pacing, retransmission, acknowledgements and
 * heartbeats out. Any thread; a peer's datagrams are built and sent under its lock, so they leave in counter order.
 */
final class DatagramSender {
    /** A standalone acknowledgement after this many unacknowledged data datagrams, even mid-burst. */
    static final int ACK_EVERY = 16;
    /** A sender waiting for room looks this often whether the receive path is unattended. */
    static final long UNATTENDED_CHECK_NANOS = 10_000_000L;

    /** The receive path as a sender waiting for room sees it: the acknowledgements that make room come from it. */
    interface ReceivePath {
        /** The calling thread starts waiting: if it was polling, the protocol thread takes over at once. */
        void senderWaits();

        /** Runs one round of the receive path on the calling thread, unless another thread runs it; no lock held. */
        void runIfUnattended();
    }

    private final EndpointIdentity self;
    private final Peer[] peers;
    private final DatagramIo io;
    private final Counters counters;
    private final EndpointLifecycle lifecycle;
    private final UpperLayer upper;
    private final ProtocolSleep sleep;
    private final ReceivePath receivePath;
    private final NanoClock clock;
    /** Unique per datagram this endpoint sends (GMAC's IV), from a random start. */
    private final AtomicLong datagramCounter;
    private final long ackDelayNanos;
    private final long heartbeatNanos;

    DatagramSender(EndpointIdentity self, long firstDatagramCounter, Peer[] peers, DatagramIo io, Counters counters,
                   EndpointLifecycle lifecycle, UpperLayer upper, ProtocolSleep sleep, ReceivePath receivePath,
                   NanoClock clock, long ackDelayNanos, long heartbeatNanos) {
        this.self = self;
        this.datagramCounter = new AtomicLong(firstDatagramCounter);
        this.peers = peers;
        this.io = io;
        this.counters = counters;
        this.lifecycle = lifecycle;
        this.upper = upper;
        this.sleep = sleep;
        this.receivePath = receivePath;
        this.clock = clock;
        this.ackDelayNanos = ackDelayNanos;
        this.heartbeatNanos = heartbeatNanos;
    }

    // ==== messages in ============================================================================

    /**
     * Queues a message to {@code p} and sends what the windows allow; completes it false at once when {@code p} is
     * not alive or the endpoint is closed. An application thread ({@code fromReceivePath} false) waits while the queue
     * is full; the receive path's own sends never wait (only it could make room), up to the bound's limit for them.
     */
    void send(Peer p, MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
              long payloadLength, long token, boolean fromReceivePath) {
        boolean accepted = false;
        boolean wasIdle = false;
        boolean interrupted = false;
        p.lock.lock();
        try {
            if (!fromReceivePath && !p.bound.hasRoom(payloadLength) && p.isAlive() && !lifecycle.isClosed()) {
                interrupted = awaitRoom(p, payloadLength);
            }
            if (fromReceivePath && p.isAlive() && p.bound.beyondReceivePathLimit()) {
                // this send fails, and so does every later one; the receive path fails the peer
                p.state(Peer.State.OVERRUN);
                p.bound.wakeAll();
            }
            if (p.isAlive() && !lifecycle.isClosed()) {
                wasIdle = p.send.inFlight() == 0;
                OutgoingMessage m = p.send.allocate();
                MemorySegment.copy(header, 0, m.header, 0, headerLength);
                m.headerLength = headerLength;
                m.payload = payload;
                m.payloadOffset = payloadOffset;
                m.payloadLength = payloadLength;
                m.token = token;
                // memory already gone: the message still goes (the receiver must see it fail), without payload
                m.failed = payloadLength > 0 && !payload.scope().isAlive();
                p.send.enqueue(m);
                p.bound.added(payloadLength);
                counters.add(Counters.MESSAGES_SENT);
                pump(p, clock.nanoTime());
                accepted = true;
            }
        } finally {
            p.lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (!accepted) {
            upper.onSendComplete(token, false);
        } else if (wasIdle) {
            sleep.wakeIfSleeping(); // the protocol thread's sleep does not cover the retransmission timer just started
        }
    }

    /**
     * An application thread waits, holding {@code p.lock} (released while it waits), until the queue to {@code p} has
     * room for {@code length} bytes, {@code p} is no longer alive or the endpoint closes. Acknowledgements that
     * complete messages wake it; now and then it also runs the receive path itself if nobody does (its thread may be
     * in a callback outside it, as Isotach's onPollersGone, waiting for this very send). Returns whether the thread
     * was interrupted meanwhile.
     */
    private boolean awaitRoom(Peer p, long length) {
        counters.add(Counters.SENDS_WAITED);
        receivePath.senderWaits();
        boolean interrupted = false;
        while (!p.bound.hasRoom(length) && p.isAlive() && !lifecycle.isClosed()) {
            interrupted |= p.bound.await(UNATTENDED_CHECK_NANOS);
            if (!p.bound.hasRoom(length)) {
                p.lock.unlock(); // the receive path takes peers' locks itself
                try {
                    receivePath.runIfUnattended();
                } finally {
                    p.lock.lock();
                }
            }
        }
        return interrupted;
    }

    /** Sends new fragments while the windows allow. Caller holds {@code p.lock}. */
    private void pump(Peer p, long now) {
        while (p.send.canTransmitNew()) {
            transmit(p, p.send.cutNext(), now);
        }
    }

    /** Builds and sends the datagram of {@code slot}, from the message's memory. Caller holds {@code p.lock}. */
    private void transmit(Peer p, SendWindow.Slot slot, long now) {
        OutgoingMessage m = slot.message;
        if (m == null) {
            return;
        }
        boolean first = (slot.flags & DatagramHeader.FLAG_FIRST) != 0;
        int headerPart = first ? m.headerLength : 0;
        int dataPart = slot.fragmentLength;
        ByteBuffer b = p.sendBuffer;
        MemorySegment bs = p.sendSegment;
        if (DatagramHeader.LENGTH + headerPart + dataPart > Peer.BULK_ABOVE && p.bulkSendBuffer != null
                && p.bulkSendSegment != null) {
            b = p.bulkSendBuffer;
            bs = p.bulkSendSegment;
        }
        if (first) {
            MemorySegment.copy(m.header, 0, bs, DatagramHeader.LENGTH, headerPart);
        }
        if (!m.failed && dataPart > 0) {
            try {
                MemorySegment.copy(m.payload, m.payloadOffset + slot.fragmentOffset, bs,
                        DatagramHeader.LENGTH + headerPart, dataPart);
            } catch (IllegalStateException | WrongThreadException | IndexOutOfBoundsException e) {
                m.failed = true; // the payload's memory went away (its arena was closed)
            }
        }
        int flags = slot.flags;
        if (m.failed) {
            flags |= DatagramHeader.FLAG_ABORT;
            dataPart = 0;
        }
        int bodyLength = headerPart + dataPart;
        DatagramHeader.write(b, DatagramType.DATA, flags, self.jobTag(), self.rank(), p.rank, 0, self.incarnation(),
                p.incarnation, datagramCounter.getAndIncrement(), slot.seq, 0, 0, 0, m.payloadLength,
                slot.fragmentOffset, headerPart, bodyLength);
        long cum = p.putAck(b);
        int length = DatagramHeader.LENGTH + bodyLength;
        p.sendCodec.seal(b, length);
        slot.sentNanos = now;
        slot.transmissions++;
        p.ackCarried = cum;
        p.lastSentNanos = now;
        try {
            io.send(b, length, p.address());
            counters.add(Counters.DATAGRAMS_SENT);
        } catch (IOException e) {
            counters.add(Counters.SEND_ERRORS); // as good as lost: the retransmission timer covers it
        }
    }

    // ==== acknowledgements in, retransmissions ===================================================

    /**
     * Receive path: applies the acknowledgement fields of a datagram from {@code p} ({@code duplicate}: a sequence
     * number the peer received again, or -1), retransmits what they show lost and sends what they make room for,
     * then reports the sends they complete; false if they are impossible (acknowledging unsent data).
     */
    boolean onAcknowledgement(Peer p, long cum, long sack, long failed, long window, long duplicate, long now) {
        p.lock.lock();
        try {
            if (!p.send.plausible(cum, window, duplicate)) {
                return false;
            }
            long spurious = p.send.spuriousRetransmissions();
            long undone = p.send.undoneCuts();
            p.send.onAck(cum, sack, failed, window, duplicate, now, p.rtt, p.completions);
            counters.add(Counters.SPURIOUS_RETRANSMITS, p.send.spuriousRetransmissions() - spurious);
            counters.add(Counters.CWND_UNDOS, p.send.undoneCuts() - undone);
            retransmitLost(p, now);
            pump(p, now);
        } finally {
            p.lock.unlock();
        }
        p.completions.dispatch(upper);
        return true;
    }

    /** Retransmits every fragment RACK finds lost now. Caller holds {@code p.lock}. */
    private void retransmitLost(Peer p, long now) {
        long s = p.send.una();
        while ((s = p.send.nextLost(s, now, p.rtt)) >= 0) {
            transmit(p, p.send.slot(s), now);
            counters.add(Counters.RETRANSMITS);
            counters.add(Counters.FAST_RETRANSMITS);
            s++;
        }
    }

    /**
     * Receive path, on its timer: RACK's reordering timer, the retransmission timeout (RFC 6298 5.4-5.6: back off,
     * collapse the congestion window, retransmit what waited an RTO), then new fragments the windows allow.
     */
    void onTimer(Peer p, long now) {
        p.lock.lock();
        try {
            if (p.send.inFlight() > 0) {
                retransmitLost(p, now);
                long rto = p.rtt.rto();
                SendWindow.Slot oldest = p.send.slot(p.send.una());
                if (now - oldest.sentNanos >= rto) {
                    p.rtt.backoff();
                    p.send.onTimeout(now, rto);
                    counters.add(Counters.TIMEOUTS);
                }
                int budget = Math.max(p.send.cwnd(), SendWindow.MIN_CWND);
                long s = p.send.una();
                while (budget-- > 0 && (s = p.send.nextExpired(s, now, rto)) >= 0) {
                    transmit(p, p.send.slot(s), now);
                    counters.add(Counters.RETRANSMITS);
                    s++;
                }
            }
            pump(p, now);
        } finally {
            p.lock.unlock();
        }
    }

    /** When {@code p}'s next timer is due: retransmission, RACK, and (another rank's) heartbeat. */
    long nextDeadline(Peer p) {
        long deadline = p.rank != self.rank() ? p.lastSentNanos + heartbeatNanos : Long.MAX_VALUE;
        p.lock.lock();
        try {
            return Math.min(deadline, Math.min(p.send.nextDeadline(p.rtt.rto()), p.send.lossDeadline(p.rtt)));
        } finally {
            p.lock.unlock();
        }
    }

    // ==== control datagrams out ==================================================================

    /**
     * Receive path: sends the standalone acknowledgements that are due ({@code drained}: the socket is empty, so a
     * delayed one need wait no longer); returns whether some are still pending.
     */
    boolean flushAcks(long now, boolean drained) {
        boolean pending = false;
        for (Peer p : peers) {
            if (p.unackedSince < 0 || p.isDead()) {
                continue;
            }
            if (!p.ackNow && p.ackCarried == p.ackCum && p.receive.heldCount() == 0) {
                p.unackedSince = -1; // data we sent meanwhile carried it
                p.unackedCount = 0;
                continue;
            }
            if (p.ackNow || p.unackedCount >= ACK_EVERY || (drained && now - p.unackedSince >= ackDelayNanos)) {
                sendAcknowledgement(p, DatagramType.ACK, now);
            } else {
                pending = true;
            }
        }
        return pending;
    }

    /** Receive path: a HEARTBEAT to {@code p} (another rank) if nothing was sent to it for a heartbeat period. */
    void heartbeatIfDue(Peer p, long now) {
        if (now - p.lastSentNanos >= heartbeatNanos) {
            sendAcknowledgement(p, DatagramType.HEARTBEAT, now);
        }
    }

    /**
     * The heartbeat timer thread, while the receive path may be stuck (a handler call that lasts): a HEARTBEAT, with
     * the acknowledgement state last published, to each live peer nothing was sent to for one and a half periods.
     * It never touches the receive path's state.
     */
    void heartbeatsWhileStuck(long now) {
        long late = heartbeatNanos + heartbeatNanos / 2;
        for (Peer p : peers) {
            if (!lifecycle.isRunning()) {
                return;
            }
            if (p.rank == self.rank() || p.isDead() || now - p.lastSentNanos < late) {
                continue;
            }
            p.lock.lock();
            try {
                if (!p.isDead() && now - p.lastSentNanos >= late) { // a sender may have gone first
                    sendControlLocked(p, DatagramType.HEARTBEAT, now);
                    counters.add(Counters.HEARTBEATS_WHILE_STUCK);
                }
            } finally {
                p.lock.unlock();
            }
        }
    }

    /** Receive path: an ACK or HEARTBEAT, which carries every acknowledgement due to {@code p}. */
    void sendAcknowledgement(Peer p, int type, long now) {
        sendControl(p, type, now);
        p.unackedSince = -1;
        p.unackedCount = 0;
        p.ackNow = false;
    }

    /**
     * An ACK, HEARTBEAT, BYE or DEAD_NOTICE to {@code p}, with the acknowledgement state last published. Any thread:
     * built in {@code p}'s send buffer under {@code p}'s lock, like data.
     */
    void sendControl(Peer p, int type, long now) {
        p.lock.lock();
        try {
            sendControlLocked(p, type, now);
        } finally {
            p.lock.unlock();
        }
    }

    /** {@link #sendControl}; the caller holds {@code p.lock}. */
    private void sendControlLocked(Peer p, int type, long now) {
        ByteBuffer b = p.sendBuffer;
        DatagramHeader.write(b, type, 0, self.jobTag(), self.rank(), p.rank, 0, self.incarnation(), p.incarnation,
                datagramCounter.getAndIncrement(), 0, 0, 0, 0, 0, 0, 0, 0);
        long cum = p.putAck(b);
        DatagramHeader.duplicate(b, DatagramHeader.duplicateDistance(cum, p.duplicateToReport.getAndSet(-1)));
        p.sendCodec.seal(b, DatagramHeader.LENGTH);
        p.ackCarried = cum;
        p.lastSentNanos = now;
        try {
            io.send(b, DatagramHeader.LENGTH, p.address());
            counters.add(Counters.DATAGRAMS_SENT);
            counters.add(switch (type) {
                case DatagramType.HEARTBEAT -> Counters.HEARTBEATS_SENT;
                case DatagramType.DEAD_NOTICE -> Counters.DEAD_NOTICES_SENT;
                default -> Counters.ACKS_SENT;
            });
        } catch (IOException e) {
            counters.add(Counters.SEND_ERRORS);
        }
    }

    // ==== failure ================================================================================

    /**
     * {@code p} is declared dead: its state moves to {@link Peer.State#DEAD}, every pending and queued send to it is
     * failed and waiting senders are released. Returns the completions to report (after the upper layer heard).
     */
    CompletionList declareDead(Peer p) {
        CompletionList failed = new CompletionList(p.send, p.bound, true);
        p.lock.lock();
        try {
            p.state(Peer.State.DEAD);
            p.send.abandon(failed);
            p.bound.wakeAll();
        } finally {
            p.lock.unlock();
        }
        return failed;
    }

    /** Every pending and queued send to {@code p} completes false (the endpoint closes or fails); waiters go. */
    void abandon(Peer p) {
        CompletionList failed = new CompletionList(p.send, p.bound, true);
        p.lock.lock();
        try {
            p.send.abandon(failed);
            p.bound.wakeAll();
        } finally {
            p.lock.unlock();
        }
        failed.dispatch(upper);
    }
}
