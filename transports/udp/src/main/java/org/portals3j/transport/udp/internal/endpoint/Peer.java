package org.portals3j.transport.udp.internal.endpoint;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.checkerframework.checker.nullness.qual.MonotonicNonNull;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.udp.internal.reliability.ReceiveWindow;
import org.portals3j.transport.udp.internal.reliability.ReplayWindow;
import org.portals3j.transport.udp.internal.reliability.RttEstimator;
import org.portals3j.transport.udp.internal.reliability.SendWindow;
import org.portals3j.transport.udp.internal.wire.AesGcmMac;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;

/**
 * Everything one endpoint knows about one peer (its own rank included: self-sends go through the socket like any
 * other), and the peer's lifecycle ({@link State}). Preallocated at open: the steady state allocates nothing.
 *
 * <p>Guarded by {@link #lock}: the send window, {@link #rtt}, the send buffer and codec (send() runs on
 * application threads, acknowledgements and retransmissions on the protocol thread), changes of {@link #state()}.
 * Owned by the receive path: the receive window, the deposit and the message-in-progress fields, liveness times.
 * Volatile: what the receive path publishes for the senders' piggybacked acknowledgements, and the state.
 */
final class Peer {
    /** In order: a state once left is never entered again (fail-stop: a dead peer is never readmitted). */
    enum State {
        /** Sends to it are accepted, its datagrams acted on. */
        ALIVE,
        /**
         * The receive path sent it more than it may beyond the send bound (it sends requests and takes none of the
         * responses): sends to it fail, and the receive path declares it dead at its next round of timers.
         */
        OVERRUN,
        /** Declared dead: what was under way to and from it failed, later sends fail, its datagrams are dropped. */
        DEAD,
        /** Dead, and it sent again (it was stopped, not gone): it is told so, at most once a heartbeat period. */
        TOLD_DEAD;

        /** Whether {@code next} directly follows this state. */
        boolean leadsTo(State next) {
            return switch (this) {
                case ALIVE -> next == OVERRUN || next == DEAD;
                case OVERRUN -> next == DEAD;
                case DEAD -> next == TOLD_DEAD;
                case TOLD_DEAD -> false;
            };
        }
    }


    /** Datagrams longer than this are built in {@link #bulkSendBuffer}, for a MAC that wants it (AES-GCM). */
    static final int BULK_ABOVE = AesGcmMac.HEAP_ABOVE;

    final int rank;
    final ReentrantLock lock = new ReentrantLock();
    final SendWindow send;
    final RttEstimator rtt;
    /** Where datagrams of up to {@link #BULK_ABOVE} bytes are built: direct, so the socket takes it as is. */
    final ByteBuffer sendBuffer;
    final MemorySegment sendSegment;
    /**
     * Where longer datagrams are built: a heap buffer, since their MAC (AES-GCM) is much faster on a Java array
     * (docs/udp-notes.md). Null when the datagram size does not exceed {@link #BULK_ABOVE}, or when the MAC is as
     * fast on the direct buffer (which the socket takes without a copy).
     */
    final @Nullable ByteBuffer bulkSendBuffer;
    final @Nullable MemorySegment bulkSendSegment;
    final DatagramCodec sendCodec;
    /** Protocol-thread completions of this peer's sends. */
    final CompletionList completions;
    /** Messages to it not yet acknowledged, against {@code udp.sendQueueMessages} and {@code udp.sendQueueBytes}. */
    final SendBound bound;

    @MonotonicNonNull InetSocketAddress address;
    long incarnation;

    // ---- protocol thread -----
    final ReceiveWindow receive;
    /** The datagram counters accepted from this peer: each is acted on once. */
    final ReplayWindow replay = new ReplayWindow();
    final DepositWriter deposit = new DepositWriter();
    boolean inMessage;
    long messageLength;
    long messageNext;
    boolean messageFailed;
    long lastHeardNanos;
    /** When it was last told it is dead ({@link State#TOLD_DEAD}). */
    long lastNoticeNanos;
    /** When received data first went unacknowledged, or -1. */
    long unackedSince = -1;
    int unackedCount;
    /** A duplicate arrived: the peer missed an acknowledgement, send one without delay. */
    boolean ackNow;
    /**
     * The sequence number of a duplicate the next standalone acknowledgement reports (D-SACK), or -1: set by the
     * receive path only, taken (swapped for -1) by whichever thread sends that acknowledgement.
     */
    final AtomicLong duplicateToReport = new AtomicLong(-1);

    // ---- published acknowledgement state (written by the protocol thread, see publishAck) -----
    volatile long ackCum;
    private volatile long ackSack;
    /** The cumulative ack of the publication in progress (or the last one): the version of a seqlock. */
    private volatile long ackPublishing;
    /**
     * Protocol thread: the last fragments of the most recent messages from this peer whose deposit failed
     * here (a ring); reported to the peer in the FAILED bits of every acknowledgement while they are within
     * 64 of the cumulative ack.
     */
    final long[] failedSeqs = new long[8];
    int failedNext;
    /** The FAILED bits for {@link #ackCum}, published with it. */
    private volatile long ackFailed;
    private volatile long ackWindow;
    /** The cumulative acknowledgement the last datagram to this peer carried. */
    volatile long ackCarried = -1;
    volatile long lastSentNanos;
    private volatile State state = State.ALIVE;

    /**
     * @param window        most fragments in flight to this peer (the configured window)
     * @param receiveWindow most fragments this end lets the peer have in flight towards it (advertised)
     */
    Peer(int rank, int window, int receiveWindow, int datagramSize, int bodyCapacity, int maxHeaderLength,
         DatagramCodec sendCodec, RttEstimator rtt, long maxQueuedMessages, long maxQueuedBytes) {
        this.rank = rank;
        this.send = new SendWindow(window, bodyCapacity, maxHeaderLength, Math.min(window, 64), 16);
        this.rtt = rtt;
        this.sendBuffer = ByteBuffer.allocateDirect(datagramSize + DatagramHeader.TRAILER_ROOM)
                .order(ByteOrder.LITTLE_ENDIAN);
        this.sendSegment = MemorySegment.ofBuffer(sendBuffer);
        if (datagramSize > BULK_ABOVE && sendCodec.mac().sealsFasterOnArrays()) {
            this.bulkSendBuffer = ByteBuffer.allocate(datagramSize + DatagramHeader.TRAILER_ROOM)
                    .order(ByteOrder.LITTLE_ENDIAN);
            this.bulkSendSegment = MemorySegment.ofBuffer(bulkSendBuffer);
        } else {
            this.bulkSendBuffer = null;
            this.bulkSendSegment = null;
        }
        this.sendCodec = sendCodec;
        this.receive = new ReceiveWindow(receiveWindow);
        this.ackWindow = receiveWindow;
        this.bound = new SendBound(lock, maxQueuedMessages, maxQueuedBytes);
        this.completions = new CompletionList(send, bound, false);
        Arrays.fill(failedSeqs, -1L);
    }

    /**
     * Receive path: publishes the acknowledgement state that every datagram to this peer carries. A seqlock whose
     * version is the cumulative ack (it never decreases): {@link #putAck} never mixes two publications' fields.
     */
    void publishAck(long cum, long sack, long failed, long window) {
        ackPublishing = cum; // before the fields: a reader that sees one of them sees this
        ackFailed = failed;
        ackSack = sack;
        ackWindow = window;
        ackCum = cum;
    }

    /**
     * Any thread: writes the published acknowledgement state into the header in {@code b}, the fields of one
     * publication (bits relative to another publication's cumulative ack would acknowledge data never received);
     * returns the cumulative ack written. Publications with the same cumulative ack only add selective bits, so
     * mixing two of them is harmless.
     */
    long putAck(ByteBuffer b) {
        long cum;
        long sack;
        long failed;
        long window;
        do {
            cum = ackCum;
            sack = ackSack;
            failed = ackFailed;
            window = ackWindow;
        } while (ackPublishing != cum);
        DatagramHeader.writeAcknowledgement(b, (int) window, cum, sack, failed);
        return cum;
    }

    State state() {
        return state;
    }

    /** Whether sends to it are accepted ({@link State#ALIVE}). */
    boolean isAlive() {
        return state == State.ALIVE;
    }

    /** Whether it was declared dead ({@link State#DEAD} or {@link State#TOLD_DEAD}). */
    boolean isDead() {
        return state.compareTo(State.DEAD) >= 0;
    }

    /**
     * The one transition of the peer's lifecycle; the caller holds {@link #lock}.
     *
     * @throws IllegalStateException if {@code next} does not directly follow the current state (a bug)
     */
    void state(State next) {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("peer " + rank + ": state change to " + next + " without its lock");
        }
        State current = state;
        if (!current.leadsTo(next)) {
            throw new IllegalStateException("peer " + rank + ": no transition from " + current + " to " + next);
        }
        state = next;
    }

    InetSocketAddress address() {
        InetSocketAddress a = address;
        if (a == null) {
            throw new IllegalStateException("peer " + rank + " has no address before start()");
        }
        return a;
    }
}
