package org.portals3j.isotach.internal.host;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.isotach.internal.siu.HostLink;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The host side of the Isotach layer (the report's API, processing and NIU-interface layers for Protocols 3 and 4,
 * digest §2.6, §2.10, §3.2-3.4): the Isotach send path with lazy EOI and isochron ids, self-messages held in
 * {@code hit_buf} until their isochron marker, non-specific sender-based flow control with the ordered slots
 * slaved to it, the ordering module (buckets, EOP processing with the count check, order by sort vector or by
 * sender), {@code hit_q}/isochron slots, and {@code iso_receive} with deferred deletion.
 *
 * <p>Everything here runs on the host thread except the methods marked "transport side", which pick the
 * receive slot for an arriving ISO frame. Listing bugs of digest §7.4 are not copied: bs-notices are dequeued
 * (A4), self lengths are plain ints (A5), a full {@code hit_buf} fails the call (A6), {@code iso_end} with nothing
 * pending posts nothing (A18), credits are 64-bit counts with an explicit present flag (A15, A16).
 */
public final class IsotachHost extends CacheLinePadding {
    /** Executes shared-memory references in isotach order (wired to the SMM module). */
    public interface SRefExecutor {
        /** Returns false when the reference could not complete yet (retried later with the same arguments). */
        boolean execute(int subtype, int source, long address, long operand, long pulse);
    }

    /** Turns the bits of an EOP marker into the application's notice bits (signal and barrier tables). */
    public interface NoticeSource {
        int signals(int eopBits);

        int barriers(int eopBits);
    }

    public static final int ISO_MBM = 0x10;
    public static final int SUCCESS = 0;
    public static final int FAILURE = 1;
    public static final int NO_MESSAGE = -1;

    private static final long TOKEN_TAG = 0x02L << 56;

    private final int me;
    private final int hosts;
    /** Entries one pulse may hold here ({@link IsotachConfig#bucketCapacity}). */
    private final int bucketCapacity;
    private final IsotachConfig config;
    private final SwitchNode siu;
    private final int maxPayload;
    private final int credits;
    private final boolean ordering;
    // Freed by the collector: a transport thread may still be depositing while the layer closes.
    private final Arena arena = Arena.ofAuto();

    // ---- send side ----
    private final MemorySegment ordSend;
    private final AtomicIntegerArray ordSendDone;
    private long ordHead;
    private long ordTail;
    // iso_send_buf: released entries [isoH, isoT), plus the undecided one at isoT when !eoiDecided
    private final int isoCap;
    private final int[] qType;
    private final int[] qDest;
    private final int[] qSubtype;
    private final int[] qPrefix;
    private final int[] qIsoId;
    private final long[] qOrd;
    private final int[] qLength;
    private final long[] qAddress;
    private final long[] qOperand;
    private final int[] qBits;
    private long isoH;
    private long isoT;
    private boolean eoiDecided = true;
    private boolean midNetIsochron;
    private boolean seqConSet = true;
    private int netIsochronsSent;
    private int selfCount;
    // self-messages
    private final MemorySegment hitBuf;
    private final int[] hitLength;
    private long hitH;
    private long hitT;
    // self-references (SMM)
    private final int[] srSubtype;
    private final long[] srAddress;
    private final long[] srOperand;
    private long srH;
    private long srT;
    // credits, per peer, as unbounded counts
    private final long[] creditsUsed;
    /** Isotach credits each peer grants this host (learned at open_net's sync, I-132); own grant is {@link #credits}. */
    private final int[] peerCredits;
    private final long[] creditsFreedByPeer;
    private final long[] yourFreed;
    private final long[] yourFreedReported;

    // ---- receive side ----
    private final MemorySegment ordReceive;
    private final MemorySegment[] ordSlots;
    /** Transport side: where each ISO frame's payload goes. */
    private final ReceiveSlots receiveSlots;
    // buckets
    private final long[] bucketPulse = new long[256];
    private final int[] bucketSize = new int[256];
    private final int[][] bType;
    private final int[][] bSender;
    private final int[][] bSlot;
    private final int[][] bLength;
    private final long[][] bAddress;
    private final long[][] bOperand;
    private long closedPulse = -1;
    /** Entries the host put in a bucket itself (not counted by the SIU's EOP). */
    private final int[] localEntries = new int[256];
    /** Bucket entry of a self-isochron's references waiting for the next pulse (SMM). */
    private static final int SELF_SLOT = -1;
    // hit_q: one isochron slot per outstanding net-isochron
    private final int[] hqIsoId;
    private final int[] hqSelf;
    private long hqH;
    private long hqT;
    // iso_delivery_q (MBM) or shmem_buf (SMM)
    private static final int D_POINTER = 1;
    private static final int D_SLOT = 2;
    private static final int D_NOTICE = 3;
    private static final int D_SREF = 4;
    private final int dCap;
    private final int[] dType;
    private final int[] dSender;
    private final int[] dA;
    private final int[] dLength;
    private final long[] dAddress;
    private final long[] dOperand;
    private final long[] dPulse;
    private long dH;
    private long dT;
    private int lastDelivered = -2; // -2 none, me: self, else sender of a net message
    private final HostLink.Record record = new HostLink.Record();
    /**
     * Freed-but-unreported credits that trigger an explicit credit packet (L2332). At most N - 1 can be outstanding,
     * so a threshold above N - 1 would never fire and one-way traffic would stall (I-109): it is clamped to 1..N-1.
     */
    private final long explicitCreditThreshold;
    private final MemorySegment creditFrame = MemorySegment.ofArray(new byte[Frame.ISO_CREDIT_LENGTH]);

    private boolean smm;
    private SRefExecutor executor = (s, src, a, o, p) -> true;
    private NoticeSource notices = new NoticeSource() {
        @Override
        public int signals(int eopBits) {
            return eopBits & 0xFC;
        }

        @Override
        public int barriers(int eopBits) {
            return eopBits & 0x03;
        }
    };
    private int resets;
    private final LinkListener listener;

    // counters
    private long delivered;
    private long selfDelivered;
    private long explicitCredits;
    private long pulsesProcessed;

    /** What the host hears from the link besides Isotach traffic. */
    public interface LinkListener {
        void onSync(int peer, int phase, int nonisoSlots, int isoCredits);

        void onPeerDown(int peer);
    }

    public IsotachHost(int me, int hosts, IsotachConfig config, SwitchNode siu, LinkListener listener) {
        this.me = me;
        this.hosts = hosts;
        this.config = config;
        this.siu = siu;
        this.listener = listener;
        this.maxPayload = config.maxPayload();
        this.credits = config.isoCreditsPerPeer();
        this.ordering = config.mbmVersion() == 2;
        this.isoCap = config.isoSendBufSize();
        this.explicitCreditThreshold = Math.max(1, Math.min(credits - 1, (long) (credits * config.isoCreditThreshold())));
        this.ordSend = arena.allocate((long) isoCap * maxPayload, 64);
        this.ordSendDone = new AtomicIntegerArray(isoCap);
        qType = new int[isoCap];
        qDest = new int[isoCap];
        qSubtype = new int[isoCap];
        qPrefix = new int[isoCap];
        qIsoId = new int[isoCap];
        qOrd = new long[isoCap];
        qLength = new int[isoCap];
        qAddress = new long[isoCap];
        qOperand = new long[isoCap];
        qBits = new int[isoCap];
        int hit = config.hitBufSize();
        this.hitBuf = arena.allocate((long) hit * maxPayload, 64);
        this.hitLength = new int[hit];
        int sr = config.selfRefBufSize();
        srSubtype = new int[sr];
        srAddress = new long[sr];
        srOperand = new long[sr];
        creditsUsed = new long[hosts];
        peerCredits = new int[hosts];
        java.util.Arrays.fill(peerCredits, credits);
        creditsFreedByPeer = new long[hosts];
        yourFreed = new long[hosts];
        yourFreedReported = new long[hosts];
        this.ordReceive = arena.allocate((long) hosts * credits * maxPayload, 64);
        this.ordSlots = new MemorySegment[hosts * credits];
        for (int i = 0; i < ordSlots.length; i++) {
            ordSlots[i] = ordReceive.asSlice((long) i * maxPayload, maxPayload);
        }
        this.receiveSlots = new ReceiveSlots(me, hosts, credits, maxPayload, ordReceive);
        java.util.Arrays.fill(bucketPulse, -1);
        bucketCapacity = config.bucketCapacity(hosts);
        int bs = Math.min(bucketCapacity, 256); // buckets grow, rarely, up to bucketCapacity
        bType = new int[256][bs];
        bSender = new int[256][bs];
        bSlot = new int[256][bs];
        bLength = new int[256][bs];
        bAddress = new long[256][bs];
        bOperand = new long[256][bs];
        int hq = 8192;
        hqIsoId = new int[hq];
        hqSelf = new int[hq];
        dCap = 16384;
        dType = new int[dCap];
        dSender = new int[dCap];
        dA = new int[dCap];
        dLength = new int[dCap];
        dAddress = new long[dCap];
        dOperand = new long[dCap];
        dPulse = new long[dCap];
    }

    public void sharedMemoryMode(SRefExecutor sRefExecutor) {
        this.smm = true;
        this.executor = sRefExecutor;
    }

    public void noticeSource(NoticeSource source) {
        this.notices = source;
    }

    // =========================================================================================================
    // send side (iso_send, iso_end, sRefs, bs-markers)
    // =========================================================================================================

    /** iso_send (digest §2.6, §2.10). */
    public int isoSend(int target, MemorySegment data, int size, boolean last) {
        if (target < 0 || target >= hosts || size < 0 || size > maxPayload || size > data.byteSize()) {
            return FAILURE;
        }
        if (target == me) {
            if (!ordering || hitT - hitH == hitLength.length) {
                return FAILURE; // MBM 1 has no self-messages; a full hit_buf fails (A6)
            }
            int i = (int) (hitT % hitLength.length);
            MemorySegment.copy(data, 0, hitBuf, (long) i * maxPayload, size);
            hitLength[i] = size;
            hitT++;
            selfCount++;
        } else {
            if (!roomForNetPacket()) {
                return FAILURE;
            }
            long ord = ordTail++;
            int oi = (int) (ord % isoCap);
            ordSendDone.set(oi, 0);
            MemorySegment.copy(data, 0, ordSend, (long) oi * maxPayload, size);
            startIsoPacket(target, ISO_MBM, ord, size, 0, 0);
        }
        if (last) {
            eoiFound();
        }
        return SUCCESS;
    }

    /** Whether a net packet fits now (ordered and Isotach send buffers, counting an undecided tail). */
    private boolean roomForNetPacket() {
        reclaimOrdSend();
        long used = isoT - isoH + (eoiDecided ? 0 : 1);
        return used + 1 < isoCap && ordTail - ordHead < isoCap;
    }

    /** Room for {@code n} more sRefs (net) in the Isotach send buffer. */
    public boolean roomForNetRefs(int n) {
        long used = isoT - isoH + (eoiDecided ? 0 : 1);
        return used + n < isoCap;
    }

    public boolean roomForSelfRef() {
        return srT - srH < srSubtype.length;
    }

    /** A shared-memory reference to another host's copy (net-ref). */
    public void netRef(int target, int subtype, long address, long operand) {
        startIsoPacket(target, subtype, -1, 0, address, operand);
    }

    /** A shared-memory reference to this host's copy (self-ref, executed with the isochron's marker). */
    public void selfRef(int subtype, long address, long operand) {
        int i = (int) (srT % srSubtype.length);
        srSubtype[i] = subtype;
        srAddress[i] = address;
        srOperand[i] = operand;
        srT++;
        selfCount++;
    }

    private void startIsoPacket(int target, int subtype, long ord, int size, long address, long operand) {
        if (!eoiDecided) {
            isoT++; // the previous net packet was not the isochron's last
        }
        eoiDecided = false;
        int i = (int) (isoT % isoCap);
        int prefix = 0;
        if (!midNetIsochron) {
            midNetIsochron = true;
            prefix = Frame.PREFIX_SOI | (seqConSet ? Frame.PREFIX_SEQ_CON_SET : 0);
            seqConSet = !seqConSet;
        }
        qType[i] = 1;
        qDest[i] = target;
        qSubtype[i] = subtype;
        qPrefix[i] = prefix;
        qIsoId[i] = netIsochronsSent;
        qOrd[i] = ord;
        qLength[i] = size;
        qAddress[i] = address;
        qOperand[i] = operand;
    }

    /** iso_end (L1367-1370): EOI_found; a no-op when nothing is pending (A18). */
    public int isoEnd() {
        eoiFound();
        return SUCCESS;
    }

    public boolean midIsochron() {
        return midNetIsochron || selfCount > 0;
    }

    /** Whether a net isochron has begun and not ended (signals and barriers are refused then, L1649). */
    public boolean midNetIsochron() {
        return midNetIsochron;
    }

    private void eoiFound() {
        if (!eoiDecided) {
            int i = (int) (isoT % isoCap);
            qPrefix[i] |= Frame.PREFIX_EOI;
            isoT++;
            eoiDecided = true;
        }
        if (midNetIsochron) {
            if (ordering) { // MBM 1 ignores isochron markers (I-014): nothing to match them against
                postIsochron(true, selfCount, netIsochronsSent);
            }
            netIsochronsSent = (netIsochronsSent + 1) % 256;
            midNetIsochron = false;
        } else if (selfCount > 0) {
            postIsochron(false, selfCount, -1);
        }
        selfCount = 0;
    }

    /** Queues a bs-marker behind every Isotach packet issued before it; false when the buffer is full. */
    public boolean enqueueBsMarker(int bits, int count, boolean automatic) {
        if (midNetIsochron || !roomForBsMarker()) {
            return false;
        }
        int i = (int) (isoT % isoCap);
        qType[i] = 2;
        qBits[i] = bits;
        qLength[i] = count;
        qAddress[i] = automatic ? 1 : 0;
        isoT++;
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
    public boolean roomForBsMarker() {
        return isoT - isoH + 1 < isoCap;
    }

    /** iso_flow + iso_shipping: approves released packets in FIFO order while credits last (§3.3). */
    public void flow() {
        while (isoH < isoT) {
            int i = (int) (isoH % isoCap);
            if (qType[i] == 2) {
                siu.shipBsMarker(qBits[i], qLength[i], qAddress[i] != 0); // bs-markers need no credit, but keep their place (L500)
                isoH++;
                continue;
            }
            int d = qDest[i];
            if (creditsUsed[d] - creditsFreedByPeer[d] >= peerCredits[d] - 1) {
                return; // head-of-line: later packets and bs-markers wait too (I-110)
            }
            int slot = (int) (creditsUsed[d] % peerCredits[d]);
            creditsUsed[d]++;
            boolean present = yourFreed[d] != yourFreedReported[d];
            long credit = yourFreed[d];
            yourFreedReported[d] = credit;
            long ord = qOrd[i];
            MemorySegment payload = MemorySegment.NULL;
            long offset = 0;
            long token = org.portals3j.transport.Transport.NO_NOTIFY;
            if (ord >= 0) {
                int oi = (int) (ord % isoCap);
                payload = ordSend;
                offset = (long) oi * maxPayload;
                token = TOKEN_TAG | oi;
            }
            isoH++;
            siu.ship(d, qSubtype[i], qPrefix[i], qIsoId[i], slot, qLength[i], qAddress[i], qOperand[i],
                    present, credit, payload, offset, token);
            if (ord >= 0 && qLength[i] == 0) {
                ordSendDone.set((int) (ord % isoCap), 1); // nothing to read: no completion will matter
            }
        }
    }

    /** A send of an ordered payload completed (transport side): its slot may be reused. */
    public void onSendComplete(long token) {
        if ((token & (0xFFL << 56)) == TOKEN_TAG) {
            ordSendDone.set((int) (token & 0xFFFFFF), 1);
        }
    }

    private void reclaimOrdSend() {
        while (ordHead < ordTail && ordSendDone.get((int) (ordHead % isoCap)) == 1) {
            ordHead++;
        }
        // Slots whose packet has not been approved yet are not done: they keep ordHead back, which is what we want.
    }

    public boolean sendBuffersEmpty() {
        return isoH == isoT && eoiDecided;
    }

    // =========================================================================================================
    // transport side: where an ISO frame's payload goes
    // =========================================================================================================

    /** The transport side's view of the ordered receive slots: the engine keeps it, and never reads this host's fields. */
    public ReceiveSlots receiveSlots() {
        return receiveSlots;
    }

    /** {@link ReceiveSlots#offsetFor}, as the slot itself (null when refused). */
    public @org.checkerframework.checker.nullness.qual.Nullable MemorySegment receiveSlot(int source, MemorySegment h, long payloadLength) {
        long at = receiveSlots.offsetFor(source, h, payloadLength);
        return at < 0 ? null : ordReceive.asSlice(at, maxPayload);
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
                    if (!ordering) {
                        appendDelivery(record.a == ISO_MBM ? D_POINTER : D_SREF, record.peer, record.b, record.c,
                                record.address, record.operand, record.pulse);
                    } else {
                        bucket(record.pulse, record.a, record.peer, record.b, record.c, record.address, record.operand);
                    }
                }
                case HostLink.MARKER -> {
                    if (ordering) {
                        bucket(record.pulse, 0, me, record.a, 0, 0, 0);
                    }
                }
                case HostLink.EOP -> endOfPulses(record.fromPulse, record.pulse, record.a, record.b, record.sortVector);
                case HostLink.CREDIT -> creditsFreedByPeer[record.peer] =
                        Math.max(creditsFreedByPeer[record.peer], record.address);
                case HostLink.SYNC -> listener.onSync(record.peer, record.a, record.b, record.c);
                case HostLink.PEER_DOWN -> listener.onPeerDown(record.peer);
                case HostLink.FATAL -> throw new IsotachFatalError(record.message);
                default -> throw new IsotachFatalError("unknown link record " + record.type);
            }
        }
    }

    private void growBucket(int b, int entries) {
        bType[b] = java.util.Arrays.copyOf(bType[b], entries);
        bSender[b] = java.util.Arrays.copyOf(bSender[b], entries);
        bSlot[b] = java.util.Arrays.copyOf(bSlot[b], entries);
        bLength[b] = java.util.Arrays.copyOf(bLength[b], entries);
        bAddress[b] = java.util.Arrays.copyOf(bAddress[b], entries);
        bOperand[b] = java.util.Arrays.copyOf(bOperand[b], entries);
    }

    private void bucket(long pulse, int subtype, int sender, int slot, int length, long address, long operand) {
        int b = (int) (pulse & 0xFF);
        if (bucketPulse[b] != pulse) {
            if (bucketPulse[b] > closedPulse) {
                throw new IsotachFatalError("bucket " + b + " holds pulse " + bucketPulse[b] + " and pulse " + pulse);
            }
            bucketPulse[b] = pulse;
            bucketSize[b] = 0;
        }
        int n = bucketSize[b];
        if (n == bType[b].length) {
            if (n == bucketCapacity) {
                throw new IsotachFatalError("bucket overflow: more than " + n + " entries at pulse " + pulse); // I-112
            }
            growBucket(b, (int) Math.min(bucketCapacity, 2L * n));
        }
        bType[b][n] = subtype;
        bSender[b][n] = sender;
        bSlot[b][n] = slot;
        bLength[b][n] = length;
        bAddress[b][n] = address;
        bOperand[b][n] = operand;
        bucketSize[b] = n + 1;
    }

    private void endOfPulses(long from, long to, int count, int bits, byte[] sortVector) {
        for (long p = from; p <= to; p++) {
            if (p != closedPulse + 1) {
                throw new IsotachFatalError("EOP for pulse " + p + " after pulse " + closedPulse); // I-007
            }
            boolean last = p == to;
            endOfPulse(p, last ? count : 0, last ? bits : 0, sortVector);
        }
    }

    /** EOP processing (L2463-2466): count check, order, then the pulse's signal and barrier notices. */
    private void endOfPulse(long p, int count, int bits, byte[] sortVector) {
        int b = (int) (p & 0xFF);
        int n = bucketPulse[b] == p ? bucketSize[b] : 0;
        int local = bucketPulse[b] == p ? localEntries[b] : 0;
        localEntries[b] = 0;
        if (ordering && n - local != count) {
            throw new IsotachFatalError("EOP count " + count + " but " + n + " entries for pulse " + p); // I-006
        }
        pulsesProcessed++;
        if (ordering && n > 0) {
            if (local > 0) {
                // Host-local entries are not in the SIU's sort vector: order the whole bucket by sender.
                for (int s = 0; s < hosts; s++) {
                    for (int k = 0; k < n; k++) {
                        if (bSender[b][k] == s) {
                            processEntry(b, k, p);
                        }
                    }
                }
            } else if (n <= 32) {
                for (int k = 0; k < n; k++) {
                    int idx = sortVector[k];
                    if (idx < 0 || idx >= n) {
                        throw new IsotachFatalError("sort vector index " + idx + " outside a bucket of " + n);
                    }
                    processEntry(b, idx, p);
                }
            } else {
                // More than the sort vector can hold: by sender id, stable in arrival order (L2465).
                for (int s = 0; s < hosts; s++) {
                    for (int k = 0; k < n; k++) {
                        if (bSender[b][k] == s) {
                            processEntry(b, k, p);
                        }
                    }
                }
            }
            bucketSize[b] = 0;
        }
        closedPulse = p;
        if (bits != 0) {
            int sig = notices.signals(bits & 0xFC); // also counts resets, in every version
            if (sig != 0 && ordering) { // MBM 1 queues no notices (I-014, L2450-2456)
                appendDelivery(D_NOTICE, -1, sig, 0, 0, 0, p);
            }
            if (ordering) {
                int bar = notices.barriers(bits & 0x03);
                if (bar != 0) {
                    appendDelivery(D_NOTICE, -1, bar, 0, 0, 0, p);
                }
            }
        }
    }

    private void processEntry(int b, int k, long p) {
        int subtype = bType[b][k];
        if (subtype == SELF_SLOT) {
            appendDelivery(D_SLOT, me, bSlot[b][k], 0, 0, 0, p);
        } else if (subtype == 0) {
            // isochron marker: must match the oldest outstanding net-isochron (I-021)
            if (hqH == hqT) {
                throw new IsotachFatalError("isochron marker " + bSlot[b][k] + " with no isochron outstanding");
            }
            int hi = (int) (hqH % hqIsoId.length);
            if (hqIsoId[hi] != bSlot[b][k]) {
                throw new IsotachFatalError("isochron marker " + bSlot[b][k] + " but isochron " + hqIsoId[hi] + " is oldest");
            }
            if (hqSelf[hi] > 0) {
                appendDelivery(D_SLOT, me, hqSelf[hi], 0, 0, 0, p);
            }
            hqH++;
        } else if (subtype == ISO_MBM) {
            appendDelivery(D_POINTER, bSender[b][k], bSlot[b][k], bLength[b][k], 0, 0, p);
        } else {
            appendDelivery(D_SREF, bSender[b][k], subtype, 0, bAddress[b][k], bOperand[b][k], p);
        }
    }

    /** post_isochron (L352-358, C L12196-12253), with the zero-count guard of A18. */
    private void postIsochron(boolean net, int self, int id) {
        if (net) {
            if (hqT - hqH == hqIsoId.length) {
                throw new IsotachFatalError("hit_q overflow");
            }
            int i = (int) (hqT % hqIsoId.length);
            hqIsoId[i] = id;
            hqSelf[i] = self;
            hqT++;
        } else if (hqH == hqT && smm) {
            // Shared memory: the references execute in the next pulse at this host's place among that pulse's
            // senders, as if looped back through the network (the alternative of L341), so that every copy's
            // history stays in (pulse, sender, issue) order (G7).
            bucket(closedPulse + 1, SELF_SLOT, me, self, 0, 0, 0);
            localEntries[(int) ((closedPulse + 1) & 0xFF)]++;
        } else if (hqH == hqT) {
            long pulse = closedPulse;
            if (dH < dT) {
                int t = (int) ((dT - 1) % dCap);
                if (dType[t] == D_SLOT) {
                    dA[t] += self;
                    return;
                }
            }
            appendDelivery(D_SLOT, me, self, 0, 0, 0, pulse);
        } else {
            int t = (int) ((hqT - 1) % hqIsoId.length);
            hqSelf[t] += self;
        }
    }

    private void appendDelivery(int type, int sender, int a, int length, long address, long operand, long pulse) {
        if (dT - dH == dCap) {
            throw new IsotachFatalError("iso_delivery_q overflow");
        }
        int i = (int) (dT % dCap);
        dType[i] = type;
        dSender[i] = sender;
        dA[i] = a;
        dLength[i] = length;
        dAddress[i] = address;
        dOperand[i] = operand;
        dPulse[i] = pulse;
        dT++;
    }

    // =========================================================================================================
    // delivery
    // =========================================================================================================

    /** iso_receive (L2053-2090) without its poll (the engine polls). */
    public int isoReceive(IsoMessage m) {
        releaseLast();
        m.clear();
        if (smm) {
            // SMM hosts receive only notices here (L3432); references are executed, not delivered.
            if (dH < dT && dType[(int) (dH % dCap)] == D_NOTICE) {
                int i = (int) (dH % dCap);
                m.setNotice(dA[i], dPulse[i]);
                dH++;
                return SUCCESS;
            }
            return NO_MESSAGE;
        }
        if (dH == dT) {
            return NO_MESSAGE;
        }
        int i = (int) (dH % dCap);
        switch (dType[i]) {
            case D_POINTER -> {
                int s = dSender[i];
                m.setMessage(s, ordReceive, (long) (s * credits + dA[i]) * maxPayload, dLength[i], dPulse[i]);
                lastDelivered = s;
                dH++;
                delivered++;
            }
            case D_SLOT -> {
                int hi = (int) (hitH % hitLength.length);
                m.setMessage(me, hitBuf, (long) hi * maxPayload, hitLength[hi], dPulse[i]);
                lastDelivered = me;
                selfDelivered++;
                if (--dA[i] == 0) {
                    dH++;
                }
            }
            case D_NOTICE -> {
                m.setNotice(dA[i], dPulse[i]);
                dH++;
            }
            default -> throw new IsotachFatalError("shared-memory reference in an MBM delivery queue");
        }
        return SUCCESS;
    }

    /** Whether something is ready for {@code isoReceive}. */
    public boolean hasDelivery() {
        if (dH == dT) {
            return false;
        }
        return !smm || dType[(int) (dH % dCap)] == D_NOTICE;
    }

    /** Frees what the previous iso_receive handed out (deferred deletion, L2055-2059). */
    private void releaseLast() {
        if (lastDelivered == -2) {
            return;
        }
        if (lastDelivered == me) {
            hitH++;
        } else {
            freeCredit(lastDelivered);
        }
        lastDelivered = -2;
    }

    /** iso_delete_packet (L2324-2334): one more of {@code sender}'s packets consumed; explicit credit at threshold. */
    private void freeCredit(int sender) {
        yourFreed[sender]++;
        if (yourFreed[sender] - yourFreedReported[sender] >= explicitCreditThreshold) {
            MemorySegment f = creditFrame;
            Frame.start(f, Frame.ISO_CREDIT);
            Frame.i64(f, Frame.O_LONG8, yourFreed[sender]);
            yourFreedReported[sender] = yourFreed[sender];
            explicitCredits++;
            siu.sendControl(sender, f, Frame.ISO_CREDIT_LENGTH);
        }
    }

    /** SMM: executes queued references in isotach order; stops at one that cannot complete yet. */
    public void executeReferences() {
        if (!smm) {
            return;
        }
        while (dH < dT) {
            int i = (int) (dH % dCap);
            switch (dType[i]) {
                case D_SREF -> {
                    if (!executor.execute(dA[i], dSender[i], dAddress[i], dOperand[i], dPulse[i])) {
                        return;
                    }
                    freeCredit(dSender[i]);
                    dH++;
                }
                case D_SLOT -> {
                    while (dA[i] > 0) {
                        int si = (int) (srH % srSubtype.length);
                        if (!executor.execute(srSubtype[si], me, srAddress[si], srOperand[si], dPulse[i])) {
                            return;
                        }
                        srH++;
                        dA[i]--;
                    }
                    dH++;
                }
                case D_NOTICE -> {
                    return; // left for isoReceive
                }
                default -> throw new IsotachFatalError("iso-pointer in a shared-memory host");
            }
        }
    }

    /** The last pulse the ordering module processed. */
    public long closedPulse() {
        return closedPulse;
    }

    public void close() {
        // The arena is automatic: memory goes when the last reference (a late deposit, say) is gone.
    }

    public void counters(java.util.Map<String, Long> m) {
        m.put("host.closedPulse", closedPulse);
        m.put("host.pulsesProcessed", pulsesProcessed);
        m.put("host.isoDelivered", delivered);
        m.put("host.selfDelivered", selfDelivered);
        m.put("host.isoCreditExplicit", explicitCredits);
        m.put("host.deliveryQueue", dT - dH);
        m.put("host.outstandingIsochrons", hqT - hqH);
        m.put("host.isoSendQueue", isoT - isoH);
    }

    int me() {
        return me;
    }
}
