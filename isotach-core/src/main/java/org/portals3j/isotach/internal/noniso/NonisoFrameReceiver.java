package org.portals3j.isotach.internal.noniso;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.portals3j.transport.Deposit;

/**
 * The noniso module's transport side: checks every frame (the header is hostile), deposits a data payload straight
 * into the next slot of its sender's ring, and hands arrivals and control state to the host; drops count, never throw.
 */
final class NonisoFrameReceiver {
    private static final byte PENDING_NONE = 0;

    private final int me;
    private final int hosts;
    private final int maxPayload;
    /** Slots this host reserves for each peer (the report's REMOTE_NONISO_SIZE). */
    private final int ring;
    private final MemorySegment receiveRegion;
    private final NonisoPeerState peers;
    private final HandoffQueue handoff;
    private final NonisoCounters counters;
    // Callbacks of one endpoint never run concurrently; the transport's own synchronisation orders them.
    /** Data-ring frames accepted from each source: the next expected slot is arrivals mod ring. */
    private final long[] arrivals;
    private final byte[] pendingKind;
    private final int[] pendingSlot;
    private final int[] pendingLength;
    private final long[] pendingValue;
    private final int[] pendingReadSlot;
    private final long[] pendingPulse;

    NonisoFrameReceiver(int me, int hosts, int maxPayload, int ring, MemorySegment receiveRegion,
                        NonisoPeerState peers, HandoffQueue handoff, NonisoCounters counters) {
        this.me = me;
        this.hosts = hosts;
        this.maxPayload = maxPayload;
        this.ring = ring;
        this.receiveRegion = receiveRegion;
        this.peers = peers;
        this.handoff = handoff;
        this.counters = counters;
        this.arrivals = new long[hosts];
        this.pendingKind = new byte[hosts];
        this.pendingSlot = new int[hosts];
        this.pendingLength = new int[hosts];
        this.pendingValue = new long[hosts];
        this.pendingReadSlot = new int[hosts];
        this.pendingPulse = new long[hosts];
    }

    /** Phase one: validates the frame and, for a data frame, names its receive slot as the payload's destination. */
    void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        try {
            if (source >= 0 && source < hosts) {
                pendingKind[source] = PENDING_NONE;
            }
            int reason = acceptHeader(source, header, headerLength, payloadLength, deposit);
            if (reason >= 0) {
                counters.malformed(reason);
            }
        } catch (RuntimeException e) {
            // Only a bug in the checks above could get here; the frame is dropped rather than thrown at the
            // transport thread.
            counters.malformed(NonisoCounters.DROP_HEADER);
        }
    }

    /** Phase two: the payload of an accepted data frame is in its slot (or failed); hands it to the host. */
    void onDeposited(int source, Deposit deposit) {
        if (source < 0 || source >= hosts || source == me) {
            return;
        }
        byte kind = pendingKind[source];
        pendingKind[source] = PENDING_NONE;
        boolean offered;
        if (kind == NonisoFrame.KIND_DATA) {
            int len = pendingLength[source];
            if (len > 0 && (deposit.failed() || deposit.deposited() < len)) {
                // The slot was taken; the host frees it without delivering, so credit stays consistent.
                counters.inc(NonisoCounters.DROP_DEPOSIT);
                offered = handoff.offer(HandoffQueue.FAILED, source, pendingSlot[source], 0, 0L, 0, 0L);
            } else {
                counters.inc(NonisoCounters.RECEIVED);
                offered = handoff.offer(HandoffQueue.DATA, source, pendingSlot[source], len, 0L, 0, 0L);
            }
        } else if (kind == NonisoFrame.KIND_READ_RESPONSE) {
            counters.inc(NonisoCounters.READ_RESPONSE_RECEIVED);
            offered = handoff.offer(HandoffQueue.READ_RESPONSE, source, pendingSlot[source], 0,
                    pendingValue[source], pendingReadSlot[source], pendingPulse[source]);
        } else {
            return;
        }
        if (!offered) {
            counters.inc(NonisoCounters.DROP_HANDOFF_FULL);
        }
    }

    /** Returns -1 if the frame was accepted, else the counter naming why it is dropped. */
    private int acceptHeader(int source, MemorySegment h, int headerLength, long payloadLength, Deposit deposit) {
        if (source < 0 || source >= hosts || source == me) {
            return NonisoCounters.DROP_SOURCE;
        }
        if (headerLength < 2 || headerLength > h.byteSize()) {
            return NonisoCounters.DROP_HEADER;
        }
        byte kind = NonisoFrame.kind(h);
        int expectedLength = NonisoFrame.lengthOf(kind);
        if (expectedLength < 0) {
            return NonisoCounters.DROP_KIND;
        }
        if (h.get(ValueLayout.JAVA_BYTE, NonisoFrame.OFF_VERSION) != NonisoFrame.VERSION) {
            return NonisoCounters.DROP_VERSION;
        }
        if (headerLength != expectedLength || h.get(ValueLayout.JAVA_BYTE, NonisoFrame.OFF_RESERVED) != 0
                || (NonisoFrame.flags(h) & ~NonisoFrame.FLAG_CREDIT) != 0) {
            return NonisoCounters.DROP_HEADER;
        }
        boolean creditPresent = (NonisoFrame.flags(h) & NonisoFrame.FLAG_CREDIT) != 0;
        long credit = NonisoFrame.credit(h);
        int slot = NonisoFrame.slot(h);
        if (creditPresent && !plausibleCredit(source, credit)) {
            return NonisoCounters.DROP_CREDIT;
        }
        return switch (kind) {
            case NonisoFrame.KIND_DATA, NonisoFrame.KIND_READ_RESPONSE ->
                    acceptRingFrame(source, h, kind, slot, creditPresent, credit, payloadLength, deposit);
            case NonisoFrame.KIND_CREDIT -> {
                if (!creditPresent) {
                    yield NonisoCounters.DROP_HEADER;
                }
                if (payloadLength != 0) {
                    yield NonisoCounters.DROP_OVERSIZE;
                }
                if (slot != ring + NonisoFrame.CONTROL_CREDIT) {
                    yield NonisoCounters.DROP_SLOT;
                }
                peers.peerFreed.set(source, credit);
                counters.inc(NonisoCounters.CREDIT_EXPLICIT_RECEIVED);
                yield -1;
            }
            case NonisoFrame.KIND_CREDIT_REQUEST -> {
                if (creditPresent) {
                    yield NonisoCounters.DROP_HEADER;
                }
                if (payloadLength != 0) {
                    yield NonisoCounters.DROP_OVERSIZE;
                }
                if (slot != ring + NonisoFrame.CONTROL_CREDIT_REQUEST) {
                    yield NonisoCounters.DROP_SLOT;
                }
                peers.creditRequestedBy(source);
                counters.inc(NonisoCounters.CREDIT_REQUEST_RECEIVED);
                yield -1;
            }
            default -> acceptBarrier(source, h, slot, creditPresent, payloadLength); // lengthOf() knows no other kind
        };
    }

    /** A data or read-response frame: exactly the next slot of its sender's ring, within what the sender may hold. */
    private int acceptRingFrame(int source, MemorySegment h, byte kind, int slot, boolean creditPresent, long credit,
                                long payloadLength, Deposit deposit) {
        int len = h.get(NonisoFrame.INT, NonisoFrame.OFF_LENGTH);
        boolean data = kind == NonisoFrame.KIND_DATA;
        if (len < 0 || len > maxPayload || len != payloadLength || (!data && len != 0)) {
            return NonisoCounters.DROP_OVERSIZE;
        }
        // Per-sender FIFO (Isotach report §7.1.3, pp. 59-62): the sender assigns slots in order, so anything but the
        // next slot is hostile.
        if (slot != (int) (arrivals[source] % ring)) {
            return NonisoCounters.DROP_SLOT;
        }
        // A correct sender keeps at most ring - 1 slots outstanding (Isotach report §7.1.3, pp. 59-62); one that does
        // not would overwrite an undelivered message (I-094).
        if (arrivals[source] - peers.freedPublished.get(source) >= ring - 1) {
            return NonisoCounters.DROP_OVERRUN;
        }
        if (creditPresent) {
            peers.peerFreed.set(source, credit);
        }
        arrivals[source]++;
        pendingKind[source] = kind;
        pendingSlot[source] = slot;
        pendingLength[source] = len;
        if (data) {
            if (len > 0) {
                deposit.accept(receiveRegion, NonisoLayer.slotOffset(me, ring, maxPayload, source, slot), len);
            }
        } else {
            pendingValue[source] = h.get(NonisoFrame.LONG, NonisoFrame.OFF_VALUE);
            pendingReadSlot[source] = h.get(NonisoFrame.INT, NonisoFrame.OFF_READ_SLOT);
            pendingPulse[source] = h.get(NonisoFrame.LONG, NonisoFrame.OFF_PULSE);
        }
        return -1;
    }

    private int acceptBarrier(int source, MemorySegment h, int slot, boolean creditPresent, long payloadLength) {
        if (creditPresent) {
            return NonisoCounters.DROP_HEADER;
        }
        if (payloadLength != 0) {
            return NonisoCounters.DROP_OVERSIZE;
        }
        if (slot != ring + NonisoFrame.CONTROL_BARRIER) {
            return NonisoCounters.DROP_SLOT;
        }
        long gen = h.get(NonisoFrame.LONG, NonisoFrame.OFF_GENERATION);
        // Exactly the next generation of that peer, and at most one ahead of ours: the peer cannot finish barrier g
        // without our frame of generation g.
        if (gen != peers.barrierSeen.get(source) + 1 || gen > peers.barrierGenerationPublished.get() + 1) {
            return NonisoCounters.DROP_BARRIER;
        }
        peers.barrierSeen.set(source, gen);
        counters.inc(NonisoCounters.BARRIER_RECEIVED);
        return -1;
    }

    /**
     * A peer reports how many of the slots we assigned it has freed: never fewer than it reported before (its
     * reports leave in order, per-peer FIFO) and never more than we assigned.
     */
    private boolean plausibleCredit(int source, long credit) {
        return credit >= peers.peerFreed.get(source) && credit <= peers.assignedPublished.get(source);
    }
}
