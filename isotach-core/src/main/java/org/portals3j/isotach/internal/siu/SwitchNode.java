package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Map;
import java.util.function.LongSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Transport;
import org.portals3j.transport.internal.CacheLinePadding;
import org.portals3j.transport.internal.CounterRegistry;

/**
 * One rank's emulated Isotach hardware (docs/isotach-switch-node.md): a host's {@link SwitchInterfaceUnit} and, on the
 * rank that runs it, the {@link TokenManager}, under one lock; frames go out through the {@link Outbox} after it.
 */
public final class SwitchNode extends CacheLinePadding {
    /** Token for sends whose completion the engine does not need. */
    private static final long NO_NOTIFY = Transport.NO_NOTIFY;

    /** Padded: its header, which every acquisition writes, shares its cache line with nothing else's fields. */
    private final Object lock = new NanoClock.PaddedLock();
    private final int me;
    private final int hosts;
    private final int tokenManagerRank;
    private final Outbox outbox;
    private final HostLink link;
    private final ClockItemWriter clockItems;
    /** Per host, whether it is alive; the SIU and the token manager read it, {@link #peerDown} clears it. */
    private final boolean[] alive;
    /** This host's SIU; null on a rank that runs only the token manager. */
    private final @Nullable SwitchInterfaceUnit siu;
    /** The token manager; null except on the rank that runs it. */
    private final @Nullable TokenManager tokenManager;
    private final MemorySegment frame = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
    /** Set when a token applied under the current hold of the lock carried {@link ClockSection#ACK_NOW}. */
    private boolean ackNow;
    private long droppedMalformed;
    /** The SIU's and the token manager's counters as gauges, read under {@link #lock} (they change under it). */
    private final CounterRegistry counters = new CounterRegistry(15);

    /**
     * @param hosts   the number of hosts (ranks 0..hosts-1)
     * @param tmRank  the rank running the token manager (a host, or the rank {@code hosts} for a TM process)
     */
    public SwitchNode(Transport transport, IsotachConfig config, int hosts, int tmRank, LongSupplier nanoClock) {
        this.me = transport.rank();
        this.hosts = hosts;
        this.tokenManagerRank = tmRank;
        this.outbox = new Outbox(transport, lock, 256, nanoClock, TransportTraits.reportsPollersGone(transport));
        this.link = new HostLink(1024);
        this.clockItems = new ClockItemWriter(outbox);
        this.alive = new boolean[hosts];
        Arrays.fill(alive, true);
        this.tokenManager = me == tmRank
                ? new TokenManager(hosts, alive, config.networkDiameter(hosts), config.tokenWindow(),
                        config.idleTickMicros() * 1000, nanoClock, this::sendToken)
                : null;
        if (me < hosts) {
            // What the per-frame work needs of the configuration is copied (see NanoClock).
            int[] distanceTo = new int[hosts];
            int[] distanceFrom = new int[hosts];
            for (int h = 0; h < hosts; h++) {
                distanceTo[h] = config.distance(me, h);
                distanceFrom[h] = config.distance(h, me);
            }
            this.siu = new SwitchInterfaceUnit(me, hosts, tmRank, transport.size(), distanceTo, distanceFrom, alive,
                    link, outbox, clockItems, tokenManager, nanoClock, config.isoSendBufSize(),
                    config.stampBatchNanos(), config.bucketCapacity(hosts));
        } else {
            this.siu = null;
        }
        registerCounters(counters, siu, tokenManager, () -> droppedMalformed);
    }

    /** Allocates the gauges in the order {@link #counters()} lists them. */
    private static void registerCounters(CounterRegistry counters, @Nullable SwitchInterfaceUnit unit,
                                         @Nullable TokenManager manager, LongSupplier droppedMalformed) {
        if (unit != null) {
            counters.gauge("siu.token", "the last token's pulse this SIU saw", unit::tokenSeen);
            counters.gauge("siu.closedPulse", "the last pulse this SIU closed", unit::closedPulse);
            counters.gauge("siu.isochronsStamped", "isochrons this SIU stamped", unit::stamped);
            counters.gauge("siu.isoSent", "ISO packets this SIU sent", unit::isoSent);
            counters.gauge("siu.isoReceived", "ISO packets this SIU received", unit::isoReceived);
            counters.gauge("siu.eop", "end-of-pulse markers this SIU emitted", unit::endOfPulseMarkers);
            counters.gauge("siu.drop.late", "ISO packets that arrived for a closed pulse (fatal)", unit::droppedLate);
        }
        counters.gauge("siu.drop.malformed", "frames or markers the switch node dropped as malformed",
                droppedMalformed);
        if (unit != null) {
            counters.gauge("siu.need", "the pulse this SIU's work needs", unit::need);
            counters.gauge("siu.lastStamped", "the timestamp of the last isochron stamped", unit::lastStamp);
        }
        if (manager != null) {
            counters.gauge("tm.pulsesIssued", "tokens the token manager issued", manager::tokensIssued);
            counters.gauge("tm.issued", "the last pulse the token manager issued", manager::issued);
            counters.gauge("tm.need", "the pulse the hosts' work needs", manager::need);
            counters.gauge("tm.slowestAck", "the last token the slowest live SIU acknowledged",
                    manager::slowestAcknowledgement);
        }
    }

    public int hosts() {
        return hosts;
    }

    public boolean isTokenManager() {
        return tokenManager != null;
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
        SwitchInterfaceUnit unit = hostSiu();
        synchronized (lock) {
            unit.ship(dest, subtype, prefix, isoId, slot, length, address, operand, creditPresent, credit, payload,
                    payloadOffset, token);
        }
        outbox.flush();
    }

    /** The host ships a bs-marker (signals and/or barrier participation): forwarded to the TM in FIFO order. */
    public void shipBarrierSignalMarker(int bits, int barrierCount, boolean automatic) {
        SwitchInterfaceUnit unit = hostSiu();
        synchronized (lock) {
            if (unit.isochronOpen()) {
                throw new IllegalStateException("bs-marker inside an open isochron (Isotach report §6.4.5, pp. 47-50)");
            }
            TokenManager manager = tokenManager;
            if (manager != null) {
                droppedMalformed += manager.barrierSignalMarker(me, bits, automatic);
            } else {
                Frame.start(frame, Frame.BARRIER_SIGNAL_MARKER);
                Frame.u8(frame, Frame.O_BYTE2, bits);
                Frame.u8(frame, Frame.O_BYTE3, barrierCount);
                Frame.i32(frame, Frame.O_INT4, automatic ? Frame.BARRIER_SIGNAL_AUTOMATIC : 0);
                outbox.add(tokenManagerRank, frame, Frame.BARRIER_SIGNAL_MARKER_LENGTH, MemorySegment.NULL, 0, 0,
                        NO_NOTIFY);
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
            SwitchInterfaceUnit unit = siu;
            if (out.type == HostLink.ISO && unit != null) {
                unit.batcher().tookPacket();
            }
            return true;
        }
    }

    /**
     * Called on every host poll: sends what an earlier flush left queued (frames its own inline deliveries produced,
     * see {@link Outbox#flush}), pays an ask the stamp batcher owes, and on the token manager's rank issues an idle
     * token when one is due (I-144). It takes the lock only when one of those is due.
     */
    public void tick() {
        long now = outbox.hostPolls();
        SwitchInterfaceUnit unit = siu;
        boolean paused = true; // the host polls without sending: what it owes need not wait
        boolean owes = false;
        if (unit != null) {
            // Written by this thread when it stamps (ship), so read here without the lock.
            paused = unit.batcher().pausedSincePreviousPoll();
            owes = unit.batcher().owes();
        }
        TokenManager manager = tokenManager;
        boolean idleDue = manager != null && manager.idleTokenDue(now);
        if (owes || idleDue) {
            synchronized (lock) {
                if (unit != null) {
                    unit.payOwedAsk(paused, now);
                }
                if (manager != null) {
                    manager.maybeIssue(idleDue);
                }
            }
            outbox.flush();
        }
        outbox.flushLeftover(now); // a clock frame lingering for the reply goes once its time is up (Outbox)
    }

    /**
     * The host's thread has stopped polling and the transport's own thread has taken the receive path back
     * ({@link org.portals3j.transport.PollingHandler#onPollersGone}): clock frames held back for it go now.
     */
    public void pollersGone() {
        outbox.pollersGone();
    }

    /** Starts the clock (the TM issues TOKEN(0)); a no-op on other ranks. */
    public void startClock() {
        TokenManager manager = tokenManager;
        if (manager == null) {
            return;
        }
        synchronized (lock) {
            manager.start();
        }
        outbox.flush();
    }

    /** The last pulse this SIU closed. */
    public long closedPulse() {
        synchronized (lock) {
            return hostSiu().closedPulse();
        }
    }

    public long tokensIssued() {
        synchronized (lock) {
            TokenManager manager = tokenManager;
            return manager == null ? 0 : manager.tokensIssued();
        }
    }

    private SwitchInterfaceUnit hostSiu() {
        SwitchInterfaceUnit unit = siu;
        if (unit == null) {
            throw new IllegalStateException("rank " + me + " runs the token manager, not a host");
        }
        return unit;
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
            SwitchInterfaceUnit unit = siu;
            if (source >= hosts || unit == null) {
                droppedMalformed++;
            } else {
                unit.packet(source, h);
            }
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

    public void onBarrierSignalMarker(int source, MemorySegment h) {
        synchronized (lock) {
            TokenManager manager = tokenManager;
            if (manager == null || source >= hosts) {
                droppedMalformed++;
                return;
            }
            droppedMalformed += manager.barrierSignalMarker(source, Frame.u8(h, Frame.O_BYTE2),
                    (Frame.i32(h, Frame.O_INT4) & Frame.BARRIER_SIGNAL_AUTOMATIC) != 0);
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
            TokenManager manager = tokenManager;
            if (manager != null) {
                manager.hostDown();
            }
            SwitchInterfaceUnit unit = siu;
            if (unit != null) {
                unit.closePulses();
            }
            HostLink.Record r = link.claim();
            r.type = HostLink.PEER_DOWN;
            r.peer = peer;
            link.publish();
        }
        outbox.flush();
    }

    // =========================================================================================================
    // clock items, under the lock
    // =========================================================================================================

    /** Applies a clock section from {@code source}: token, then mark, then need (the order they were produced in). */
    private void clockLocked(int source, MemorySegment h, long at) {
        int flags = ClockSection.flags(h, at);
        int known = ClockSection.HAS_TOKEN | ClockSection.HAS_MARK | ClockSection.HAS_NEED | ClockSection.ACK_NOW;
        boolean ackWithoutToken = (flags & (ClockSection.ACK_NOW | ClockSection.HAS_TOKEN)) == ClockSection.ACK_NOW;
        if ((flags & ~known) != 0 || ackWithoutToken) {
            droppedMalformed++;
            return;
        }
        if ((flags & ClockSection.ACK_NOW) != 0) {
            ackNow = true;
        }
        if ((flags & ClockSection.HAS_TOKEN) != 0) {
            if (source != tokenManagerRank) {
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
                long mark = ClockSection.markOf(h, at);
                SwitchInterfaceUnit unit = siu;
                if (unit != null) {
                    unit.mark(source, mark);
                }
                TokenManager manager = tokenManager;
                if (manager != null) {
                    manager.mark(source, mark, ClockSection.seenOf(h, at));
                }
            }
        }
        if ((flags & ClockSection.HAS_NEED) != 0) {
            TokenManager manager = tokenManager;
            if (manager == null || source >= hosts) {
                droppedMalformed++;
            } else {
                manager.wakeUp(ClockSection.needOf(h, at));
            }
        }
    }

    /** A token for this host's SIU (a TM process's rank has none). */
    private void tokenLocked(long pulse, int bits, long effectPulse) {
        SwitchInterfaceUnit unit = siu;
        if (unit == null || !unit.token(pulse, bits, effectPulse)) {
            droppedMalformed++;
        }
    }

    /** The token manager's fan-out: the token to every other live host, then to this host's own SIU. */
    private void sendToken(long pulse, int bits, long effectPulse, boolean ackNowRequested) {
        for (int h = 0; h < hosts; h++) {
            if (h != me && alive[h]) {
                clockItems.token(h, pulse, bits, effectPulse, ackNowRequested);
            }
        }
        if (siu != null) {
            tokenLocked(pulse, bits, effectPulse);
        }
    }

    // =========================================================================================================

    /** The SIU's and the token manager's counters and gauges (those of this rank), by name. */
    public Map<String, Long> counters() {
        synchronized (lock) {
            return counters.snapshot();
        }
    }
}
