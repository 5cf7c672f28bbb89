package org.portals3j.portals.internal.engine;

import java.util.concurrent.atomic.AtomicInteger;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.internal.SpinLock;

/**
 * What every part of one process's Portals library shares: the lock that makes each call atomic, the
 * interfaces, the operations in flight, and the checks that turn a handle or a process id into them.
 */
final class LibraryState {
    private static final AtomicInteger LIBRARIES = new AtomicInteger();

    /** Makes every API call atomic with respect to other threads and incoming operations (Portals 3.2 spec §2.4). */
    final SpinLock lock = new SpinLock();
    final int libraryId = LIBRARIES.getAndIncrement() & 0xFF;
    final Dialect dialect;
    /** The job id (Portals 3.3 {@code PtlGetJid}): see {@link #jobId(Job)}. */
    final int jid;
    final HandlerCalls handlers = new HandlerCalls();
    /** Waiters handed an event under the lock, woken by {@link #release}. */
    final Wakeups wakeups = new Wakeups();
    final Transport transport;
    /** The transport's polling hand-over ({@link Polling#NONE} if it has none). */
    final Polling polling;
    final Job job;
    final JobMember self;
    final PortalsConfig config;
    final NetworkInterfaceState[] nis;
    final PendingOps ops;
    /** The most bytes one message carries ({@link Transport#maxPayloadLength()}). */
    final long maxPayload;
    /** Between PtlInit and PtlFini. */
    volatile boolean initialized;
    /** Messages that reached no interface: not initialised, or not attributable to one (undefined by the spec). */
    long unattributed;

    LibraryState(Job job, Transport transport, PortalsConfig config, Dialect dialect, SendStaging staging) {
        this.job = job;
        this.transport = transport;
        this.polling = Polling.of(transport);
        this.config = config;
        this.dialect = dialect;
        this.jid = jobId(job);
        this.self = job.peers().member(transport.rank());
        this.maxPayload = transport.maxPayloadLength();
        this.ops = new PendingOps(staging);
        this.nis = new NetworkInterfaceState[config.interfaces()];
        for (int i = 0; i < nis.length; i++) {
            nis[i] = new NetworkInterfaceState(libraryId, i, dialect, handlers, wakeups);
        }
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

    // ---- the lock -----------------------------------------------------------------------------

    /**
     * Takes the engine lock ({@link SpinLock}: contention here is brief, a critical section is a match
     * or an event post, typically between a rank's own thread and a thread delivering to it). A thread
     * running a 3.3 event handler holds the lock already: its call is refused before it could wait for
     * itself.
     */
    void acquire() {
        acquire(handlers, lock);
    }

    static void acquire(HandlerCalls handlers, SpinLock lock) {
        if (handlers.isRunningOn(Thread.currentThread())) {
            refuseInHandler();
        }
        lock.lock();
    }

    /**
     * Releases the engine lock, then wakes the waiters that were handed events while it was held
     * ({@link Wakeups}: they find the lock free).
     */
    void release() {
        release(wakeups, lock);
    }

    static void release(Wakeups wakeups, SpinLock lock) {
        EqWaiter wake = wakeups.takeAll();
        lock.unlock();
        if (wake != null) {
            Wakeups.wakeAll(wake);
        }
    }

    /**
     * Releases the engine lock and leaves the wakes queued so far to the next {@link #release}: for a holder
     * that takes the lock again soon, with what the woken threads are waiting for.
     */
    void releaseKeepingWakes() {
        lock.unlock();
    }

    /**
     * Checked before a request takes its send channel's turn: a handler thread holds the engine lock, and waiting
     * for a turn while holding it could deadlock with the thread whose turn it is.
     */
    void refuseInHandlerThread() {
        refuseInHandlerThread(handlers);
    }

    static void refuseInHandlerThread(HandlerCalls handlers) {
        if (handlers.isRunningOn(Thread.currentThread())) {
            refuseInHandler();
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

    // ---- argument checks ------------------------------------------------------------------------

    void requireInit() {
        if (!initialized) {
            throw new PortalsException(ReturnCode.NOINIT, "PtlInit has not been called (or PtlFini was)");
        }
    }

    /** The live interface {@code niHandle} names, else PTL_INV_NI. */
    NetworkInterfaceState ni(long niHandle) {
        int iface = HandleCodec.iface(niHandle);
        if (HandleCodec.kind(niHandle) == HandleCodec.KIND_NI && HandleCodec.library(niHandle) == libraryId
                && iface < nis.length) {
            NetworkInterfaceState ni = nis[iface];
            if (ni.isLive() && ni.handle() == niHandle) {
                return ni;
            }
        }
        throw new PortalsException(ReturnCode.INV_NI, "0x" + Long.toHexString(niHandle)
                + " is not the handle of an initialised network interface of this process");
    }

    /** The interface an object handle names (the object itself is checked later, under the lock). */
    NetworkInterfaceState niOf(long handle, int kind, ReturnCode error) {
        return niOf(nis, libraryId, handle, kind, error);
    }

    /**
     * {@link #niOf(long, int, ReturnCode)} for a side that holds the library's interface array and id itself, so that
     * its hot paths reach them without the hop through the library state.
     */
    static NetworkInterfaceState niOf(NetworkInterfaceState[] nis, int libraryId, long handle, int kind,
                                      ReturnCode error) {
        int iface = HandleCodec.iface(handle);
        if (HandleCodec.kind(handle) != kind || HandleCodec.library(handle) != libraryId || iface >= nis.length) {
            String object = kind == HandleCodec.KIND_ME ? "match entry"
                    : kind == HandleCodec.KIND_MD ? "memory descriptor" : "event queue";
            throw new PortalsException(error, "0x" + Long.toHexString(handle) + " is not a " + object
                    + " handle of this process");
        }
        return nis[iface];
    }

    /**
     * A match id of PtlMEAttach, PtlMEAttachAny, PtlMEInsert or PtlACEntry: each field the wildcard or a
     * value, and a nid that is PTL_NID_ANY or a node of this job. A nid outside the job is PTL_INV_PROC,
     * as it is for a target: no process there can ever send a request, and the same id is refused
     * where it is a target. The pid is not checked further: which pids another node has is not known here.
     */
    void requireMatchId(ProcessId id) {
        if (!id.isValidPattern()) {
            throw new PortalsException(ReturnCode.INV_PROC, id
                    + " is not a valid process id pattern (fields are >= 0 or the wildcard -1)");
        }
        if (id.nid() != ProcessId.NID_ANY && job.peers().rankOfNid(id.nid()) < 0) {
            throw new PortalsException(ReturnCode.INV_PROC, "no process of job " + job.id() + " has nid " + id.nid()
                    + ": a match id names a node of the job or PTL_NID_ANY (A-63)");
        }
    }

    /** A process id a message can be sent to: no wildcards, a node of this job. */
    int requireConcreteTarget(ProcessId target) {
        if (!target.isConcrete()) {
            throw new PortalsException(ReturnCode.INV_PROC, target
                    + " is not a concrete process id (wildcards and negative values cannot be targets)");
        }
        int rank = job.peers().rankOfNid(target.nid());
        if (rank < 0) {
            throw new PortalsException(ReturnCode.INV_PROC, "no process of job " + job.id() + " has nid "
                    + target.nid());
        }
        return rank;
    }

    // ---- operations in flight -------------------------------------------------------------------

    /**
     * Under the lock: the op a send's token names, if there is anything left to do for it; an op that
     * PtlNIFini detached (its staging buffer in the transport's hands) is freed here instead.
     */
    @Nullable PendingOp opToComplete(long token) {
        PendingOp op = ops.lookup(token);
        if (op == null) {
            return null;
        }
        if (op.ni == null) { // detached by PtlNIFini: the transport has let go of its buffer
            ops.release(op);
            return null;
        }
        return op;
    }

    /** Why {@code op} failed: its MD's memory is gone, its peer is dead, or the transport could not deliver. */
    NiFailType failReason(PendingOp op) {
        MemoryDescriptorState md = op.md;
        if (md != null && !md.start.scope().isAlive()) {
            return NiFailType.MEMORY_FAULT;
        }
        return transport.isPeerAlive(op.peerRank) ? NiFailType.FAIL : NiFailType.PEER_DEAD;
    }
}
