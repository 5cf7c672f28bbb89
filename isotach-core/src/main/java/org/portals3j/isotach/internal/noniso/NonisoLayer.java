package org.portals3j.isotach.internal.noniso;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.Transport;

/**
 * One host's non-Isotach protocols (noniso messages, the noniso barrier, specific sender-based flow control): the
 * host's calls and poll on its thread, frames through {@link NonisoFrameReceiver} on the transport's.
 */
public final class NonisoLayer {
    /** C {@code SUCCESS}. */
    public static final int SUCCESS = 0;
    /** C {@code FAILURE}. */
    public static final int FAILURE = 1;
    /** Nothing to receive (Appendix A's -1, Isotach report App. A.3, pp. 96-97; our choice). */
    public static final int NO_MESSAGE = -1;

    /** Completion tokens this module issues carry 0x01 in their top byte (0x02 is the engine's). */
    static final long TOKEN_OWNER = 0x01L;
    private static final int TOKEN_SHIFT = 56;

    private static final int SEND_QUEUED = 0;
    private static final int SEND_IN_FLIGHT = 1;
    private static final int SEND_DONE = 2;

    /** What the engine does with arrivals that are not application messages. */
    public interface Upcalls {
        /**
         * A read response arrived (SMM, Isotach report §3.4.3, pp. 14-18; §7.4.5, pp. 69-72): called on the HOST thread
         * from {@link #poll()}. The response's receive slot has already been freed when this runs.
         */
        void onReadResponse(int source, long value, int readSlot, long pulse);
    }

    private final int me;
    private final int hosts;
    private final int maxPayload;
    private final Transport transport;
    private final Upcalls upcalls;
    private final NonisoCounters counters = new NonisoCounters();
    /**
     * Freed by the collector, never explicitly: the layer does not own the transport, and a transport thread may
     * still be depositing into a receive slot when the application closes the layer.
     */
    private final Arena arena = Arena.ofAuto();

    // ---- receive side ---------------------------------------------------------------------------------------
    /** Slots this host reserves for each peer (the report's REMOTE_NONISO_SIZE). */
    private final int ring;
    /**
     * Freed-but-unreported slots that make the receiver send an explicit credit packet (Isotach report §7.1.2,
     * pp. 59-62; §7.1.3, pp. 59-62).
     */
    private final int creditThresholdSlots;
    /**
     * The rings of all peers, one after the other (none for this host: no noniso self-messages, Isotach report §6.1.2,
     * pp. 40-41).
     */
    private final MemorySegment receiveRegion;

    /** The transport side: frames checked and deposited, arrivals handed over. */
    private final NonisoFrameReceiver receiver;
    /** What the two sides publish to each other. */
    private final NonisoPeerState peers;
    private final HandoffQueue handoff;

    // Host side.
    /** Data-ring descriptors the host has taken off the handoff queue, per source. */
    private final long[] hostArrivals;
    /** Slots freed per source: the report's receive_h (Isotach report §7.1.3, pp. 59-62). */
    private final long[] freed;
    /** The freed count last reported to each source: receive_last_h (Isotach report §7.1.3, pp. 59-62). */
    private final long[] lastReported;
    /** Slots freed out of order (a read response behind an undelivered message), per source x ring. */
    private final boolean[] released;
    /** Exact-length views of the slots, reused while a slot's messages keep their length. */
    private final MemorySegment[] views;
    /** delivery_q (Isotach report §4.1, pp. 26-30): sized to every slot that can be occupied, so it cannot overflow. */
    private final int[] deliverySource;
    private final int[] deliverySlot;
    private final int[] deliveryLength;
    private long deliveryHead;
    private long deliveryTail;
    /**
     * The message the last receive() handed out; freed at the next receive() (Isotach report §3.1.2, pp. 8-9, I-097).
     */
    private int heldSource = -1;
    private int heldSlot;

    // ---- send side ------------------------------------------------------------------------------------------
    /**
     * send_buf (Isotach report §4.1, pp. 26-30): payloads off-heap (the transport reads them until completion),
     * metadata on heap.
     */
    private final int sendCap;
    private final MemorySegment sendRegion;
    private final int[] sendTarget;
    private final int[] sendLength;
    private final byte[] sendKind;
    private final long[] sendValue;
    private final int[] sendReadSlot;
    private final long[] sendPulse;
    /** Per send_buf cell: queued, in flight (payload lent to the transport), done. */
    private final AtomicIntegerArray sendState;
    /** The next cell {@code send} writes (the report's send_t). */
    private long sendTail;
    /** The next cell flow control approves and ships (send_flow_ptr). */
    private long nextToApprove;
    /** The oldest cell not yet reusable (send_h). */
    private long sendHead;
    /**
     * Ring size each peer reserved for us (learned at open_net sync, Isotach report §3.6.1, pp. 20-23); the report's
     * remote_noniso_size.
     */
    private final int[] remoteSlots;
    /** remote_t as a counter: data-ring slots assigned per destination. */
    private final long[] assigned;
    /** Consecutive approval passes blocked on credit (Isotach report §7.1.2, pp. 59-62; §7.1.3, pp. 59-62). */
    private int sendAttempts;
    private final int maxSendAttempts;
    private final MemorySegment header;

    // ---- barrier --------------------------------------------------------------------------------------------
    private long barrierGen;
    private boolean inBarrier;

    private boolean polling;

    /**
     * @param me this host's id, which is its transport rank
     * @param hosts the number of hosts (node ids 0..hosts-1 are transport ranks)
     * @throws IllegalArgumentException if the ids do not fit the transport or the transport cannot carry this
     *         module's frames (40 header bytes, {@code maxPayload} payload bytes)
     */
    public NonisoLayer(int me, int hosts, IsotachConfig config, Transport transport, Upcalls upcalls) {
        Objects.requireNonNull(config, "config");
        this.transport = Objects.requireNonNull(transport, "transport");
        this.upcalls = Objects.requireNonNull(upcalls, "upcalls");
        if (hosts < 1 || me < 0 || me >= hosts || hosts > transport.size() || transport.rank() != me) {
            throw new IllegalArgumentException("host " + me + " of " + hosts + " does not fit rank "
                    + transport.rank() + " of a transport of " + transport.size() + " ranks");
        }
        if (transport.maxHeaderLength() < NonisoFrame.MAX_LENGTH) {
            throw new IllegalArgumentException("transport headers of " + transport.maxHeaderLength()
                    + " bytes cannot carry noniso frames of " + NonisoFrame.MAX_LENGTH);
        }
        if (transport.maxPayloadLength() < config.maxPayload()) {
            throw new IllegalArgumentException("transport payloads of " + transport.maxPayloadLength()
                    + " bytes are smaller than the configured max payload " + config.maxPayload());
        }
        this.me = me;
        this.hosts = hosts;
        this.maxPayload = config.maxPayload();
        this.ring = config.nonisoSlotsPerPeer();
        this.maxSendAttempts = config.maxSendAttempts();
        // The report: threshold = ring x CREDIT_PACKET_THRESHOLD_PERCENTAGE, sent when the distance exceeds it
        // (Isotach report §7.1.2, pp. 59-62; §7.1.3, pp. 59-62). At most ring - 1 slots can be outstanding
        // (Isotach report §7.1.3, pp. 59-62), so a threshold above that would never fire for one-way traffic; clamp it
        // to [1, ring - 1] and compare with >= (A14).
        this.creditThresholdSlots = (int) Math.max(1, Math.min(ring - 1L,
                (long) Math.floor(ring * config.creditThreshold())));

        int otherHosts = hosts - 1;
        this.receiveRegion = arena.allocate(Math.max(1L, (long) otherHosts * ring * maxPayload), 8);
        this.peers = new NonisoPeerState(hosts);
        // Every descriptor stands for an occupied ring slot and a sender keeps at most ring - 1 occupied
        // (enforced by the receiver's overrun check), so this capacity cannot be exceeded.
        int occupiable = Math.max(1, otherHosts * (ring - 1));
        this.handoff = new HandoffQueue(occupiable);
        this.receiver = new NonisoFrameReceiver(me, hosts, maxPayload, ring, receiveRegion, peers, handoff, counters);

        this.hostArrivals = new long[hosts];
        this.freed = new long[hosts];
        this.lastReported = new long[hosts];
        this.released = new boolean[hosts * ring];
        this.views = new MemorySegment[hosts * ring];
        for (int s = 0; s < hosts; s++) {
            for (int slot = 0; slot < ring; slot++) {
                views[s * ring + slot] = s == me ? MemorySegment.NULL
                        : receiveRegion.asSlice(slotOffset(me, ring, maxPayload, s, slot), 0);
            }
        }
        this.deliverySource = new int[occupiable];
        this.deliverySlot = new int[occupiable];
        this.deliveryLength = new int[occupiable];

        this.sendCap = config.sendBufSize();
        this.sendRegion = arena.allocate((long) sendCap * maxPayload, 8);
        this.sendTarget = new int[sendCap];
        this.sendLength = new int[sendCap];
        this.sendKind = new byte[sendCap];
        this.sendValue = new long[sendCap];
        this.sendReadSlot = new int[sendCap];
        this.sendPulse = new long[sendCap];
        this.sendState = new AtomicIntegerArray(sendCap);
        this.remoteSlots = new int[hosts];
        Arrays.fill(remoteSlots, ring);
        this.assigned = new long[hosts];
        this.header = arena.allocate(NonisoFrame.MAX_LENGTH, 8);
    }

    /** Whether a frame kind belongs to this module: 0x20..0x2F. */
    public static boolean owns(byte kind) {
        return (kind & 0xF0) == 0x20;
    }

    /**
     * The number of slots {@code peer} reserved for this host (learned from its sync packet at open_net,
     * Isotach report §3.6.1, pp. 20-23, I-132). Must be called before the first packet to that peer; the default is
     * {@code config.nonisoSlotsPerPeer()}.
     */
    public void peerRegion(int peer, int slots) {
        if (peer < 0 || peer >= hosts || peer == me) {
            throw new IllegalArgumentException("peer " + peer + " is not a remote host");
        }
        if (slots < 2) {
            throw new IllegalArgumentException("a receive ring needs at least 2 slots, peer " + peer + " gave "
                    + slots);
        }
        if (assigned[peer] != 0) {
            throw new IllegalStateException("packets were already sent to host " + peer + " with " + remoteSlots[peer]
                    + " slots");
        }
        remoteSlots[peer] = slots;
    }

    // ==== host thread: API ======================================================================================

    /**
     * send (Isotach report §6.1.2, pp. 40-41; App. A.3, pp. 96-97): queues a copy of {@code data[0, size)} for {@code
     * target}; the caller may reuse {@code data} at once. Then polls.
     *
     * @return {@link #SUCCESS}, or {@link #FAILURE} when {@code target} is not a remote live host (no noniso
     *         self-messages, Isotach report §6.1.2, pp. 40-41; App. A.3, pp. 96-97; I-116), {@code size} is negative,
     *         larger than the max payload or than {@code data}, or send_buf is full (Isotach report §6.1.2, pp. 40-41).
     *         A failed send changes no queued packet (A1, I-117).
     */
    public int send(int target, MemorySegment data, int size) {
        Objects.requireNonNull(data, "data");
        // Completions arrive asynchronously (the report's shipping freed send_h synchronously); reclaim first so
        // "full" means full now.
        retireCompleted();
        if (!remoteTarget(target) || size < 0 || size > maxPayload || size > data.byteSize() || sendBufFull()) {
            counters.inc(NonisoCounters.SEND_REJECTED);
            poll();
            return FAILURE;
        }
        int cell = (int) (sendTail % sendCap);
        MemorySegment.copy(data, 0, sendRegion, (long) cell * maxPayload, size);
        sendTarget[cell] = target;
        sendLength[cell] = size;
        sendKind[cell] = NonisoFrame.KIND_DATA;
        sendTail++;
        counters.inc(NonisoCounters.SENT);
        poll();
        return SUCCESS;
    }

    /**
     * A read response for the SMM (Isotach report §3.4.3, pp. 14-18; §7.4.5, pp. 69-72, I-091): a noniso frame through
     * flow control (it takes a receive slot like a message, Isotach report §8.3.4, pp. 73-76). Does not run the full
     * poll (the engine calls this from its own poll, possibly inside an upcall), but approves and ships at once when
     * credit allows.
     *
     * @return {@link #SUCCESS}, or {@link #FAILURE} if {@code target} is not a remote live host or send_buf is
     *         full (the SMM retries later, Isotach report §7.4.5, pp. 69-72)
     */
    public int sendReadResponse(int target, long value, int readSlot, long pulse) {
        retireCompleted();
        if (!remoteTarget(target) || sendBufFull()) {
            counters.inc(NonisoCounters.SEND_REJECTED);
            return FAILURE;
        }
        int cell = (int) (sendTail % sendCap);
        sendTarget[cell] = target;
        sendLength[cell] = 0;
        sendKind[cell] = NonisoFrame.KIND_READ_RESPONSE;
        sendValue[cell] = value;
        sendReadSlot[cell] = readSlot;
        sendPulse[cell] = pulse;
        sendTail++;
        counters.inc(NonisoCounters.READ_RESPONSE_SENT);
        if (!polling) {
            flow();
            retireCompleted();
        }
        return SUCCESS;
    }

    /**
     * receive (Isotach report §6.7.5, pp. 54-56; App. A.3, pp. 96-97): first frees the slot of the message the previous
     * call handed out and returns its credit (Isotach report §3.1.2, pp. 8-9, I-097), then polls, then hands out the
     * oldest arrived message. The payload in {@code m} is a view of the receive slot, valid only until the next call
     * (Isotach report App. A.3, pp. 96-97, I-115).
     *
     * @return {@link #SUCCESS}, or {@link #NO_MESSAGE} (and {@code m} cleared) when nothing is waiting (I-114)
     */
    public int receive(NonisoMessage m) {
        Objects.requireNonNull(m, "m");
        if (heldSource >= 0) {
            int s = heldSource;
            heldSource = -1;
            releaseSlot(s, heldSlot);
        }
        poll();
        if (deliveryHead == deliveryTail) {
            m.clear();
            return NO_MESSAGE;
        }
        int i = (int) (deliveryHead % deliverySource.length);
        int s = deliverySource[i];
        int slot = deliverySlot[i];
        int len = deliveryLength[i];
        deliveryHead++;
        heldSource = s;
        heldSlot = slot;
        m.set(s, view(s, slot, len));
        counters.inc(NonisoCounters.DELIVERED);
        return SUCCESS;
    }

    /**
     * initiate_barrier (Isotach report §6.3.4, pp. 45-47; App. A.4, pp. 97-98): sends a barrier frame to every other
     * host, bypassing flow control (Isotach report §3.2.1, pp. 9-10, I-078).
     *
     * @return {@link #SUCCESS}, or {@link #FAILURE} while the previous barrier is not locally complete (I-075)
     */
    public int initiateBarrier() {
        if (inBarrier) {
            return FAILURE;
        }
        inBarrier = true;
        barrierGen++;
        // Published before the frames leave: a peer's next-generation frame is accepted only up to gen + 1.
        peers.barrierGenerationPublished.set(barrierGen);
        for (int p = 0; p < hosts; p++) {
            if (p != me) {
                sendControl(p, NonisoFrame.KIND_BARRIER, NonisoFrame.CONTROL_BARRIER, false, 0L, barrierGen);
                counters.inc(NonisoCounters.BARRIER_SENT);
            }
        }
        return SUCCESS;
    }

    /**
     * barrier_completed (Isotach report §6.3.4, pp. 45-47; App. A.4, pp. 97-98): polls, then {@link #SUCCESS} exactly
     * once when every other host has reached the barrier this host initiated (I-076); {@link #FAILURE} when no barrier
     * is in progress (I-077) or it is not complete.
     *
     * <p>The peers' generations are read BEFORE the poll: every message a peer sent before its barrier frame
     * (per-peer FIFO) is then in the delivery queue when this returns SUCCESS, so a shutdown that checks
     * {@link #deliveryQueueEmpty()} after a successful barrier cannot miss one (Isotach report App. J, hostman.c,
     * pp. 181-197, I-127).
     */
    public int barrierCompleted() {
        boolean reached = inBarrier && allPeersReached(barrierGen);
        poll();
        if (!inBarrier || !reached) {
            return FAILURE;
        }
        inBarrier = false;
        return SUCCESS;
    }

    /**
     * One pass of the report's noniso_poll (receive_poll, flow_poll, shipping_poll; Isotach report App. J, hostman.c,
     * pp. 181-197): takes the arrivals off the handoff queue (messages to the delivery queue, read responses to the
     * upcall), answers credit requests, approves send_buf in FIFO order and ships, and reclaims send_buf cells the
     * transport has finished with. Reentrant calls (from inside an upcall) return at once.
     */
    public void poll() {
        if (polling) {
            return;
        }
        polling = true;
        try {
            drainArrivals();
            answerCreditRequests();
            flow();
            retireCompleted();
        } finally {
            polling = false;
        }
    }

    /** Whether a message is waiting in the delivery queue (as of the last poll). */
    public boolean hasMessage() {
        return deliveryHead != deliveryTail;
    }

    /** Whether every packet ever queued has been shipped and released by the transport. */
    public boolean sendBufferEmpty() {
        retireCompleted();
        return sendHead == sendTail;
    }

    /** Whether no arrived message is waiting to be received, here or still on the handoff queue. */
    public boolean deliveryQueueEmpty() {
        return deliveryHead == deliveryTail && handoff.isEmpty();
    }

    /** A snapshot of the module's counters by name (noniso.*, credit.*, barrier.*, drop.*, ...). */
    public Map<String, Long> counters() {
        return counters.snapshot();
    }

    // ==== transport side ========================================================================================

    /**
     * Phase one of a frame from {@code source}: validates everything (the header is hostile) and, for a data
     * frame, names its receive slot as the payload's destination. An invalid frame is dropped and counted;
     * nothing is thrown.
     */
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        receiver.onHeader(source, header, headerLength, payloadLength, deposit);
    }

    /** Phase two: the payload of an accepted data frame is in its slot (or failed); hands it to the host. */
    public void onDeposited(int source, Deposit deposit) {
        receiver.onDeposited(source, deposit);
    }

    /** A send this module issued completed; its send_buf cell may be reused at the next poll. */
    public void onSendComplete(long token, boolean delivered) {
        long cell = token & ((1L << TOKEN_SHIFT) - 1);
        if ((token >>> TOKEN_SHIFT) != TOKEN_OWNER || cell >= sendCap
                || !sendState.compareAndSet((int) cell, SEND_IN_FLIGHT, SEND_DONE)) {
            counters.inc(NonisoCounters.TOKEN_UNKNOWN);
            return;
        }
        if (!delivered) {
            counters.inc(NonisoCounters.SEND_UNDELIVERED);
        }
    }

    /**
     * A peer failed: later sends to it fail, and packets already queued for it are discarded at approval so
     * they do not hold back the others forever (head-of-line blocking, Isotach report §7.1, pp. 59-62).
     */
    public void onPeerFailure(int peer) {
        if (peer >= 0 && peer < hosts && peer != me && peers.peerFailed.getAndSet(peer, 1) == 0) {
            counters.inc(NonisoCounters.PEER_FAILURE);
        }
    }

    // ==== host thread: internals ================================================================================

    private boolean remoteTarget(int target) {
        return target >= 0 && target < hosts && target != me && peers.peerFailed.get(target) == 0;
    }

    private boolean sendBufFull() {
        return sendTail - sendHead >= sendCap;
    }

    private long slotOffset(int source, int slot) {
        return slotOffset(me, ring, maxPayload, source, slot);
    }

    /** Where {@code source}'s slot lies in the receive region: the peers' rings in id order, none for us. */
    static long slotOffset(int me, int ring, int maxPayload, int source, int slot) {
        int region = source < me ? source : source - 1;
        return ((long) region * ring + slot) * maxPayload;
    }

    private MemorySegment view(int source, int slot, int len) {
        int i = source * ring + slot;
        MemorySegment v = views[i];
        if (v.byteSize() != len) {
            v = receiveRegion.asSlice(slotOffset(source, slot), len);
            views[i] = v;
        }
        return v;
    }

    /** receive_poll (Isotach report §8.3.4, pp. 73-76) for what the transport side handed over. */
    private void drainArrivals() {
        int cell;
        while ((cell = handoff.peek()) >= 0) {
            byte kind = handoff.kind(cell);
            int s = handoff.source(cell);
            int slot = handoff.slot(cell);
            int len = handoff.length(cell);
            long value = handoff.value(cell);
            int lvar = handoff.lvar(cell);
            long pulse = handoff.pulse(cell);
            handoff.release(cell);
            hostArrivals[s]++;
            if (kind == HandoffQueue.DATA) {
                if (deliveryTail - deliveryHead >= deliverySource.length) {
                    // The report aborts here (Isotach report §8.3.4, pp. 73-76); the credits make it impossible.
                    throw new IsotachFatalError("noniso delivery queue overflow at host " + me);
                }
                int i = (int) (deliveryTail % deliverySource.length);
                deliverySource[i] = s;
                deliverySlot[i] = slot;
                deliveryLength[i] = len;
                deliveryTail++;
            } else if (kind == HandoffQueue.READ_RESPONSE) {
                releaseSlot(s, slot);
                upcalls.onReadResponse(s, value, lvar, pulse);
            } else {
                releaseSlot(s, slot);
            }
        }
    }

    /**
     * delete_packet (Isotach report §7.1.3, pp. 59-62): frees a slot of {@code source}'s ring. The head advances over
     * every slot freed so far in ring order (a read response may be freed while an older message is still undelivered);
     * past the threshold an explicit credit packet goes back (I-099).
     */
    private void releaseSlot(int source, int slot) {
        int base = source * ring;
        released[base + slot] = true;
        long f = freed[source];
        while (f < hostArrivals[source] && released[base + (int) (f % ring)]) {
            released[base + (int) (f % ring)] = false;
            f++;
        }
        freed[source] = f;
        peers.freedPublished.set(source, f);
        if (f - lastReported[source] >= creditThresholdSlots) {
            sendCredit(source);
        }
    }

    /** send_credit_packet (Isotach report §7.1.3, pp. 59-62): the current head, to the credit control slot. */
    private void sendCredit(int dest) {
        lastReported[dest] = freed[dest];
        if (peers.peerFailed.get(dest) == 0) {
            sendControl(dest, NonisoFrame.KIND_CREDIT, NonisoFrame.CONTROL_CREDIT, true, freed[dest], 0L);
            counters.inc(NonisoCounters.CREDIT_EXPLICIT);
        }
    }

    private void answerCreditRequests() {
        if (!peers.takeCreditRequestHint()) {
            return;
        }
        for (int p = 0; p < hosts; p++) {
            if (peers.creditRequested.get(p) != 0 && peers.creditRequested.getAndSet(p, 0) != 0) {
                sendCredit(p); // Isotach report §8.3.4, pp. 73-76, I-101
            }
        }
    }

    /**
     * flow_poll + shipping_poll (Isotach report §7.1, pp. 59-62, §3.1 steps 1-3): approves send_buf in FIFO order; the
     * first packet without credit stops the pass, holding back packets to every destination (Isotach report §7.1,
     * pp. 59-62, I-096). After maxSendAttempts blocked passes in a row, a credit request goes to the blocking
     * destination (I-100).
     */
    private void flow() {
        while (nextToApprove < sendTail) {
            int cell = (int) (nextToApprove % sendCap);
            int j = sendTarget[cell];
            if (peers.peerFailed.get(j) != 0) {
                sendState.set(cell, SEND_DONE);
                counters.inc(NonisoCounters.DROP_PEER_FAILED);
                nextToApprove++;
                continue;
            }
            // (remote_t + 1) mod SIZE == remote_h means full (Isotach report §7.1.3, pp. 59-62): at most ring - 1
            // outstanding (I-093).
            if (assigned[j] - peers.peerFreed.get(j) >= remoteSlots[j] - 1) {
                counters.inc(NonisoCounters.FLOW_BLOCKED);
                if (++sendAttempts >= maxSendAttempts) {
                    sendAttempts = 0;
                    sendControl(j, NonisoFrame.KIND_CREDIT_REQUEST, NonisoFrame.CONTROL_CREDIT_REQUEST, false, 0L, 0L);
                    counters.inc(NonisoCounters.CREDIT_REQUEST);
                }
                return;
            }
            sendAttempts = 0;
            int slot = (int) (assigned[j] % remoteSlots[j]);
            assigned[j]++;
            // Published before the frame leaves, so a credit for it is plausible when it comes back.
            peers.assignedPublished.set(j, assigned[j]);
            ship(cell, j, slot);
            nextToApprove++;
        }
    }

    private void ship(int cell, int j, int slot) {
        // Piggyback the head only when it changed since the last report to j (Isotach report §7.1.3, pp. 59-62, I-098).
        boolean creditPresent = freed[j] != lastReported[j];
        if (creditPresent) {
            lastReported[j] = freed[j];
            counters.inc(NonisoCounters.CREDIT_PIGGYBACK);
        }
        byte kind = sendKind[cell];
        int len = sendLength[cell];
        int headerLength;
        NonisoFrame.writePrefix(header, kind, creditPresent, slot, freed[j]);
        header.set(NonisoFrame.INT, NonisoFrame.OFF_LENGTH, len);
        if (kind == NonisoFrame.KIND_READ_RESPONSE) {
            header.set(NonisoFrame.LONG, NonisoFrame.OFF_VALUE, sendValue[cell]);
            header.set(NonisoFrame.INT, NonisoFrame.OFF_READ_SLOT, sendReadSlot[cell]);
            header.set(NonisoFrame.LONG, NonisoFrame.OFF_PULSE, sendPulse[cell]);
            headerLength = NonisoFrame.READ_RESPONSE_LENGTH;
        } else {
            headerLength = NonisoFrame.DATA_LENGTH;
        }
        counters.inc(NonisoCounters.SHIPPED);
        try {
            if (len > 0) {
                // The transport reads the payload from the cell until it completes the send; set the state
                // first, since the completion may come before send() returns.
                sendState.set(cell, SEND_IN_FLIGHT);
                transport.send(j, header, headerLength, sendRegion, (long) cell * maxPayload, len,
                        (TOKEN_OWNER << TOKEN_SHIFT) | cell);
            } else {
                sendState.set(cell, SEND_DONE);
                transport.send(j, header, headerLength, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
            }
        } catch (IllegalStateException closed) {
            sendState.set(cell, SEND_DONE);
            counters.inc(NonisoCounters.SHIP_FAILED);
        }
    }

    /**
     * ship_packet for control frames (Isotach report §8.1.1, pp. 72-73; §8.1.3, pp. 72-73): header only, outside flow
     * control.
     */
    private void sendControl(int dest, byte kind, int control, boolean creditPresent, long credit, long generation) {
        NonisoFrame.writePrefix(header, kind, creditPresent, remoteSlots[dest] + control, credit);
        int length = NonisoFrame.lengthOf(kind);
        if (kind == NonisoFrame.KIND_BARRIER) {
            header.set(NonisoFrame.LONG, NonisoFrame.OFF_GENERATION, generation);
        }
        try {
            transport.send(dest, header, length, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
        } catch (IllegalStateException closed) {
            counters.inc(NonisoCounters.SHIP_FAILED);
        }
    }

    /** send_h: reclaims cells in order once the transport no longer reads them. */
    private void retireCompleted() {
        while (sendHead < nextToApprove) {
            int cell = (int) (sendHead % sendCap);
            if (sendState.get(cell) != SEND_DONE) {
                return;
            }
            sendState.set(cell, SEND_QUEUED);
            sendHead++;
        }
    }

    private boolean allPeersReached(long generation) {
        for (int p = 0; p < hosts; p++) {
            if (p != me && peers.barrierSeen.get(p) < generation) {
                return false;
            }
        }
        return true;
    }

    // ==== for tests in this package =============================================================================

    /** Data-ring packets sent to {@code peer} that it has not yet reported freed. */
    long outstanding(int peer) {
        return assigned[peer] - peers.peerFreed.get(peer);
    }

    /** Packets in send_buf not yet approved by flow control. */
    long unapproved() {
        return sendTail - nextToApprove;
    }

    int creditThresholdSlots() {
        return creditThresholdSlots;
    }

    long counter(int index) {
        return counters.get(index);
    }
}
