package org.portals3j.transport.udp.internal.reliability;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The sending half of one peer connection: the queue of messages not yet fully cut into fragments,
 * the in-flight fragments (sequence numbers {@code [una, nextSeq)}) with their send times, and the
 * limits on how many may be in flight: the receiver's advertised window (flow control: a fast sender
 * cannot overrun a slow receiver) and a congestion window that halves on loss (the kernel socket buffer
 * is small, and overrunning it is what loses datagrams on a local network). Loss is detected by time
 * (RACK, RFC 8985) with a reordering window adapted to the reordering seen; a cut whose retransmissions
 * the receiver all reports as duplicates is undone.
 *
 * <p>Not thread-safe: the endpoint guards it with the peer's lock.
 */
public final class SendWindow {
    /**
     * Fragments selectively acknowledged beyond a hole after which, while no reordering was seen, the
     * reordering window is 0 (as TCP's three duplicate acks).
     */
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
        /** The undo episode its last retransmission was counted in, 0 if none. */
        long undoEpisode;
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
    private int cwnd;
    private int ssthresh;
    private int growthCredit;
    /** A window cut for loss happened; the recovery lasts until the cumulative ack passes this. */
    private long recoveryEnd = -1;
    private boolean recovering;
    private int sackedInFlight;
    /** The highest sequence number acknowledged, cumulatively or selectively (RACK.fack). */
    private long highestDelivered = -1;
    /** RACK (RFC 8985): the send time, sequence number and round trip of the most recently sent delivered fragment. */
    private long rackSentNanos;
    private long rackSeq = -1;
    private long rackRtt = -1;
    private final ReorderWindow reorder = new ReorderWindow();
    /**
     * Undo (RFC 3708's D-SACK detection, RFC 4015's response): the windows before the episode's first cut,
     * how many of its retransmissions the receiver has not yet reported as duplicates, and when the last went
     * out. A cut within an RTO of that last retransmission, while the episode can still be undone, joins it.
     */
    private long undoEpisode;
    private boolean undoPossible;
    private int undoCwnd;
    private int undoSsthresh;
    private int undoPending;
    private long lastRetransmitNanos;
    private long spuriousRetransmissions;
    private long undoneCuts;

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
        s.undoEpisode = 0;
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
     * Whether acknowledgement fields are consistent with what was sent: a peer cannot acknowledge, or report
     * a duplicate of, a sequence number we never used ({@code duplicate} -1: no report).
     */
    public boolean plausible(long cumAck, long window, long duplicate) {
        return cumAck >= 0 && cumAck <= nextSeq && window >= 0 && duplicate >= -1 && duplicate < nextSeq;
    }

    /**
     * Applies an acknowledgement: everything below {@code cumAck} was received, bit {@code i} of
     * {@code sack} says {@code cumAck + 1 + i} was received, {@code duplicate} (or -1) was received twice,
     * and the receiver has room up to {@code cumAck + window}. Messages whose last fragment is now
     * acknowledged go to {@code sink} (in order), marked failed when {@code failed} says the receiver could
     * not deposit them (bit {@code i}: the message ending at {@code cumAck - 1 - i}). Every fragment sent once
     * and acknowledged now is a sample for {@code rtt} (Karn's rule) and for RACK; one delivered behind a
     * later one measures the reordering.
     *
     * @return the number of fragments newly acknowledged (cumulatively or selectively)
     */
    public int onAck(long cumAck, long sack, long failed, long window, long duplicate, long now, RttEstimator rtt,
                     CompletionSink sink) {
        int newly = 0;
        long flight = nextSeq - una;
        if (cumAck > una) {
            for (long s = una; s < cumAck; s++) {
                Slot slot = slots[(int) (s % capacity)];
                if (slot.sacked) {
                    sackedInFlight--;
                } else {
                    newly++;
                    delivered(slot, now, rtt, flight);
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
                    sackedInFlight++;
                    newly++;
                    delivered(slot, now, rtt, flight);
                }
            }
        }
        if (duplicate >= 0) {
            duplicateReported(duplicate, rtt);
        }
        if (recovering && una > recoveryEnd) {
            recovering = false;
            reorder.recoveryEnded();
        }
        grow(newly);
        return newly;
    }

    /** A fragment acknowledged for the first time: RTT sample, RACK state, reordering (RFC 8985 6.2 steps 1-3). */
    private void delivered(Slot slot, long now, RttEstimator rtt, long flight) {
        long elapsed = now - slot.sentNanos;
        if (slot.transmissions == 1) {
            rtt.sample(elapsed, flight);
            if (slot.seq < highestDelivered && rackRtt >= 0) {
                reorder.observed(elapsed - rackRtt); // overtaken by a later one: by this much
            }
        }
        highestDelivered = Math.max(highestDelivered, slot.seq);
        if (slot.transmissions > 1 && elapsed < rtt.minRtt()) {
            return; // sooner than any round trip: it acknowledges an earlier copy, the time says nothing
        }
        if (rackSeq < 0 || slot.sentNanos - rackSentNanos > 0
                || (slot.sentNanos == rackSentNanos && slot.seq > rackSeq)) {
            rackSentNanos = slot.sentNanos;
            rackSeq = slot.seq;
            rackRtt = elapsed;
        }
    }

    /**
     * The receiver got one more copy of {@code seq} (it reports each once): if {@code seq} was retransmitted,
     * a retransmission was spurious.
     */
    private void duplicateReported(long seq, RttEstimator rtt) {
        if (seq >= nextSeq || seq < Math.max(0, nextSeq - capacity)) {
            return;
        }
        Slot slot = slots[(int) (seq % capacity)];
        if (slot.seq != seq || slot.transmissions < 2) {
            return; // forgotten, or never retransmitted (a copy made by the network)
        }
        spuriousRetransmissions++;
        reorder.spurious(una, nextSeq, rtt.minRtt());
        if (undoPossible && slot.undoEpisode == undoEpisode && undoPending > 0 && --undoPending == 0) {
            // every retransmission of the episode was spurious: nothing was lost, undo its cuts
            undoPossible = false;
            cwnd = Math.max(cwnd, undoCwnd);
            ssthresh = Math.max(ssthresh, undoSsthresh);
            recoveryEnd = -1;
            recovering = false;
            undoneCuts++;
            rtt.undoBackoff();
        }
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

    /** The reordering window now (nanoseconds). */
    public long reorderWindow(RttEstimator rtt) {
        return reorder.window(rtt.minRtt(), rtt.srtt(), recovering, sackedInFlight >= DUP_THRESHOLD);
    }

    /** Whether {@code slot} was sent, and before the most recently sent fragment known delivered. */
    private boolean sentBeforeRack(Slot slot) {
        long d = slot.sentNanos - rackSentNanos;
        return rackSeq >= 0 && slot.transmissions > 0 && (d < 0 || (d == 0 && slot.seq < rackSeq));
    }

    /**
     * The next in-flight fragment, from {@code from} on, that RACK finds lost at {@code now} (not acknowledged,
     * sent before the most recently sent delivered one, and unacknowledged for RACK's round trip plus the
     * reordering window since its last transmission), or -1. The caller retransmits it at once. The first
     * loss of a recovery halves the congestion window.
     */
    public long nextLost(long from, long now, RttEstimator rtt) {
        if (rackSeq < 0) {
            return -1;
        }
        long wait = rackRtt + reorderWindow(rtt);
        for (long s = Math.max(from, una); s < nextSeq; s++) {
            Slot slot = slots[(int) (s % capacity)];
            if (!slot.sacked && sentBeforeRack(slot) && now - slot.sentNanos - wait >= 0) {
                if (!recovering) {
                    cut(now, false, rtt.rto());
                }
                retransmitting(slot, now);
                return s;
            }
        }
        return -1;
    }

    /**
     * When RACK's reordering timer fires: the earliest time a fragment sent before RACK's becomes lost, or
     * Long.MAX_VALUE.
     */
    public long lossDeadline(RttEstimator rtt) {
        if (rackSeq < 0) {
            return Long.MAX_VALUE;
        }
        long wait = rackRtt + reorderWindow(rtt);
        long deadline = Long.MAX_VALUE;
        for (long s = una; s < nextSeq; s++) {
            Slot slot = slots[(int) (s % capacity)];
            if (!slot.sacked && sentBeforeRack(slot)) {
                long at = slot.sentNanos + wait;
                if (deadline == Long.MAX_VALUE || at - deadline < 0) {
                    deadline = at;
                }
            }
        }
        return deadline;
    }

    /**
     * The oldest in-flight fragment not selectively acknowledged whose timer ({@code rto} after its last
     * transmission) expired at {@code now}, starting at {@code from}; or -1. The caller retransmits it at once.
     */
    public long nextExpired(long from, long now, long rto) {
        for (long s = Math.max(from, una); s < nextSeq; s++) {
            Slot slot = slots[(int) (s % capacity)];
            if (!slot.sacked && slot.transmissions > 0 && now - slot.sentNanos >= rto) {
                retransmitting(slot, now);
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
            if (!slot.sacked && slot.transmissions > 0) {
                deadline = Math.min(deadline, slot.sentNanos + rto);
            }
        }
        return deadline;
    }

    /**
     * A retransmission timeout: collapse the congestion window (the path is worse than we thought). {@code rto}
     * is the timeout that expired.
     */
    public void onTimeout(long now, long rto) {
        cut(now, true, rto);
    }

    /**
     * Cuts the congestion window for a loss (halves it; on a timeout, to the minimum) and starts an undo
     * episode, or joins the open one if its last retransmission is less than {@code rto} old.
     */
    private void cut(long now, boolean timeout, long rto) {
        if (undoPossible && now - lastRetransmitNanos > rto) {
            undoPossible = false; // the open episode's duplicate reports had their time: something was lost
        }
        if (!undoPossible) {
            undoPossible = true;
            undoEpisode++;
            undoCwnd = cwnd;
            undoSsthresh = ssthresh;
            undoPending = 0;
        }
        ssthresh = Math.max(MIN_CWND, cwnd / 2);
        cwnd = timeout ? MIN_CWND : ssthresh;
        recoveryEnd = nextSeq;
        recovering = true;
        lastRetransmitNanos = now;
    }

    /** {@code slot} is about to be sent again: count the copy in the open undo episode, if any. */
    private void retransmitting(Slot slot, long now) {
        if (undoPossible) {
            undoPending++;
            slot.undoEpisode = undoEpisode;
            lastRetransmitNanos = now;
        } else {
            slot.undoEpisode = 0;
        }
    }

    /** Retransmissions the receiver reported as duplicates (their originals had arrived). */
    public long spuriousRetransmissions() {
        return spuriousRetransmissions;
    }

    /** Congestion-window cuts undone because every retransmission of their episode was spurious. */
    public long undoneCuts() {
        return undoneCuts;
    }

    public long ssthresh() {
        return ssthresh;
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
        sackedInFlight = 0;
        OutgoingMessage m;
        while ((m = pollQueued()) != null) {
            sink.completed(m);
        }
    }
}
