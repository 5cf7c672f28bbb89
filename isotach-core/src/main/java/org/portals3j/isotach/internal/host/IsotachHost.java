package org.portals3j.isotach.internal.host;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.isotach.internal.siu.HostLink;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Transport;
import org.portals3j.transport.internal.CacheLinePadding;
import org.portals3j.transport.internal.Counter;
import org.portals3j.transport.internal.CounterRegistry;

/**
 * One host's Isotach send and delivery paths (Isotach report §6.2,
 * pp. 41-45; §6.8, pp. 56-58; §7.2, pp. 62-66): isochrons with their SOI/EOI and ids out
 * through credit flow control, records from the switch node through the ordering module to {@code iso_receive}.
 */
public final class IsotachHost extends CacheLinePadding {
    /** Executes shared-memory references in isotach order (wired to the SMM module). */
    public interface SharedReferenceExecutor {
        /** Returns false when the reference could not complete yet (retried later with the same arguments). */
        boolean execute(int subtype, int source, long address, long operand, long pulse);
    }

    /** Turns the bits of an EOP marker into the application's notice bits (signal and barrier tables). */
    public interface NoticeSource {
        int signals(int endOfPulseBits);

        int barriers(int endOfPulseBits);
    }

    public static final int ISO_MBM = 0x10;
    public static final int SUCCESS = 0;
    public static final int FAILURE = 1;
    public static final int NO_MESSAGE = -1;

    private static final long TOKEN_TAG = 0x02L << 56;
    /** Net-isochrons that may wait for their markers (the report's hit_q size). */
    private static final int OUTSTANDING_ISOCHRONS = 8192;
    /** Entries the delivery queue holds. */
    private static final int DELIVERY_QUEUE = 16384;

    private final int me;
    private final int hosts;
    private final SwitchNode siu;
    private final int maxPayload;
    private final int credits;
    /** MBM version 2: ordering and self-messages (version 1 has neither). */
    private final boolean selfMessagesAllowed;
    // Freed by the collector: a transport thread may still be depositing while the layer closes.
    private final Arena arena = Arena.ofAuto();

    // ---- send side ----
    private final MemorySegment orderedSendSlots;
    private final AtomicIntegerArray orderedSendDone;
    private long orderedSendHead;
    private long orderedSendTail;
    // iso_send_buf: released entries [sendHead, sendTail), plus the undecided one at sendTail when !lastPacketDecided
    private final int sendBufferSize;
    private final int[] entryKind;
    private final int[] entryDestination;
    private final int[] entrySubtype;
    private final int[] entryPrefix;
    private final int[] entryIsochronId;
    private final long[] entryOrderedSlot;
    private final int[] entryLength;
    private final long[] entryAddress;
    private final long[] entryOperand;
    private final int[] entryBits;
    private long sendHead;
    private long sendTail;
    private boolean lastPacketDecided = true;
    private boolean midNetIsochron;
    private boolean sequentialConsistencySet = true;
    private int netIsochronsSent;
    private int selfCount;
    private final SelfMessageBuffer selfMessages;
    private final SelfReferences selfReferences;
    // credits, per peer, as unbounded counts
    private final long[] creditsUsed;
    /**
     * Isotach credits each peer grants this host (learned at open_net's sync, I-132); own grant is {@link #credits}.
     */
    private final int[] peerCredits;
    private final long[] creditsFreedByPeer;
    private final long[] freedFromPeer;
    private final long[] freedReportedToPeer;

    // ---- receive side ----
    private final MemorySegment orderedReceiveSlots;
    /** Transport side: where each ISO frame's payload goes. */
    private final ReceiveSlots receiveSlots;
    /** The report's hit_q: net-isochrons waiting for their isochron markers. */
    private final OutstandingIsochrons outstanding;
    /** The report's iso_delivery_q (MBM) or shmem_buf (SMM). */
    private final DeliveryQueue delivery;
    private final OrderingModule ordering;
    private int lastDelivered = -2; // -2 none, me: self, else sender of a net message
    private final HostLink.Record record = new HostLink.Record();
    /**
     * Freed-but-unreported credits that trigger an explicit credit packet (Isotach report §7.2.3, pp. 62-66). At most N
     * - 1 can be outstanding, so a threshold above N - 1 would never fire and one-way traffic would stall (I-109): it
     * is clamped to 1..N-1.
     */
    private final long explicitCreditThreshold;
    private final MemorySegment creditFrame = MemorySegment.ofArray(new byte[Frame.ISO_CREDIT_LENGTH]);

    private boolean smm;
    private SharedReferenceExecutor executor = (s, src, a, o, p) -> true;
    private final LinkListener listener;

    // counters (the host's thread writes them: single-writer increments) and gauges
    private final CounterRegistry counters = new CounterRegistry(8);
    private final Counter delivered;
    private final Counter selfDelivered;
    private final Counter explicitCredits;

    /** What the host hears from the link besides Isotach traffic. */
    public interface LinkListener {
        void onSync(int peer, int phase, int nonisoSlots, int isoCredits);

        void onPeerDown(int peer);
    }

    public IsotachHost(int me, int hosts, IsotachConfig config, SwitchNode siu, LinkListener listener) {
        this.me = me;
        this.hosts = hosts;
        this.siu = siu;
        this.listener = listener;
        this.maxPayload = config.maxPayload();
        this.credits = config.isoCreditsPerPeer();
        this.selfMessagesAllowed = config.mbmVersion() == 2;
        this.sendBufferSize = config.isoSendBufSize();
        this.explicitCreditThreshold =
                Math.max(1, Math.min(credits - 1, (long) (credits * config.isoCreditThreshold())));
        this.orderedSendSlots = arena.allocate((long) sendBufferSize * maxPayload, 64);
        this.orderedSendDone = new AtomicIntegerArray(sendBufferSize);
        entryKind = new int[sendBufferSize];
        entryDestination = new int[sendBufferSize];
        entrySubtype = new int[sendBufferSize];
        entryPrefix = new int[sendBufferSize];
        entryIsochronId = new int[sendBufferSize];
        entryOrderedSlot = new long[sendBufferSize];
        entryLength = new int[sendBufferSize];
        entryAddress = new long[sendBufferSize];
        entryOperand = new long[sendBufferSize];
        entryBits = new int[sendBufferSize];
        int hit = config.hitBufSize();
        this.selfMessages = new SelfMessageBuffer(arena.allocate((long) hit * maxPayload, 64), hit, maxPayload);
        this.selfReferences = new SelfReferences(config.selfRefBufSize());
        creditsUsed = new long[hosts];
        peerCredits = new int[hosts];
        Arrays.fill(peerCredits, credits);
        creditsFreedByPeer = new long[hosts];
        freedFromPeer = new long[hosts];
        freedReportedToPeer = new long[hosts];
        this.orderedReceiveSlots = arena.allocate((long) hosts * credits * maxPayload, 64);
        this.receiveSlots = new ReceiveSlots(me, hosts, credits, maxPayload, orderedReceiveSlots);
        this.outstanding = new OutstandingIsochrons(OUTSTANDING_ISOCHRONS);
        this.delivery = new DeliveryQueue(DELIVERY_QUEUE);
        this.ordering = new OrderingModule(me, hosts, selfMessagesAllowed, config.bucketCapacity(hosts), outstanding,
                delivery);
        counters.gauge("host.closedPulse", "the last pulse the ordering module closed", ordering::closedPulse);
        counters.gauge("host.pulsesProcessed", "pulses the ordering module processed", ordering::pulsesProcessed);
        this.delivered = counters.counter("host.isoDelivered", "net messages iso_receive handed out");
        this.selfDelivered = counters.counter("host.selfDelivered", "messages to self iso_receive handed out");
        this.explicitCredits = counters.counter("host.isoCreditExplicit", "explicit ISO credit packets sent");
        counters.gauge("host.deliveryQueue", "entries in the delivery queue", delivery::size);
        counters.gauge("host.outstandingIsochrons", "isochrons sent and not yet ordered", outstanding::size);
        counters.gauge("host.isoSendQueue", "packets in the Isotach send buffer", () -> sendTail - sendHead);
    }

    public void sharedMemoryMode(SharedReferenceExecutor referenceExecutor) {
        this.smm = true;
        this.executor = referenceExecutor;
        ordering.sharedMemoryMode();
    }

    public void noticeSource(NoticeSource source) {
        ordering.noticeSource(source);
    }

    // =========================================================================================================
    // send side (iso_send, iso_end, sRefs, bs-markers)
    // =========================================================================================================

    /** iso_send (Isotach report §6.2, pp. 41-45). */
    public int isoSend(int target, MemorySegment data, int size, boolean last) {
        if (target < 0 || target >= hosts || size < 0 || size > maxPayload || size > data.byteSize()) {
            return FAILURE;
        }
        if (target == me) {
            if (!selfMessagesAllowed || selfMessages.isFull()) {
                return FAILURE; // MBM 1 has no self-messages; a full hit_buf fails (A6)
            }
            selfMessages.add(data, size);
            selfCount++;
        } else {
            if (!roomForNetPacket()) {
                return FAILURE;
            }
            long ord = orderedSendTail++;
            int oi = (int) (ord % sendBufferSize);
            orderedSendDone.set(oi, 0);
            MemorySegment.copy(data, 0, orderedSendSlots, (long) oi * maxPayload, size);
            startIsoPacket(target, ISO_MBM, ord, size, 0, 0);
        }
        if (last) {
            endOfIsochronFound();
        }
        return SUCCESS;
    }

    /** Whether a net packet fits now (ordered and Isotach send buffers, counting an undecided tail). */
    private boolean roomForNetPacket() {
        reclaimOrderedSendSlots();
        long used = sendTail - sendHead + (lastPacketDecided ? 0 : 1);
        return used + 1 < sendBufferSize && orderedSendTail - orderedSendHead < sendBufferSize;
    }

    /** Room for {@code n} more sRefs (net) in the Isotach send buffer. */
    public boolean roomForNetRefs(int n) {
        long used = sendTail - sendHead + (lastPacketDecided ? 0 : 1);
        return used + n < sendBufferSize;
    }

    public boolean roomForSelfRef() {
        return selfReferences.hasRoom();
    }

    /** A shared-memory reference to another host's copy (net-ref). */
    public void netRef(int target, int subtype, long address, long operand) {
        startIsoPacket(target, subtype, -1, 0, address, operand);
    }

    /** A shared-memory reference to this host's copy (self-ref, executed with the isochron's marker). */
    public void selfRef(int subtype, long address, long operand) {
        selfReferences.add(subtype, address, operand);
        selfCount++;
    }

    private void startIsoPacket(int target, int subtype, long ord, int size, long address, long operand) {
        if (!lastPacketDecided) {
            sendTail++; // the previous net packet was not the isochron's last
        }
        lastPacketDecided = false;
        int i = (int) (sendTail % sendBufferSize);
        int prefix = 0;
        if (!midNetIsochron) {
            midNetIsochron = true;
            prefix = Frame.PREFIX_START_OF_ISOCHRON
                    | (sequentialConsistencySet ? Frame.PREFIX_SEQUENTIAL_CONSISTENCY_SET : 0);
            sequentialConsistencySet = !sequentialConsistencySet;
        }
        entryKind[i] = 1;
        entryDestination[i] = target;
        entrySubtype[i] = subtype;
        entryPrefix[i] = prefix;
        entryIsochronId[i] = netIsochronsSent;
        entryOrderedSlot[i] = ord;
        entryLength[i] = size;
        entryAddress[i] = address;
        entryOperand[i] = operand;
    }

    /** iso_end (Isotach report §6.2.6, pp. 41-45): EOI_found; a no-op when nothing is pending (A18). */
    public int isoEnd() {
        endOfIsochronFound();
        return SUCCESS;
    }

    public boolean midIsochron() {
        return midNetIsochron || selfCount > 0;
    }

    /**
     * Whether a net isochron has begun and not ended (signals and barriers are refused then, Isotach report §6.4.5,
     * pp. 47-50).
     */
    public boolean midNetIsochron() {
        return midNetIsochron;
    }

    private void endOfIsochronFound() {
        if (!lastPacketDecided) {
            int i = (int) (sendTail % sendBufferSize);
            entryPrefix[i] |= Frame.PREFIX_END_OF_ISOCHRON;
            sendTail++;
            lastPacketDecided = true;
        }
        if (midNetIsochron) {
            if (selfMessagesAllowed) { // MBM 1 ignores isochron markers (I-014): nothing to match them against
                ordering.postIsochron(true, selfCount, netIsochronsSent);
            }
            netIsochronsSent = (netIsochronsSent + 1) % 256;
            midNetIsochron = false;
        } else if (selfCount > 0) {
            ordering.postIsochron(false, selfCount, -1);
        }
        selfCount = 0;
    }

    /** Queues a bs-marker behind every Isotach packet issued before it; false when the buffer is full. */
    public boolean enqueueBarrierSignalMarker(int bits, int count, boolean automatic) {
        if (midNetIsochron || !roomForBarrierSignalMarker()) {
            return false;
        }
        int i = (int) (sendTail % sendBufferSize);
        entryKind[i] = 2;
        entryBits[i] = bits;
        entryLength[i] = count;
        entryAddress[i] = automatic ? 1 : 0;
        sendTail++;
        return true;
    }

    /**
     * The Isotach credits (ordered receive slots) {@code peer} reserved for this host, from its sync packet (I-132):
     * the sender numbers its slots and limits what it has outstanding by the receiver's grant, not its own.
     */
    public void peerCredits(int peer, int granted) {
        if (peer >= 0 && peer < hosts && peer != me && granted >= 2) {
            peerCredits[peer] = granted;
        }
    }

    /** Whether a bs-marker fits in the Isotach send buffer now. */
    public boolean roomForBarrierSignalMarker() {
        return sendTail - sendHead + 1 < sendBufferSize;
    }

    /** iso_flow + iso_shipping: approves released packets in FIFO order while credits last (§3.3). */
    public void flow() {
        while (sendHead < sendTail) {
            int i = (int) (sendHead % sendBufferSize);
            if (entryKind[i] == 2) {
                // bs-markers need no credit, but keep their place (Isotach report §3.5.3, pp. 18-20)
                siu.shipBarrierSignalMarker(entryBits[i], entryLength[i], entryAddress[i] != 0);
                sendHead++;
                continue;
            }
            int d = entryDestination[i];
            if (creditsUsed[d] - creditsFreedByPeer[d] >= peerCredits[d] - 1) {
                return; // head-of-line: later packets and bs-markers wait too (I-110)
            }
            int slot = (int) (creditsUsed[d] % peerCredits[d]);
            creditsUsed[d]++;
            boolean present = freedFromPeer[d] != freedReportedToPeer[d];
            long credit = freedFromPeer[d];
            freedReportedToPeer[d] = credit;
            long ord = entryOrderedSlot[i];
            MemorySegment payload = MemorySegment.NULL;
            long offset = 0;
            long token = Transport.NO_NOTIFY;
            if (ord >= 0) {
                int oi = (int) (ord % sendBufferSize);
                payload = orderedSendSlots;
                offset = (long) oi * maxPayload;
                token = TOKEN_TAG | oi;
            }
            sendHead++;
            siu.ship(d, entrySubtype[i], entryPrefix[i], entryIsochronId[i], slot, entryLength[i], entryAddress[i],
                    entryOperand[i], present, credit, payload, offset, token);
            if (ord >= 0 && entryLength[i] == 0) {
                orderedSendDone.set((int) (ord % sendBufferSize), 1); // nothing to read: no completion will matter
            }
        }
    }

    /** A send of an ordered payload completed (transport side): its slot may be reused. */
    public void onSendComplete(long token) {
        if ((token & (0xFFL << 56)) == TOKEN_TAG) {
            orderedSendDone.set((int) (token & 0xFFFFFF), 1);
        }
    }

    private void reclaimOrderedSendSlots() {
        while (orderedSendHead < orderedSendTail
                && orderedSendDone.get((int) (orderedSendHead % sendBufferSize)) == 1) {
            orderedSendHead++;
        }
        // Slots whose packet has not been approved yet are not done: they keep orderedSendHead back, as they should.
    }

    public boolean sendBuffersEmpty() {
        return sendHead == sendTail && lastPacketDecided;
    }

    // =========================================================================================================
    // transport side: where an ISO frame's payload goes
    // =========================================================================================================

    /**
     * The transport side's view of the ordered receive slots: the engine keeps it, and never reads this host's fields.
     */
    public ReceiveSlots receiveSlots() {
        return receiveSlots;
    }

    /** {@link ReceiveSlots#offsetFor}, as the slot itself (null when refused). */
    public @Nullable MemorySegment receiveSlot(int source, MemorySegment h, long payloadLength) {
        long at = receiveSlots.offsetFor(source, h, payloadLength);
        return at < 0 ? null : orderedReceiveSlots.asSlice(at, maxPayload);
    }

    // =========================================================================================================
    // ordering module (IOM)
    // =========================================================================================================

    /** Takes what the SIU delivered and runs the ordering module over it (iso_receiving + bucketize). */
    public void receiving() {
        while (siu.take(record)) {
            switch (record.type) {
                case HostLink.ISO -> {
                    if (record.creditPresent) {
                        creditsFreedByPeer[record.peer] = Math.max(creditsFreedByPeer[record.peer], record.credit);
                    }
                    ordering.packet(record.pulse, record.a, record.peer, record.b, record.c, record.address,
                            record.operand);
                }
                case HostLink.ISOCHRON_MARKER -> ordering.isochronMarker(record.pulse, record.a);
                case HostLink.END_OF_PULSE ->
                        ordering.endOfPulses(record.fromPulse, record.pulse, record.a, record.b, record.sortVector);
                case HostLink.CREDIT -> creditsFreedByPeer[record.peer] =
                        Math.max(creditsFreedByPeer[record.peer], record.address);
                case HostLink.SYNC -> listener.onSync(record.peer, record.a, record.b, record.c);
                case HostLink.PEER_DOWN -> listener.onPeerDown(record.peer);
                case HostLink.FATAL -> throw new IsotachFatalError(record.message);
                default -> throw new IsotachFatalError("unknown link record " + record.type);
            }
        }
    }

    // =========================================================================================================
    // delivery
    // =========================================================================================================

    /** iso_receive (Isotach report §6.8.5, pp. 56-59) without its poll (the engine polls). */
    public int isoReceive(IsoMessage m) {
        releaseLast();
        m.clear();
        if (smm) {
            // SMM hosts receive only notices here (Isotach report App. A.5, pp. 98-99); references are executed, not
            // delivered.
            if (!delivery.isEmpty() && delivery.type(delivery.oldest()) == DeliveryQueue.NOTICE) {
                int i = delivery.oldest();
                m.setNotice(delivery.noticeBits(i), delivery.pulse(i));
                delivery.removeOldest();
                return SUCCESS;
            }
            return NO_MESSAGE;
        }
        if (delivery.isEmpty()) {
            return NO_MESSAGE;
        }
        int i = delivery.oldest();
        switch (delivery.type(i)) {
            case DeliveryQueue.NET_MESSAGE -> {
                int s = delivery.sender(i);
                long offset = (long) (s * credits + delivery.slot(i)) * maxPayload;
                m.setMessage(s, orderedReceiveSlots, offset, delivery.length(i), delivery.pulse(i));
                lastDelivered = s;
                delivery.removeOldest();
                delivered.increment();
            }
            case DeliveryQueue.SELF_MESSAGES -> {
                m.setMessage(me, selfMessages.segment(), selfMessages.oldestOffset(), selfMessages.oldestLength(),
                        delivery.pulse(i));
                lastDelivered = me;
                selfDelivered.increment();
                if (delivery.countDown(i) == 0) {
                    delivery.removeOldest();
                }
            }
            case DeliveryQueue.NOTICE -> {
                m.setNotice(delivery.noticeBits(i), delivery.pulse(i));
                delivery.removeOldest();
            }
            default -> throw new IsotachFatalError("shared-memory reference in an MBM delivery queue");
        }
        return SUCCESS;
    }

    /** Whether something is ready for {@code isoReceive}. */
    public boolean hasDelivery() {
        if (delivery.isEmpty()) {
            return false;
        }
        return !smm || delivery.type(delivery.oldest()) == DeliveryQueue.NOTICE;
    }

    /** Frees what the previous iso_receive handed out (deferred deletion, Isotach report §6.8.5, pp. 56-59). */
    private void releaseLast() {
        if (lastDelivered == -2) {
            return;
        }
        if (lastDelivered == me) {
            selfMessages.releaseOldest();
        } else {
            freeCredit(lastDelivered);
        }
        lastDelivered = -2;
    }

    /**
     * iso_delete_packet (Isotach report §7.2.3, pp. 62-66): one more of {@code sender}'s packets consumed; explicit
     * credit at threshold.
     */
    private void freeCredit(int sender) {
        freedFromPeer[sender]++;
        if (freedFromPeer[sender] - freedReportedToPeer[sender] >= explicitCreditThreshold) {
            MemorySegment f = creditFrame;
            Frame.start(f, Frame.ISO_CREDIT);
            Frame.i64(f, Frame.O_LONG8, freedFromPeer[sender]);
            freedReportedToPeer[sender] = freedFromPeer[sender];
            explicitCredits.increment();
            siu.sendControl(sender, f, Frame.ISO_CREDIT_LENGTH);
        }
    }

    /** SMM: executes queued references in isotach order; stops at one that cannot complete yet. */
    public void executeReferences() {
        if (!smm) {
            return;
        }
        while (!delivery.isEmpty()) {
            int i = delivery.oldest();
            switch (delivery.type(i)) {
                case DeliveryQueue.SHARED_REFERENCE -> {
                    if (!executor.execute(delivery.subtype(i), delivery.sender(i), delivery.address(i),
                            delivery.operand(i), delivery.pulse(i))) {
                        return;
                    }
                    freeCredit(delivery.sender(i));
                    delivery.removeOldest();
                }
                case DeliveryQueue.SELF_MESSAGES -> {
                    while (delivery.count(i) > 0) {
                        if (!executor.execute(selfReferences.oldestSubtype(), me, selfReferences.oldestAddress(),
                                selfReferences.oldestOperand(), delivery.pulse(i))) {
                            return;
                        }
                        selfReferences.removeOldest();
                        delivery.countDown(i);
                    }
                    delivery.removeOldest();
                }
                case DeliveryQueue.NOTICE -> {
                    return; // left for isoReceive
                }
                default -> throw new IsotachFatalError("iso-pointer in a shared-memory host");
            }
        }
    }

    /** The last pulse the ordering module processed. */
    public long closedPulse() {
        return ordering.closedPulse();
    }

    public void close() {
        // The arena is automatic: memory goes when the last reference (a late deposit, say) is gone.
    }

    /** Puts the host's counters and gauges into {@code m}. */
    public void counters(Map<String, Long> m) {
        counters.snapshotInto(m);
    }
}
