package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.LongSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * One host's switch interface unit (our design, open point: the report leaves the token manager and switch interface
 * units to hardware specified elsewhere, Isotach report §1.1.3, pp. 1-2): stamps each isochron with one future TS,
 * marks pulses on every link, and closes a pulse for its host once every live sender's mark shows it complete.
 */
final class SwitchInterfaceUnit extends CacheLinePadding {
    private final int me;
    private final int hosts;
    private final int tokenManagerRank;
    /**
     * Logical distances to and from each host, copied: the configuration is one object shared by every rank of a job,
     * and reading it from beside another rank's state cost a miss per read (see {@link NanoClock}).
     */
    private final int[] distanceTo;
    private final int[] distanceFrom;
    /** Per host, whether it is alive: shared with the switch node, which clears it when a host goes down. */
    private final boolean[] alive;
    private final HostLink link;
    private final Outbox outbox;
    private final ClockItemWriter clockItems;
    /** The token manager when it runs on this host's rank: asked for time directly instead of by a wake-up. */
    private final @Nullable TokenManager localTokenManager;
    private final LongSupplier nanoClock;
    private final MemorySegment frame = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
    private final OpenIsochron isochron;
    private final StampBatcher batcher;
    private final PulseEntries entries;

    /** The last token seen (T_cur); -1 before the first. */
    private long tokenSeen = -1;
    /** The TS of the last isochron stamped. */
    private long lastStamp = -1;
    /** The last pulse closed (its end-of-pulse marker went to the host). */
    private long closedPulse = -1;
    /** Per host: the largest pulse mark received from its SIU. */
    private final long[] markFrom;
    /** The largest pulse this SIU has told the token manager it needs time to reach (see {@link #need}). */
    private long reportedNeed = -1;
    /**
     * The time this SIU marked ahead to (see <i>Marking ahead</i>); its stamps use {@code max(tokenSeen, markedAhead)}.
     */
    private long markedAhead = -1;
    /** The latest pulse an effect announced to this SIU is due at. */
    private long effectNeed = -1;
    /** Per link: the isochron ({@link #stamped}) that last sent it a mark ahead, so each destination gets one. */
    private final long[] aheadSentFor;
    /** Per bucket (one-byte TS): the pulse whose signal and barrier bits it holds, and the bits. */
    private final long[] effectPulse = new long[256];
    private final int[] effectBits = new int[256];

    private long stamped;
    private long isoSent;
    private long isoReceived;
    private long endOfPulseMarkers;
    private long droppedLate;

    SwitchInterfaceUnit(int me, int hosts, int tokenManagerRank, int links, int[] distanceTo, int[] distanceFrom,
                        boolean[] alive, HostLink link, Outbox outbox, ClockItemWriter clockItems,
                        @Nullable TokenManager localTokenManager, LongSupplier nanoClock, int sendBufferPackets,
                        long stampBatchNanos, int bucketCapacity) {
        this.me = me;
        this.hosts = hosts;
        this.tokenManagerRank = tokenManagerRank;
        this.distanceTo = distanceTo;
        this.distanceFrom = distanceFrom;
        this.alive = alive;
        this.link = link;
        this.outbox = outbox;
        this.clockItems = clockItems;
        this.localTokenManager = localTokenManager;
        this.nanoClock = nanoClock;
        this.isochron = new OpenIsochron(sendBufferPackets);
        this.batcher = new StampBatcher(stampBatchNanos);
        this.entries = new PulseEntries(bucketCapacity);
        this.markFrom = new long[hosts];
        Arrays.fill(markFrom, -1);
        this.aheadSentFor = new long[links];
        Arrays.fill(aheadSentFor, -1);
        Arrays.fill(effectPulse, -1);
    }

    StampBatcher batcher() {
        return batcher;
    }

    // ---- from the host ----------------------------------------------------------------------------------------

    /** One Isotach packet of the open isochron; at its end (EOI) the whole isochron is stamped and queued. */
    void ship(int dest, int subtype, int prefix, int isoId, int slot, int length, long address, long operand,
              boolean creditPresent, long credit, MemorySegment payload, long payloadOffset, long token) {
        isochron.add(dest, distanceTo[dest], subtype, prefix, isoId, slot, length, address, operand, creditPresent,
                credit, payload, payloadOffset, token);
        if ((prefix & Frame.PREFIX_END_OF_ISOCHRON) != 0) {
            stamp();
        }
    }

    /** Whether an isochron has begun (SOI) and not ended (EOI). */
    boolean isochronOpen() {
        return !isochron.isEmpty();
    }

    /**
     * Stamps the open isochron with {@code TS = max(T_cur + max distance to its destinations, last TS)} and queues its
     * packets; gives its host the isochron marker, then marks ahead and asks for time when the batcher allows.
     */
    private void stamp() {
        long clock = batcher.readsClock() ? NanoClock.read(nanoClock) : 0; // one read per stamp
        boolean ask = batcher.askDue(clock);
        long now = Math.max(tokenSeen, markedAhead);
        long ts = Math.max(now + isochron.maxDistance(), lastStamp);
        lastStamp = ts;
        stamped++;
        batcher.stamped();
        int packets = isochron.size();
        for (int i = 0; i < packets; i++) {
            isochron.writeIsoFrame(i, frame, ts);
            outbox.add(isochron.destination(i), frame, Frame.ISO_LENGTH, isochron.payload(i),
                    isochron.payloadOffset(i), isochron.length(i), isochron.completionToken(i));
            isoSent++;
        }
        // The isochron marker: an entry of pulse ts at this host, ordered at this host's id (Isotach report §7.3, pp.
        // 66-69). Entered before this SIU marks ahead: its own mark lets the local token manager issue tokens inline,
        // which may close pulse ts here, and an entry of a closed pulse is never ordered (I-009, I-021).
        if (!addEntry(ts, me)) {
            isochron.clear();
            return;
        }
        HostLink.Record r = link.claim();
        r.type = HostLink.ISOCHRON_MARKER;
        r.pulse = ts;
        r.a = isochron.isochronId();
        link.publish();
        if (ask && now == tokenSeen && tokenSeen >= 0) {
            batcher.asked(clock);
            // Marking ahead: behind this isochron's packets on each of its links (the receivers are the ones waiting).
            markedAhead = now + 1;
            for (int i = 0; i < packets; i++) {
                int dest = isochron.destination(i);
                if (dest != me && aheadSentFor[dest] != stamped) {
                    aheadSentFor[dest] = stamped;
                    clockItems.mark(dest, now, tokenSeen);
                }
            }
            ownMark(now, tokenSeen);
        }
        isochron.clear();
        if (ts > reportedNeed) {
            if (!ask) {
                batcher.owe(); // stamp batching: asked for at the end of the period
                return;
            }
            // Tell the token manager at once that time must reach ts, rather than at its next idle tick.
            ask(ts, clock);
        }
    }

    /** Asks for the time isochrons stamped during the batching period need, once it is over or {@code atOnce}. */
    void payOwedAsk(boolean atOnce, long now) {
        if (!batcher.takeOwedAsk(atOnce, now)) {
            return;
        }
        long need = need();
        if (need > reportedNeed) {
            ask(need, now);
        }
    }

    /** Asks the token manager for time to reach {@code need} (a wake-up; a local one is told directly). */
    private void ask(long need, long now) {
        batcher.asked(now);
        reportedNeed = need;
        TokenManager manager = localTokenManager;
        if (manager != null) {
            manager.need(need);
            manager.maybeIssue(false);
        } else {
            clockItems.need(tokenManagerRank, need);
        }
    }

    /**
     * The pulse time must reach for this SIU's work: its last stamped isochron, the latest entry it holds, the
     * latest effect announced to it. Everything at or below it closes once the token gets there.
     */
    long need() {
        return Math.max(Math.max(lastStamp, entries.highestPulse()), effectNeed);
    }

    // ---- from the network -------------------------------------------------------------------------------------

    /**
     * {@code TOKEN(pulse)} with effect {@code bits} due at {@code atPulse}: marks {@code pulse - 1} on every link and
     * acknowledges it. False (and nothing applied) unless it is the token after the last one.
     */
    boolean token(long pulse, int bits, long atPulse) {
        if (pulse != tokenSeen + 1) {
            return false;
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
        long need = need();
        reportedNeed = Math.max(reportedNeed, need);
        for (int peer = 0; peer < hosts; peer++) {
            if (peer != me && alive[peer]) {
                clockItems.mark(peer, pulse - 1, pulse);
            }
        }
        if (tokenManagerRank >= hosts) {
            clockItems.mark(tokenManagerRank, pulse - 1, pulse);
        }
        TokenManager manager = localTokenManager;
        if (manager != null) {
            manager.need(need);
        } else {
            clockItems.need(tokenManagerRank, need);
        }
        batcher.settled(); // the need just went with the marks
        ownMark(pulse - 1, pulse);
        return true;
    }

    /** This SIU's own mark: for its own isochron markers, then for the local token manager's window. */
    private void ownMark(long pulse, long seen) {
        mark(me, pulse);
        TokenManager manager = localTokenManager;
        if (manager != null) {
            manager.mark(me, pulse, seen);
        }
    }

    /** Host {@code source}'s pulse mark {@code pulse}: closes what it completes. */
    void mark(int source, long pulse) {
        if (pulse > markFrom[source]) {
            markFrom[source] = pulse;
            closePulses();
        }
    }

    /** An ISO packet from host {@code source} (header {@code h}, payload in place): an entry of its pulse. */
    void packet(int source, MemorySegment h) {
        long ts = Frame.i64(h, Frame.O_ISO_TIMESTAMP);
        if (ts <= closedPulse || ts > tokenSeen + 256) {
            // Items 2 and 4 of the contract: never a late arrival (I-009). A correct sender cannot cause it.
            droppedLate++;
            fatal("iso packet from " + source + " stamped " + ts + " arrived after pulse " + closedPulse
                    + " was closed (token " + tokenSeen + ")");
            return;
        }
        if (!addEntry(ts, source)) {
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

    private boolean addEntry(long ts, int sender) {
        switch (entries.add(ts, sender, closedPulse)) {
            case PulseEntries.ADDED -> {
                return true;
            }
            case PulseEntries.BUCKET_IN_USE -> fatal("pulse " + ts + " would share bucket " + (int) (ts & 0xFF)
                    + " with open pulse " + entries.pulseInBucketOf(ts));
            default -> fatal("bucket overflow: more than " + entries.count(ts) + " entries for pulse " + ts); // I-112
        }
        return false;
    }

    /** Emits end-of-pulse markers for every pulse that is complete at this host (item 5). */
    void closePulses() {
        while (true) {
            long p = closedPulse + 1;
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
            emitEndOfPulse(p);
            closedPulse = p;
        }
    }

    private void emitEndOfPulse(long p) {
        int b = (int) (p & 0xFF);
        int count = entries.count(p);
        int bits = effectPulse[b] == p ? effectBits[b] : 0;
        endOfPulseMarkers++;
        HostLink.Record last = link.lastUntaken();
        if (count == 0 && bits == 0 && last != null && last.type == HostLink.END_OF_PULSE && last.a == 0
                && last.b == 0 && last.pulse == p - 1) {
            last.pulse = p; // merge a run of empty pulses
            return;
        }
        HostLink.Record r = link.claim();
        r.type = HostLink.END_OF_PULSE;
        r.pulse = p;
        r.fromPulse = p;
        r.a = count;
        r.b = bits;
        if (count > 0 && count <= 32) {
            entries.sortVector(p, count, r.sortVector);
        }
        link.publish();
    }

    private void fatal(String message) {
        HostLink.Record r = link.claim();
        r.type = HostLink.FATAL;
        r.message = message;
        link.publish();
    }

    // ---- observation ------------------------------------------------------------------------------------------

    long tokenSeen() {
        return tokenSeen;
    }

    long closedPulse() {
        return closedPulse;
    }

    long lastStamp() {
        return lastStamp;
    }

    long stamped() {
        return stamped;
    }

    long isoSent() {
        return isoSent;
    }

    long isoReceived() {
        return isoReceived;
    }

    long endOfPulseMarkers() {
        return endOfPulseMarkers;
    }

    long droppedLate() {
        return droppedLate;
    }
}
