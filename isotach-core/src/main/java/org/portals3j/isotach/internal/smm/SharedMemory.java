package org.portals3j.isotach.internal.smm;

import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SharedMemoryObserver;
import org.portals3j.transport.internal.Counter;
import org.portals3j.transport.internal.CounterRegistry;

/**
 * One host's Isotach shared memory (designed in the report, never implemented; Isotach report §3.4, pp. 14-18): routes
 * accesses and enforces their caveats when issued, executes sRefs in isotach order on local copies; host thread only
 * (package doc).
 */
public final class SharedMemory {
    /** Return code of success (C {@code SUCCESS}). */
    public static final int SUCCESS = 0;
    /** Return code of failure (C {@code FAILURE}). */
    public static final int FAILURE = 1;

    /** The largest pending-read table preallocated ({@code hosts * read_cap}, about 60 bytes an entry). */
    static final int MAX_PENDING = 1 << 22;

    /**
     * The engine's way to send a read response (Isotach report §3.4.3, pp. 14-18): a noniso {@code read_response}
     * packet to a remote reader, or {@link SharedMemory#completeRead} directly when {@code reader} is this host (I-086:
     * a read of a local copy is answered without network).
     */
    @FunctionalInterface
    public interface ReadResponder {
        /**
         * @param pulse the logical time the read executed at (for the reader's {@link IsoVar#readPulse()})
         * @return false if the response cannot be sent now (it will be offered again later)
         */
        boolean respond(int reader, int readSlot, long value, long pulse);
    }

    private final int me;
    private final int hosts;
    private final int readCap;
    private final SharedMap map;

    // ---- local copies: val and the unsub bit of every word of every region held here ------------------------
    private final long[][] values;
    private final long[][] unsub;

    // ---- issuing side --------------------------------------------------------------------------------------------
    /** One bit per shared word of every region: this host has a sched on it whose assign it has not issued. */
    private final long[][] scheduleOutstanding;
    private final @Nullable IsoVar[] slotVar;
    private final boolean[] slotBusy;
    private final int[] slotGeneration;
    private final int[] freeSlots;
    private int freeSlotCount;
    private final int indexBits;
    private final int indexMask;
    private final int generationMask;

    // ---- executing side ------------------------------------------------------------------------------------------
    private final PendingReadTable pending;
    private final int[] pendingPerReader;
    private final int[] deferredReader;
    private final int[] deferredSlot;
    private final long[] deferredValue;
    private final long[] deferredPulse;
    private int deferredHead;
    private int deferredCount;
    private boolean blocked;
    private @Nullable SharedReferenceKind blockedKind;
    private int blockedSource;
    private long blockedAddress;
    private long blockedOperand;
    private long blockedPulse;
    private long nextSequence;
    private @Nullable SharedMemoryObserver observer;

    // ---- counters --------------------------------------------------------------------------------------------------
    /** The counters and gauges below, by name (host thread writes: single-writer increments). */
    private final CounterRegistry registry = new CounterRegistry(22);
    private final Counter executedReads = registry.counter("sref.read", "reads executed here");
    private final Counter executedWrites = registry.counter("sref.write", "writes executed here");
    private final Counter executedSchedules = registry.counter("sref.sched", "scheds executed here");
    private final Counter executedAssigns = registry.counter("sref.assign", "assigns executed here");
    private final Counter assignsSubstantiating = registry.counter("sref.assignSubstantiating",
            "assigns that substantiated a word");
    private final Counter referencesRejected = registry.counter("sref.rejected",
            "sRefs rejected (hostile or impossible)");
    private final Counter readsPended = registry.counter("read.pended",
            "reads that waited for an assign in the pending-read table");
    private final Counter readsAnsweredFromPending = registry.counter("read.answeredFromPending",
            "pending reads answered by an assign");
    private final Counter pendingPeak = registry.counter("read.pendingPeak", "the most reads pending at once");
    private final Counter readsDroppedOverCap = registry.counter("read.droppedOverCap",
            "reads dropped: the pending-read table was full");
    private final Counter responsesSent = registry.counter("response.sent", "read responses sent");
    private final Counter responsesDeferred = registry.counter("response.deferred",
            "read responses deferred until they could be sent");
    private final Counter executeRefused = registry.counter("execute.refused",
            "executions refused while read responses are owed");
    private final Counter responsesCompleted = registry.counter("response.completed",
            "read responses that completed a read issued here");
    private final Counter responsesToOrphans = registry.counter("response.toReusedLvar",
            "read responses to an lvar reused meanwhile");
    private final Counter responsesHostile = registry.counter("response.hostile", "read responses ignored as hostile");
    private final Counter readsRefusedAtCap = registry.counter("issue.readsRefusedAtCap",
            "reads refused at issue: read_cap reached");
    private final Counter readsOrphaned = registry.counter("issue.lvarReusedWhileOutstanding",
            "lvars reused while their read was outstanding");
    private final Counter changesRefused = registry.counter("issue.changesRefused",
            "changes refused at issue: not shared memory, or a sched or assign out of turn");

    /**
     * @param me this host's id
     * @param hosts hosts in the job
     * @param config supplies the regions ({@link IsotachConfig#sharedRegions(int)}), the logical distances
     *        (nearest copy) and {@code read_cap}
     * @throws IllegalArgumentException for a layout {@link SharedMap} rejects, or when {@code hosts * read_cap}
     *         pending reads would not fit in memory
     */
    public SharedMemory(int me, int hosts, IsotachConfig config) {
        this.map = new SharedMap(me, hosts, config);
        this.me = me;
        this.hosts = hosts;
        this.readCap = config.readCap();
        int regions = map.regions();
        values = new long[regions][];
        unsub = new long[regions][];
        scheduleOutstanding = new long[regions][];
        for (int r = 0; r < regions; r++) {
            int w = map.words(r);
            scheduleOutstanding[r] = new long[bitWords(w)];
            values[r] = map.isLocal(r) ? new long[w] : new long[0];
            unsub[r] = map.isLocal(r) ? new long[bitWords(w)] : new long[0];
        }

        slotVar = new IsoVar[readCap];
        slotBusy = new boolean[readCap];
        slotGeneration = new int[readCap];
        freeSlots = new int[readCap];
        for (int i = 0; i < readCap; i++) {
            freeSlots[i] = readCap - 1 - i; // pop order 0, 1, 2, ...
        }
        freeSlotCount = readCap;
        indexBits = 32 - Integer.numberOfLeadingZeros(readCap - 1);
        indexMask = (1 << indexBits) - 1;
        generationMask = indexBits >= 31 ? 0 : (1 << (31 - indexBits)) - 1;

        long capacity = (long) hosts * readCap;
        if (capacity > MAX_PENDING) {
            throw new IllegalArgumentException("hosts * read_cap = " + capacity
                    + " pending reads is too many to preallocate (limit " + MAX_PENDING + ")");
        }
        pending = new PendingReadTable((int) capacity);
        pendingPerReader = new int[hosts];
        deferredReader = new int[(int) capacity];
        deferredSlot = new int[(int) capacity];
        deferredValue = new long[(int) capacity];
        deferredPulse = new long[(int) capacity];
        registry.gauge("read.pendingNow", "reads pending now (read by the snapshot's thread)", pending::size);
        registry.gauge("response.owedNow", "read responses deferred now", () -> deferredCount);
        registry.gauge("issue.readsOutstanding", "reads issued here and not answered yet", this::outstandingReads);
    }

    private static int bitWords(int words) {
        return (words + 63) >>> 6;
    }

    private static boolean bit(long[] bits, int i) {
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    private static void setBit(long[] bits, int i) {
        bits[i >>> 6] |= 1L << i;
    }

    private static void clearBit(long[] bits, int i) {
        bits[i >>> 6] &= ~(1L << i);
    }

    /** The shared-memory map this host routes with. */
    public SharedMap map() {
        return map;
    }

    // =============================================================================================================
    // Issuing side
    // =============================================================================================================

    /**
     * The hosts holding a copy of {@code address}, ascending: a change sends one sRef to each (I-087,
     * Isotach report §3.4.1, pp. 14-18).
     *
     * @param out receives the hosts; an array of the job's host count always suffices
     * @return how many, or -1 if {@code address} is not shared memory (the access fails, I-088)
     */
    public int copies(long address, int[] out) {
        return map.copies(address, out);
    }

    /**
     * The one host a read of {@code address} goes to (I-087): this host if it holds a copy (the read is then a
     * self-ref, answered without network, I-086), else the copy at the smallest {@link IsotachConfig#distance},
     * ties to the lowest id. -1 if {@code address} is not shared memory.
     */
    public int nearestCopy(long address) {
        return map.nearestCopy(address);
    }

    /**
     * Whether this host may issue the change {@code kind} on {@code address} now (I-092, caveats Isotach report
     * App. A.6, pp. 99-100): a SCHED needs no outstanding sched of this host on the address (else the vId would name
     * two scheds, Isotach report §3.4, pp. 14-18); an ASSIGN needs one; a WRITE is always allowed (its sched is never
     * outstanding, see the class comment). An address that is not shared memory fails (I-088).
     *
     * @return {@link #SUCCESS} or {@link #FAILURE}
     * @throws IllegalArgumentException for {@link SharedReferenceKind#READ} (not a change)
     */
    public int checkChange(SharedReferenceKind kind, long address) {
        if (!kind.isChange()) {
            throw new IllegalArgumentException("checkChange is for changes; a read is checked by allocateRead");
        }
        int r = map.regionOf(address);
        if (r < 0) {
            changesRefused.increment();
            return FAILURE;
        }
        boolean outstanding = bit(scheduleOutstanding[r], (int) (address - map.base(r)));
        boolean ok = switch (kind) {
            case SCHEDULE -> !outstanding;
            case ASSIGN -> outstanding;
            default -> true;
        };
        if (!ok) {
            changesRefused.increment();
        }
        return ok ? SUCCESS : FAILURE;
    }

    /**
     * Records an access the engine has accepted (all its sRefs are queued): a SCHED opens this host's
     * outstanding sched on {@code address}, an ASSIGN closes it; WRITE and READ change nothing here.
     *
     * @throws IllegalArgumentException if {@code address} is not shared memory
     * @throws IllegalStateException if the access breaks the caveat ({@link #checkChange} would have failed)
     */
    public void noteIssued(SharedReferenceKind kind, long address) {
        int r = map.regionOf(address);
        if (r < 0) {
            throw new IllegalArgumentException("address " + address + " is not shared memory");
        }
        int w = (int) (address - map.base(r));
        boolean outstanding = bit(scheduleOutstanding[r], w);
        switch (kind) {
            case SCHEDULE -> {
                if (outstanding) {
                    throw new IllegalStateException("host " + me + " already has a sched outstanding on " + address);
                }
                setBit(scheduleOutstanding[r], w);
            }
            case ASSIGN -> {
                if (!outstanding) {
                    throw new IllegalStateException("host " + me + " has no sched outstanding on " + address);
                }
                clearBit(scheduleOutstanding[r], w);
            }
            default -> {
                // a write's sched is substantiated in the same sRef; a read changes no caveat state
            }
        }
    }

    /**
     * Gives a read an lvar slot: the id the read's sRef carries and its response echoes (Isotach report §3.4.2,
     * pp. 14-18; §7.4.5, pp. 69-72). Fails when {@code read_cap} reads are outstanding (I-089), leaving {@code lvar}
     * untouched. Otherwise {@code lvar} is invalidated (Isotach report §3.4, pp. 14-18: it is reused). If {@code lvar}
     * was still waiting for an earlier read, that read stays outstanding (it holds its slot until its response arrives)
     * but its response no longer fills {@code lvar}: {@code iso_retrieve} waits for the most recent read naming the
     * variable (Isotach report App. A.6, pp. 99-100).
     *
     * <p>The slot id carries a generation in its high bits, so a response for a slot that has since been freed
     * and reused is recognised as stale. Cost: one pass over the {@code read_cap} slots (to find an earlier read
     * naming {@code lvar}); nothing is allocated.
     *
     * @return the slot id ({@code >= 0}), or -1 at the cap
     */
    public int allocateRead(IsoVar lvar) {
        if (freeSlotCount == 0) {
            readsRefusedAtCap.increment();
            return -1;
        }
        for (int i = 0; i < readCap; i++) {
            if (slotVar[i] == lvar) {
                slotVar[i] = null;
                readsOrphaned.increment();
            }
        }
        int index = freeSlots[--freeSlotCount];
        slotBusy[index] = true;
        slotVar[index] = lvar;
        lvar.invalidate();
        return slotGeneration[index] << indexBits | index;
    }

    /**
     * A read response arrived (or a local read was answered): fills the read's {@link IsoVar} with
     * {@code value} and the read's {@code pulse} and frees the slot (Isotach report §6.6.2, p. 54). A slot id that is
     * not outstanding (never allocated, already completed, stale generation, out of range: a hostile or duplicated
     * response) is ignored and counted.
     */
    public void completeRead(int readSlot, long value, long pulse) {
        int index = readSlot & indexMask;
        int generation = readSlot >>> indexBits;
        if (readSlot < 0 || index >= readCap || !slotBusy[index] || generation != slotGeneration[index]) {
            responsesHostile.increment();
            return;
        }
        IsoVar var = slotVar[index];
        if (var != null) {
            var.fill(value, pulse);
            responsesCompleted.increment();
        } else {
            responsesToOrphans.increment();
        }
        slotVar[index] = null;
        slotBusy[index] = false;
        slotGeneration[index] = (slotGeneration[index] + 1) & generationMask;
        freeSlots[freeSlotCount++] = index;
    }

    /** Reads issued by this host whose response has not arrived (at most {@code read_cap}, I-089). */
    public int outstandingReads() {
        return readCap - freeSlotCount;
    }

    // =============================================================================================================
    // Executing side
    // =============================================================================================================

    /**
     * Executes one sRef on this host's copy, in isotach order (Isotach report §7.4, pp. 69-72).
     *
     * <ul>
     *   <li>READ: if the variable is unsubstantiated the read pends on (address, vId) (I-081); otherwise its
     *       value goes to the reader {@code source} (I-079, I-086).</li>
     *   <li>SCHED: the variable becomes unsubstantiated with vId {@code source} (I-083).</li>
     *   <li>ASSIGN (vId {@code source}): substantiates the variable with {@code operand} if its vId is still
     *       {@code source} (I-082), then answers every read pending on (address, {@code source}) with
     *       {@code operand}, even if a later write changed the variable (I-080, I-084).</li>
     *   <li>WRITE: the variable becomes substantiated with {@code operand} (I-083).</li>
     * </ul>
     *
     * An sRef this host cannot execute (no local copy of the address, a source outside the job, a read slot
     * that is not a slot id, a reader with {@code read_cap} reads already pending here) is a protocol violation
     * by its sender: it is dropped and counted, and true is returned.
     *
     * @param operand READ: the reader's lvar slot; WRITE, ASSIGN: the value; SCHED: unused
     * @param pulse the logical time of execution
     * @return true when the sRef is done; false when some read response could not be sent: call again later
     *         with the same sRef, before any other
     * @throws IllegalStateException if called with a different sRef while a refused one is outstanding
     */
    public boolean execute(SharedReferenceKind kind, int source, long address, long operand, long pulse,
            ReadResponder responder) {
        if (blocked) {
            if (kind != blockedKind || source != blockedSource || address != blockedAddress
                    || operand != blockedOperand || pulse != blockedPulse) {
                throw new IllegalStateException("execute(" + kind + " from " + source + " on " + address
                        + " at pulse " + pulse + ") while the responses of " + blockedKind + " from " + blockedSource
                        + " on " + blockedAddress + " at pulse " + blockedPulse
                        + " are still owed: the same sRef must be retried first");
            }
            if (!flushDeferred(responder)) {
                executeRefused.increment();
                return false;
            }
            blocked = false;
            blockedKind = null;
            return true;
        }
        int r = map.regionOf(address);
        if (r < 0 || !map.isLocal(r) || source < 0 || source >= hosts
                || (kind == SharedReferenceKind.READ && (operand < 0 || operand > Integer.MAX_VALUE))) {
            referencesRejected.increment();
            return true;
        }
        int w = (int) (address - map.base(r));
        long[] val = values[r];
        long[] unsubBits = unsub[r];
        switch (kind) {
            case READ -> read(val, unsubBits, w, source, address, (int) operand, pulse, responder);
            case SCHEDULE -> {
                // Isotach report §3.4, pp. 14-18: set V.unsub; V.val = pId
                setBit(unsubBits, w);
                val[w] = source;
                executedSchedules.increment();
                observe(nextSequence++, pulse, source, SharedReferenceKind.SCHEDULE, address, 0, source);
            }
            case ASSIGN -> assign(val, unsubBits, w, source, address, operand, pulse, responder);
            case WRITE -> {
                // Isotach report §3.4, pp. 14-18: reset V.unsub; V.val = val. Pending reads belong to earlier scheds:
                // untouched.
                clearBit(unsubBits, w);
                val[w] = operand;
                executedWrites.increment();
                observe(nextSequence++, pulse, source, SharedReferenceKind.WRITE, address, operand, operand);
            }
        }
        if (deferredCount > 0) {
            blocked = true;
            blockedKind = kind;
            blockedSource = source;
            blockedAddress = address;
            blockedOperand = operand;
            blockedPulse = pulse;
            executeRefused.increment();
            return false;
        }
        return true;
    }

    private void read(long[] val, long[] unsubBits, int w, int reader, long address, int readSlot, long pulse,
            ReadResponder responder) {
        if (bit(unsubBits, w)) {
            // Isotach report §3.4, pp. 14-18: the corresponding post is an unsubstantiated sched; wait for its assign
            // (I-080, I-081)
            if (pendingPerReader[reader] >= readCap) {
                readsDroppedOverCap.increment();
                return;
            }
            long sequence = nextSequence++;
            if (!pending.add(address, (int) val[w], reader, readSlot, pulse, sequence)) {
                // unreachable: per-reader caps sum to the table's capacity
                throw new IllegalStateException("pending-read table full below its per-reader caps");
            }
            pendingPerReader[reader]++;
            readsPended.increment();
            executedReads.increment();
            pendingPeak.set(Math.max(pendingPeak.get(), pending.size()));
            return;
        }
        // Isotach report §3.4, pp. 14-18: substantiated; answer now (locally when reader == me: the responder completes
        // it, I-086)
        long value = val[w];
        executedReads.increment();
        observe(nextSequence++, pulse, reader, SharedReferenceKind.READ, address, readSlot, value);
        respondOrDefer(reader, readSlot, value, pulse, responder);
    }

    private void assign(long[] val, long[] unsubBits, int w, int vId, long address, long value, long pulse,
            ReadResponder responder) {
        // Isotach report §3.4, pp. 14-18: the assign substantiates V only if it corresponds to V's last post
        if (bit(unsubBits, w) && val[w] == vId) {
            val[w] = value;
            clearBit(unsubBits, w);
            assignsSubstantiating.increment();
        }
        executedAssigns.increment();
        observe(nextSequence++, pulse, vId, SharedReferenceKind.ASSIGN, address, value, value);
        // Isotach report §3.4, pp. 14-18: every read pending on (V, vId) gets this assign's value, whatever V holds now
        // (I-084)
        for (int e = pending.take(address, vId); e >= 0; e = pending.take(address, vId)) {
            int reader = pending.reader(e);
            int readSlot = pending.slot(e);
            long readPulse = pending.pulse(e);
            long readSequence = pending.sequence(e);
            pending.free(e);
            pendingPerReader[reader]--;
            readsAnsweredFromPending.increment();
            observe(readSequence, readPulse, reader, SharedReferenceKind.READ, address, readSlot, value);
            respondOrDefer(reader, readSlot, value, readPulse, responder);
        }
    }

    private void respondOrDefer(int reader, int readSlot, long value, long pulse, ReadResponder responder) {
        if (deferredCount == 0 && responder.respond(reader, readSlot, value, pulse)) {
            responsesSent.increment();
            return;
        }
        // keep the order: once one response waits, every later one of this sRef waits behind it
        int i = (deferredHead + deferredCount) % deferredReader.length;
        deferredReader[i] = reader;
        deferredSlot[i] = readSlot;
        deferredValue[i] = value;
        deferredPulse[i] = pulse;
        deferredCount++;
        responsesDeferred.increment();
    }

    private boolean flushDeferred(ReadResponder responder) {
        while (deferredCount > 0) {
            int i = deferredHead;
            if (!responder.respond(deferredReader[i], deferredSlot[i], deferredValue[i], deferredPulse[i])) {
                return false;
            }
            responsesSent.increment();
            deferredHead = (deferredHead + 1) % deferredReader.length;
            deferredCount--;
        }
        deferredHead = 0;
        return true;
    }

    private void observe(long sequence, long pulse, int source, SharedReferenceKind kind, long address, long operand,
            long value) {
        SharedMemoryObserver o = observer;
        if (o != null) {
            o.executed(me, sequence, pulse, source, kind.code(), address, operand, value);
        }
    }

    /**
     * The value of this host's copy of {@code address} (for an unsubstantiated word: the vId of its sched).
     *
     * @throws IllegalArgumentException if this host holds no copy of {@code address}
     */
    public long localValue(long address) {
        int r = localRegion(address);
        return values[r][(int) (address - map.base(r))];
    }

    /**
     * Whether this host's copy of {@code address} is unsubstantiated (its last post is a sched whose assign has
     * not executed here).
     *
     * @throws IllegalArgumentException if this host holds no copy of {@code address}
     */
    public boolean isUnsubstantiated(long address) {
        int r = localRegion(address);
        return bit(unsub[r], (int) (address - map.base(r)));
    }

    private int localRegion(long address) {
        int r = map.regionOf(address);
        if (r < 0 || !map.isLocal(r)) {
            throw new IllegalArgumentException("host " + me + " holds no copy of shared address " + address);
        }
        return r;
    }

    /** Reads pending at this host's copies now (I-081). */
    public int pendingReads() {
        return pending.size();
    }

    /** Installs (or with null removes) the observer told about every executed sRef. */
    public void observer(@Nullable SharedMemoryObserver o) {
        this.observer = o;
    }

    /**
     * Diagnostics, by name: {@code sref.*} executed sRefs by kind and those rejected; {@code read.*} the
     * pending-read table; {@code response.*} read responses sent, deferred, completed here, and ignored as
     * hostile; {@code issue.*} the issuing side.
     */
    public Map<String, Long> counters() {
        return registry.snapshot();
    }
}
