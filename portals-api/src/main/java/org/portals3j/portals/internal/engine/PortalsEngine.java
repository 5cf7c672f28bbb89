package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AttachedEntry;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.EqPollResult;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MdUpdateResult;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.NiInit;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;
import org.portals3j.transport.internal.SpinLock;

/**
 * The Portals library of one process: its interfaces, the API functions' semantics, and the
 * transport's message handler. {@link org.portals3j.portals.Portals} is the public front end.
 *
 * <p>Error precedence (not specified; the TCK does not rely on it): {@code PTL_NOINIT}, then an invalid
 * handle, then invalid argument values, then state errors, then {@code PTL_NOSPACE} (digest §2.6).
 *
 * <p>One engine follows one {@link Dialect}, fixed at creation. The Portals 3.3 functions (the
 * methods {@link org.portals3j.portals.Portals33} calls that {@link org.portals3j.portals.Portals} does
 * not) are here beside the 3.2 ones; where a shared function behaves differently in 3.3, the
 * difference is decided by the dialect and documented at the point it matters.
 */
public final class PortalsEngine implements MessageHandler {
    private static final AtomicInteger LIBRARIES = new AtomicInteger();
    private static final System.Logger LOG = System.getLogger(PortalsEngine.class.getName());
    /** Largest event queue (events); a larger count gives PTL_NOSPACE. */
    static final long MAX_EQ_COUNT = 1L << 24;
    /** Portals 3.3 {@code PTL_TIME_FOREVER} as a PtlEQPoll timeout: no limit. */
    public static final long TIME_FOREVER = -1L;
    /**
     * A waiter handed the START event of a message with at most this many payload bytes is woken by
     * the message's {@link #onDeposited}, not by {@link #onHeader}: a deposit this small follows its
     * header within microseconds on any transport (inmem copies it inline, between the two calls), and
     * the waiter then wakes once, finding the END event already in the queue, instead of waking into
     * a lock the delivering thread is about to take again ({@link Wakeups}). The transport calls
     * {@code onDeposited} for every message, also a failed one, and for a message with an attachment
     * (a put or reply being deposited) it takes the lock, so the wake always comes. A larger message's
     * START wakes its waiter at once: the payload may take a while.
     */
    static final long DEFERRED_WAKE_LIMIT = 64 * 1024;
    /** Spins of a PtlEQWait caller before it may park (with the SPIN and BACKOFF idle modes). */
    private static final int WAIT_SPINS = 4_000;

    /** Makes every API call atomic with respect to other threads and incoming operations (L2042). */
    final SpinLock lock = new SpinLock();
    final int libraryId = LIBRARIES.getAndIncrement() & 0xFF;
    private final Dialect dialect;
    /** The job id (Portals 3.3 {@code PtlGetJid}): see {@link #jobId(Job)}. */
    private final int jid;
    private final HandlerCalls handlers = new HandlerCalls();
    /** Waiters handed an event under the lock, woken by {@link #release}. */
    private final Wakeups wakeups = new Wakeups();
    private final Transport transport;
    private final Job job;
    private final JobMember self;
    private final PortalsConfig config;
    private final NetworkInterfaceState[] nis;
    private final SendChannel[] channels;
    /** The buffers small puts and get replies are copied into ({@link #stage}); none on an inline transport. */
    private final SendStaging staging;
    private final PendingOps ops;
    private final IncomingPut[] incomingPuts;
    private volatile boolean initialized;
    /** Messages that reached no interface: not initialised, or not attributable to one (undefined by the spec). */
    private long unattributed;
    // Receive side: the transport serialises header/deposit callbacks, so one of each suffices.
    private final MessageHeader rx = new MessageHeader();
    private final MessageHeader response = new MessageHeader();
    private final MemorySegment responseBuffer = response.segment();
    private final ThreadLocal<@Nullable EqWaiter> waiters = new ThreadLocal<>();
    /** The waiter {@link #eqWait} used last (see {@link #waiter()}). */
    private @Nullable EqWaiter recentWaiter;
    private final ThreadLocal<@Nullable PollWaiter> pollers = new ThreadLocal<>();
    private final ThreadLocal<@Nullable IdleStrategy> idlers = new ThreadLocal<>();
    /** The most bytes one message carries ({@link Transport#maxPayloadLength()}). */
    private final long maxPayload;
    /** Where the chunks of event queues come from (tests replace it to fail or hold an allocation). */
    private final EventStorage.ChunkAllocator chunkAllocator;

    private PortalsEngine(Job job, Transport transport, PortalsConfig config, Dialect dialect,
                          EventStorage.ChunkAllocator chunkAllocator) {
        this.job = job;
        this.chunkAllocator = chunkAllocator;
        this.transport = transport;
        this.config = config;
        this.dialect = dialect;
        this.jid = jobId(job);
        this.self = job.peers().member(transport.rank());
        this.maxPayload = transport.maxPayloadLength();
        this.staging = deliversInline(transport) ? new SendStaging(0, 0)
                : new SendStaging(config.stagedSendLimit(), config.stagingBuffers());
        this.ops = new PendingOps(staging);
        this.nis = new NetworkInterfaceState[config.interfaces()];
        for (int i = 0; i < nis.length; i++) {
            nis[i] = new NetworkInterfaceState(libraryId, i, dialect, handlers, wakeups, maxPayload);
        }
        this.channels = new SendChannel[job.size()];
        this.incomingPuts = new IncomingPut[job.size()];
        for (int r = 0; r < job.size(); r++) {
            channels[r] = new SendChannel();
            incomingPuts[r] = new IncomingPut();
        }
        if (transport.maxHeaderLength() < MessageHeader.LENGTH) {
            throw new IllegalArgumentException("transport " + transport.provider() + " carries headers of at most "
                    + transport.maxHeaderLength() + " bytes; Portals needs " + MessageHeader.LENGTH);
        }
    }

    /** Creates the Portals 3.2 library for the rank whose endpoint {@code transport} is, and starts receiving. */
    public static PortalsEngine create(Job job, Transport transport, PortalsConfig config) {
        return create(job, transport, config, Dialect.PORTALS_3_2);
    }

    /** Creates the library of {@code dialect} for the rank whose endpoint {@code transport} is, and starts receiving. */
    public static PortalsEngine create(Job job, Transport transport, PortalsConfig config, Dialect dialect) {
        return create(job, transport, config, dialect, EventStorage.ChunkAllocator.DEFAULT);
    }

    /** As {@link #create(Job, Transport, PortalsConfig, Dialect)}, with event queue chunks from {@code chunkAllocator}. */
    static PortalsEngine create(Job job, Transport transport, PortalsConfig config, Dialect dialect,
                                EventStorage.ChunkAllocator chunkAllocator) {
        PortalsEngine engine = new PortalsEngine(job, transport, config, dialect, chunkAllocator);
        transport.start(engine);
        return engine;
    }

    /**
     * The Portals 3.3 job id ({@code ptl_jid_t}, an unsigned 32-bit value) of {@code job}: its id read as a
     * decimal number if it is one below 2^31 (a scheduler's numeric job id), else the id's
     * {@link String#hashCode} with the top bit cleared. The same on every rank, computed from nothing but
     * the job's id; never {@code PTL_JID_ANY} (-1). A transport connects only the ranks of one job, so
     * this is also the job id of every process a request can come from.
     */
    static int jobId(Job job) {
        String id = job.id();
        if (!id.isEmpty() && id.length() <= 10 && id.chars().allMatch(c -> c >= '0' && c <= '9')) {
            long n = Long.parseLong(id);
            if (n <= Integer.MAX_VALUE) {
                return (int) n;
            }
        }
        return id.hashCode() & Integer.MAX_VALUE;
    }

    /**
     * Whether {@code transport}'s provider says it delivers inline ({@link TransportCapability#INLINE_DELIVERY}). Such a
     * transport reports a send complete once it has copied the payload into the target, before the target's handler
     * hears of it: SEND_END comes before anything the message causes without staging, which would only add a copy. A
     * transport whose provider is not on the class path (a test's wrapper) counts as one that does not.
     */
    private static boolean deliversInline(Transport transport) {
        return Transports.find(transport.provider())
                .map(p -> p.capabilities().contains(TransportCapability.INLINE_DELIVERY)).orElse(false);
    }

    /** The specification this library follows. */
    public Dialect dialect() {
        return dialect;
    }

    public Transport transport() {
        return transport;
    }

    public Job job() {
        return job;
    }

    public int rank() {
        return transport.rank();
    }

    // ==== PtlInit / PtlFini =====================================================================

    /**
     * PtlInit (L2618): may be called any number of times; returns max_interfaces. PTL_FAIL ("an error
     * during initialization", L2637) when the process's network endpoint is closed: no interface
     * could work.
     */
    public int init() {
        acquire();
        try {
            if (!transport.isPeerAlive(transport.rank())) {
                throw new PortalsException(ReturnCode.FAIL, "the " + transport.provider()
                        + " endpoint of rank " + transport.rank() + " is closed");
            }
            initialized = true;
            return nis.length;
        } finally {
            release();
        }
    }

    /** PtlFini (L2705): tears down every interface. Calls after it answer PTL_NOINIT. */
    public void fini() {
        acquire();
        try {
            for (NetworkInterfaceState ni : nis) {
                if (ni.live) {
                    teardown(ni);
                }
            }
            initialized = false;
        } finally {
            release();
        }
    }

    /**
     * Takes the engine lock ({@link SpinLock}: contention here is brief, a critical section is a match
     * or an event post, typically between a rank's own thread and a thread delivering to it). A thread
     * running a 3.3 event handler holds the lock already: its call is refused before it could wait for
     * itself.
     */
    private void acquire() {
        if (handlers.isRunningOn(Thread.currentThread())) {
            refuseInHandler();
        }
        lock.lock();
    }

    /**
     * Releases the engine lock, then wakes the waiters that were handed events while it was held
     * ({@link Wakeups}: they find the lock free).
     */
    private void release() {
        EqWaiter wake = wakeups.takeAll();
        lock.unlock();
        if (wake != null) {
            Wakeups.wakeAll(wake);
        }
    }

    /**
     * A Portals 3.3 event handler "must not call any API functions" (3.3 &sect;3.11.6; LNet's
     * {@code lnet_eq_handler_t}): it runs in the middle of another operation, with the library's lock
     * held. Such a call fails with PTL_FAIL, the only 3.3 return code for "cannot be done now".
     */
    private static void refuseInHandler() {
        throw new PortalsException(ReturnCode.FAIL, "an event handler must not call Portals functions"
                + " (Portals 3.3 section 3.11.6): it runs while the library logs an event");
    }

    private void requireInit() {
        if (!initialized) {
            throw new PortalsException(ReturnCode.NOINIT, "PtlInit has not been called (or PtlFini was)");
        }
    }

    // ==== network interfaces ====================================================================

    /**
     * PtlNIInit (L2852). A repeat call with the same pid or PTL_PID_ANY returns the existing handle and
     * its limits, ignoring {@code desired} (L2911); asking for a different explicit pid is
     * PTL_INIT_DUP (A-08). {@code desired} is honoured within {@link NiLimits#MAXIMUM}; a negative
     * {@code max_atable_index} is PTL_INV_ASIZE.
     */
    public NiInit niInit(int iface, int pid, @Nullable NiLimits desired) {
        acquire();
        try {
            requireInit();
            if (iface < 0 || iface >= nis.length) {
                throw new PortalsException(ReturnCode.INIT_INV, "interface " + iface + " does not exist (this process has "
                        + nis.length + ", numbered from 0)");
            }
            if (pid < ProcessId.PID_ANY) {
                throw new PortalsException(ReturnCode.INV_PROC, "pid " + pid + " is neither PTL_PID_ANY nor >= 0");
            }
            NetworkInterfaceState ni = nis[iface];
            if (ni.live) {
                if (pid != ProcessId.PID_ANY && pid != ni.pid) {
                    throw new PortalsException(ReturnCode.INIT_DUP, "interface " + iface + " is already initialised with pid "
                            + ni.pid + "; it cannot be initialised again with pid " + pid);
                }
                return new NiInit(new org.portals3j.portals.NiHandle(ni.handle()), ni.limits);
            }
            NiLimits limits = desired == null ? config.defaultLimits() : honour(desired);
            ni.init(pid == ProcessId.PID_ANY ? self.pid() : pid, self.uid(), jid, limits,
                    iface == 0 || config.aclEntryZeroEverywhere());
            return new NiInit(new org.portals3j.portals.NiHandle(ni.handle()), limits);
        } finally {
            release();
        }
    }

    private static NiLimits honour(NiLimits desired) {
        if (desired.maxAtableIndex() < 0) {
            throw new PortalsException(ReturnCode.INV_ASIZE, "desired max_atable_index " + desired.maxAtableIndex()
                    + " is negative");
        }
        NiLimits max = NiLimits.MAXIMUM;
        return new NiLimits(clamp(desired.maxMatchEntries(), 1, max.maxMatchEntries()),
                clamp(desired.maxMemDescriptors(), 1, max.maxMemDescriptors()),
                clamp(desired.maxEventQueues(), 1, max.maxEventQueues()),
                clamp(desired.maxAtableIndex(), 0, max.maxAtableIndex()),
                clamp(desired.maxPtableIndex(), 0, max.maxPtableIndex()));
    }

    private static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** PtlNIFini (L3156). */
    public void niFini(long niHandle) {
        acquire();
        try {
            requireInit();
            teardown(ni(niHandle));
        } finally {
            release();
        }
    }

    private void teardown(NetworkInterfaceState ni) {
        ops.forEachInUse(op -> {
            if (op.ni == ni) {
                if (op.staging == SendStaging.NONE) {
                    ops.release(op);
                } else {
                    detach(op);
                }
            }
        });
        for (IncomingPut p : incomingPuts) {
            if (p.ni == ni) {
                p.clear();
            }
        }
        ni.teardown();
    }

    /**
     * Leaves an op whose staging buffer the transport may still be reading in flight, belonging to no interface:
     * the transport's report frees it ({@link #onSendComplete}), and only then is the buffer used again.
     */
    private static void detach(PendingOp op) {
        op.ni = null;
        op.md = null;
        op.replyMd = null;
    }

    /** PtlNIStatus (L3246). */
    public long niStatus(long niHandle, StatusRegister register) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = ni(niHandle);
            if (!register.isValid()) {
                throw new PortalsException(ReturnCode.INV_SR_INDX, "status register " + register.index()
                        + " does not exist (valid: 0.." + (StatusRegister.COUNT - 1) + ")");
            }
            return ni.register(register.index());
        } finally {
            release();
        }
    }

    /** PtlNIDist (L3428): 0 to oneself, 1 to any other process of the job (A-52). */
    public long niDist(long niHandle, ProcessId process) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = ni(niHandle);
            requireConcreteTarget(process);
            return process.nid() == self.nid() && process.pid() == ni.pid ? 0L : 1L;
        } finally {
            release();
        }
    }

    /** PtlNIHandle (L3598): the interface an object belongs to; an NI handle gives itself back. */
    public long niHandle(long anyHandle) {
        acquire();
        try {
            requireInit();
            int kind = HandleCodec.kind(anyHandle);
            int iface = HandleCodec.iface(anyHandle);
            if (HandleCodec.library(anyHandle) == libraryId && iface < nis.length) {
                NetworkInterfaceState ni = nis[iface];
                boolean valid = switch (kind) {
                    case HandleCodec.KIND_NI -> ni.live && anyHandle == ni.handle();
                    case HandleCodec.KIND_ME -> ni.lookupMe(anyHandle) != null;
                    case HandleCodec.KIND_MD -> ni.lookupMd(anyHandle) != null;
                    case HandleCodec.KIND_EQ -> ni.lookupEq(anyHandle) != null;
                    default -> false;
                };
                if (valid) {
                    return ni.handle();
                }
            }
            throw new PortalsException(ReturnCode.INV_HANDLE, "0x" + Long.toHexString(anyHandle)
                    + " is not the handle of a live object of this process");
        } finally {
            release();
        }
    }

    /** PtlGetUid (L3749). */
    public int getUid(long niHandle) {
        acquire();
        try {
            requireInit();
            return ni(niHandle).uid;
        } finally {
            release();
        }
    }

    /** PtlGetId (L3931). */
    public ProcessId getId(long niHandle) {
        acquire();
        try {
            requireInit();
            return new ProcessId(self.nid(), ni(niHandle).pid);
        } finally {
            release();
        }
    }

    /** Portals 3.3 PtlGetJid (3.3 &sect;3.8): the job id of this process ({@link #jobId}). */
    public int getJid(long niHandle) {
        acquire();
        try {
            requireInit();
            return ni(niHandle).jid;
        } finally {
            release();
        }
    }

    // ==== match entries =========================================================================

    /** PtlMEAttach (L4098). */
    public long meAttach(long niHandle, int portal, ProcessId matchId, long matchBits, long ignoreBits,
                         Unlink unlink, InsertPosition position) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = ni(niHandle);
            if (portal < 0 || portal > ni.limits.maxPtableIndex()) {
                throw new PortalsException(ReturnCode.INV_PTINDEX, "portal index " + portal + " is outside 0.."
                        + ni.limits.maxPtableIndex() + (portal == -1 ? " (PTL_PT_INDEX_ANY is valid only in PtlACEntry, A-61)" : ""));
            }
            requireMatchId(matchId);
            MatchList list = ni.portals[portal];
            MatchEntryState me = newMe(ni, list, portal, matchId, matchBits, ignoreBits, unlink);
            list.insert(me, null, position);
            return ni.handleOf(me);
        } finally {
            release();
        }
    }

    /** PtlMEAttachAny (L4465): the lowest portal index whose match list is empty (A-06). */
    public AttachedEntry meAttachAny(long niHandle, ProcessId matchId, long matchBits, long ignoreBits,
                                     Unlink unlink) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = ni(niHandle);
            requireMatchId(matchId);
            for (int portal = 0; portal < ni.portals.length; portal++) {
                MatchList list = ni.portals[portal];
                if (list.length == 0) {
                    MatchEntryState me = newMe(ni, list, portal, matchId, matchBits, ignoreBits, unlink);
                    list.insert(me, null, InsertPosition.AFTER);
                    return new AttachedEntry(portal, new org.portals3j.portals.MeHandle(ni.handleOf(me)));
                }
            }
            throw new PortalsException(ReturnCode.PT_FULL, "every portal index (0.." + ni.limits.maxPtableIndex()
                    + ") already has a match list");
        } finally {
            release();
        }
    }

    /** PtlMEInsert (L4679), with the unlink argument of the argument table and the examples (A-02). */
    public long meInsert(long current, ProcessId matchId, long matchBits, long ignoreBits, Unlink unlink,
                         InsertPosition position) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(current, HandleCodec.KIND_ME, ReturnCode.INV_ME);
            MatchEntryState cur = ni.lookupMe(current);
            if (cur == null) {
                throw new PortalsException(ReturnCode.INV_ME, "no live match entry has handle 0x" + Long.toHexString(current));
            }
            requireMatchId(matchId);
            MatchList list = ni.portals[cur.portal];
            MatchEntryState me = newMe(ni, list, cur.portal, matchId, matchBits, ignoreBits, unlink);
            list.insert(me, cur, position);
            return ni.handleOf(me);
        } finally {
            release();
        }
    }

    private MatchEntryState newMe(NetworkInterfaceState ni, MatchList list, int portal, ProcessId matchId,
                                  long matchBits, long ignoreBits, Unlink unlink) {
        if (list.length >= config.maxMatchListLength()) {
            throw new PortalsException(ReturnCode.ML_TOOLONG, "the match list of portal " + portal + " already has "
                    + list.length + " entries, the most this interface allows (A-07)");
        }
        MatchEntryState me = ni.mes.allocate();
        if (me == null) {
            throw new PortalsException(ReturnCode.NOSPACE, "the interface already has max_match_entries = "
                    + ni.limits.maxMatchEntries() + " match entries");
        }
        me.portal = portal;
        me.matchNid = matchId.nid();
        me.matchPid = matchId.pid();
        me.matchBits = matchBits;
        me.ignoreBits = ignoreBits;
        me.unlink = unlink;
        me.md = null;
        return me;
    }

    /**
     * PtlMEUnlink (L4924): removes the entry and releases its MD. No UNLINK event (the unlink is
     * explicit). If operations are pending on the MD they complete and their END events are still
     * logged; the MD's handle dies at once (A-37).
     */
    public void meUnlink(long meHandle) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(meHandle, HandleCodec.KIND_ME, ReturnCode.INV_ME);
            MatchEntryState me = ni.lookupMe(meHandle);
            if (me == null) {
                throw new PortalsException(ReturnCode.INV_ME, "no live match entry has handle 0x" + Long.toHexString(meHandle));
            }
            MemoryDescriptorState md = me.md;
            if (md != null) {
                md.me = null;
                me.md = null;
                ni.mds.retire(md);
                if (md.pending == 0) {
                    ni.freeMd(md);
                } else {
                    md.zombie = true;
                }
            }
            ni.removeMe(me);
        } finally {
            release();
        }
    }

    // ==== memory descriptors ====================================================================

    /**
     * PtlMDAttach (L5297): a bad {@code eventq} is PTL_ILL_MD here (A-14). Portals 3.3's PtlMDAttach has
     * no {@code unlink_nofit} (3.3 &sect;3.10, {@code PtlMDAttach(me, md, unlink_op, &handle)}): a 3.3
     * caller passes {@link Unlink#RETAIN}, so an MD a request does not fit is passed over, never unlinked.
     */
    public long mdAttach(long meHandle, MemoryDescriptor value, Unlink unlinkOp, Unlink unlinkNofit) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(meHandle, HandleCodec.KIND_ME, ReturnCode.INV_ME);
            MatchEntryState me = ni.lookupMe(meHandle);
            if (me == null) {
                throw new PortalsException(ReturnCode.INV_ME, "no live match entry has handle 0x" + Long.toHexString(meHandle));
            }
            EventQueueState queue = validate(ni, value, ReturnCode.ILL_MD);
            if (me.md != null) {
                throw new PortalsException(ReturnCode.INUSE, "the match entry already has a memory descriptor");
            }
            MemoryDescriptorState md = ni.newMd(value, queue);
            if (md == null) {
                throw new PortalsException(ReturnCode.NOSPACE, "the interface already has max_mem_descriptors = "
                        + ni.limits.maxMemDescriptors() + " memory descriptors");
            }
            md.me = me;
            md.unlinkOp = unlinkOp;
            md.unlinkNofit = unlinkNofit;
            me.md = md;
            return md.handle;
        } finally {
            release();
        }
    }

    /** PtlMDBind (L5597): a free-floating MD, never auto-unlinked (A-50). */
    public long mdBind(long niHandle, MemoryDescriptor value) {
        return mdBind(niHandle, value, Unlink.RETAIN);
    }

    /**
     * Portals 3.3 PtlMDBind (3.3 &sect;3.10): a free-floating MD that, with {@link Unlink#UNLINK}, is
     * unlinked automatically once inactive, as an attached one is (reference implementation,
     * {@code p3lib/md.c lib_PtlMDBind} sets the same unlink flag as {@code lib_PtlMDAttach}).
     */
    public long mdBind(long niHandle, MemoryDescriptor value, Unlink unlinkOp) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = ni(niHandle);
            EventQueueState queue = validate(ni, value, ReturnCode.INV_EQ);
            MemoryDescriptorState md = ni.newMd(value, queue);
            if (md == null) {
                throw new PortalsException(ReturnCode.NOSPACE, "the interface already has max_mem_descriptors = "
                        + ni.limits.maxMemDescriptors() + " memory descriptors");
            }
            md.bound = true;
            md.unlinkOp = unlinkOp;
            return md.handle;
        } finally {
            release();
        }
    }

    /**
     * Checks a {@code ptl_md_t} (grounds for PTL_ILL_MD: L5362, L5639, L6003) and resolves its event queue.
     * A 3.3 library checks the 3.3 {@code ptl_md_t}: no {@code max_offset} to check, the three 3.3
     * option bits allowed, and with {@code PTL_MD_MAX_SIZE} a {@code max_size} from 0 to the length
     * (LNet's {@code lnet_md_build} refuses other values with -EINVAL, the ILL_MD of 3.3).
     *
     * @param badQueue the code for an {@code eventq} that names no queue at all: PTL_ILL_MD for
     *                 PtlMDAttach/PtlMDUpdate, PTL_INV_EQ for PtlMDBind (L5664, A-14). A live queue of
     *                 another interface is PTL_ILL_MD everywhere (L5362, L5639).
     */
    /** A thread that owns no segment: a segment accessible by it is accessible by every thread. */
    private static final Thread NOT_AN_OWNER = Thread.ofPlatform().unstarted(() -> { });

    private @Nullable EventQueueState validate(NetworkInterfaceState ni, MemoryDescriptor md, ReturnCode badQueue) {
        String problem = null;
        if (md.length() < 0) {
            problem = "length " + Long.toUnsignedString(md.length()) + " is larger than any memory";
        } else if (md.start().isNative() && md.start().address() == 0) {
            if (md.length() > 0) {
                problem = "start is NULL but length is " + md.length() + " (A-55)";
            }
        } else if (md.length() > md.start().byteSize()) {
            problem = "length " + md.length() + " runs past the end of the " + md.start().byteSize() + "-byte segment";
        } else if (!md.start().scope().isAlive()) {
            problem = "the memory of start has been freed (its arena is closed)";
        } else if (!md.start().isAccessibleBy(NOT_AN_OWNER)) {
            // An invalid region for a network (L5362, L5639): the transport reads and writes the MD from
            // its own threads, so a confined segment would fail at random, depending on which thread
            // delivers. Refuse it at once, saying what to do.
            problem = "start is confined to one thread (Arena.ofConfined); the network reaches it from other"
                    + " threads: allocate it from Arena.ofShared(), Arena.global() or Arena.ofAuto()";
        }
        if (problem == null && md.threshold() < MemoryDescriptor.THRESH_INF) {
            problem = "threshold " + md.threshold() + " is negative (use THRESH_INF for no bound)";
        }
        boolean v33 = dialect == Dialect.PORTALS_3_3;
        if (problem == null && !v33 && md.maxOffset() < 0) {
            problem = "max_offset " + md.maxOffset() + " is negative";
        }
        if (problem == null && (md.options() & ~(v33 ? MdOption.ALL_BITS_33 : MdOption.ALL_BITS)) != 0) {
            problem = "options 0x" + Integer.toHexString(md.options()) + " has bits that are not PTL_MD_* options"
                    + (v33 ? " of Portals 3.3" : " of Portals 3.2 (MAX_SIZE and EVENT_*_DISABLE are Portals 3.3's)");
        }
        if (problem == null && v33 && (md.options() & MdOption.MAX_SIZE.bit()) != 0
                && (md.maxSize() < 0 || md.maxSize() > md.length())) {
            problem = "max_size " + md.maxSize() + " is outside 0..length (" + md.length() + ") with PTL_MD_MAX_SIZE";
        }
        if (problem != null) {
            throw new PortalsException(ReturnCode.ILL_MD, problem);
        }
        long eq = md.eventq().value();
        if (eq == 0L) {
            return null;
        }
        EventQueueState queue = ni.lookupEq(eq);
        if (queue != null) {
            return queue;
        }
        int iface = HandleCodec.iface(eq);
        if (HandleCodec.library(eq) == libraryId && iface < nis.length && iface != ni.index
                && nis[iface].lookupEq(eq) != null) {
            throw new PortalsException(ReturnCode.ILL_MD, "the event queue belongs to interface " + iface
                    + ", the memory descriptor to interface " + ni.index);
        }
        throw new PortalsException(badQueue, "eventq 0x" + Long.toHexString(eq) + " is neither a live event queue nor PTL_EQ_NONE");
    }

    /** PtlMDUnlink (L5810): PTL_MD_INUSE while operations are pending (L5824); no UNLINK event (L6444). */
    public void mdUnlink(long mdHandle) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
            MemoryDescriptorState md = ni.lookupMd(mdHandle);
            if (md == null) {
                throw new PortalsException(ReturnCode.INV_MD, "no live memory descriptor has handle 0x" + Long.toHexString(mdHandle));
            }
            if (md.pending > 0) {
                throw new PortalsException(ReturnCode.MD_INUSE, md.pending + " operation(s) are still pending on the memory descriptor");
            }
            ni.unlinkMd(md, false, 0L, 0, 0, 0, 0, 0L, 0L, 0L, 0L);
        } finally {
            release();
        }
    }

    /**
     * PtlMDUpdate (L5905): atomically, only if {@code testq} is PTL_EQ_NONE or empty (L5914). The old
     * value is always returned, also on PTL_NOUPDATE; an update restarts the local offset at 0, as both
     * reference implementations rebuild the MD (A-38); it does not count against the threshold (L5129).
     * With {@code newValue} null nothing changes, but the {@code testq} test still decides the status.
     */
    public MdUpdateResult mdUpdate(long mdHandle, @Nullable MemoryDescriptor newValue, long testq) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
            MemoryDescriptorState md = ni.lookupMd(mdHandle);
            if (md == null) {
                throw new PortalsException(ReturnCode.INV_MD, "no live memory descriptor has handle 0x" + Long.toHexString(mdHandle));
            }
            EventQueueState test = null;
            if (testq != 0L) {
                int iface = HandleCodec.iface(testq);
                test = HandleCodec.library(testq) == libraryId && iface < nis.length ? nis[iface].lookupEq(testq) : null;
                if (test == null) {
                    throw new PortalsException(ReturnCode.INV_EQ, "testq 0x" + Long.toHexString(testq)
                            + " is neither a live event queue nor PTL_EQ_NONE");
                }
            }
            MemoryDescriptor previous = md.snapshot();
            EventQueueState queue = newValue == null ? null : validate(ni, newValue, ReturnCode.ILL_MD);
            if (test != null && !test.isEmpty()) {
                return new MdUpdateResult(ReturnCode.NOUPDATE, previous);
            }
            if (newValue != null) {
                md.set(newValue, queue);
                md.localOffset = 0;
            }
            return new MdUpdateResult(ReturnCode.OK, previous);
        } finally {
            release();
        }
    }

    // ==== event queues ==========================================================================

    /** PtlEQAlloc (L6716): {@code count} 0 is PTL_NOSPACE (A-57). */
    public long eqAlloc(long niHandle, long count) {
        return eqAlloc(niHandle, count, null);
    }

    /**
     * PtlEQAlloc; in Portals 3.3 with a handler (3.3 &sect;3.11, {@code PtlEQAlloc(ni, count, eq_handler,
     * &handle)}), null for {@code PTL_EQ_HANDLER_NONE}. A queue of a 3.3 library numbers its own events,
     * and holds {@code count} rounded up to a power of two ({@link #eqCapacity}); a 3.3 {@code count} of 0
     * gives {@code PTL_EQ_NONE} (0), as in the reference implementation, and no queue.
     *
     * <p>The queue's memory ({@link EventStorage}) is allocated between two holds of the engine lock, so
     * that neither the other threads' Portals calls nor the transport's deliveries wait for it; the slot
     * is taken only in the second, when nothing is left to allocate. A JVM without the memory makes it
     * PTL_NOSPACE with nothing taken.
     *
     * @return the queue's handle, or 0 for a 3.3 {@code count} of 0
     */
    public long eqAlloc(long niHandle, long count, @Nullable EventHandler handler) {
        int capacity;
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = ni(niHandle);
            capacity = eqCapacity(count);
            if (capacity == 0) {
                return 0L; // PTL_EQ_NONE
            }
            if (!ni.eqs.hasRoom()) {
                throw noEqSlot(ni);
            }
        } finally {
            release();
        }
        EventStorage storage;
        try {
            storage = EventStorage.allocate(capacity, chunkAllocator, handler != null);
        } catch (OutOfMemoryError e) {
            throw new PortalsException(ReturnCode.NOSPACE, "the JVM has no memory for an event queue of " + capacity
                    + " events (" + e.getMessage() + "): a smaller count, or a larger heap (-Xmx)");
        }
        acquire();
        try {
            requireInit(); // PtlFini or PtlNIFini may have run meanwhile
            NetworkInterfaceState ni = ni(niHandle);
            EventQueueState q = ni.eqs.allocate();
            if (q == null) {
                throw noEqSlot(ni);
            }
            q.init(storage);
            if (dialect == Dialect.PORTALS_3_3) {
                q.initDialect33(handler);
            }
            return ni.handleOf(q);
        } finally {
            release();
        }
    }

    /**
     * The events a queue of {@code count} holds, or PTL_NOSPACE. Portals 3.2: {@code count} itself, 1 to
     * {@link #MAX_EQ_COUNT} (0 is PTL_NOSPACE, A-57). Portals 3.3: as the reference implementation
     * ({@code p3api/eq.c PtlEQAlloc}), {@code count} rounded up to a power of two, at least 2, up to
     * {@link #MAX_EQ_COUNT}; and 0 for a count of 0, which allocates no queue.
     */
    private int eqCapacity(long count) {
        if (dialect == Dialect.PORTALS_3_3) {
            if (count == 0) {
                return 0;
            }
            if (count > 0 && count <= MAX_EQ_COUNT) {
                return count <= 2 ? 2 : (int) Long.highestOneBit(count - 1) << 1;
            }
        } else if (count > 0 && count <= MAX_EQ_COUNT) {
            return (int) count;
        }
        throw new PortalsException(ReturnCode.NOSPACE, "an event queue holds 1.." + MAX_EQ_COUNT + " events, not "
                + Long.toUnsignedString(count) + (count == 0 ? " (A-57)" : ""));
    }

    private static PortalsException noEqSlot(NetworkInterfaceState ni) {
        return new PortalsException(ReturnCode.NOSPACE, "the interface already has max_event_queues = "
                + ni.limits.maxEventQueues() + " event queues");
    }

    /** PtlEQFree (L6879): threads waiting on it wake with PTL_INV_EQ; MDs still naming it log nothing (A-39). */
    public void eqFree(long eqHandle) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(eqHandle, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            q.discard();
            ni.eqs.free(q);
            ni.wakePollers(); // a PtlEQPoll on this queue answers PTL_INV_EQ now
        } finally {
            release();
        }
    }

    /** PtlEQGet (L6966): never blocks; OK, EQ_DROPPED or EQ_EMPTY. */
    public ReturnCode eqGet(long eqHandle, Event into) {
        ReturnCode rc = takeNow(eqHandle, into);
        // An empty queue: let this thread take what the network holds (Transport.poll), then look again.
        // PtlEQGet stays non-blocking: poll never waits.
        if (rc == ReturnCode.EQ_EMPTY && transport.poll()) {
            rc = takeNow(eqHandle, into);
        }
        return rc;
    }

    private ReturnCode takeNow(long eqHandle, Event into) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(eqHandle, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            return q.take(into);
        } finally {
            release();
        }
    }

    /** PtlEQWait (L7119): blocks with the configured idle strategy until an event is handed over. */
    public ReturnCode eqWait(long eqHandle, Event into) {
        EqWaiter w = waiter();
        long ticket;
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = niOf(eqHandle, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            ReturnCode now = q.take(into);
            if (now != ReturnCode.EQ_EMPTY) {
                return now;
            }
            ticket = w.arm(into);
            q.enqueueWaiter(w);
        } finally {
            release();
        }
        // Spin first: an event usually comes within microseconds, and a spinning waiter needs no
        // unpark. Only then announce that it may park (EqWaiter.wake unparks only such waiters).
        // While spinning, this thread drives the transport itself (Transport.poll): the message it
        // waits for is then received, matched and posted here, with no hand-over from another thread.
        boolean interrupted = false;
        Transport t = transport;
        IdleMode mode = config.idle();
        if (mode == IdleMode.SPIN || mode == IdleMode.BACKOFF) {
            for (int i = 0; i < WAIT_SPINS && !w.ended(ticket); i++) {
                if (t.poll()) {
                    i = 0;
                } else {
                    Thread.onSpinWait();
                }
            }
        }
        if (!w.ended(ticket)) {
            w.mayPark = true;
            IdleStrategy idle = idlers.get();
            if (idle == null) {
                idle = mode.newStrategy();
                idlers.set(idle);
            }
            idle.reset();
            // Threads that may park leave the network to the transport's own thread, which blocks on the
            // socket and wakes this one; spinning and yielding threads keep taking it themselves.
            boolean polling = mode == IdleMode.SPIN || mode == IdleMode.YIELD;
            if (mode == IdleMode.BACKOFF) {
                t.pollingStopped(); // it polled while it spun
            }
            while (!w.ended(ticket)) {
                if (polling && t.poll()) {
                    idle.reset();
                    continue;
                }
                idle.idle();
                if (Thread.interrupted()) {
                    interrupted = true; // PtlEQWait cannot be interrupted; keep the flag for the caller
                }
            }
            w.mayPark = false;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        w.event = w.spare; // do not keep the caller's event reachable
        if (w.outcome() == EqWaiter.CANCELLED) {
            throw new PortalsException(ReturnCode.INV_EQ, "the event queue was freed (or its interface finalised) while waiting");
        }
        return w.result();
    }

    /**
     * The calling thread's waiter. The last one used is kept in a field: a rank's thread usually waits
     * again and again, and comparing its thread is cheaper than a {@link ThreadLocal} lookup.
     */
    private EqWaiter waiter() {
        EqWaiter w = recentWaiter;
        Thread self = Thread.currentThread();
        if (w != null && w.thread == self) {
            return w;
        }
        w = waiters.get();
        if (w == null) {
            w = new EqWaiter(self);
            waiters.set(w);
        }
        recentWaiter = w; // a benign race: any thread's waiter may be here; its thread is checked
        return w;
    }

    /**
     * Portals 3.3 PtlEQPoll (3.3 &sect;3.11; reference implementation {@code p3api/eq.c}): takes the next
     * event from the first of {@code queues}, in the order given, that has one, waiting up to
     * {@code timeoutMillis} ({@code PTL_TIME_FOREVER} = -1: without limit; 0: not at all).
     *
     * <p>As in the reference implementation, an empty list and queues of different interfaces are
     * PTL_INV_EQ (its PTL_EQ_INVALID), as is a queue that is not live, or is freed while waiting. It waits
     * as {@link #eqWait} does: spinning briefly while driving the network, then with the configured idle
     * strategy, woken by the thread that logs an event into one of the interface's queues. Threads in
     * {@link #eqWait} on a queue are served first (they take events as they come, A-19); a poller takes
     * what stays in the queue.
     *
     * @return the code (OK, EQ_DROPPED, or EQ_EMPTY after the timeout) and which queue the event came from
     */
    public EqPollResult eqPoll(EqHandle[] queues, long timeoutMillis, Event into) {
        if (timeoutMillis < TIME_FOREVER) {
            throw new IllegalArgumentException("timeout " + timeoutMillis + " ms is negative (PTL_TIME_FOREVER is "
                    + TIME_FOREVER + ")");
        }
        EqPollResult now = pollNow(queues, into, null);
        if (now != null) {
            return now;
        }
        if (timeoutMillis == 0) {
            // Like PtlEQGet: let this thread take what the network holds, without waiting.
            if (transport.poll()) {
                now = pollNow(queues, into, null);
            }
            return now != null ? now : EqPollResult.EMPTY;
        }
        long limit = timeoutMillis == TIME_FOREVER ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long start = System.nanoTime();
        PollWaiter w = pollers.get();
        if (w == null) {
            w = new PollWaiter(Thread.currentThread());
            pollers.set(w);
        }
        w.signalled = false;
        now = pollNow(queues, into, w); // registers w if nothing is there yet
        if (now != null) {
            return now;
        }
        boolean interrupted = false;
        Transport t = transport;
        try {
            if (config.idle() == IdleMode.SPIN || config.idle() == IdleMode.BACKOFF) {
                for (int i = 0; i < WAIT_SPINS && !w.signalled; i++) {
                    if (t.poll()) {
                        i = 0;
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }
            IdleStrategy idle = idlers.get();
            if (idle == null) {
                idle = config.idle().newStrategy();
                idlers.set(idle);
            }
            idle.reset();
            boolean polling = config.idle() == IdleMode.SPIN || config.idle() == IdleMode.YIELD;
            if (config.idle() == IdleMode.BACKOFF) {
                t.pollingStopped(); // it polled while it spun
            }
            while (true) {
                if (w.signalled) {
                    w.signalled = false; // cleared before looking: a later event signals again
                    now = pollNow(queues, into, null);
                    if (now != null) {
                        return now;
                    }
                    idle.reset();
                }
                if (System.nanoTime() - start >= limit) {
                    now = pollNow(queues, into, null);
                    return now != null ? now : EqPollResult.EMPTY;
                }
                if (polling && t.poll()) {
                    idle.reset();
                    continue;
                }
                w.mayPark = true;
                if (!w.signalled) {
                    idle.idle(); // parks at most IdleMode's period, so the deadline is looked at again soon
                }
                w.mayPark = false;
                if (Thread.interrupted()) {
                    interrupted = true; // PtlEQPoll cannot be interrupted; keep the flag for the caller
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            lock.lock(); // not acquire(): this must not fail, and this thread runs no handler
            try {
                NetworkInterfaceState on = w.registeredOn;
                if (on != null) {
                    on.removePoller(w);
                }
            } finally {
                release();
            }
        }
    }

    /**
     * One look at {@code queues}, under the lock: checks them (PTL_INV_EQ), takes from the first that has
     * an event, or, if none has and {@code register} is given, puts it on the interface's poller list.
     */
    private @Nullable EqPollResult pollNow(EqHandle[] queues, Event into, @Nullable PollWaiter register) {
        acquire();
        try {
            requireInit();
            if (queues.length == 0) {
                throw new PortalsException(ReturnCode.INV_EQ, "PtlEQPoll needs at least one event queue");
            }
            NetworkInterfaceState ni = niOf(queues[0].value(), HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            for (int i = 0; i < queues.length; i++) {
                long h = queues[i].value();
                NetworkInterfaceState of = niOf(h, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
                if (of != ni) {
                    throw new PortalsException(ReturnCode.INV_EQ, "queue " + i + " belongs to interface " + of.index
                            + ", queue 0 to interface " + ni.index + ": PtlEQPoll's queues share one interface");
                }
                requireEq(of, h);
            }
            for (int i = 0; i < queues.length; i++) {
                EventQueueState q = requireEq(ni, queues[i].value());
                ReturnCode rc = q.take(into);
                if (rc != ReturnCode.EQ_EMPTY) {
                    return EqPollResult.of(rc, i);
                }
            }
            if (register != null) {
                ni.addPoller(register);
            }
            return null;
        } finally {
            release();
        }
    }

    private static EventQueueState requireEq(NetworkInterfaceState ni, long eqHandle) {
        EventQueueState q = ni.lookupEq(eqHandle);
        if (q == null) {
            throw new PortalsException(ReturnCode.INV_EQ, "no live event queue has handle 0x" + Long.toHexString(eqHandle));
        }
        return q;
    }

    // ==== access control ========================================================================

    /** PtlACEntry (L7291): overwrites entry {@code index}. */
    public void acEntry(long niHandle, int index, ProcessId matchId, int uid, int portal) {
        acEntry(niHandle, index, matchId, uid, AccessControlEntry.JID_ANY, portal);
    }

    /**
     * PtlACEntry; in Portals 3.3 with the job id allowed ({@code PTL_JID_ANY} = -1 for any), 3.3
     * &sect;3.12.1. A 3.2 entry allows any job.
     */
    public void acEntry(long niHandle, int index, ProcessId matchId, int uid, int jobId, int portal) {
        acquire();
        try {
            requireInit();
            NetworkInterfaceState ni = ni(niHandle);
            if (index < 0 || index > ni.limits.maxAtableIndex()) {
                throw new PortalsException(ReturnCode.AC_INV_INDEX, "access control index " + index + " is outside 0.."
                        + ni.limits.maxAtableIndex());
            }
            requireMatchId(matchId);
            if (portal != -1 && (portal < 0 || portal > ni.limits.maxPtableIndex())) {
                throw new PortalsException(ReturnCode.PT_INV_INDEX, "portal index " + portal
                        + " is neither PTL_PT_INDEX_ANY nor in 0.." + ni.limits.maxPtableIndex());
            }
            ni.acl[index].set(matchId.nid(), matchId.pid(), uid, jobId, portal);
        } finally {
            release();
        }
    }

    // ==== data movement =========================================================================

    /**
     * PtlPut (L7571): sends the whole MD (A-54). Takes one unit of the MD's threshold now; an MD whose
     * threshold is 0 is PTL_INV_MD; the ack takes none (A-27; in 3.3 it takes one when it arrives, see
     * {@link NetworkInterfaceState#acceptAck}). An ack is asked for (a handle other than PTL_MD_NONE on
     * the wire) only with PTL_ACK_REQ and an event queue on the MD (L7724, A-30).
     */
    public void put(long mdHandle, AckRequest ack, ProcessId target, int portal, int cookie, long matchBits,
                    long offset, long hdrData) {
        put(mdHandle, false, 0L, 0L, ack, target, portal, cookie, matchBits, offset, hdrData);
    }

    /**
     * Portals 3.3 PtlPutRegion (3.3 &sect;3.13.3): as {@link #put}, but sends only the {@code length} bytes
     * at {@code localOffset} of the MD. A region outside the MD is PTL_ILL_MD (reference implementation,
     * {@code p3lib/move.c lib_PtlPut}: "P3.3 API spec, section 3.13.3"), checked after the MD itself
     * (PTL_INV_MD). The SEND events report {@code length} as rlength and mlength.
     */
    public void putRegion(long mdHandle, long localOffset, long length, AckRequest ack, ProcessId target, int portal,
                          int cookie, long matchBits, long remoteOffset, long hdrData) {
        put(mdHandle, true, localOffset, length, ack, target, portal, cookie, matchBits, remoteOffset, hdrData);
    }

    private void put(long mdHandle, boolean region, long localOffset, long regionLength, AckRequest ack,
                     ProcessId target, int portal, int cookie, long matchBits, long offset, long hdrData) {
        refuseInHandlerThread();
        requireInit();
        NetworkInterfaceState niGuess = niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        channel.lock.lock();
        try {
            MemorySegment payload;
            long from;
            long length;
            long token;
            boolean staged;
            int buffer;
            acquire();
            try {
                requireInit();
                MemoryDescriptorState md = activeMd(niGuess, mdHandle);
                if (region) {
                    requireRegion(md, localOffset, regionLength);
                }
                from = region ? localOffset : 0L;
                length = region ? regionLength : md.length;
                requireCarried(length, region, "PtlPut");
                NetworkInterfaceState ni = niGuess;
                PendingOp op = begin(ni, md, PendingOp.Kind.PUT_SEND, rank, target, portal, matchBits, offset, length);
                op.hdrData = hdrData;
                op.link = ni.post(md, EventKind.SEND_START, NetworkInterfaceState.SELF_LINK, self.nid(), ni.pid, ni.uid,
                        portal, matchBits, length, length, offset, hdrData, NiFailType.OK);
                long ackHandle = ack == AckRequest.ACK_REQ && md.eventQueue() != null ? md.handle : 0L;
                ni.putBytes.value += length;
                channel.header.begin(MessageType.PUT, ni.index).initiator(self.nid(), ni.pid).user(ni.uid)
                        .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                        .offset(offset).mdHandle(ackHandle).length(length).hdrData(hdrData).exchange(op.token);
                payload = md.start;
                token = op.token;
                staged = stage(op, length, rank);
                buffer = op.staging;
            } finally {
                release();
            }
            if (staged) {
                sendStaged(rank, channel.buffer, payload, from, length, token, buffer);
            } else {
                send(rank, channel.buffer, payload, from, length, token);
            }
        } finally {
            channel.lock.unlock();
        }
    }

    /**
     * PtlGet (L7973): asks for the MD's length (L14496); the reply lands at offset 0 of the MD, truncated
     * to fit (A-34). Takes one unit of threshold now; the reply takes none (A-27). The MD is pending (and
     * cannot be unlinked) until the reply arrives (L14073).
     */
    public void get(long mdHandle, ProcessId target, int portal, int cookie, long matchBits, long offset) {
        get(mdHandle, false, 0L, 0L, target, portal, cookie, matchBits, offset);
    }

    /**
     * Portals 3.3 PtlGetRegion (3.3 &sect;3.13.5): as {@link #get}, but asks for {@code length} bytes, which
     * land at {@code localOffset} of the MD (the reference implementation sends {@code local_offset} as
     * the reply's destination offset, {@code rtn_offset}). A region outside the MD is PTL_ILL_MD.
     *
     * <p>The unit of threshold is taken when the get is issued, as in 3.2, not when the reply arrives as
     * in the reference implementation: the count is the same (one per get), and a get already issued can
     * never find its MD inactive and its reply refused, which would leave it pending for ever.
     */
    public void getRegion(long mdHandle, long localOffset, long length, ProcessId target, int portal, int cookie,
                          long matchBits, long remoteOffset) {
        get(mdHandle, true, localOffset, length, target, portal, cookie, matchBits, remoteOffset);
    }

    private void get(long mdHandle, boolean region, long localOffset, long regionLength, ProcessId target, int portal,
                     int cookie, long matchBits, long offset) {
        refuseInHandlerThread();
        requireInit();
        NetworkInterfaceState niGuess = niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        channel.lock.lock();
        try {
            long token;
            acquire();
            try {
                requireInit();
                MemoryDescriptorState md = activeMd(niGuess, mdHandle);
                if (region) {
                    requireRegion(md, localOffset, regionLength);
                }
                long length = region ? regionLength : md.length;
                requireCarried(length, region, "PtlGet");
                NetworkInterfaceState ni = niGuess;
                PendingOp op = begin(ni, md, PendingOp.Kind.GET_REQUEST, rank, target, portal, matchBits, offset, length);
                op.localOffset = region ? localOffset : 0L;
                op.localLength = region ? regionLength : Long.MAX_VALUE; // PtlGet: as much as the MD holds then
                if (dialect == Dialect.PORTALS_3_3) {
                    op.offset = op.localOffset; // REPLY events: where the data lands (see receiveReply)
                }
                channel.header.begin(MessageType.GET, ni.index).initiator(self.nid(), ni.pid).user(ni.uid)
                        .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                        .offset(offset).mdHandle(md.handle).length(length).exchange(op.token);
                token = op.token;
            } finally {
                release();
            }
            send(rank, channel.buffer, MemorySegment.NULL, 0L, 0L, token);
        } finally {
            channel.lock.unlock();
        }
    }

    /**
     * Portals 3.3 {@code PtlGetPut} (the reference implementation's atomic swap, {@code p3api/move.c},
     * {@code p3lib/move.c lib_PtlGetPut}): sends the whole put MD (at most
     * {@link MessageHeader#MAX_GETPUT_LENGTH} bytes) to the target, which swaps it with the bytes of the MD it
     * matches and replies with those; the reply lands at offset 0 of the get MD, truncated to it, as a get's
     * does. The put MD logs SEND_START and SEND_END, the get MD REPLY_START and REPLY_END; SEND_END always
     * comes first, the reply proving the bytes arrived. Each MD gives one unit of threshold now (the same MD
     * gives two, as far as it has them) and stays pending until its events are logged. No acknowledgement.
     *
     * @throws PortalsException {@code INV_MD} for a handle that is not a live MD or an MD whose threshold is
     *         0; {@code ILL_MD} for MDs of two interfaces or a put MD longer than the limit (the reference
     *         implementation's {@code PTL_MD_ILLEGAL}); {@code INV_PROC} for a target outside the job
     */
    public void getPut(long getMdHandle, long putMdHandle, ProcessId target, int portal, int cookie, long matchBits,
                       long remoteOffset, long hdrData) {
        refuseInHandlerThread();
        requireInit();
        NetworkInterfaceState ni = niOf(getMdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        NetworkInterfaceState putNi = niOf(putMdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        channel.lock.lock();
        try {
            MemorySegment payload;
            long length;
            long token;
            acquire();
            try {
                requireInit();
                MemoryDescriptorState getMd = activeMd(ni, getMdHandle);
                MemoryDescriptorState putMd = activeMd(putNi, putMdHandle);
                if (putNi != ni) {
                    throw new PortalsException(ReturnCode.ILL_MD, "the get MD belongs to interface " + ni.index
                            + ", the put MD to interface " + putNi.index + ": PtlGetPut's MDs share one interface");
                }
                if (putMd.length > MessageHeader.MAX_GETPUT_LENGTH) {
                    throw new PortalsException(ReturnCode.ILL_MD, "the put MD has " + putMd.length + " bytes; PtlGetPut"
                            + " swaps at most max_getput_md = " + MessageHeader.MAX_GETPUT_LENGTH);
                }
                length = putMd.length;
                PendingOp op = begin(ni, putMd, PendingOp.Kind.GETPUT_REQUEST, rank, target, portal, matchBits,
                        remoteOffset, length);
                if (getMd.threshold > 0) {
                    getMd.threshold--;
                }
                getMd.pending++;
                op.replyMd = getMd;
                op.hdrData = hdrData;
                op.localOffset = 0L;
                op.localLength = Long.MAX_VALUE;
                op.link = ni.post(putMd, EventKind.SEND_START, NetworkInterfaceState.SELF_LINK, self.nid(), ni.pid,
                        ni.uid, portal, matchBits, length, length, remoteOffset, hdrData, NiFailType.OK);
                ni.putBytes.value += length;
                channel.header.begin(MessageType.GETPUT, ni.index).initiator(self.nid(), ni.pid).user(ni.uid)
                        .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                        .offset(remoteOffset).mdHandle(getMd.handle).length(length).hdrData(hdrData)
                        .exchange(op.token);
                payload = putMd.start;
                token = op.token;
            } finally {
                release();
            }
            send(rank, channel.buffer, payload, 0L, length, token);
        } finally {
            channel.lock.unlock();
        }
    }

    /**
     * A put's payload, or the data a get asks for, is at most what one message of the transport carries;
     * else, before anything is taken or logged, PTL_INV_MD for PtlPut/PtlGet (the one MD code they have,
     * sections 3.11.1.1 and 3.11.2.1) and PTL_ILL_MD for a 3.3 region (as for any region the call cannot use).
     */
    private void requireCarried(long length, boolean region, String call) {
        if (length > maxPayload) {
            throw new PortalsException(region ? ReturnCode.ILL_MD : ReturnCode.INV_MD, call + " of "
                    + Long.toUnsignedString(length) + " bytes: the " + transport.provider() + " transport carries at most "
                    + maxPayload + " bytes in one message (use a smaller memory descriptor"
                    + (region ? " region" : "") + ")");
        }
    }

    /** A PtlPutRegion/PtlGetRegion region inside the MD (3.3 &sect;3.13.3, &sect;3.13.5), else PTL_ILL_MD. */
    private static void requireRegion(MemoryDescriptorState md, long localOffset, long length) {
        if (localOffset < 0 || length < 0 || localOffset > md.length || length > md.length - localOffset) {
            throw new PortalsException(ReturnCode.ILL_MD, "the region of " + Long.toUnsignedString(length)
                    + " bytes at local offset " + Long.toUnsignedString(localOffset) + " is not inside the "
                    + md.length + "-byte memory descriptor");
        }
    }

    /**
     * Checked before a channel lock is taken: a handler thread holds the engine lock, and waiting for a
     * channel lock while holding it could deadlock with a thread holding that channel lock.
     */
    private void refuseInHandlerThread() {
        if (handlers.isRunningOn(Thread.currentThread())) {
            refuseInHandler();
        }
    }

    private MemoryDescriptorState activeMd(NetworkInterfaceState ni, long mdHandle) {
        MemoryDescriptorState md = ni.lookupMd(mdHandle);
        if (md == null) {
            throw new PortalsException(ReturnCode.INV_MD, "no live memory descriptor has handle 0x" + Long.toHexString(mdHandle));
        }
        if (md.threshold == 0) {
            throw new PortalsException(ReturnCode.INV_MD, "the memory descriptor's threshold is 0: it is inactive (A-27)");
        }
        return md;
    }

    private PendingOp begin(NetworkInterfaceState ni, MemoryDescriptorState md, PendingOp.Kind kind, int rank,
                            ProcessId target, int portal, long matchBits, long offset, long length) {
        if (md.threshold > 0) {
            md.threshold--;
        }
        md.pending++;
        PendingOp op = ops.allocate(kind);
        op.ni = ni;
        op.md = md;
        op.peerRank = rank;
        op.peerNid = target.nid();
        op.peerPid = target.pid();
        op.uid = ni.uid;
        op.portal = portal;
        op.matchBits = matchBits;
        op.rlength = length;
        op.mlength = length;
        op.offset = offset;
        return op;
    }

    /**
     * Hands a message to the transport. A transport that refuses it (closed, or any other exception)
     * fails the operation as an undelivered send would, so that it still completes (SEND_FAIL, GET_FAIL,
     * or REPLY_START and REPLY_FAIL) and nothing is left pending; an ack or a reply that cannot be sent
     * is lost as one the network lost, and so is a staged message, whose END event is logged already
     * ({@link #sendStaged}: counted in {@link StatusRegister#SENDS_LOST}). Only a closed endpoint is expected:
     * anything else is logged.
     */
    private void send(int rank, MemorySegment header, MemorySegment payload, long offset, long length, long token) {
        try {
            transport.send(rank, header, MessageHeader.LENGTH, payload, offset, length, token);
        } catch (RuntimeException refused) {
            if (!(refused instanceof IllegalStateException)) {
                LOG.log(System.Logger.Level.ERROR, "rank " + transport.rank() + ": the " + transport.provider()
                        + " transport refused a message of " + length + " bytes to rank " + rank
                        + "; the operation fails", refused);
            }
            if (token != Transport.NO_NOTIFY) {
                onSendComplete(token, false);
            }
        }
    }

    /**
     * Whether the payload of {@code length} bytes that {@code op} sends to {@code rank} is staged: copied into a
     * buffer of {@link #staging}, which {@code op} then owns (an empty payload needs none), so that its END event is
     * logged as soon as the copy is made ({@link #sendStaged}). Not when the payload is larger than the buffers or
     * none is free: the transport then reads the MD, and the END event waits for its report. Not either when the
     * transport would refuse the message at once (the peer is known dead, the endpoint is closed): the operation
     * then fails with its FAIL event (3.3: its END event's {@code ni_fail_type}), as without staging. Under the
     * engine lock.
     */
    private boolean stage(PendingOp op, long length, int rank) {
        if (!staging.fits(length) || !transport.isPeerAlive(rank) || !transport.isPeerAlive(transport.rank())) {
            return false;
        }
        if (length == 0) {
            return true;
        }
        op.staging = staging.take();
        return op.staging != SendStaging.NONE;
    }

    /**
     * Sends a staged message ({@link #stage}): copies the payload into the op's buffer, outside the engine lock (the
     * MD is pending, so it cannot go away; the buffer is the op's), logs the END event ({@link #endStagedSend}), and
     * hands the copy to the transport. The END event comes before the transport has the message, so nothing the
     * message causes (the target's answer, a token come round a ring) can be logged on the same queue before it.
     * When the MD's memory cannot be read (its arena was closed), the MD is handed to the transport as it is,
     * which fails the send as it would without staging, and the END event waits for its report.
     */
    private void sendStaged(int rank, MemorySegment header, MemorySegment payload, long from, long length,
                            long token, int buffer) {
        MemorySegment source = payload;
        long offset = from;
        if (buffer != SendStaging.NONE) {
            MemorySegment copy = staging.buffer(buffer);
            try {
                MemorySegment.copy(payload, from, copy, 0L, length);
                source = copy;
                offset = 0L;
            } catch (IllegalStateException gone) {
                send(rank, header, payload, from, length, token);
                return;
            }
        }
        endStagedSend(token);
        send(rank, header, source, offset, length, token);
    }

    /**
     * The payload of a staged message has left the MD, which the application may reuse: a put logs SEND_END and a
     * get's reply GET_END now (Portals 3.2 sections 3.9.1 and 3.11.1; the package documentation, "When SEND_END is
     * logged").
     * The op stays in flight, its buffer read by the transport, until the transport's report, which then only
     * frees it (or counts the message lost).
     */
    private void endStagedSend(long token) {
        acquire();
        try {
            PendingOp op = ops.lookup(token);
            if (op == null || op.ni == null || op.md == null) {
                return; // the interface was finalised meanwhile
            }
            if (op.kind == PendingOp.Kind.PUT_SEND) {
                finishSend(op, true);
                op.md = null;
            } else {
                endReplySend(op, true);
            }
            op.sendEnded = true;
        } finally {
            release();
        }
    }

    // ==== argument checks =======================================================================

    private NetworkInterfaceState ni(long niHandle) {
        int iface = HandleCodec.iface(niHandle);
        if (HandleCodec.kind(niHandle) == HandleCodec.KIND_NI && HandleCodec.library(niHandle) == libraryId
                && iface < nis.length) {
            NetworkInterfaceState ni = nis[iface];
            if (ni.live && ni.handle() == niHandle) {
                return ni;
            }
        }
        throw new PortalsException(ReturnCode.INV_NI, "0x" + Long.toHexString(niHandle)
                + " is not the handle of an initialised network interface of this process");
    }

    /** The interface an object handle names (the object itself is checked later, under the lock). */
    private NetworkInterfaceState niOf(long handle, int kind, ReturnCode error) {
        int iface = HandleCodec.iface(handle);
        if (HandleCodec.kind(handle) != kind || HandleCodec.library(handle) != libraryId || iface >= nis.length) {
            throw new PortalsException(error, "0x" + Long.toHexString(handle) + " is not a "
                    + (kind == HandleCodec.KIND_ME ? "match entry" : kind == HandleCodec.KIND_MD ? "memory descriptor" : "event queue")
                    + " handle of this process");
        }
        return nis[iface];
    }

    /**
     * A match id of PtlMEAttach, PtlMEAttachAny, PtlMEInsert or PtlACEntry: each field the wildcard or a
     * value, and a nid that is PTL_NID_ANY or a node of this job. A nid outside the job is PTL_INV_PROC,
     * as it is for a target (A-63): no process there can ever send a request, and the same id is refused
     * where it is a target. The pid is not checked further: which pids another node has is not known here.
     */
    private void requireMatchId(ProcessId id) {
        if (!id.isValidPattern()) {
            throw new PortalsException(ReturnCode.INV_PROC, id + " is not a valid process id pattern (fields are >= 0 or the wildcard -1)");
        }
        if (id.nid() != ProcessId.NID_ANY && job.peers().rankOfNid(id.nid()) < 0) {
            throw new PortalsException(ReturnCode.INV_PROC, "no process of job " + job.id() + " has nid " + id.nid()
                    + ": a match id names a node of the job or PTL_NID_ANY (A-63)");
        }
    }

    /** A process id a message can be sent to: no wildcards, a node of this job (A-62, A-63). */
    private int requireConcreteTarget(ProcessId target) {
        if (!target.isConcrete()) {
            throw new PortalsException(ReturnCode.INV_PROC, target + " is not a concrete process id (wildcards and negative values cannot be targets)");
        }
        int rank = job.peers().rankOfNid(target.nid());
        if (rank < 0) {
            throw new PortalsException(ReturnCode.INV_PROC, "no process of job " + job.id() + " has nid " + target.nid());
        }
        return rank;
    }

    // ==== the transport's side ==================================================================

    @Override
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        if (headerLength != MessageHeader.LENGTH || header.byteSize() < MessageHeader.LENGTH) {
            countUnattributed();
            return;
        }
        MessageHeader h = rx.load(header);
        MessageType type = h.validate(headerLength, payloadLength, nis.length);
        int replyRank = -1;
        MemorySegment replyPayload = MemorySegment.NULL;
        long replyOffset = 0;
        long replyLength = 0;
        long replyToken = Transport.NO_NOTIFY;
        boolean replyStaged = false;
        int replyBuffer = SendStaging.NONE;
        acquire();
        try {
            int iface = h.iface();
            NetworkInterfaceState ni = iface < nis.length ? nis[iface] : null;
            if (!initialized || ni == null || !ni.live) {
                unattributed++;
                return;
            }
            // Remote input is hostile: a frame must say who sent it truthfully (the transport knows the
            // source) and be well formed before any field is used.
            if (type == null || h.initiatorNid() != job.peers().member(source).nid()) {
                ni.drop(StatusRegister.DROP_MALFORMED);
                return;
            }
            if (h.targetNid() != self.nid() || h.targetPid() != ni.pid) {
                ni.drop(StatusRegister.DROP_WRONG_PID); // L15027
                return;
            }
            switch (type) {
                case PUT -> {
                    IncomingPut p = incomingPuts[source];
                    MemoryDescriptorState md = ni.receivePut(h, p);
                    if (md != null) {
                        deposit.accept(md.start, p.mlength == 0 ? 0 : p.offset, p.mlength);
                        deposit.attach(p);
                    }
                }
                case GET -> {
                    PendingOp op = ops.allocate(PendingOp.Kind.GET_REPLY);
                    MemoryDescriptorState md = ni.receiveGet(h, op, source);
                    if (md == null) {
                        ops.release(op);
                    } else {
                        response.begin(MessageType.REPLY, ni.index).initiator(self.nid(), ni.pid).user(ni.uid)
                                .target(h.initiatorNid(), h.initiatorPid()).portal(h.portal()).matchBits(h.matchBits())
                                .offset(h.offset()).mdHandle(h.mdHandle()).length(h.length())
                                .manipulatedLength(op.mlength).exchange(h.exchange());
                        replyRank = source;
                        replyPayload = md.start;
                        replyOffset = op.mlength == 0 ? 0 : op.offset;
                        replyLength = op.mlength;
                        replyToken = op.token;
                        replyStaged = stage(op, replyLength, source);
                        replyBuffer = op.staging;
                    }
                }
                case ACK -> receiveAck(ni, h, source);
                case REPLY -> receiveReply(ni, h, source, deposit);
                case GETPUT -> receiveGetPut(ni, h, source, deposit);
            }
        } finally {
            if (deposit.attachment() != null && payloadLength <= DEFERRED_WAKE_LIMIT) {
                lock.unlock(); // onDeposited, which always follows (MessageHandler) and takes the lock, wakes them
            } else {
                release();
            }
        }
        if (replyRank >= 0) {
            if (replyStaged) {
                sendStaged(replyRank, responseBuffer, replyPayload, replyOffset, replyLength, replyToken, replyBuffer);
            } else {
                send(replyRank, responseBuffer, replyPayload, replyOffset, replyLength, replyToken);
            }
        }
    }

    /**
     * An ack (L15039). One that overtook its put's send completion (the transport reports it later)
     * completes the send now: the ack says the target has the whole message, so the buffer may be reused,
     * and SEND_END is logged, then the ACK (A-59). Keeping the ACK until the transport's report would let a
     * message the target sent after it (an answer to the put) be logged first. The op stays in flight,
     * with no MD, until the transport's report, which then only frees it.
     */
    private void receiveAck(NetworkInterfaceState ni, MessageHeader h, int source) {
        PendingOp op = ops.lookup(h.exchange());
        if (op != null && op.kind == PendingOp.Kind.PUT_SEND && op.ni == ni && op.peerRank == source) {
            op.acknowledged = true; // delivered, whatever the transport reports later
        }
        if (op != null && op.kind == PendingOp.Kind.PUT_SEND && op.ni == ni && op.peerRank == source
                && op.md != null && op.md.handle == h.mdHandle() && h.mdHandle() != 0L) {
            op.ackWaiting = true;
            op.ackNid = h.initiatorNid();
            op.ackPid = h.initiatorPid();
            op.ackUid = h.user();
            op.ackRlength = h.length();
            op.ackMlength = h.manipulatedLength();
            finishSend(op, true);
            op.md = null; // completeSend, when the transport reports, only frees the op
            return;
        }
        ni.acceptAck(h.mdHandle(), h.initiatorNid(), h.initiatorPid(), h.user(), h.portal(), h.matchBits(), h.offset(),
                h.length(), h.manipulatedLength(), true);
    }

    /**
     * A reply (L15056): accepted by the MD of the get it answers, whatever its options, truncated to the
     * MD's length and placed at offset 0 (A-34). A reply naming no pending get is dropped and counted.
     * For a PtlGetRegion it is placed at the region's local offset, truncated to the region and to what
     * the MD holds after that offset now; a 3.3 library reports that local offset in the REPLY events
     * (3.3 &sect;3.11.4: the offset is "the displacement into the memory region that the operation used";
     * the reference implementation's {@code parse_reply} reports the reply's destination offset).
     */
    private void receiveReply(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit) {
        PendingOp op = ops.lookup(h.exchange());
        if (op != null && op.kind == PendingOp.Kind.GETPUT_REQUEST) {
            receiveSwapReply(ni, h, source, deposit, op);
            return;
        }
        MemoryDescriptorState md = op == null ? null : op.md;
        if (op == null || md == null || op.kind != PendingOp.Kind.GET_REQUEST || op.ni != ni || op.started
                || op.peerRank != source || md.handle != h.mdHandle()) {
            ni.drop(StatusRegister.DROP_STALE_MD);
            return;
        }
        long room = md.length > op.localOffset ? md.length - op.localOffset : 0L;
        long mlength = Math.min(Math.min(h.manipulatedLength(), op.localLength), room);
        op.started = true;
        op.peerNid = h.initiatorNid();
        op.peerPid = h.initiatorPid();
        op.uid = h.user();
        op.rlength = h.length();
        op.mlength = mlength;
        op.offset = dialect == Dialect.PORTALS_3_3 ? op.localOffset : h.offset();
        op.link = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, mlength, op.offset, 0L, NiFailType.OK);
        deposit.accept(md.start, mlength == 0 ? 0 : op.localOffset, mlength);
        deposit.attach(op);
    }

    /**
     * A {@code PtlGetPut} request (Portals 3.3 only: a 3.2 library does not know it and counts it malformed):
     * matched as {@link NetworkInterfaceState#receiveGetPut} says; its bytes go to the op's own buffer, and are
     * swapped into the MD once they are all in ({@link #completeSwap}).
     */
    private void receiveGetPut(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit) {
        if (dialect != Dialect.PORTALS_3_3) {
            ni.drop(StatusRegister.DROP_MALFORMED);
            return;
        }
        PendingOp op = ops.allocate(PendingOp.Kind.GETPUT_REPLY);
        MemoryDescriptorState md = ni.receiveGetPut(h, op, source);
        if (md == null) {
            ops.release(op);
            return;
        }
        op.localOffset = h.offset(); // the reply echoes the request's offset, as a get's does
        op.localLength = h.length();
        op.peerMdHandle = h.mdHandle();
        op.peerExchange = h.exchange();
        deposit.accept(op.swapIn(), 0L, h.length());
        deposit.attach(op);
    }

    /**
     * The reply to this process's {@code PtlGetPut}: as a get's reply ({@link #receiveReply}), into the get MD
     * at offset 0; SEND_END is logged first if the send's completion has not come yet (the reply proves the
     * bytes arrived and were used), so SEND_END always comes before REPLY_END.
     */
    private void receiveSwapReply(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit, PendingOp op) {
        MemoryDescriptorState md = op.replyMd;
        if (md == null || op.ni != ni || op.started || op.peerRank != source || md.handle != h.mdHandle()) {
            ni.drop(StatusRegister.DROP_STALE_MD);
            return;
        }
        if (!op.sendEnded) {
            endSwapSend(op, true);
        }
        long mlength = Math.min(h.manipulatedLength(), md.length);
        op.started = true;
        op.peerNid = h.initiatorNid();
        op.peerPid = h.initiatorPid();
        op.uid = h.user();
        op.rlength = h.length();
        op.mlength = mlength;
        op.offset = 0L;
        op.link = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, mlength, 0L, 0L, NiFailType.OK);
        deposit.accept(md.start, 0L, mlength);
        deposit.attach(op);
    }

    /**
     * The end of a put or reply whose data is in place. A put that asks for an ack is completed in two
     * holds of the lock, the ack handed to the transport between them: PUT_END becomes visible (to a
     * waiter, a poller, a handler) only after the ack has left, so an answer the target sends on PUT_END
     * travels behind the ack on the same ordered channel and never reaches the initiator first. The lock
     * is not held while sending ({@link Transport}: a transport may deliver inline, and an ack to this
     * process comes back into this engine).
     */
    @Override
    public void onDeposited(int source, Deposit deposit) {
        Object attachment = deposit.attachment();
        if (attachment instanceof IncomingPut p) {
            boolean ack = false;
            acquire();
            try {
                ack = prepareAck(p, deposit);
                if (!ack) {
                    completePut(p, deposit);
                }
            } finally {
                if (ack) {
                    lock.unlock(); // nothing new to see yet: the wakes queued so far wait for the PUT_END
                } else {
                    release();
                }
            }
            if (ack) {
                try {
                    send(source, responseBuffer, MemorySegment.NULL, 0L, 0L, Transport.NO_NOTIFY);
                } finally {
                    acquire();
                    try {
                        completePut(p, deposit);
                    } finally {
                        release();
                    }
                }
            }
        } else if (attachment instanceof PendingOp op) {
            boolean reply = false;
            long replyLength = 0L;
            MemorySegment replyPayload = MemorySegment.NULL;
            long replyToken = Transport.NO_NOTIFY;
            acquire();
            try {
                switch (op.kind) {
                    case GETPUT_REQUEST -> completeSwapReply(op, deposit);
                    case GETPUT_REPLY -> {
                        reply = completeSwap(op, deposit);
                        replyLength = op.mlength;
                        replyPayload = reply ? requireSwapOut(op) : MemorySegment.NULL;
                        replyToken = op.token;
                    }
                    default -> completeReply(op, deposit);
                }
            } finally {
                release();
            }
            if (reply) {
                send(source, responseBuffer, replyPayload, 0L, replyLength, replyToken);
            }
        }
    }

    private static MemorySegment requireSwapOut(PendingOp op) {
        MemorySegment out = op.swapOut;
        if (out == null) {
            throw new IllegalStateException("a GETPUT reply without its swap buffer"); // swapIn() made both
        }
        return out;
    }

    /**
     * The swap of a {@code PtlGetPut} at its target, once its bytes are in: under the engine lock, so atomic with
     * respect to every other {@code PtlGetPut} on this process (the reference implementation swaps in
     * {@code lib_finalize}; neither is atomic with respect to a put into the same bytes or the program's own
     * stores). The MD's {@code mlength} bytes at the matched offset go to the reply, the request's first
     * {@code mlength} bytes take their place, and the reply is prepared in {@link #response}.
     *
     * @return whether to send the reply: not when the interface went away, or the transfer failed (GETPUT_END
     *         then reports it; the initiator learns of the failure from its transport, as for a get)
     */
    private boolean completeSwap(PendingOp op, Deposit deposit) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        MemorySegment in = op.swapIn;
        MemorySegment out = op.swapOut;
        if (!op.inUse || ni == null || md == null || in == null || out == null || !ni.live) {
            return false;
        }
        ni.registers[StatusRegister.BYTES_RECEIVED.index()] += deposit.deposited();
        long n = op.mlength;
        boolean readable = !deposit.failed() && md.start.scope().isAlive();
        if (!readable) {
            ni.post(md, EventKind.GETPUT_END, op.link, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits,
                    op.rlength, 0L, op.offset, op.hdrData, deposit.failed() ? failReason(op) : NiFailType.MEMORY_FAULT);
            ni.releasePending(md);
            ops.release(op);
            return false;
        }
        if (n > 0) {
            MemorySegment.copy(md.start, op.offset, out, 0L, n);
            MemorySegment.copy(in, 0L, md.start, op.offset, n);
        }
        ni.registers[StatusRegister.BYTES_SENT.index()] += n;
        response.begin(MessageType.REPLY, ni.index).initiator(self.nid(), ni.pid).user(ni.uid)
                .target(op.peerNid, op.peerPid).portal(op.portal).matchBits(op.matchBits).offset(op.localOffset)
                .mdHandle(op.peerMdHandle).length(op.localLength).manipulatedLength(n).exchange(op.peerExchange);
        return true;
    }

    /** REPLY_END of a {@code PtlGetPut} once the old bytes are in the get MD; the op ends with its send. */
    private void completeSwapReply(PendingOp op, Deposit deposit) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.replyMd;
        if (!op.inUse || ni == null || md == null || !ni.live) {
            return;
        }
        boolean failed = deposit.failed();
        long mlength = failed ? deposit.deposited() : op.mlength;
        ni.registers[StatusRegister.BYTES_RECEIVED.index()] += deposit.deposited();
        long end = ni.post(md, EventKind.REPLY_END, op.link, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits,
                op.rlength, mlength, 0L, 0L, failed ? NiFailType.MEMORY_FAULT : NiFailType.OK);
        op.replyEnded = true;
        ni.releasePending(md);
        if (!failed) {
            ni.autoUnlinkIfInactive(md, end, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                    mlength, 0L);
        }
        if (op.sendEnded) {
            ops.release(op);
        }
    }

    /**
     * SEND_END (with {@code ni_fail_type} if not {@code delivered}) of a {@code PtlGetPut}'s put MD, at most once:
     * from the send's completion or from the reply, whichever comes first.
     */
    private void endSwapSend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        op.sendEnded = true;
        if (ni == null || md == null) {
            return;
        }
        long end = ni.post(md, EventKind.SEND_END, op.link, self.nid(), ni.pid, ni.uid, op.portal, op.matchBits,
                op.rlength, op.mlength, op.offset, op.hdrData, delivered ? NiFailType.OK : failReason(op));
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, end, self.nid(), ni.pid, ni.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
    }

    /** A {@code PtlGetPut}'s send completed: SEND_END unless the reply logged it; a lost send fails the reply too. */
    private void completeSwapSend(PendingOp op, boolean delivered) {
        if (!op.sendEnded) {
            endSwapSend(op, delivered);
        }
        if (!delivered && !op.started) {
            failSwapReply(op, failReason(op));
        } else if (op.replyEnded) {
            ops.release(op);
        }
    }

    /**
     * A {@code PtlGetPut} that will never be answered (its target failed): REPLY_START and REPLY_END on the get MD
     * with {@code ni_fail_type} saying why, as {@link #failGet} does for a get.
     */
    private void failSwapReply(PendingOp op, NiFailType why) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.replyMd;
        if (ni != null && md != null) {
            long start = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid,
                    op.uid, op.portal, op.matchBits, op.rlength, 0L, 0L, 0L, why);
            ni.post(md, EventKind.REPLY_END, start, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits,
                    op.rlength, 0L, 0L, 0L, why);
            ni.releasePending(md);
        }
        ops.release(op);
    }

    /** GETPUT_END once the reply with the old bytes has been sent (as GET_END, L6325). */
    private void completeSwapReplySend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            ops.release(op);
            return;
        }
        long end = ni.post(md, EventKind.GETPUT_END, op.link, op.peerNid, op.peerPid, op.uid, op.portal,
                op.matchBits, op.rlength, op.mlength, op.offset, op.hdrData, delivered ? NiFailType.OK : failReason(op));
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, end, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
        ops.release(op);
    }

    /**
     * Whether the put that {@code p} describes gets an ack (asked for and allowed, L7724; not for a failed
     * deposit): if so, the ack is written into {@link #response}, ready to be sent.
     */
    private boolean prepareAck(IncomingPut p, Deposit deposit) {
        NetworkInterfaceState ni = p.ni;
        MemoryDescriptorState md = p.md;
        if (ni == null || md == null || !ni.live || ni.incarnation != p.incarnation || deposit.failed()
                || p.ackMd == 0L || md.has(MdOption.ACK_DISABLE)) {
            return false;
        }
        response.begin(MessageType.ACK, ni.index).initiator(self.nid(), ni.pid).user(ni.uid)
                .target(p.initiatorNid, p.initiatorPid).portal(p.portal).matchBits(p.matchBits).offset(p.requestOffset)
                .mdHandle(p.ackMd).length(p.rlength).manipulatedLength(p.mlength).exchange(p.exchange);
        return true;
    }

    /** PUT_END or PUT_FAIL, and the automatic unlink (L5468). */
    private void completePut(IncomingPut p, Deposit deposit) {
        NetworkInterfaceState ni = p.ni;
        MemoryDescriptorState md = p.md;
        p.clear();
        if (ni == null || md == null || !ni.live || ni.incarnation != p.incarnation) {
            return; // the interface was finalised meanwhile: undefined by the spec (L3159)
        }
        boolean failed = deposit.failed();
        long mlength = failed ? deposit.deposited() : p.mlength;
        ni.registers[StatusRegister.BYTES_RECEIVED.index()] += deposit.deposited();
        long end = ni.post(md, failed ? EventKind.PUT_FAIL : EventKind.PUT_END, p.link, p.initiatorNid, p.initiatorPid,
                p.uid, p.portal, p.matchBits, p.rlength, mlength, p.offset, p.hdrData,
                failed ? NiFailType.MEMORY_FAULT : NiFailType.OK);
        ni.releasePending(md);
        if (!failed) {
            ni.autoUnlinkIfInactive(md, end, p.initiatorNid, p.initiatorPid, p.uid, p.portal, p.matchBits, p.rlength,
                    mlength, p.offset);
        }
    }

    /** REPLY_END or REPLY_FAIL once the reply's data is in place (L6384). */
    private void completeReply(PendingOp op, Deposit deposit) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (!op.inUse || ni == null || md == null || !ni.live) {
            return;
        }
        boolean failed = deposit.failed();
        long mlength = failed ? deposit.deposited() : op.mlength;
        ni.registers[StatusRegister.BYTES_RECEIVED.index()] += deposit.deposited();
        long end = ni.post(md, failed ? EventKind.REPLY_FAIL : EventKind.REPLY_END, op.link, op.peerNid, op.peerPid,
                op.uid, op.portal, op.matchBits, op.rlength, mlength, op.offset, 0L,
                failed ? NiFailType.MEMORY_FAULT : NiFailType.OK);
        ni.releasePending(md);
        if (!failed) {
            ni.autoUnlinkIfInactive(md, end, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                    mlength, op.offset);
        }
        ops.release(op);
    }

    @Override
    public void onSendComplete(long token, boolean delivered) {
        acquire();
        try {
            PendingOp op = ops.lookup(token);
            if (op == null) {
                return;
            }
            if (op.ni == null) { // detached by PtlNIFini: the transport has let go of its buffer
                ops.release(op);
                return;
            }
            switch (op.kind) {
                case PUT_SEND -> completeSend(op, delivered);
                case GET_REPLY -> completeReplySend(op, delivered);
                case GET_REQUEST -> {
                    if (!delivered && !op.started) {
                        failGet(op, failReason(op));
                    }
                }
                case GETPUT_REQUEST -> completeSwapSend(op, delivered);
                case GETPUT_REPLY -> completeSwapReplySend(op, delivered);
            }
        } finally {
            release();
        }
    }

    /**
     * SEND_END once the buffer may be reused (L6421), then a waiting ack, then the automatic unlink; a staged send
     * (its SEND_END logged once its payload was copied) that the transport then failed to deliver is counted
     * ({@link StatusRegister#SENDS_LOST}): the SEND_END cannot be taken back.
     */
    private void completeSend(PendingOp op, boolean delivered) {
        if (op.sendEnded) {
            countLost(op, delivered || op.acknowledged);
        } else {
            finishSend(op, delivered);
        }
        ops.release(op);
    }

    /** Counts a staged send that was not delivered (its END event logged already), unless {@code delivered}. */
    private static void countLost(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        if (!delivered && ni != null && ni.live) {
            ni.registers[StatusRegister.SENDS_LOST.index()]++;
        }
    }

    /** The events and state of {@link #completeSend}, without freeing the op. */
    private void finishSend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            return;
        }
        long end = ni.post(md, delivered ? EventKind.SEND_END : EventKind.SEND_FAIL, op.link, self.nid(), ni.pid, ni.uid,
                op.portal, op.matchBits, op.rlength, op.mlength, op.offset, op.hdrData,
                delivered ? NiFailType.OK : failReason(op));
        long cause = end;
        if (delivered && op.ackWaiting) {
            long ack = ni.acceptAck(md.handle, op.ackNid, op.ackPid, op.ackUid, op.portal, op.matchBits, op.offset,
                    op.ackRlength, op.ackMlength, false);
            if (md.dialect33 && ack != 0) {
                cause = ack; // in 3.3 the ack took threshold too: it is what may have made the MD inactive
            }
        }
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, cause, self.nid(), ni.pid, ni.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
    }

    /**
     * The transport's report of a get's reply: GET_END (or GET_FAIL) unless the reply was staged and GET_END logged
     * already (then a reply not delivered is counted, as a put's send is in {@link #completeSend}).
     */
    private void completeReplySend(PendingOp op, boolean delivered) {
        if (op.sendEnded) {
            countLost(op, delivered);
        } else {
            endReplySend(op, delivered);
        }
        ops.release(op);
    }

    /** GET_END (or GET_FAIL) once the reply has been sent (L6325, A-48), and the automatic unlink. */
    private void endReplySend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            return;
        }
        long end = ni.post(md, delivered ? EventKind.GET_END : EventKind.GET_FAIL, op.link, op.peerNid, op.peerPid,
                op.uid, op.portal, op.matchBits, op.rlength, op.mlength, op.offset, 0L,
                delivered ? NiFailType.OK : failReason(op));
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, end, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
    }

    /**
     * A get that will never be answered (its target failed): REPLY_START and REPLY_FAIL, so that the
     * operation still reports an initiation and a completion (L1601), with {@code ni_fail_type} saying why.
     */
    private void failGet(PendingOp op, NiFailType why) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            ops.release(op);
            return;
        }
        long start = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, 0L, op.offset, 0L, why);
        ni.post(md, EventKind.REPLY_FAIL, start, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength, 0L,
                op.offset, 0L, why);
        ni.releasePending(md);
        ops.release(op);
    }

    private NiFailType failReason(PendingOp op) {
        MemoryDescriptorState md = op.md;
        if (md != null && !md.start.scope().isAlive()) {
            return NiFailType.MEMORY_FAULT;
        }
        return transport.isPeerAlive(op.peerRank) ? NiFailType.FAIL : NiFailType.PEER_DEAD;
    }

    @Override
    public void onPeerFailure(int peer) {
        acquire();
        try {
            ops.forEachInUse(op -> {
                if (op.kind == PendingOp.Kind.GET_REQUEST && op.peerRank == peer && !op.started) {
                    failGet(op, NiFailType.PEER_DEAD);
                } else if (op.kind == PendingOp.Kind.GETPUT_REQUEST && op.peerRank == peer && !op.started) {
                    if (!op.sendEnded) {
                        endSwapSend(op, false);
                    }
                    failSwapReply(op, NiFailType.PEER_DEAD);
                }
            });
        } finally {
            release();
        }
    }

    private void countUnattributed() {
        acquire();
        try {
            unattributed++;
        } finally {
            release();
        }
    }

    /** How many staging buffers are free now (diagnostics and tests). */
    int freeStagingBuffers() {
        acquire();
        try {
            return staging.freeBuffers();
        } finally {
            release();
        }
    }

    /** Messages that reached no initialised interface of this process (diagnostics). */
    public long unattributedMessages() {
        acquire();
        try {
            return unattributed;
        } finally {
            release();
        }
    }
}
