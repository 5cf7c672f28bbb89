package org.portals3j.transport.udp.internal.endpoint;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.udp.UdpOptions;
import org.portals3j.transport.udp.internal.io.DatagramIo;
import org.portals3j.transport.udp.internal.io.PooledBuffer;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * The receiving side of the protocol: takes a datagram off the socket, authenticates it, drops replays, acts on it
 * by type, deposits DATA in order and notes the acknowledgements owed. Run by whichever thread holds the receive path.
 */
final class DatagramReceiver {
    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());

    private final EndpointIdentity self;
    private final Peer[] peers;
    private final DatagramIo io;
    /** Checks received datagrams (each peer has its own codec for what is sent to it). */
    private final DatagramCodec codec;
    private final Counters counters;
    private final EndpointLifecycle lifecycle;
    private final UpperLayer upper;
    private final DatagramSender sender;
    private final NanoClock clock;
    private final int datagramSize;
    private final long heartbeatNanos;
    private final long peerTimeoutMillis;
    private final ArrayDeque<PooledBuffer> pool = new ArrayDeque<>();
    private final MemorySegment headerScratch = MemorySegment.ofArray(new byte[UdpEndpoint.MAX_HEADER]);

    DatagramReceiver(EndpointIdentity self, Peer[] peers, DatagramIo io, DatagramCodec codec, Counters counters,
                     EndpointLifecycle lifecycle, UpperLayer upper, DatagramSender sender, NanoClock clock,
                     int datagramSize, long heartbeatNanos, long peerTimeoutMillis) {
        this.self = self;
        this.peers = peers;
        this.io = io;
        this.codec = codec;
        this.counters = counters;
        this.lifecycle = lifecycle;
        this.upper = upper;
        this.sender = sender;
        this.clock = clock;
        this.datagramSize = datagramSize;
        this.heartbeatNanos = heartbeatNanos;
        this.peerTimeoutMillis = peerTimeoutMillis;
    }

    /**
     * Takes one datagram off the socket and acts on it; false if none was waiting (or the receive failed). No input
     * throws out of here: what fails a check is dropped and counted.
     */
    boolean receiveOne() {
        PooledBuffer buf = takeBuffer();
        boolean got;
        try {
            got = io.receive(buf);
        } catch (IOException e) {
            got = false;
            if (lifecycle.isRunning()) {
                counters.addOnReceivePath(Counters.DROP_MALFORMED);
                LOG.log(System.Logger.Level.DEBUG, "rank " + self.rank() + ": receive failed", e);
            }
        }
        if (!got) {
            giveBuffer(buf);
            return false;
        }
        counters.addOnReceivePath(Counters.DATAGRAMS_RECEIVED);
        boolean kept;
        try {
            kept = handle(buf, clock.nanoTime());
        } catch (RuntimeException e) {
            // hostile or broken input must never stop the endpoint
            counters.addOnReceivePath(Counters.DROP_MALFORMED);
            kept = false;
        }
        if (!kept) {
            giveBuffer(buf);
        }
        return true;
    }

    private PooledBuffer takeBuffer() {
        PooledBuffer b = pool.pollFirst();
        return b != null ? b : new PooledBuffer(datagramSize);
    }

    private void giveBuffer(PooledBuffer b) {
        pool.addFirst(b); // LIFO: the buffer just used is warm in the cache
    }

    /**
     * Validates one datagram (length/magic/version, CRC, MAC, then every field, then the replay window) and acts on
     * it. Returns whether the buffer was kept (held for in-order delivery).
     */
    private boolean handle(PooledBuffer pb, long now) {
        ByteBuffer b = pb.buffer;
        int length = b.limit();
        switch (codec.check(b, length)) {
            case SHORT -> {
                counters.addOnReceivePath(Counters.DROP_SHORT);
                return false;
            }
            case MAGIC -> {
                counters.addOnReceivePath(Counters.DROP_MAGIC);
                return false;
            }
            case VERSION -> {
                counters.addOnReceivePath(Counters.DROP_VERSION);
                return false;
            }
            case CRC -> {
                counters.addOnReceivePath(Counters.DROP_CRC);
                return false;
            }
            case MAC -> {
                counters.addOnReceivePath(Counters.DROP_MAC);
                return false;
            }
            case OK -> {
                // authenticated: the fields can be looked at
            }
        }
        if (DatagramHeader.jobTag(b) != self.jobTag()) {
            counters.addOnReceivePath(Counters.DROP_JOB);
            return false;
        }
        int source = DatagramHeader.source(b);
        if (source < 0 || source >= self.size() || DatagramHeader.destination(b) != self.rank()) {
            counters.addOnReceivePath(Counters.DROP_MALFORMED);
            return false;
        }
        Peer p = peers[source];
        if (DatagramHeader.sourceIncarnation(b) != p.incarnation
                || DatagramHeader.destinationIncarnation(b) != self.incarnation()) {
            counters.addOnReceivePath(Counters.DROP_INCARNATION);
            return false;
        }
        int type = DatagramHeader.type(b);
        int bodyLength = length - DatagramHeader.LENGTH;
        if (!wellFormed(b, type, bodyLength)) {
            counters.addOnReceivePath(Counters.DROP_MALFORMED);
            return false;
        }
        if (!p.replay.accept(DatagramHeader.counter(b))) {
            // a replay, or older than the window: only provably new datagrams are acted on (liveness included)
            counters.addOnReceivePath(Counters.DROP_REPLAY);
            return false;
        }
        if (p.isDead()) {
            counters.addOnReceivePath(Counters.DROP_DEAD_PEER);
            if (type != DatagramType.BYE && type != DatagramType.DEAD_NOTICE && p.rank != self.rank()) {
                noticeDead(p, now);
            }
            return false;
        }
        long cumAck = DatagramHeader.cumAck(b);
        if (!sender.onAcknowledgement(p, cumAck, DatagramHeader.sack(b), DatagramHeader.failed(b),
                DatagramHeader.window(b), DatagramHeader.duplicateSeq(cumAck, DatagramHeader.duplicate(b)), now)) {
            counters.addOnReceivePath(Counters.DROP_MALFORMED);
            return false;
        }
        p.lastHeardNanos = now;
        return switch (type) {
            case DatagramType.DATA -> receiveData(p, pb, now);
            case DatagramType.BYE -> {
                failPeer(p);
                yield false;
            }
            case DatagramType.DEAD_NOTICE -> {
                counters.addOnReceivePath(Counters.DEAD_NOTICES_RECEIVED);
                LOG.log(System.Logger.Level.WARNING, "rank " + self.rank() + ": rank " + p.rank + " declared this rank"
                        + " dead: it heard nothing from it for longer than its " + UdpOptions.PEER_TIMEOUT_MILLIS + " ("
                        + peerTimeoutMillis + " ms here), so this process was stopped, paused or cut off"
                        + " for that long; rank " + p.rank + " drops this rank's datagrams, failing it");
                failPeer(p);
                yield false;
            }
            default -> false; // ACK, HEARTBEAT: the acknowledgement and the sign of life were all
        };
    }

    /**
     * {@code p}, declared dead here, sent a provably new datagram, so it runs again (it was stopped or cut off for
     * longer than the timeout); tell it, at most once a heartbeat period, so that it fails this rank at once rather
     * than after its own timeout.
     */
    private void noticeDead(Peer p, long now) {
        boolean told = p.state() == Peer.State.TOLD_DEAD;
        if (told && now - p.lastNoticeNanos < heartbeatNanos) {
            return;
        }
        if (!told) {
            LOG.log(System.Logger.Level.INFO, "rank " + self.rank() + ": rank " + p.rank + ", declared dead, sends"
                    + " again; telling it so");
            p.lock.lock();
            try {
                p.state(Peer.State.TOLD_DEAD);
            } finally {
                p.lock.unlock();
            }
        }
        p.lastNoticeNanos = now;
        sender.sendControl(p, DatagramType.DEAD_NOTICE, now);
    }

    /** Field checks that need no connection state. */
    private static boolean wellFormed(ByteBuffer b, int type, int bodyLength) {
        int flags = DatagramHeader.flags(b);
        if (!DatagramType.isKnown(type) || (flags & ~DatagramHeader.KNOWN_FLAGS) != 0
                || DatagramHeader.bodyLength(b) != bodyLength || DatagramHeader.window(b) < 0
                || DatagramHeader.cumAck(b) < 0) {
            return false;
        }
        if (type != DatagramType.DATA) {
            return flags == 0 && bodyLength == 0;
        }
        long seq = DatagramHeader.seq(b);
        long messageLength = DatagramHeader.messageLength(b);
        long offset = DatagramHeader.fragmentOffset(b);
        int headerLength = DatagramHeader.messageHeaderLength(b);
        boolean first = (flags & DatagramHeader.FLAG_FIRST) != 0;
        boolean last = (flags & DatagramHeader.FLAG_LAST) != 0;
        boolean abort = (flags & DatagramHeader.FLAG_ABORT) != 0;
        if (seq < 0 || messageLength < 0 || messageLength > UdpEndpoint.MAX_PAYLOAD || offset < 0
                || offset > messageLength) {
            return false;
        }
        if (first ? (headerLength > UdpEndpoint.MAX_HEADER || headerLength > bodyLength || offset != 0)
                : headerLength != 0) {
            return false;
        }
        long data = bodyLength - headerLength;
        if (abort) {
            return data == 0;
        }
        if (data > messageLength - offset) {
            return false;
        }
        return last == (offset + data == messageLength) && (last || data > 0);
    }

    /** A DATA datagram: into the receive window, delivered in order, with the acknowledgements it makes owed. */
    private boolean receiveData(Peer p, PooledBuffer pb, long now) {
        long seq = DatagramHeader.seq(pb.buffer);
        if (p.unackedSince < 0) {
            p.unackedSince = now;
        }
        p.unackedCount++;
        boolean kept;
        switch (p.receive.offer(seq, true)) {
            case DUPLICATE -> {
                counters.addOnReceivePath(Counters.DROP_DUPLICATE);
                if (p.duplicateToReport.get() >= 0) {
                    // each duplicate is reported once: the last one goes now
                    sender.sendControl(p, DatagramType.ACK, now);
                    p.unackedSince = now;
                }
                p.duplicateToReport.set(seq); // the sender learns that its retransmission was not needed
                p.ackNow = true;
                return false;
            }
            case OUT_OF_WINDOW -> {
                counters.addOnReceivePath(Counters.DROP_WINDOW);
                p.ackNow = true;
                return false;
            }
            case DIRECT -> {
                p.receive.consumedDirect();
                publishAck(p); // before delivery: a reply sent from the handler carries this acknowledgement
                deliver(p, pb);
                kept = false;
            }
            default -> {
                p.receive.hold(seq, pb);
                publishAck(p);
                kept = true;
            }
        }
        PooledBuffer next;
        while ((next = p.receive.takeDeliverable()) != null) {
            deliver(p, next);
            if (next != pb) {
                giveBuffer(next);
            } else {
                kept = false;
            }
        }
        publishAck(p);
        if (p.receive.heldCount() > 0) {
            p.ackNow = true; // a gap: tell the sender at once so it can retransmit fast
        }
        return kept;
    }

    /** Makes the receive window's acknowledgement state visible to threads that piggyback it. */
    private static void publishAck(Peer p) {
        long cum = p.receive.cumAck();
        long failed = 0;
        for (long f : p.failedSeqs) {
            long below = cum - 1 - f;
            if (f >= 0 && below >= 0 && below < Long.SIZE) {
                failed |= 1L << below;
            }
        }
        p.publishAck(cum, p.receive.sack(), failed, p.receive.window());
    }

    /** Processes one in-order fragment: header phase, direct deposit, completion. */
    private void deliver(Peer p, PooledBuffer pb) {
        ByteBuffer b = pb.buffer;
        int flags = DatagramHeader.flags(b);
        long messageLength = DatagramHeader.messageLength(b);
        long offset = DatagramHeader.fragmentOffset(b);
        int headerLength = DatagramHeader.messageHeaderLength(b);
        int data = b.limit() - DatagramHeader.LENGTH - headerLength;
        DepositWriter writer = p.deposit;
        Deposit deposit = writer.deposit();
        if ((flags & DatagramHeader.FLAG_FIRST) != 0) {
            if (p.inMessage) {
                // the peer started a message before ending the last: a broken sender; fail the old one
                counters.addOnReceivePath(Counters.DROP_MALFORMED);
                writer.fail();
                finish(p);
            }
            MemorySegment.copy(pb.segment, DatagramHeader.LENGTH, headerScratch, 0, headerLength);
            writer.reset();
            p.inMessage = true;
            p.messageLength = messageLength;
            p.messageNext = 0;
            p.messageFailed = false;
            if (!upper.onHeader(p.rank, headerScratch, headerLength, messageLength, deposit)) {
                deposit.discard();
            }
        } else if (!p.inMessage || messageLength != p.messageLength || (!p.messageFailed && offset != p.messageNext)) {
            counters.addOnReceivePath(Counters.DROP_MALFORMED);
            if (p.inMessage) {
                writer.fail();
                finish(p);
            }
            return;
        }
        if ((flags & DatagramHeader.FLAG_ABORT) != 0) {
            p.messageFailed = true;
            writer.fail();
        } else if (data > 0 && deposit.accepted() && !deposit.failed() && offset < deposit.length()) {
            long n = Math.min(data, deposit.length() - offset);
            try {
                MemorySegment.copy(pb.segment, DatagramHeader.LENGTH + headerLength, deposit.segment(),
                        deposit.offset() + offset, n);
                writer.addDeposited(n);
            } catch (IllegalStateException | WrongThreadException | IndexOutOfBoundsException
                     | UnsupportedOperationException e) {
                writer.fail(); // the destination memory went away or is read-only
            }
        }
        p.messageNext = offset + data;
        if ((flags & DatagramHeader.FLAG_LAST) != 0) {
            if (deposit.failed()) {
                // tell the sender, in every acknowledgement that covers this fragment, that its send failed
                p.failedSeqs[p.failedNext] = DatagramHeader.seq(b);
                p.failedNext = (p.failedNext + 1) % p.failedSeqs.length;
                publishAck(p);
            }
            finish(p);
        }
    }

    private void finish(Peer p) {
        p.inMessage = false;
        counters.addOnReceivePath(Counters.MESSAGES_RECEIVED);
        upper.onDeposited(p.rank, p.deposit.deposit());
    }

    /** A message from {@code p} left half-received ends now, failed (exactly one onDeposited). */
    void finishPartial(Peer p) {
        if (p.inMessage) {
            p.deposit.fail();
            finish(p);
        }
    }

    /**
     * Declares {@code p} dead, once: what is pending to it and half received from it fails, the buffers held for it
     * go back to the pool, and the upper layer hears of it (unless the endpoint closed) before the failed sends.
     */
    void failPeer(Peer p) {
        if (p.isDead()) {
            return;
        }
        CompletionList failed = sender.declareDead(p);
        counters.addOnReceivePath(Counters.PEERS_FAILED);
        finishPartial(p);
        p.receive.releaseAll(this::giveBuffer);
        p.unackedSince = -1;
        if (!lifecycle.isClosed()) {
            upper.onPeerFailure(p.rank);
        }
        failed.dispatch(upper);
    }
}
