package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.LongSupplier;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Transport;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * One rank's emulated Isotach hardware: its switch interface unit (SIU) and, on the rank that runs it, the token
 * manager (TM). The report needed both as devices (L142) and specified only what the host sees of them; this is
 * the software design of digest §1.9, meeting every item of the emulation contract §1.8:
 *
 * <ol>
 * <li><b>Clock.</b> The TM issues {@code TOKEN(T)} for T = 0, 1, 2, ... to every SIU, at most
 *     {@code tokenWindow} ahead of the slowest SIU's acknowledgement. It issues the next token as soon as the
 *     window allows while any SIU reports work in flight or an effect is pending, and otherwise once per
 *     {@code idleTickMicros} (I-144), so an idle job does not spin.</li>
 * <li><b>Stamping.</b> The SIU holds an isochron's packets from SOI until EOI (as the hardware did, L1191) and
 *     stamps all of them with one timestamp {@code TS = max(T_cur + max distance to its destinations, last TS)}
 *     (items 1-3): one TS per isochron, in the future for every destination, non-decreasing per sender. The
 *     isochron marker {@code (TS, iso id)} goes to its own host.</li>
 * <li><b>Pulse marks.</b> On {@code TOKEN(T)} the SIU sends {@code PULSE_MARK(T-1)} on every link, behind every
 *     packet it stamped under earlier tokens. A mark doubles as the TM's acknowledgement.</li>
 * <li><b>Marking ahead.</b> An SIU stamping an isochron under token T may mark T at once, behind the isochron's
 *     packets, instead of when {@code TOKEN(T+1)} comes: its {@code T_cur} becomes T+1 early, so everything it stamps
 *     later is stamped as if that token had arrived. The receivers then close the isochron's pulse as soon as their
 *     tokens allow, without the round trip through the TM for the sender's mark (the reply of a ping-pong waits
 *     for one hop, not three). An SIU is never more than this one pulse ahead of its last token: its stamps stay
 *     below {@code T' + diameter} for any token T' the TM issues later (items 8 and 9 hold unchanged) and within
 *     the horizon (item 4, hence {@code distance + window + 1 < 256}).</li>
 * <li><b>Stamp batching.</b> An SIU marks ahead and asks the TM for time at most once per
 *     {@link IsotachConfig#stampBatchNanos}; isochrons it stamps in between share the pulse after its last mark
 *     ahead, and the time they need is asked for at the end of the period (the host's next poll), at the host's first
 *     poll without a stamp since its previous one (the burst is over: its last isochrons need not wait for the
 *     period), or with the marks of the next token, whichever comes first. Without it a host streaming isochrons made
 *     every isochron a pulse of its own, with its token, marks and end-of-pulse work at every host. An isochron the
 *     host stamps after taking an Isotach packet off its link (since its previous stamp) asks at once whatever the
 *     period: it is most likely an answer, and a ping-pong whose round trip is shorter than the period would
 *     otherwise wait for the period's end on every hop (udp, period 8 us: 4.6-4.9 us per half round trip, 3.7-4.0 us
 *     without the wait). A stream in one direction is batched as before; a host that both streams and receives asks
 *     as often as with no period.</li>
 * <li><b>Acknowledging in the reply.</b> The tokens, marks and wake-ups a switch node produces while its host's thread
 *     takes frames off the network may wait up to {@link Outbox#LINGER_NANOS} for an ISO frame to the same link,
 *     which then carries them, when they are all that is queued ({@link Outbox}: why that only delays what they say).
 *     A host answering a ping acknowledges its token in the reply instead of a frame of its own, and the token
 *     manager's host sends the token for the reply's pulse in its next ping. Asks for time never wait, nor does a
 *     token after which the TM's window is full, nor its acknowledgement ({@link ClockSection#ACK_NOW}).</li>
 * <li><b>Completeness.</b> Host h's SIU closes pulse P (emits its EOP marker, item 5) once it has seen token P
 *     and {@code PULSE_MARK(P - d(s,h))} from every live sender s (d(h,h) = 1 for its own isochron markers):
 *     every later packet from s is stamped at least {@code T + 1 + d(s,h) > P}. Count and sort vector (sender
 *     ascending, then arrival; item 6) come with it.</li>
 * <li><b>Signals and barriers.</b> A bs-marker reaches the SIU behind the host's earlier Isotach packets (the
 *     host's single FIFO), is forwarded to the TM, and takes effect at pulse {@code T' + diameter} where T' is the
 *     next token issued: after every packet the signaller (or, for a barrier, every participant) stamped before
 *     it, and in the future at every host (items 8, 9). The effect travels in the token.</li>
 * <li><b>Horizon.</b> Time is a 64-bit count (no wrap aliasing); the config keeps distance + window + 1 below 256
 *     so the report's one-byte TS would still be unambiguous (item 4).</li>
 * </ol>
 *
 * <p>All state is guarded by one lock; frames produced under it go out through the {@link Outbox} after it is
 * released, tokens, marks and wake-ups as {@link ClockSection}s riding on a frame already queued for the link when
 * there is one. Records for the host go through the {@link HostLink}.
 */
public final class SwitchNode extends CacheLinePadding {
    /** Token for sends whose completion the engine does not need. */
    private static final long NO_NOTIFY = Transport.NO_NOTIFY;

    /** Padded: its header, which every acquisition writes, shares its cache line with nothing else's fields. */
    private final Object lock = new NanoClock.PaddedLock();
    private final Transport transport;
    private final IsotachConfig config;
    /** The stamp-batching period. */
    private final long stampBatchNanos;
    /**
     * What the per-frame work needs of the configuration, copied: the configuration is one object shared by every rank
     * of a job, and reading it from beside another rank's state cost a miss per read (see {@link NanoClock}).
     */
    private final int[] distanceTo;
    private final int[] distanceFrom;
    private final int tokenWindow;
    private final long idleTickNanos;
    private final int me;
    private final int hosts;
    private final boolean isHost;
    private final int tmRank;
    private final boolean isTm;
    private final int diameter;
    private final LongSupplier nanoClock;
    private final Outbox outbox;
    private final HostLink link;
    private final MemorySegment frame = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);

    // ---- SIU state ----
    private long tokenSeen = -1;
    private long lastTs = -1;
    private long lastEop = -1;
    private final long[] markFrom;
    private final boolean[] alive;
    /** The largest pulse this SIU has told the TM it needs time to reach (see {@link #needLocked}). */
    private long reportedNeed = -1;
    /** The time this SIU marked ahead to (see <i>Marking ahead</i>); its stamps use {@code max(tokenSeen, markedAhead)}. */
    private long markedAhead = -1;
    /** The latest pulse an effect announced to this SIU is due at. */
    private long effectNeed = -1;
    /** When this SIU last marked ahead or asked for time, whether it ever did, and whether an ask is owed. */
    private long lastAskNanos;
    private boolean askedEver;
    private boolean askOwed;
    /** {@link #stamped} at the host's last poll ({@link #tick}; the host's thread only). */
    private long stampedAtPoll;
    /** Whether the host took an Isotach packet off its link since this SIU last stamped: its next isochron answers. */
    private boolean tookPacket;
    /** Per link: the isochron ({@link #stamped}) that last sent it a mark ahead, so each destination gets one. */
    private final long[] aheadSentFor;
    private final long[] effectPulse = new long[256];
    private final int[] effectBits = new int[256];
    private final long[] bucketPulse = new long[256];
    private final int[] bucketCount = new int[256];
    private final int[][] bucketSenders;
    /** Entries one pulse may hold here ({@link IsotachConfig#bucketCapacity}). */
    private final int bucketCapacity;
    private static final int INITIAL_BUCKET = 256;
    private long highestEntryPulse = -1;
    // the open isochron (SOI seen, EOI not yet)
    private int pendingCount;
    private final int[] pDest;
    private final int[] pSubtype;
    private final int[] pPrefix;
    private final int[] pIsoId;
    private final int[] pSlot;
    private final int[] pLength;
    private final long[] pAddress;
    private final long[] pOperand;
    private final boolean[] pCreditPresent;
    private final long[] pCredit;
    private final MemorySegment[] pPayload;
    private final long[] pPayloadOffset;
    private final long[] pToken;
    private int pMaxDistance;

    // ---- TM state (only on the TM's rank) ----
    private long issued = -1;
    private long lastIssueNanos;
    /**
     * When the idle tick next lets the TM issue a token nobody asked for ({@link Long#MAX_VALUE} before the clock starts
     * and when the idle tick is 0): every other reason to issue comes with an event that looks at once (a need, a
     * mark, a bs-marker, a peer going down), so until then the TM's poll need not take the lock. Written under it.
     */
    private volatile long idleIssueAt = Long.MAX_VALUE;
    private final long[] tmSeen;
    /**
     * The pulse logical time must reach for every host's work in flight: the maximum of what the SIUs reported in
     * marks and wake-ups. It only grows, so no report can be overtaken by an older one and time never stalls short of
     * a stamped isochron.
     */
    private long tmNeed = -1;
    private int pendingSignalBits;
    private int pendingBarrierBits;
    private final int[][] barrierParticipation;
    /** Per channel and host: bit i set when the host's i-th pending participation was the application's. */
    private final long[][] barrierReal;
    /** Completions of executions only automatic participants joined: not urgent (see {@link #lazyDueLocked}). */
    private int lazyBarrierBits;
    /** When a token last carried lazy completions, and whether one ever did. */
    private long lastLazyNanos;
    private boolean lazyCarried;
    private long pulsesIssued;
    /** Set when a token applied under the current hold of the lock carried {@link ClockSection#ACK_NOW}. */
    private boolean ackNow;
    /** Set while the TM issues: its own SIU's mark must not re-enter it (the loop re-checks instead). */
    private boolean tmInside;

    // ---- counters ----
    private long stamped;
    private long isoSent;
    private long isoReceived;
    private long eops;
    private long droppedLate;
    private long droppedMalformed;

    /**
     * @param hosts   the number of hosts (ranks 0..hosts-1)
     * @param tmRank  the rank running the token manager (a host, or the rank {@code hosts} for a TM process)
     */
    public SwitchNode(Transport transport, IsotachConfig config, int hosts, int tmRank, LongSupplier nanoClock) {
        this.transport = transport;
        this.config = config;
        this.stampBatchNanos = config.stampBatchNanos();
        this.tokenWindow = config.tokenWindow();
        this.idleTickNanos = config.idleTickMicros() * 1000;
        this.me = transport.rank();
        this.hosts = hosts;
        this.isHost = me < hosts;
        this.tmRank = tmRank;
        this.isTm = me == tmRank;
        this.diameter = config.networkDiameter(hosts);
        this.distanceTo = new int[Math.max(hosts, 1)];
        this.distanceFrom = new int[Math.max(hosts, 1)];
        for (int h = 0; h < hosts; h++) {
            distanceTo[h] = isHost ? config.distance(me, h) : 0;
            distanceFrom[h] = isHost ? config.distance(h, me) : 0;
        }
        this.nanoClock = nanoClock;
        this.outbox = new Outbox(transport, lock, 256, nanoClock, TransportTraits.reportsPollersGone(transport));
        this.link = new HostLink(1024);
        this.aheadSentFor = new long[transport.size()];
        Arrays.fill(aheadSentFor, -1);
        this.markFrom = new long[hosts];
        Arrays.fill(markFrom, -1);
        this.alive = new boolean[hosts];
        Arrays.fill(alive, true);
        Arrays.fill(effectPulse, -1);
        Arrays.fill(bucketPulse, -1);
        this.bucketSenders = new int[256][];
        this.bucketCapacity = config.bucketCapacity(hosts);
        int cap = config.isoSendBufSize();
        pDest = new int[cap];
        pSubtype = new int[cap];
        pPrefix = new int[cap];
        pIsoId = new int[cap];
        pSlot = new int[cap];
        pLength = new int[cap];
        pAddress = new long[cap];
        pOperand = new long[cap];
        pCreditPresent = new boolean[cap];
        pCredit = new long[cap];
        pPayload = new MemorySegment[cap];
        Arrays.fill(pPayload, MemorySegment.NULL);
        pPayloadOffset = new long[cap];
        pToken = new long[cap];
        this.tmSeen = new long[hosts];
        Arrays.fill(tmSeen, -1);
        this.barrierParticipation = new int[2][hosts];
        this.barrierReal = new long[2][hosts];
    }

    public int hosts() {
        return hosts;
    }

    public boolean isTokenManager() {
        return isTm;
    }

    // =========================================================================================================
    // host -> SIU
    // =========================================================================================================

    /**
     * The host ships one Isotach packet (iso_shipping): held until its isochron's EOI packet arrives, then the
     * whole isochron is stamped and sent. {@code payload} must stay unchanged until {@code token} completes.
     */
    public void ship(int dest, int subtype, int prefix, int isoId, int slot, int length, long address, long operand,
                     boolean creditPresent, long credit, MemorySegment payload, long payloadOffset, long token) {
        synchronized (lock) {
            int i = pendingCount;
            if (i == pDest.length) {
                throw new IllegalStateException("isochron longer than the Isotach send buffer (" + i + " packets)");
            }
            pDest[i] = dest;
            pSubtype[i] = subtype;
            pPrefix[i] = prefix;
            pIsoId[i] = isoId;
            pSlot[i] = slot;
            pLength[i] = length;
            pAddress[i] = address;
            pOperand[i] = operand;
            pCreditPresent[i] = creditPresent;
            pCredit[i] = credit;
            if (pPayload[i] != payload) {
                pPayload[i] = payload; // only when it changes (the host's send buffer: see Outbox on reference stores)
            }
            pPayloadOffset[i] = payloadOffset;
            pToken[i] = token;
            pendingCount++;
            pMaxDistance = Math.max(pMaxDistance, distanceTo[dest]);
            if ((prefix & Frame.PREFIX_EOI) != 0) {
                stampLocked();
            }
        }
        outbox.flush();
    }

    private void stampLocked() {
        long clock = stampBatchNanos > 0 ? NanoClock.read(nanoClock) : 0; // one read per stamp
        boolean ask = askDueLocked(clock);
        long now = Math.max(tokenSeen, markedAhead);
        long ts = Math.max(now + pMaxDistance, lastTs);
        lastTs = ts;
        stamped++;
        tookPacket = false;
        for (int i = 0; i < pendingCount; i++) {
            Frame.start(frame, Frame.ISO);
            Frame.u8(frame, Frame.O_BYTE2, pSubtype[i]);
            Frame.u8(frame, Frame.O_BYTE3, pPrefix[i]);
            Frame.u8(frame, Frame.O_BYTE4, pIsoId[i]);
            Frame.u8(frame, Frame.O_BYTE5, pCreditPresent[i] ? 1 : 0);
            Frame.i64(frame, Frame.O_ISO_TS, ts);
            Frame.i64(frame, Frame.O_ISO_CREDIT, pCredit[i]);
            Frame.i32(frame, Frame.O_ISO_SLOT, pSlot[i]);
            Frame.i32(frame, Frame.O_ISO_LENGTH, pLength[i]);
            Frame.i64(frame, Frame.O_ISO_ADDRESS, pAddress[i]);
            Frame.i64(frame, Frame.O_ISO_OPERAND, pOperand[i]);
            ClockSection.clear(frame, Frame.O_ISO_CLOCK);
            outbox.add(pDest[i], frame, Frame.ISO_LENGTH, pPayload[i], pPayloadOffset[i], pLength[i], pToken[i]);
            isoSent++;
        }
        if (ask && now == tokenSeen && tokenSeen >= 0) {
            askedLocked(clock);
            // Marking ahead: behind this isochron's packets on each of its links (the receivers are the ones waiting).
            markedAhead = now + 1;
            for (int i = 0; i < pendingCount; i++) {
                int dest = pDest[i];
                if (dest != me && aheadSentFor[dest] != stamped) {
                    aheadSentFor[dest] = stamped;
                    sendMarkLocked(dest, now, tokenSeen);
                }
            }
            markLocked(me, now, tokenSeen);
        }
        // The isochron marker: an entry of pulse ts at this host, ordered at this host's id (digest §1.4).
        int isoId = pIsoId[0];
        pendingCount = 0;
        pMaxDistance = 0;
        if (!addEntryLocked(ts, me)) {
            return;
        }
        HostLink.Record r = link.claim();
        r.type = HostLink.MARKER;
        r.pulse = ts;
        r.a = isoId;
        link.publish();
        if (ts > reportedNeed) {
            if (!ask) {
                askOwed = true; // stamp batching: asked for at the end of the period
                return;
            }
            // Tell the TM at once that time must reach ts, rather than at its next idle tick.
            askLocked(ts, clock);
        }
    }

    /**
     * Whether this stamp may mark ahead and ask at once: the stamp-batching period since the last ask is over, or the
     * host has taken an Isotach packet off its link since its last stamp (a reply: see <i>Stamp batching</i>).
     */
    private boolean askDueLocked(long clock) {
        long period = stampBatchNanos;
        return period == 0 || !askedEver || tookPacket || clock - lastAskNanos >= period;
    }

    private void askedLocked(long clock) {
        if (stampBatchNanos > 0) {
            lastAskNanos = clock;
            askedEver = true;
        }
    }

    /**
     * Asks for the time isochrons stamped during the last batching period need, once the period is over or
     * {@code atOnce} (the host has paused).
     */
    private void askOwedLocked(boolean atOnce, long clock) {
        if (!askOwed || (!atOnce && !askDueLocked(clock))) {
            return;
        }
        askOwed = false;
        long need = needLocked();
        if (need > reportedNeed) {
            askLocked(need, clock);
        }
    }

    /** Asks the TM for time to reach {@code need} (a wake-up; the TM's own host tells it directly). */
    private void askLocked(long need, long clock) {
        askedLocked(clock);
        reportedNeed = need;
        if (isTm) {
            tmNeed = Math.max(tmNeed, need);
            tmMaybeIssueLocked(false);
        } else {
            sendNeedLocked(tmRank, need);
        }
    }

    /** The host ships a bs-marker (signals and/or barrier participation): forwarded to the TM in FIFO order. */
    public void shipBsMarker(int bits, int barrierCount, boolean automatic) {
        synchronized (lock) {
            if (pendingCount != 0) {
                throw new IllegalStateException("bs-marker inside an open isochron (L1649)");
            }
            if (isTm) {
                tmBsLocked(me, bits, automatic);
            } else {
                Frame.start(frame, Frame.BS);
                Frame.u8(frame, Frame.O_BYTE2, bits);
                Frame.u8(frame, Frame.O_BYTE3, barrierCount);
                Frame.i32(frame, Frame.O_INT4, automatic ? Frame.BS_AUTOMATIC : 0);
                outbox.add(tmRank, frame, Frame.BS_LENGTH, MemorySegment.NULL, 0, 0, NO_NOTIFY);
            }
        }
        outbox.flush();
    }

    /** Sends an engine frame (sync, explicit credit, leave) to {@code peer} through the ordered outbox. */
    public void sendControl(int peer, MemorySegment control, int length) {
        synchronized (lock) {
            outbox.add(peer, control, length, MemorySegment.NULL, 0, 0, NO_NOTIFY);
        }
        outbox.flush();
    }

    /** Takes the next record for the host; false when none. */
    public boolean take(HostLink.Record out) {
        if (link.isEmpty()) {
            return false; // the host polls constantly: do not contend with the transport side for nothing
        }
        synchronized (lock) {
            if (!link.take(out)) {
                return false;
            }
            if (out.type == HostLink.ISO) {
                tookPacket = true;
            }
            return true;
        }
    }

    /**
     * Called on every host poll: sends what an earlier flush left queued (frames its own inline deliveries produced,
     * see {@link Outbox#flush}), and on the TM's rank issues an idle token when one is due (I-144), so logical time
     * advances while hosts poll even with no traffic.
     *
     * <p>It takes the lock only when there is something to do: an ask owed (stamp batching), or on the TM's rank an
     * idle tick due ({@link #idleIssueAt}). The TM's poll used to take it every time, and a host delivering into this
     * node at that moment (on inmem, the other rank's thread, inline) waited for it, with the lock's line moving
     * between the cores on every poll: measured (`./portals isobench`, inmem, 128 B-1 KiB) 3.23-3.49 -> 2.98-3.21 us per
     * half round trip.
     */
    public void tick() {
        long now = outbox.hostPolls();
        // Written by this thread when it stamps (ship), so read here without the lock; likewise askOwed.
        boolean stampedSinceLastPoll = stamped != stampedAtPoll;
        stampedAtPoll = stamped;
        boolean paused = !stampedSinceLastPoll; // the host polls without sending: what it owes need not wait
        if (isTm) {
            long idleAt = idleIssueAt;
            boolean idleDue = idleAt != Long.MAX_VALUE && now - idleAt >= 0;
            if (askOwed || idleDue) {
                synchronized (lock) {
                    askOwedLocked(paused, now);
                    tmMaybeIssueLocked(idleDue);
                }
                outbox.flush();
            }
            outbox.flushLeftover(now); // a token frame lingering for the reply goes once its time is up (Outbox)
        } else {
            if (askOwed) {
                synchronized (lock) {
                    askOwedLocked(paused, now);
                }
                outbox.flush();
            }
            outbox.flushLeftover(now);
        }
    }

    /**
     * The host's thread has stopped polling and the transport's own thread has taken the receive path back
     * ({@link org.portals3j.transport.MessageHandler#onPollersGone}): clock frames held back for it go now.
     */
    public void pollersGone() {
        outbox.pollersGone();
    }

    /** Starts the clock (the TM issues TOKEN(0)); a no-op on other ranks. */
    public void startClock() {
        if (!isTm) {
            return;
        }
        synchronized (lock) {
            if (issued < 0) {
                tmIssueLocked();
            }
        }
        outbox.flush();
    }

    /** The last pulse this SIU closed. */
    public long closedPulse() {
        synchronized (lock) {
            return lastEop;
        }
    }

    public long tokensIssued() {
        synchronized (lock) {
            return pulsesIssued;
        }
    }

    // =========================================================================================================
    // network -> SIU/TM (transport handler; never concurrent with itself for this endpoint)
    // =========================================================================================================

    /**
     * An ISO frame from {@code source} whose payload is in place (or had none): its packet, then the clock items that
     * rode behind it.
     */
    public void onIso(int source, MemorySegment h) {
        boolean ack;
        synchronized (lock) {
            isoEntryLocked(source, h);
            clockLocked(source, h, Frame.O_ISO_CLOCK);
            ack = takeAckNowLocked();
        }
        flushAfterArrival(ack);
    }

    /** Whether a token just applied asked for its acknowledgement at once ({@link ClockSection#ACK_NOW}); clears it. */
    private boolean takeAckNowLocked() {
        boolean ack = ackNow;
        ackNow = false;
        return ack;
    }

    /** Sends what a frame's arrival produced; marks and wake-ups may linger unless the token manager waits for them. */
    private void flushAfterArrival(boolean ackNow) {
        if (ackNow) {
            outbox.flush();
        } else {
            outbox.flushMayLinger();
        }
    }

    private void isoEntryLocked(int source, MemorySegment h) {
        long ts = Frame.i64(h, Frame.O_ISO_TS);
        if (source >= hosts || !isHost) {
            droppedMalformed++;
            return;
        }
        if (ts <= lastEop || ts > tokenSeen + 256) {
            // Items 2 and 4 of the contract: never a late arrival (I-009). A correct sender cannot cause it.
            droppedLate++;
            fatalLocked("iso packet from " + source + " stamped " + ts + " arrived after pulse " + lastEop
                    + " was closed (token " + tokenSeen + ")");
            return;
        }
        if (!addEntryLocked(ts, source)) {
            return;
        }
        isoReceived++;
        HostLink.Record r = link.claim();
        r.type = HostLink.ISO;
        r.pulse = ts;
        r.peer = source;
        r.a = Frame.u8(h, Frame.O_BYTE2);
        r.b = Frame.i32(h, Frame.O_ISO_SLOT);
        r.c = Frame.i32(h, Frame.O_ISO_LENGTH);
        r.address = Frame.i64(h, Frame.O_ISO_ADDRESS);
        r.operand = Frame.i64(h, Frame.O_ISO_OPERAND);
        r.creditPresent = Frame.u8(h, Frame.O_BYTE5) != 0;
        r.credit = Frame.i64(h, Frame.O_ISO_CREDIT);
        link.publish();
    }

    /** A frame for the host (sync, explicit credit) or a peer's departure. */
    public void toHost(int type, int peer, int a, int b, int c, long value) {
        synchronized (lock) {
            HostLink.Record r = link.claim();
            r.type = type;
            r.peer = peer;
            r.a = a;
            r.b = b;
            r.c = c;
            r.address = value;
            link.publish();
        }
    }

    /**
     * The clock items of a frame whose packet, if any, was not taken (a CLOCK frame, or an ISO frame the host
     * refused): they still count, or the link would lose a token or a mark.
     */
    public void onClock(int source, MemorySegment h) {
        long at = Frame.clockOffset(Frame.kind(h));
        if (at < 0) {
            return;
        }
        boolean ack;
        synchronized (lock) {
            clockLocked(source, h, at);
            ack = takeAckNowLocked();
        }
        flushAfterArrival(ack);
    }

    public void onBs(int source, MemorySegment h) {
        synchronized (lock) {
            if (!isTm || source >= hosts) {
                droppedMalformed++;
                return;
            }
            tmBsLocked(source, Frame.u8(h, Frame.O_BYTE2), (Frame.i32(h, Frame.O_INT4) & Frame.BS_AUTOMATIC) != 0);
        }
        outbox.flush();
    }


    /** A host died or left: nobody waits for its marks any more (I-143), barriers count only live hosts. */
    public void peerDown(int peer) {
        synchronized (lock) {
            if (peer >= hosts || !alive[peer]) {
                return;
            }
            alive[peer] = false;
            if (isTm) {
                tmCheckBarriersLocked();
                tmMaybeIssueLocked(false);
            }
            closePulsesLocked();
            HostLink.Record r = link.claim();
            r.type = HostLink.PEER_DOWN;
            r.peer = peer;
            link.publish();
        }
        outbox.flush();
    }

    // =========================================================================================================
    // SIU internals
    // =========================================================================================================

    /** Applies a clock section from {@code source}: token, then mark, then need (the order they were produced in). */
    private void clockLocked(int source, MemorySegment h, long at) {
        int flags = ClockSection.flags(h, at);
        if ((flags & ~(ClockSection.HAS_TOKEN | ClockSection.HAS_MARK | ClockSection.HAS_NEED | ClockSection.ACK_NOW)) != 0
                || (flags & (ClockSection.ACK_NOW | ClockSection.HAS_TOKEN)) == ClockSection.ACK_NOW) {
            droppedMalformed++;
            return;
        }
        if ((flags & ClockSection.ACK_NOW) != 0) {
            ackNow = true;
        }
        if ((flags & ClockSection.HAS_TOKEN) != 0) {
            if (source != tmRank) {
                droppedMalformed++; // only the TM issues tokens
            } else {
                long last = ClockSection.tokenPulse(h, at);
                for (long p = last - ClockSection.tokenRun(h, at); p < last; p++) {
                    tokenLocked(p, 0, -1); // the run's earlier tokens carried no effects (ClockSection)
                }
                tokenLocked(last, ClockSection.tokenBits(h, at), ClockSection.effectPulse(h, at));
            }
        }
        if ((flags & ClockSection.HAS_MARK) != 0) {
            if (source >= hosts) {
                droppedMalformed++;
            } else {
                markLocked(source, ClockSection.markOf(h, at), ClockSection.seenOf(h, at));
            }
        }
        if ((flags & ClockSection.HAS_NEED) != 0) {
            if (!isTm || source >= hosts) {
                droppedMalformed++;
            } else {
                tmNeed = Math.max(tmNeed, Math.min(ClockSection.needOf(h, at), issued + 256)); // never beyond the horizon
                tmMaybeIssueLocked(false);
            }
        }
    }

    /** Where a clock item for {@code peer} goes: the section of a frame still queued for it, or a new CLOCK frame. */
    private MemorySegment clockFor(int peer) {
        MemorySegment pending = outbox.pendingClock(peer);
        if (pending != null) {
            return pending;
        }
        Frame.start(frame, Frame.CLOCK);
        ClockSection.clear(frame, Frame.O_CLOCK);
        return outbox.add(peer, frame, Frame.CLOCK_LENGTH, MemorySegment.NULL, 0, 0, NO_NOTIFY);
    }

    private void sendTokenLocked(int peer, long pulse, int bits, long effect, boolean ackNow) {
        MemorySegment f = clockFor(peer);
        long at = Frame.clockOffset(Frame.kind(f));
        if (!ClockSection.addToken(f, at, pulse, bits, effect)) {
            // The queued section's run cannot take it (its last token had effects): a frame of its own, behind it.
            Frame.start(frame, Frame.CLOCK);
            ClockSection.clear(frame, Frame.O_CLOCK);
            f = outbox.add(peer, frame, Frame.CLOCK_LENGTH, MemorySegment.NULL, 0, 0, NO_NOTIFY);
            at = Frame.O_CLOCK;
            ClockSection.addToken(f, at, pulse, bits, effect);
        }
        if (ackNow) {
            ClockSection.requestAck(f, at);
        }
    }

    private void sendMarkLocked(int peer, long mark, long seen) {
        MemorySegment f = clockFor(peer);
        ClockSection.addMark(f, Frame.clockOffset(Frame.kind(f)), mark, seen);
    }

    private void sendNeedLocked(int peer, long need) {
        MemorySegment f = clockFor(peer);
        ClockSection.addNeed(f, Frame.clockOffset(Frame.kind(f)), need);
    }

    private void tokenLocked(long pulse, int bits, long atPulse) {
        if (pulse != tokenSeen + 1) {
            droppedMalformed++;
            return;
        }
        tokenSeen = pulse;
        if (bits != 0) {
            int b = (int) (atPulse & 0xFF);
            if (effectPulse[b] != atPulse) {
                effectPulse[b] = atPulse;
                effectBits[b] = 0;
            }
            effectBits[b] |= bits;
            effectNeed = Math.max(effectNeed, atPulse);
        }
        if (isHost) {
            long need = needLocked();
            reportedNeed = Math.max(reportedNeed, need);
            for (int peer = 0; peer < hosts; peer++) {
                if (peer != me && alive[peer]) {
                    sendMarkLocked(peer, pulse - 1, pulse);
                }
            }
            if (tmRank >= hosts) {
                sendMarkLocked(tmRank, pulse - 1, pulse);
            }
            if (isTm) {
                tmNeed = Math.max(tmNeed, need);
            } else {
                sendNeedLocked(tmRank, need);
            }
            askOwed = false; // the need just went with the marks
            markLocked(me, pulse - 1, pulse);
        }
    }

    /**
     * The pulse time must reach for this SIU's work: its last stamped isochron, the latest entry it holds, the
     * latest effect announced to it. Everything at or below it closes once the token gets there.
     */
    private long needLocked() {
        return Math.max(Math.max(lastTs, highestEntryPulse), effectNeed);
    }

    /** Source's mark {@code pulse}; {@code seen} is the last token it has seen (the TM's acknowledgement). */
    private void markLocked(int source, long pulse, long seen) {
        if (isHost && pulse > markFrom[source]) {
            markFrom[source] = pulse;
            closePulsesLocked();
        }
        if (isTm) {
            // A mark ahead acknowledges only the token seen; a hostile seen cannot run ahead of its own mark.
            tmSeen[source] = Math.max(tmSeen[source], Math.min(seen, pulse + 1));
            tmMaybeIssueLocked(false);
        }
    }

    private boolean addEntryLocked(long ts, int sender) {
        int b = (int) (ts & 0xFF);
        if (bucketPulse[b] != ts) {
            if (bucketPulse[b] > lastEop) {
                fatalLocked("pulse " + ts + " would share bucket " + b + " with open pulse " + bucketPulse[b]);
                return false;
            }
            bucketPulse[b] = ts;
            bucketCount[b] = 0;
        }
        int n = bucketCount[b];
        if (n == bucketCapacity) {
            // I-112: never silently dropped.
            fatalLocked("bucket overflow: more than " + bucketCapacity + " entries for pulse " + ts);
            return false;
        }
        int[] senders = bucketSenders[b];
        if (senders == null || n == senders.length) {
            // Grows (rarely, and at most to the capacity) instead of reserving the bound for all 256 buckets.
            senders = senders == null ? new int[Math.min(bucketCapacity, INITIAL_BUCKET)]
                    : java.util.Arrays.copyOf(senders, (int) Math.min(bucketCapacity, 2L * n));
            bucketSenders[b] = senders;
        }
        senders[n] = sender;
        bucketCount[b] = n + 1;
        highestEntryPulse = Math.max(highestEntryPulse, ts);
        return true;
    }

    /** Emits EOP markers for every pulse that is complete at this host (item 5). */
    private void closePulsesLocked() {
        if (!isHost) {
            return;
        }
        while (true) {
            long p = lastEop + 1;
            if (p > tokenSeen) {
                return;
            }
            for (int s = 0; s < hosts; s++) {
                if (!alive[s]) {
                    continue;
                }
                int d = s == me ? 1 : distanceFrom[s];
                if (markFrom[s] < p - d) {
                    return;
                }
            }
            emitEopLocked(p);
            lastEop = p;
        }
    }

    private void emitEopLocked(long p) {
        int b = (int) (p & 0xFF);
        int count = bucketPulse[b] == p ? bucketCount[b] : 0;
        int bits = effectPulse[b] == p ? effectBits[b] : 0;
        eops++;
        HostLink.Record last = link.lastUntaken();
        if (count == 0 && bits == 0 && last != null && last.type == HostLink.EOP && last.a == 0 && last.b == 0
                && last.pulse == p - 1) {
            last.pulse = p; // merge a run of empty pulses
            return;
        }
        HostLink.Record r = link.claim();
        r.type = HostLink.EOP;
        r.pulse = p;
        r.fromPulse = p;
        r.a = count;
        r.b = bits;
        if (count > 0 && count <= 32) {
            sortVector(bucketSenders[b], count, r.sortVector);
        }
        link.publish();
    }

    /** Indices 0..count-1 ordered by sender id, stable in arrival order (item 6). */
    static void sortVector(int[] senders, int count, byte[] out) {
        int n = 0;
        for (int i = 0; i < count; i++) {
            int j = n;
            while (j > 0 && senders[out[j - 1]] > senders[i]) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = (byte) i;
            n++;
        }
    }

    private void fatalLocked(String message) {
        HostLink.Record r = link.claim();
        r.type = HostLink.FATAL;
        r.message = message;
        link.publish();
    }

    // =========================================================================================================
    // TM internals
    // =========================================================================================================

    private void tmBsLocked(int source, int bits, boolean automatic) {
        pendingSignalBits |= bits & 0xFC;
        for (int c = 0; c < 2; c++) {
            if ((bits & (1 << c)) != 0) {
                int n = barrierParticipation[c][source];
                if (n >= 63) {
                    droppedMalformed++; // a host cannot have this many executions pending: hostile
                    continue;
                }
                if (!automatic) {
                    barrierReal[c][source] |= 1L << n;
                }
                barrierParticipation[c][source] = n + 1;
            }
        }
        tmCheckBarriersLocked();
        tmMaybeIssueLocked(false);
    }

    /**
     * Completes every barrier execution all live hosts have joined (contract item 9). Hosts that have not registered a
     * channel join every execution automatically (L473); an execution that only such hosts joined completes too (a
     * host waiting to register needs it, digest §2.7 TRANSITION/READY), but lazily: its bit rides on a later token
     * ({@link #lazyDueLocked}) and does not make time advance faster, or unclaimed channels would keep the clock busy.
     */
    private void tmCheckBarriersLocked() {
        for (int c = 0; c < 2; c++) {
            // One completion per channel per token: a second execution completing in the same pulse would merge into
            // the same bit and be lost. The next one completes once this one's token is out.
            while (((pendingBarrierBits | lazyBarrierBits) & (1 << c)) == 0) {
                boolean all = true;
                boolean any = false;
                boolean real = false;
                for (int h = 0; h < hosts; h++) {
                    if (alive[h]) {
                        any = true;
                        if (barrierParticipation[c][h] == 0) {
                            all = false;
                        } else if ((barrierReal[c][h] & 1) != 0) {
                            real = true;
                        }
                    }
                }
                if (!all || !any) {
                    break;
                }
                for (int h = 0; h < hosts; h++) {
                    if (barrierParticipation[c][h] > 0) {
                        barrierParticipation[c][h]--;
                        barrierReal[c][h] >>>= 1;
                    }
                }
                if (real) {
                    pendingBarrierBits |= 1 << c;
                } else {
                    lazyBarrierBits |= 1 << c;
                }
            }
        }
    }

    /**
     * Whether the token being issued carries the pending lazy completions: at most once per idle tick, since every
     * host re-joins an unclaimed channel at once (L473) and, carried by every token, that cycle would put a bs-marker
     * per host on the wire every few pulses of a busy job; at once, though, when some host has already joined the
     * channel's next execution (it waits behind this one), or when time runs free (idle tick 0).
     */
    private boolean lazyDueLocked(long now) {
        if (lazyBarrierBits == 0) {
            return false;
        }
        long tick = idleTickNanos;
        if (tick == 0 || !lazyCarried || now - lastLazyNanos >= tick) {
            return true;
        }
        for (int c = 0; c < 2; c++) {
            if ((lazyBarrierBits & (1 << c)) != 0) {
                for (int h = 0; h < hosts; h++) {
                    if (alive[h] && barrierParticipation[c][h] > 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Issues what the TM owes now: tokens while work is in flight and the window allows, and one idle token when
     * {@code idleDue} (only the poll, {@link #tick}, knows: it has read the clock, and every other caller is an event
     * that makes the TM busy or opens its window, so an idle token waits at most until the next poll).
     */
    private void tmMaybeIssueLocked(boolean idleDue) {
        if (!isTm || issued < 0 || tmInside) {
            return;
        }
        tmInside = true;
        try {
            tmIssueWhileDueLocked(idleDue);
        } finally {
            tmInside = false;
        }
    }

    private void tmIssueWhileDueLocked(boolean idleDue) {
        while (true) {
            long slowest = slowestAckLocked();
            boolean busy = pendingSignalBits != 0 || pendingBarrierBits != 0 || issued < tmNeed;
            if (slowest == Long.MAX_VALUE) {
                return;
            }
            if (issued + 1 - slowest > tokenWindow) {
                return;
            }
            if (!busy && idleTickNanos > 0 && !idleDue) {
                return;
            }
            tmIssueLocked();
            if (!busy && idleTickNanos > 0) {
                return; // one idle tick at a time
            }
        }
    }

    /** The last token the slowest live SIU has acknowledged ({@link Long#MAX_VALUE} when none is alive). */
    private long slowestAckLocked() {
        long slowest = Long.MAX_VALUE;
        for (int h = 0; h < hosts; h++) {
            if (alive[h]) {
                slowest = Math.min(slowest, tmSeen[h]);
            }
        }
        return slowest;
    }

    private void tmIssueLocked() {
        long t = ++issued;
        pulsesIssued++;
        lastIssueNanos = NanoClock.read(nanoClock);
        if (idleTickNanos > 0) {
            idleIssueAt = lastIssueNanos + idleTickNanos;
        }
        boolean lazy = lazyDueLocked(lastIssueNanos);
        int bits = pendingSignalBits | pendingBarrierBits | (lazy ? lazyBarrierBits : 0);
        pendingSignalBits = 0;
        pendingBarrierBits = 0;
        if (lazy) {
            lazyBarrierBits = 0;
            lastLazyNanos = lastIssueNanos;
            lazyCarried = true;
        }
        long at = t + diameter;
        if (bits != 0) {
            tmNeed = Math.max(tmNeed, at);
        }
        // The window is full after this token: the next one waits for acknowledgements, which must not linger.
        boolean ackNow = t + 1 - slowestAckLocked() > tokenWindow;
        for (int h = 0; h < hosts; h++) {
            if (h != me && alive[h]) {
                sendTokenLocked(h, t, bits, at, ackNow);
            }
        }
        if (isHost) {
            tokenLocked(t, bits, at);
        }
        tmCheckBarriersLocked(); // executions that were waiting behind the one just completed
    }

    // =========================================================================================================

    public java.util.Map<String, Long> counters() {
        synchronized (lock) {
            java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
            m.put("siu.token", tokenSeen);
            m.put("siu.closedPulse", lastEop);
            m.put("siu.isochronsStamped", stamped);
            m.put("siu.isoSent", isoSent);
            m.put("siu.isoReceived", isoReceived);
            m.put("siu.eop", eops);
            m.put("siu.drop.late", droppedLate);
            m.put("siu.drop.malformed", droppedMalformed);
            m.put("siu.need", needLocked());
            m.put("siu.lastStamped", lastTs);
            if (isTm) {
                m.put("tm.pulsesIssued", pulsesIssued);
                m.put("tm.issued", issued);
                m.put("tm.need", tmNeed);
                long slowest = Long.MAX_VALUE;
                for (int h = 0; h < hosts; h++) {
                    if (alive[h]) {
                        slowest = Math.min(slowest, tmSeen[h]);
                    }
                }
                m.put("tm.slowestAck", slowest);
            }
            return m;
        }
    }
}
