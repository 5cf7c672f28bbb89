package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
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
import org.portals3j.runtime.Job;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;

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
public final class PortalsEngine implements MessageHandler, SendingSide {
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

    private final LibraryState library;
    private final SendChannel[] channels;
    private final MessageSender sender;
    private final Target target;
    /** The header being received: the transport serialises header/deposit callbacks, so one suffices. */
    private final MessageHeader rx = new MessageHeader();
    private final ThreadLocal<@Nullable EqWaiter> waiters = new ThreadLocal<>();
    /** The waiter {@link #eqWait} used last (see {@link #waiter()}). */
    private @Nullable EqWaiter recentWaiter;
    private final ThreadLocal<@Nullable PollWaiter> pollers = new ThreadLocal<>();
    private final ThreadLocal<@Nullable IdleStrategy> idlers = new ThreadLocal<>();
    /** Where the chunks of event queues come from (tests replace it to fail or hold an allocation). */
    private final EventStorage.ChunkAllocator chunkAllocator;

    private PortalsEngine(Job job, Transport transport, PortalsConfig config, Dialect dialect,
                          EventStorage.ChunkAllocator chunkAllocator) {
        this.chunkAllocator = chunkAllocator;
        // The buffers small puts and get replies are copied into; none on an inline transport.
        SendStaging staging = deliversInline(transport) ? new SendStaging(0, 0)
                : new SendStaging(config.stagedSendLimit(), config.stagingBuffers());
        this.library = new LibraryState(job, transport, config, dialect, staging);
        this.sender = new MessageSender(transport, staging);
        this.target = new Target(library, sender);
        this.channels = new SendChannel[job.size()];
        for (int r = 0; r < job.size(); r++) {
            channels[r] = new SendChannel();
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
        return library.dialect;
    }

    public Transport transport() {
        return library.transport;
    }

    public Job job() {
        return library.job;
    }

    public int rank() {
        return library.transport.rank();
    }

    // ==== PtlInit / PtlFini =====================================================================

    /**
     * PtlInit (L2618): may be called any number of times; returns max_interfaces. PTL_FAIL ("an error
     * during initialization", L2637) when the process's network endpoint is closed: no interface
     * could work.
     */
    public int init() {
        library.acquire();
        try {
            if (!library.transport.isPeerAlive(library.transport.rank())) {
                throw new PortalsException(ReturnCode.FAIL, "the " + library.transport.provider()
                        + " endpoint of rank " + library.transport.rank() + " is closed");
            }
            library.initialized = true;
            return library.nis.length;
        } finally {
            library.release();
        }
    }

    /** PtlFini (L2705): tears down every interface. Calls after it answer PTL_NOINIT. */
    public void fini() {
        library.acquire();
        try {
            for (NetworkInterfaceState ni : library.nis) {
                if (ni.isLive()) {
                    teardown(ni);
                }
            }
            library.initialized = false;
        } finally {
            library.release();
        }
    }

    // ==== network interfaces ====================================================================

    /**
     * PtlNIInit (L2852). A repeat call with the same pid or PTL_PID_ANY returns the existing handle and
     * its limits, ignoring {@code desired} (L2911); asking for a different explicit pid is
     * PTL_INIT_DUP. {@code desired} is honoured within {@link NiLimits#MAXIMUM}; a negative
     * {@code max_atable_index} is PTL_INV_ASIZE.
     */
    public NiInit niInit(int iface, int pid, @Nullable NiLimits desired) {
        library.acquire();
        try {
            library.requireInit();
            if (iface < 0 || iface >= library.nis.length) {
                throw new PortalsException(ReturnCode.INIT_INV, "interface " + iface + " does not exist (this process has "
                        + library.nis.length + ", numbered from 0)");
            }
            if (pid < ProcessId.PID_ANY) {
                throw new PortalsException(ReturnCode.INV_PROC, "pid " + pid + " is neither PTL_PID_ANY nor >= 0");
            }
            NetworkInterfaceState ni = library.nis[iface];
            if (ni.isLive()) {
                if (pid != ProcessId.PID_ANY && pid != ni.pid) {
                    throw new PortalsException(ReturnCode.INIT_DUP, "interface " + iface + " is already initialised with pid "
                            + ni.pid + "; it cannot be initialised again with pid " + pid);
                }
                return new NiInit(new org.portals3j.portals.NiHandle(ni.handle()), ni.limits);
            }
            NiLimits limits = desired == null ? library.config.defaultLimits() : honour(desired);
            ni.init(pid == ProcessId.PID_ANY ? library.self.pid() : pid, library.self.uid(), library.jid, limits,
                    iface == 0 || library.config.aclEntryZeroEverywhere());
            return new NiInit(new org.portals3j.portals.NiHandle(ni.handle()), limits);
        } finally {
            library.release();
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
        library.acquire();
        try {
            library.requireInit();
            teardown(library.ni(niHandle));
        } finally {
            library.release();
        }
    }

    private void teardown(NetworkInterfaceState ni) {
        library.ops.forEachInUse(op -> {
            if (op.ni == ni) {
                if (op.staging == SendStaging.NONE) {
                    library.ops.release(op);
                } else {
                    detach(op);
                }
            }
        });
        target.forget(ni);
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
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            if (!register.isValid()) {
                throw new PortalsException(ReturnCode.INV_SR_INDX, "status register " + register.index()
                        + " does not exist (valid: 0.." + (StatusRegister.COUNT - 1) + ")");
            }
            return ni.register(register.index());
        } finally {
            library.release();
        }
    }

    /** PtlNIDist (L3428): 0 to oneself, 1 to any other process of the job. */
    public long niDist(long niHandle, ProcessId process) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            library.requireConcreteTarget(process);
            return process.nid() == library.self.nid() && process.pid() == ni.pid ? 0L : 1L;
        } finally {
            library.release();
        }
    }

    /** PtlNIHandle (L3598): the interface an object belongs to; an NI handle gives itself back. */
    public long niHandle(long anyHandle) {
        library.acquire();
        try {
            library.requireInit();
            int kind = HandleCodec.kind(anyHandle);
            int iface = HandleCodec.iface(anyHandle);
            if (HandleCodec.library(anyHandle) == library.libraryId && iface < library.nis.length) {
                NetworkInterfaceState ni = library.nis[iface];
                boolean valid = switch (kind) {
                    case HandleCodec.KIND_NI -> ni.isLive() && anyHandle == ni.handle();
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
            library.release();
        }
    }

    /** PtlGetUid (L3749). */
    public int getUid(long niHandle) {
        library.acquire();
        try {
            library.requireInit();
            return library.ni(niHandle).uid;
        } finally {
            library.release();
        }
    }

    /** PtlGetId (L3931). */
    public ProcessId getId(long niHandle) {
        library.acquire();
        try {
            library.requireInit();
            return new ProcessId(library.self.nid(), library.ni(niHandle).pid);
        } finally {
            library.release();
        }
    }

    /** Portals 3.3 PtlGetJid (3.3 &sect;3.8): the job id of this process ({@link #jobId}). */
    public int getJid(long niHandle) {
        library.acquire();
        try {
            library.requireInit();
            return library.ni(niHandle).jid;
        } finally {
            library.release();
        }
    }

    // ==== match entries =========================================================================

    /** PtlMEAttach (L4098). */
    public long meAttach(long niHandle, int portal, ProcessId matchId, long matchBits, long ignoreBits,
                         Unlink unlink, InsertPosition position) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            if (portal < 0 || portal > ni.limits.maxPtableIndex()) {
                throw new PortalsException(ReturnCode.INV_PTINDEX, "portal index " + portal + " is outside 0.."
                        + ni.limits.maxPtableIndex() + (portal == -1 ? " (PTL_PT_INDEX_ANY is valid only in PtlACEntry, A-61)" : ""));
            }
            library.requireMatchId(matchId);
            MatchList list = ni.portals[portal];
            MatchEntryState me = newMe(ni, list, portal, matchId, matchBits, ignoreBits, unlink);
            list.insert(me, null, position);
            return ni.handleOf(me);
        } finally {
            library.release();
        }
    }

    /** PtlMEAttachAny (L4465): the lowest portal index whose match list is empty. */
    public AttachedEntry meAttachAny(long niHandle, ProcessId matchId, long matchBits, long ignoreBits,
                                     Unlink unlink) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            library.requireMatchId(matchId);
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
            library.release();
        }
    }

    /** PtlMEInsert (L4679), with the unlink argument of the argument table and the examples. */
    public long meInsert(long current, ProcessId matchId, long matchBits, long ignoreBits, Unlink unlink,
                         InsertPosition position) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(current, HandleCodec.KIND_ME, ReturnCode.INV_ME);
            MatchEntryState cur = ni.lookupMe(current);
            if (cur == null) {
                throw new PortalsException(ReturnCode.INV_ME, "no live match entry has handle 0x" + Long.toHexString(current));
            }
            library.requireMatchId(matchId);
            MatchList list = ni.portals[cur.portal];
            MatchEntryState me = newMe(ni, list, cur.portal, matchId, matchBits, ignoreBits, unlink);
            list.insert(me, cur, position);
            return ni.handleOf(me);
        } finally {
            library.release();
        }
    }

    private MatchEntryState newMe(NetworkInterfaceState ni, MatchList list, int portal, ProcessId matchId,
                                  long matchBits, long ignoreBits, Unlink unlink) {
        if (list.length >= library.config.maxMatchListLength()) {
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
     * logged; the MD's handle dies at once.
     */
    public void meUnlink(long meHandle) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(meHandle, HandleCodec.KIND_ME, ReturnCode.INV_ME);
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
            library.release();
        }
    }

    // ==== memory descriptors ====================================================================

    /**
     * PtlMDAttach (L5297): a bad {@code eventq} is PTL_ILL_MD here. Portals 3.3's PtlMDAttach has
     * no {@code unlink_nofit} (3.3 &sect;3.10, {@code PtlMDAttach(me, md, unlink_op, &handle)}): a 3.3
     * caller passes {@link Unlink#RETAIN}, so an MD a request does not fit is passed over, never unlinked.
     */
    public long mdAttach(long meHandle, MemoryDescriptor value, Unlink unlinkOp, Unlink unlinkNofit) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(meHandle, HandleCodec.KIND_ME, ReturnCode.INV_ME);
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
            library.release();
        }
    }

    /** PtlMDBind (L5597): a free-floating MD, never auto-unlinked. */
    public long mdBind(long niHandle, MemoryDescriptor value) {
        return mdBind(niHandle, value, Unlink.RETAIN);
    }

    /**
     * Portals 3.3 PtlMDBind (3.3 &sect;3.10): a free-floating MD that, with {@link Unlink#UNLINK}, is
     * unlinked automatically once inactive, as an attached one is (reference implementation,
     * {@code p3lib/md.c lib_PtlMDBind} sets the same unlink flag as {@code lib_PtlMDAttach}).
     */
    public long mdBind(long niHandle, MemoryDescriptor value, Unlink unlinkOp) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
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
            library.release();
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
        boolean v33 = library.dialect == Dialect.PORTALS_3_3;
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
        if (HandleCodec.library(eq) == library.libraryId && iface < library.nis.length && iface != ni.index
                && library.nis[iface].lookupEq(eq) != null) {
            throw new PortalsException(ReturnCode.ILL_MD, "the event queue belongs to interface " + iface
                    + ", the memory descriptor to interface " + ni.index);
        }
        throw new PortalsException(badQueue, "eventq 0x" + Long.toHexString(eq) + " is neither a live event queue nor PTL_EQ_NONE");
    }

    /** PtlMDUnlink (L5810): PTL_MD_INUSE while operations are pending (L5824); no UNLINK event (L6444). */
    public void mdUnlink(long mdHandle) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
            MemoryDescriptorState md = ni.lookupMd(mdHandle);
            if (md == null) {
                throw new PortalsException(ReturnCode.INV_MD, "no live memory descriptor has handle 0x" + Long.toHexString(mdHandle));
            }
            if (md.pending > 0) {
                throw new PortalsException(ReturnCode.MD_INUSE, md.pending + " operation(s) are still pending on the memory descriptor");
            }
            ni.unlinkMd(md, false, 0L, 0, 0, 0, 0, 0L, 0L, 0L, 0L);
        } finally {
            library.release();
        }
    }

    /**
     * PtlMDUpdate (L5905): atomically, only if {@code testq} is PTL_EQ_NONE or empty (L5914). The old
     * value is always returned, also on PTL_NOUPDATE; an update restarts the local offset at 0, as both
     * reference implementations rebuild the MD; it does not count against the threshold (L5129).
     * With {@code newValue} null nothing changes, but the {@code testq} test still decides the status.
     */
    public MdUpdateResult mdUpdate(long mdHandle, @Nullable MemoryDescriptor newValue, long testq) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
            MemoryDescriptorState md = ni.lookupMd(mdHandle);
            if (md == null) {
                throw new PortalsException(ReturnCode.INV_MD, "no live memory descriptor has handle 0x" + Long.toHexString(mdHandle));
            }
            EventQueueState test = null;
            if (testq != 0L) {
                int iface = HandleCodec.iface(testq);
                test = HandleCodec.library(testq) == library.libraryId && iface < library.nis.length ? library.nis[iface].lookupEq(testq) : null;
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
            library.release();
        }
    }

    // ==== event queues ==========================================================================

    /** PtlEQAlloc (L6716): {@code count} 0 is PTL_NOSPACE. */
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
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            capacity = eqCapacity(count);
            if (capacity == 0) {
                return 0L; // PTL_EQ_NONE
            }
            if (!ni.eqs.hasRoom()) {
                throw noEqSlot(ni);
            }
        } finally {
            library.release();
        }
        EventStorage storage;
        try {
            storage = EventStorage.allocate(capacity, chunkAllocator, handler != null);
        } catch (OutOfMemoryError e) {
            throw new PortalsException(ReturnCode.NOSPACE, "the JVM has no memory for an event queue of " + capacity
                    + " events (" + e.getMessage() + "): a smaller count, or a larger heap (-Xmx)");
        }
        library.acquire();
        try {
            library.requireInit(); // PtlFini or PtlNIFini may have run meanwhile
            NetworkInterfaceState ni = library.ni(niHandle);
            EventQueueState q = ni.eqs.allocate();
            if (q == null) {
                throw noEqSlot(ni);
            }
            q.init(storage);
            if (library.dialect == Dialect.PORTALS_3_3) {
                q.initDialect33(handler);
            }
            return ni.handleOf(q);
        } finally {
            library.release();
        }
    }

    /**
     * The events a queue of {@code count} holds, or PTL_NOSPACE. Portals 3.2: {@code count} itself, 1 to
     * {@link #MAX_EQ_COUNT} (0 is PTL_NOSPACE, A-57). Portals 3.3: as the reference implementation
     * ({@code p3api/eq.c PtlEQAlloc}), {@code count} rounded up to a power of two, at least 2, up to
     * {@link #MAX_EQ_COUNT}; and 0 for a count of 0, which allocates no queue.
     */
    private int eqCapacity(long count) {
        if (library.dialect == Dialect.PORTALS_3_3) {
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

    /** PtlEQFree (L6879): threads waiting on it wake with PTL_INV_EQ; MDs still naming it log nothing. */
    public void eqFree(long eqHandle) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(eqHandle, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            q.discard();
            ni.eqs.free(q);
            ni.wakePollers(); // a PtlEQPoll on this queue answers PTL_INV_EQ now
        } finally {
            library.release();
        }
    }

    /** PtlEQGet (L6966): never blocks; OK, EQ_DROPPED or EQ_EMPTY. */
    public ReturnCode eqGet(long eqHandle, Event into) {
        ReturnCode rc = takeNow(eqHandle, into);
        // An empty queue: let this thread take what the network holds (Transport.poll), then look again.
        // PtlEQGet stays non-blocking: poll never waits.
        if (rc == ReturnCode.EQ_EMPTY && library.transport.poll()) {
            rc = takeNow(eqHandle, into);
        }
        return rc;
    }

    private ReturnCode takeNow(long eqHandle, Event into) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(eqHandle, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            return q.take(into);
        } finally {
            library.release();
        }
    }

    /** PtlEQWait (L7119): blocks with the configured idle strategy until an event is handed over. */
    public ReturnCode eqWait(long eqHandle, Event into) {
        EqWaiter w = waiter();
        long ticket;
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(eqHandle, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            ReturnCode now = q.take(into);
            if (now != ReturnCode.EQ_EMPTY) {
                return now;
            }
            ticket = w.arm(into);
            q.enqueueWaiter(w);
        } finally {
            library.release();
        }
        // Spin first: an event usually comes within microseconds, and a spinning waiter needs no
        // unpark. Only then announce that it may park (EqWaiter.wake unparks only such waiters).
        // While spinning, this thread drives the transport itself (Transport.poll): the message it
        // waits for is then received, matched and posted here, with no hand-over from another thread.
        boolean interrupted = false;
        Transport t = library.transport;
        IdleMode mode = library.config.idle();
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
        Thread me = Thread.currentThread();
        if (w != null && w.thread == me) {
            return w;
        }
        w = waiters.get();
        if (w == null) {
            w = new EqWaiter(me);
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
            if (library.transport.poll()) {
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
        Transport t = library.transport;
        try {
            if (library.config.idle() == IdleMode.SPIN || library.config.idle() == IdleMode.BACKOFF) {
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
                idle = library.config.idle().newStrategy();
                idlers.set(idle);
            }
            idle.reset();
            boolean polling = library.config.idle() == IdleMode.SPIN || library.config.idle() == IdleMode.YIELD;
            if (library.config.idle() == IdleMode.BACKOFF) {
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
            library.lock.lock(); // not acquire(): this must not fail, and this thread runs no handler
            try {
                NetworkInterfaceState on = w.registeredOn;
                if (on != null) {
                    on.removePoller(w);
                }
            } finally {
                library.release();
            }
        }
    }

    /**
     * One look at {@code queues}, under the lock: checks them (PTL_INV_EQ), takes from the first that has
     * an event, or, if none has and {@code register} is given, puts it on the interface's poller list.
     */
    private @Nullable EqPollResult pollNow(EqHandle[] queues, Event into, @Nullable PollWaiter register) {
        library.acquire();
        try {
            library.requireInit();
            if (queues.length == 0) {
                throw new PortalsException(ReturnCode.INV_EQ, "PtlEQPoll needs at least one event queue");
            }
            NetworkInterfaceState ni = library.niOf(queues[0].value(), HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            for (int i = 0; i < queues.length; i++) {
                long h = queues[i].value();
                NetworkInterfaceState of = library.niOf(h, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
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
            library.release();
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
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            if (index < 0 || index > ni.limits.maxAtableIndex()) {
                throw new PortalsException(ReturnCode.AC_INV_INDEX, "access control index " + index + " is outside 0.."
                        + ni.limits.maxAtableIndex());
            }
            library.requireMatchId(matchId);
            if (portal != -1 && (portal < 0 || portal > ni.limits.maxPtableIndex())) {
                throw new PortalsException(ReturnCode.PT_INV_INDEX, "portal index " + portal
                        + " is neither PTL_PT_INDEX_ANY nor in 0.." + ni.limits.maxPtableIndex());
            }
            ni.acl[index].set(matchId.nid(), matchId.pid(), uid, jobId, portal);
        } finally {
            library.release();
        }
    }

    // ==== data movement =========================================================================

    /**
     * PtlPut (L7571): sends the whole MD. Takes one unit of the MD's threshold now; an MD whose
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
        library.refuseInHandlerThread();
        library.requireInit();
        NetworkInterfaceState niGuess = library.niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = library.requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        channel.lock.lock();
        try {
            MemorySegment payload;
            long from;
            long length;
            long token;
            boolean staged;
            int buffer;
            library.acquire();
            try {
                library.requireInit();
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
                op.link = ni.post(md, EventKind.SEND_START, NetworkInterfaceState.SELF_LINK, library.self.nid(), ni.pid, ni.uid,
                        portal, matchBits, length, length, offset, hdrData, NiFailType.OK);
                long ackHandle = ack == AckRequest.ACK_REQ && md.eventQueue() != null ? md.handle : 0L;
                ni.putBytes.value += length;
                channel.header.begin(MessageType.PUT, ni.index).initiator(library.self.nid(), ni.pid).user(ni.uid)
                        .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                        .offset(offset).mdHandle(ackHandle).length(length).hdrData(hdrData).exchange(op.token);
                payload = md.start;
                token = op.token;
                staged = sender.stage(op, length, rank);
                buffer = op.staging;
            } finally {
                library.release();
            }
            if (staged) {
                sender.sendStaged(rank, channel.buffer, payload, from, length, token, buffer, this);
            } else {
                sender.send(rank, channel.buffer, payload, from, length, token, this);
            }
        } finally {
            channel.lock.unlock();
        }
    }

    /**
     * PtlGet (L7973): asks for the MD's length (L14496); the reply lands at offset 0 of the MD, truncated
     * to fit. Takes one unit of threshold now; the reply takes none. The MD is pending (and
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
        library.refuseInHandlerThread();
        library.requireInit();
        NetworkInterfaceState niGuess = library.niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = library.requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        channel.lock.lock();
        try {
            long token;
            library.acquire();
            try {
                library.requireInit();
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
                if (library.dialect == Dialect.PORTALS_3_3) {
                    op.offset = op.localOffset; // REPLY events: where the data lands (see receiveReply)
                }
                channel.header.begin(MessageType.GET, ni.index).initiator(library.self.nid(), ni.pid).user(ni.uid)
                        .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                        .offset(offset).mdHandle(md.handle).length(length).exchange(op.token);
                token = op.token;
            } finally {
                library.release();
            }
            sender.send(rank, channel.buffer, MemorySegment.NULL, 0L, 0L, token, this);
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
        library.refuseInHandlerThread();
        library.requireInit();
        NetworkInterfaceState ni = library.niOf(getMdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        NetworkInterfaceState putNi = library.niOf(putMdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
        int rank = library.requireConcreteTarget(target);
        SendChannel channel = channels[rank];
        channel.lock.lock();
        try {
            MemorySegment payload;
            long length;
            long token;
            library.acquire();
            try {
                library.requireInit();
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
                op.link = ni.post(putMd, EventKind.SEND_START, NetworkInterfaceState.SELF_LINK, library.self.nid(), ni.pid,
                        ni.uid, portal, matchBits, length, length, remoteOffset, hdrData, NiFailType.OK);
                ni.putBytes.value += length;
                channel.header.begin(MessageType.GETPUT, ni.index).initiator(library.self.nid(), ni.pid).user(ni.uid)
                        .target(target.nid(), target.pid()).portal(portal).cookie(cookie).matchBits(matchBits)
                        .offset(remoteOffset).mdHandle(getMd.handle).length(length).hdrData(hdrData)
                        .exchange(op.token);
                payload = putMd.start;
                token = op.token;
            } finally {
                library.release();
            }
            sender.send(rank, channel.buffer, payload, 0L, length, token, this);
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
        if (length > library.maxPayload) {
            throw new PortalsException(region ? ReturnCode.ILL_MD : ReturnCode.INV_MD, call + " of "
                    + Long.toUnsignedString(length) + " bytes: the " + library.transport.provider() + " transport carries at most "
                    + library.maxPayload + " bytes in one message (use a smaller memory descriptor"
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
        PendingOp op = library.ops.allocate(kind);
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
     * The payload of a staged message has left the MD, which the application may reuse: a put logs SEND_END and a
     * get's reply GET_END now (Portals 3.2 sections 3.9.1 and 3.11.1; the package documentation, "When SEND_END is
     * logged").
     * The op stays in flight, its buffer read by the transport, until the transport's report, which then only
     * frees it (or counts the message lost).
     */
    @Override
    public void stagedPayloadCopied(long token) {
        library.acquire();
        try {
            PendingOp op = library.ops.lookup(token);
            if (op == null || op.ni == null || op.md == null) {
                return; // the interface was finalised meanwhile
            }
            finishSend(op, true);
            op.md = null;
            op.sendEnded = true;
        } finally {
            library.release();
        }
    }

    // ==== the transport's side ==================================================================

    @Override
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        if (headerLength != MessageHeader.LENGTH || header.byteSize() < MessageHeader.LENGTH) {
            countUnattributed();
            return;
        }
        MessageHeader h = rx.load(header);
        MessageType type = h.validate(headerLength, payloadLength, library.nis.length);
        boolean reply = false;
        library.acquire();
        try {
            int iface = h.iface();
            NetworkInterfaceState ni = iface < library.nis.length ? library.nis[iface] : null;
            if (!library.initialized || ni == null || !ni.isLive()) {
                library.unattributed++;
                return;
            }
            // Remote input is hostile: a frame must say who sent it truthfully (the transport knows the
            // source) and be well formed before any field is used.
            if (type == null || h.initiatorNid() != library.job.peers().member(source).nid()) {
                ni.drop(StatusRegister.DROP_MALFORMED);
                return;
            }
            if (h.targetNid() != library.self.nid() || h.targetPid() != ni.pid) {
                ni.drop(StatusRegister.DROP_WRONG_PID); // L15027
                return;
            }
            switch (type) {
                case PUT -> target.receivePut(ni, h, source, deposit);
                case GET -> reply = target.receiveGet(ni, h, source);
                case ACK -> receiveAck(ni, h, source);
                case REPLY -> receiveReply(ni, h, source, deposit);
                case GETPUT -> target.receiveGetPut(ni, h, source, deposit);
            }
        } finally {
            if (deposit.attachment() != null && payloadLength <= DEFERRED_WAKE_LIMIT) {
                library.releaseKeepingWakes(); // onDeposited, which always follows (MessageHandler) and takes the lock, wakes them
            } else {
                library.release();
            }
        }
        if (reply) {
            target.sendPreparedReply();
        }
    }

    /**
     * An ack (L15039). One that overtook its put's send completion (the transport reports it later)
     * completes the send now: the ack says the target has the whole message, so the buffer may be reused,
     * and SEND_END is logged, then the ACK. Keeping the ACK until the transport's report would let a
     * message the target sent after it (an answer to the put) be logged first. The op stays in flight,
     * with no MD, until the transport's report, which then only frees it.
     */
    private void receiveAck(NetworkInterfaceState ni, MessageHeader h, int source) {
        PendingOp op = library.ops.lookup(h.exchange());
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
     * MD's length and placed at offset 0. A reply naming no pending get is dropped and counted.
     * For a PtlGetRegion it is placed at the region's local offset, truncated to the region and to what
     * the MD holds after that offset now; a 3.3 library reports that local offset in the REPLY events
     * (3.3 &sect;3.11.4: the offset is "the displacement into the memory region that the operation used";
     * the reference implementation's {@code parse_reply} reports the reply's destination offset).
     */
    private void receiveReply(NetworkInterfaceState ni, MessageHeader h, int source, Deposit deposit) {
        PendingOp op = library.ops.lookup(h.exchange());
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
        op.offset = library.dialect == Dialect.PORTALS_3_3 ? op.localOffset : h.offset();
        op.link = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, mlength, op.offset, 0L, NiFailType.OK);
        deposit.accept(md.start, mlength == 0 ? 0 : op.localOffset, mlength);
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

    /** The end of a put or reply whose data is in place (or whose transfer failed). */
    @Override
    public void onDeposited(int source, Deposit deposit) {
        Object attachment = deposit.attachment();
        if (attachment instanceof IncomingPut p) {
            target.putDeposited(source, p, deposit);
        } else if (attachment instanceof PendingOp op) {
            boolean reply = false;
            library.acquire();
            try {
                switch (op.kind) {
                    case GETPUT_REQUEST -> completeSwapReply(op, deposit);
                    case GETPUT_REPLY -> reply = target.swapDeposited(source, op, deposit);
                    default -> completeReply(op, deposit);
                }
            } finally {
                library.release();
            }
            if (reply) {
                target.sendPreparedReply();
            }
        }
    }

    /** REPLY_END of a {@code PtlGetPut} once the old bytes are in the get MD; the op ends with its send. */
    private void completeSwapReply(PendingOp op, Deposit deposit) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.replyMd;
        if (!op.inUse || ni == null || md == null || !ni.isLive()) {
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
            library.ops.release(op);
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
        long end = ni.post(md, EventKind.SEND_END, op.link, library.self.nid(), ni.pid, ni.uid, op.portal, op.matchBits,
                op.rlength, op.mlength, op.offset, op.hdrData, delivered ? NiFailType.OK : library.failReason(op));
        ni.releasePending(md);
        if (delivered) {
            ni.autoUnlinkIfInactive(md, end, library.self.nid(), ni.pid, ni.uid, op.portal, op.matchBits, op.rlength,
                    op.mlength, op.offset);
        }
    }

    /** A {@code PtlGetPut}'s send completed: SEND_END unless the reply logged it; a lost send fails the reply too. */
    private void completeSwapSend(PendingOp op, boolean delivered) {
        if (!op.sendEnded) {
            endSwapSend(op, delivered);
        }
        if (!delivered && !op.started) {
            failSwapReply(op, library.failReason(op));
        } else if (op.replyEnded) {
            library.ops.release(op);
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
        library.ops.release(op);
    }

    /** REPLY_END or REPLY_FAIL once the reply's data is in place (L6384). */
    private void completeReply(PendingOp op, Deposit deposit) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (!op.inUse || ni == null || md == null || !ni.isLive()) {
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
        library.ops.release(op);
    }

    /** A message the transport refused completes as an undelivered one. */
    @Override
    public void sendRefused(long token) {
        onSendComplete(token, false);
    }

    @Override
    public void onSendComplete(long token, boolean delivered) {
        library.acquire();
        try {
            PendingOp op = library.opToComplete(token);
            if (op == null) {
                return;
            }
            switch (op.kind) {
                case PUT_SEND -> completeSend(op, delivered);
                case GET_REPLY, GETPUT_REPLY -> target.replySent(op, delivered);
                case GET_REQUEST -> {
                    if (!delivered && !op.started) {
                        failGet(op, library.failReason(op));
                    }
                }
                case GETPUT_REQUEST -> completeSwapSend(op, delivered);
            }
        } finally {
            library.release();
        }
    }

    /**
     * SEND_END once the buffer may be reused (L6421), then a waiting ack, then the automatic unlink; a staged send
     * (its SEND_END logged once its payload was copied) that the transport then failed to deliver is counted
     * ({@link StatusRegister#SENDS_LOST}): the SEND_END cannot be taken back.
     */
    private void completeSend(PendingOp op, boolean delivered) {
        if (op.sendEnded) {
            op.countLost(delivered || op.acknowledged);
        } else {
            finishSend(op, delivered);
        }
        library.ops.release(op);
    }

    /** The events and state of {@link #completeSend}, without freeing the op. */
    private void finishSend(PendingOp op, boolean delivered) {
        NetworkInterfaceState ni = op.ni;
        MemoryDescriptorState md = op.md;
        if (ni == null || md == null) {
            return;
        }
        long end = ni.post(md, delivered ? EventKind.SEND_END : EventKind.SEND_FAIL, op.link, library.self.nid(), ni.pid, ni.uid,
                op.portal, op.matchBits, op.rlength, op.mlength, op.offset, op.hdrData,
                delivered ? NiFailType.OK : library.failReason(op));
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
            ni.autoUnlinkIfInactive(md, cause, library.self.nid(), ni.pid, ni.uid, op.portal, op.matchBits, op.rlength,
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
            library.ops.release(op);
            return;
        }
        long start = ni.post(md, EventKind.REPLY_START, NetworkInterfaceState.SELF_LINK, op.peerNid, op.peerPid, op.uid,
                op.portal, op.matchBits, op.rlength, 0L, op.offset, 0L, why);
        ni.post(md, EventKind.REPLY_FAIL, start, op.peerNid, op.peerPid, op.uid, op.portal, op.matchBits, op.rlength, 0L,
                op.offset, 0L, why);
        ni.releasePending(md);
        library.ops.release(op);
    }

    @Override
    public void onPeerFailure(int peer) {
        library.acquire();
        try {
            library.ops.forEachInUse(op -> {
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
            library.release();
        }
    }

    private void countUnattributed() {
        library.acquire();
        try {
            library.unattributed++;
        } finally {
            library.release();
        }
    }

    /** How many staging buffers are free now (diagnostics and tests). */
    int freeStagingBuffers() {
        library.acquire();
        try {
            return sender.freeStagingBuffers();
        } finally {
            library.release();
        }
    }

    /** Messages that reached no initialised interface of this process (diagnostics). */
    public long unattributedMessages() {
        library.acquire();
        try {
            return library.unattributed;
        } finally {
            library.release();
        }
    }
}
