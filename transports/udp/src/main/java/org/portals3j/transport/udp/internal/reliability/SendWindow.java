package org.portals3j.transport.udp.internal.reliability;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The sending half of one peer connection: the queue of messages not yet fully cut into fragments,
 * the in-flight fragments (sequence numbers {@code [una, nextSeq)}) with their send times, and the
 * limits on how many may be in flight: the receiver's advertised window (flow control: a fast sender
 * cannot overrun a slow receiver) and a congestion window that halves on loss (the kernel socket buffer
 * is small, and overrunning it is what loses datagrams on a local network).
 *
 * <p>Not thread-safe: the endpoint guards it with the peer's lock.
 */
public final class SendWindow {
    /** Selective acknowledgements after a hole before the hole counts as lost (as TCP's three dup-acks). */
    public static final int DUP_THRESHOLD = 3;
    public static final int MIN_CWND = 4;

    /** A fragment in flight. */
    public static final class Slot {
        public @Nullable OutgoingMessage message;
        public long seq;
        public long fragmentOffset;
        public int fragmentLength;
        public int flags;
        public long sentNanos;
        public int transmissions;
        public boolean sacked;
        /** Retransmitted for a SACK-detected loss in the current recovery episode. */
        public boolean fastRetransmitted;
    }

    private final int capacity;
    private final int bodyCapacity;
    private final Slot[] slots;
    private final int maxHeaderLength;
    private @Nullable OutgoingMessage queueHead;
    private @Nullable OutgoingMessage queueTail;
    private @Nullable OutgoingMessage free;
    private int queued;
    private long nextSeq;
    private long una;
    private long peerWindow;
    private long highestSacked = -1;
    private int cwnd;
    private int ssthresh;
    private int growthCredit;
    private long recoveryEnd = -1;

    /**
     * @param capacity     most fragments in flight (the configured window)
     * @param bodyCapacity body bytes per datagram
     * @param initialPeerWindow assumed receiver window until the peer advertises its own
     */
    public SendWindow(int capacity, int bodyCapacity, int maxHeaderLength, int initialCwnd, int initialPeerWindow) {
        this.capacity = capacity;
        this.bodyCapacity = bodyCapacity;
        this.maxHeaderLength = maxHeaderLength;
        this.slots = new Slot[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = new Slot();
        }
        this.cwnd = Math.max(MIN_CWND, Math.min(initialCwnd, capacity));
        this.ssthresh = capacity;
        this.peerWindow = initialPeerWindow;
    }

    // ---- the message queue -----------------------------------------------------------------

    /** A message object from the pool (allocated only while the pool grows to its working size). */
    public OutgoingMessage allocate() {
        OutgoingMessage m = free;
        if (m != null) {
            free = m.next;
            m.next = null;
            return m;
        }
        return new OutgoingMessage(maxHeaderLength);
    }

    public void release(OutgoingMessage m) {
        m.clear();
        m.next = free;
        free = m;
    }

    public void enqueue(OutgoingMessage m) {
        m.next = null;
        OutgoingMessage tail = queueTail;
        if (tail == null) {
            queueHead = m;
        } else {
            tail.next = m;
        }
        queueTail = m;
        queued++;
    }

    /** Messages waiting to be (fully) fragmented. */
    public int queued() {
        return queued;
    }

    /** Removes and returns the queue head (used when failing everything). */
    public @Nullable OutgoingMessage pollQueued() {
        OutgoingMessage m = queueHead;
        if (m != null) {
            queueHead = m.next;
            if (queueHead == null) {
                queueTail = null;
            }
            m.next = null;
            queued--;
        }
        return m;
    }

    // ---- transmission ----------------------------------------------------------------------

    public long nextSeq() {
        return nextSeq;
    }

    public long una() {
        return una;
    }

    public long inFlight() {
        return nextSeq - una;
    }

    public int cwnd() {
        return cwnd;
    }

    public long peerWindow() {
        return peerWindow;
    }

    /** Whether the next fragment may go out now: something is queued and every window has room. */
    public boolean canTransmitNew() {
        return queueHead != null && inFlight() < Math.min(cwnd, capacity) && nextSeq < una + peerWindow;
    }

    /**
     * Cuts the next fragment of the queue head, gives it the next sequence number and returns its slot
     * (the caller fills the datagram from it and records the send). Call only when
     * {@link #canTransmitNew()}.
     */
    public Slot cutNext() {
        OutgoingMessage m = queueHead;
        if (m == null) {
            throw new IllegalStateException("nothing queued");
        }
        int length = Fragmenter.nextLength(m, bodyCapacity);
        int flags = 0;
        if (!m.started) {
            flags |= 1; // DatagramHeader.FLAG_FIRST; the wire constants stay in the wire package
            m.started = true;
        }
        Slot s = slots[(int) (nextSeq % capacity)];
        s.message = m;
        s.seq = nextSeq;
        s.fragmentOffset = m.fragmented;
        s.fragmentLength = length;
        m.fragmented += length;
        if (m.fragmented == m.payloadLength) {
            flags |= 2; // FLAG_LAST
            pollQueued();
        }
        s.flags = flags;
        s.transmissions = 0;
        s.sacked = false;
        s.fastRetransmitted = false;
        s.sentNanos = 0;
        nextSeq++;
        return s;
    }

    /** The in-flight slot of {@code seq}; {@code una <= seq < nextSeq}. */
    public Slot slot(long seq) {
        if (seq < una || seq >= nextSeq) {
            throw new IllegalArgumentException("seq " + seq + " is not in flight [" + una + ", " + nextSeq + ")");
        }
        return slots[(int) (seq % capacity)];
    }

    // ---- acknowledgements ------------------------------------------------------------------

    /** Receives completed messages while an acknowledgement is processed. */
    public interface CompletionSink {
        void completed(OutgoingMessage message);
    }

    /**
     * Whether acknowledgement fields are consistent with what was sent: a peer cannot acknowledge a
     * sequence number we never used.
     */
    public boolean plausible(long cumAck, long window) {
        return cumAck >= 0 && cumAck <= nextSeq && window >= 0;
    }

    /**
     * Applies an acknowledgement: everything below {@code cumAck} was received, bit {@code i} of
     * {@code sack} says {@code cumAck + 1 + i} was received, and the receiver has room up to
     * {@code cumAck + window}. Messages whose last fragment is now acknowledged go to {@code sink}
     * (in order), marked failed when {@code failed} says the receiver could not deposit them (bit
     * {@code i}: the message ending at {@code cumAck - 1 - i}); the RTT of a once-sent datagram goes to
     * {@code rtt} (Karn's rule).
     *
     * @return the number of fragments newly acknowledged (cumulatively or selectively)
     */
    public int onAck(long cumAck, long sack, long failed, long window, long now, RttEstimator rtt,
                     CompletionSink sink) {
        int newly = 0;
        if (cumAck > una) {
            Slot last = slots[(int) ((cumAck - 1) % capacity)];
            if (last.transmissions == 1 && !last.sacked) {
                rtt.sample(now - last.sentNanos);
            }
            for (long s = una; s < cumAck; s++) {
                Slot slot = slots[(int) (s % capacity)];
                if (!slot.sacked) {
                    newly++;
                }
                OutgoingMessage m = slot.message;
                slot.message = null;
                if (m != null && (slot.flags & 2) != 0) {
                    long below = cumAck - 1 - s;
                    if (below < Long.SIZE && (failed & (1L << below)) != 0) {
                        m.failed = true;
                    }
                    sink.completed(m);
                }
            }
            una = cumAck;
        }
        if (cumAck == una) {
            // a stale ack (reordered behind a newer one) must not shrink what we know of the window
            peerWindow = window;
        }
        for (long bits = sack; bits != 0; bits &= bits - 1) {
            long s = cumAck + 1 + Long.numberOfTrailingZeros(bits);
            if (s >= una && s < nextSeq) {
                Slot slot = slots[(int) (s % capacity)];
                if (!slot.sacked) {
                    slot.sacked = true;
                    newly++;
                }
                highestSacked = Math.max(highestSacked, s);
            }
        }
        if (highestSacked < una) {
            highestSacked = -1;
        }
        grow(newly);
        return newly;
    }

    private void grow(int acked) {
        for (int i = 0; i < acked && cwnd < capacity; i++) {
            if (cwnd < ssthresh) {
                cwnd++; // slow start: one more per acknowledged datagram
            } else if (++growthCredit >= cwnd) {
                growthCredit = 0;
                cwnd++; // congestion avoidance: one more per window
            }
        }
    }

    /**
     * The next fragment that selective acknowledgements show lost (at least {@link #DUP_THRESHOLD}
     * later ones arrived) and that was not yet retransmitted for it, or -1. The first loss of a
     * recovery episode halves the congestion window.
     */
    public long nextFastRetransmit() {
        if (highestSacked < 0) {
            return -1;
        }
        for (long s = una; s <= highestSacked - DUP_THRESHOLD; s++) {
            Slot slot = slots[(int) (s % capacity)];
            if (!slot.sacked && !slot.fastRetransmitted) {
                slot.fastRetransmitted = true;
                if (una > recoveryEnd) {
                    ssthresh = Math.max(MIN_CWND, cwnd / 2);
                    cwnd = ssthresh;
                    recoveryEnd = nextSeq;
                }
                return s;
            }
        }
        return -1;
    }

    /**
     * The oldest in-flight fragment not selectively acknowledged whose timer ({@code rto} after its last
     * transmission) expired at {@code now}, starting at {@code from}; or -1.
     */
    public long nextExpired(long from, long now, long rto) {
        for (long s = Math.max(from, una); s < nextSeq; s++) {
            Slot slot = slots[(int) (s % capacity)];
            if (!slot.sacked && now - slot.sentNanos >= rto) {
                return s;
            }
        }
        return -1;
    }

    /** When the earliest retransmission timer of this window fires (Long.MAX_VALUE if none runs). */
    public long nextDeadline(long rto) {
        long deadline = Long.MAX_VALUE;
        for (long s = una; s < nextSeq; s++) {
            Slot slot = slots[(int) (s % capacity)];
            if (!slot.sacked) {
                deadline = Math.min(deadline, slot.sentNanos + rto);
            }
        }
        return deadline;
    }

    /** A retransmission timeout: collapse the congestion window (the path is worse than we thought). */
    public void onTimeout() {
        ssthresh = Math.max(MIN_CWND, cwnd / 2);
        cwnd = MIN_CWND;
        recoveryEnd = nextSeq;
    }

    /**
     * Empties the window (the peer is dead or we are closing): every message that has a fragment in
     * flight or queued goes to {@code sink} once.
     */
    public void abandon(CompletionSink sink) {
        for (long s = una; s < nextSeq; s++) {
            Slot slot = slots[(int) (s % capacity)];
            OutgoingMessage m = slot.message;
            slot.message = null;
            if (m != null && (slot.flags & 2) != 0) {
                sink.completed(m);
            }
        }
        una = nextSeq;
        highestSacked = -1;
        OutgoingMessage m;
        while ((m = pollQueued()) != null) {
            sink.completed(m);
        }
    }
}
