package org.portals3j.portals;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.internal.engine.PortalsEngine;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;

/**
 * The Portals library of one process in either dialect: the functions Portals 3.2 ({@link Portals}) and
 * Portals 3.3 ({@link Portals33}) share with one signature and one meaning. Code that needs only these can
 * take a {@code PortalsLibrary} and serve both dialects.
 *
 * <p>What a library's dialect changes in these functions is in the package documentation ("Semantics that
 * differ in a 3.3 library": how an MD is read, how events are numbered, what an ack costs); the functions
 * whose signatures differ are each subclass's own. The conventions are {@link Portals}'s: failures are
 * {@link PortalsException}s with the spec's code, {@code PTL_EQ_EMPTY}, {@code PTL_EQ_DROPPED} and
 * {@code PTL_NOUPDATE} are returned, a {@code null} argument is {@code PTL_SEGV}, every method is atomic
 * with respect to other threads and incoming operations, and before {@link #init()} (and after
 * {@link #fini()}) every other method fails with {@code PTL_NOINIT}. Each method cites the 3.2 text by line
 * ({@code Portals 3.2 spec §1.1}) and the 3.3 document by section ({@code 3.3 §3.5}).
 */
public abstract sealed class PortalsLibrary permits Portals, Portals33 {
    /** {@code PTL_UID_ANY}: wildcard user id in access control entries (Portals 3.2 spec §3.10.1.2). */
    public static final int UID_ANY = -1;
    /**
     * {@code PTL_PT_INDEX_ANY}: wildcard portal index, valid only in {@code acEntry} (Portals 3.2 spec §3.10.1.2,
     *
     */
    public static final int PT_INDEX_ANY = -1;

    /** The engine of this library; its dialect is the subclass's. */
    final PortalsEngine engine;

    PortalsLibrary(PortalsEngine engine) {
        this.engine = engine;
    }

    /** The rank this library serves. */
    public final int rank() {
        return engine.rank();
    }

    /** The job this library is part of. */
    public final Job job() {
        return engine.job();
    }

    /** The endpoint it sends and receives through. */
    public final Transport transport() {
        return engine.transport();
    }

    // ---- initialisation (3.2 section 3.1, 3.3 §3.4) ----------------------------------------------

    /**
     * {@code PtlInit} (Portals 3.2 spec §3.3.1; 3.3 &sect;3.4). May be called any number of times
     * (Portals 3.2 spec §3.3.1).
     *
     * @return {@code max_interfaces}: how many interfaces can be initialised
     */
    public final int init() {
        return engine.init();
    }

    /**
     * {@code PtlFini} (Portals 3.2 spec §3.3.2; 3.3 &sect;3.4): releases everything. Later calls answer {@code
     * PTL_NOINIT}.
     */
    public final void fini() {
        engine.fini();
    }

    // ---- network interfaces (3.2 section 3.2, 3.3 §3.5) ------------------------------------------

    /**
     * {@code PtlNIInit} (Portals 3.2 spec §3.4.1; 3.3 &sect;3.5).
     *
     * @param iface   which interface; {@link InterfaceId#DEFAULT} is interface 0
     * @param pid     the process id wanted (a well-known pid), or {@link ProcessId#PID_ANY}
     * @param desired the limits wanted, or null for the defaults; honoured up to {@link NiLimits#MAXIMUM}
     * @return the handle and the limits in force ({@code actual})
     * @throws PortalsException {@code INIT_INV}, {@code INV_PROC}, {@code INIT_DUP} (already initialised with
     *         another pid, A-08), {@code INV_ASIZE}, {@code NOINIT}
     */
    public final NiInit niInit(InterfaceId iface, int pid, @Nullable NiLimits desired) {
        return engine.niInit(required(iface).value(), pid, desired);
    }

    /** {@code PtlNIFini} (Portals 3.2 spec §3.4.2; 3.3 &sect;3.5): every handle of the interface dies. */
    public final void niFini(NiHandle ni) {
        engine.niFini(required(ni).value());
    }

    /** {@code PtlNIStatus} (Portals 3.2 spec §3.4.3; 3.3 &sect;3.5): the value of a status register. */
    public final long niStatus(NiHandle ni, StatusRegister register) {
        return engine.niStatus(required(ni).value(), required(register));
    }

    /**
     * {@code PtlNIDist} (Portals 3.2 spec §3.4.4; 3.3 &sect;3.5): 0 to this process, 1 to any other (a static measure,
     *
     */
    public final long niDist(NiHandle ni, ProcessId process) {
        return engine.niDist(required(ni).value(), required(process));
    }

    /**
     * {@code PtlNIHandle} (Portals 3.2 spec §3.4.5; 3.3 &sect;3.5): the interface an object belongs to; an NI handle
     * answers itself.
     */
    public final NiHandle niHandle(Handle handle) {
        return new NiHandle(engine.niHandle(required(handle).value()));
    }

    // ---- identification (3.2 section 3.3, 3.3 §3.6-3.7) -------------------------------------------

    /** {@code PtlGetUid} (Portals 3.2 spec §3.5.1; 3.3 &sect;3.6). */
    public final int getUid(NiHandle ni) {
        return engine.getUid(required(ni).value());
    }

    /** {@code PtlGetId} (Portals 3.2 spec §3.6.2; 3.3 &sect;3.7): this process's id on the interface. */
    public final ProcessId getId(NiHandle ni) {
        return engine.getId(required(ni).value());
    }

    // ---- match entries (3.2 section 3.4, 3.3 §3.9) -----------------------------------------------

    /**
     * {@code PtlMEAttach} (Portals 3.2 spec §3.7.1; 3.3 &sect;3.9): a new entry at the head ({@code BEFORE}) or tail
     * ({@code AFTER}) of the portal's match list; {@code position} does not matter on an empty list.
     */
    public final MeHandle meAttach(NiHandle ni, int portal, ProcessId matchId, long matchBits, long ignoreBits,
                                   Unlink unlink, InsertPosition position) {
        return new MeHandle(engine.meAttach(required(ni).value(), portal, required(matchId), matchBits, ignoreBits,
                required(unlink), required(position)));
    }

    /**
     * {@code PtlMEAttachAny} (Portals 3.2 spec §3.7.2; 3.3 &sect;3.9): a one-entry list on the lowest unused portal
     * index.
     */
    public final AttachedEntry meAttachAny(NiHandle ni, ProcessId matchId, long matchBits, long ignoreBits,
                                           Unlink unlink) {
        return engine.meAttachAny(required(ni).value(), required(matchId), matchBits, ignoreBits, required(unlink));
    }

    /**
     * {@code PtlMEInsert} with an {@code unlink} argument: a new entry before or after {@code base}. 3.3
     * (&sect;3.9) writes {@code unlink} in the signature; 3.2 has it in its argument table (Portals 3.2 spec §3.7.3.2,
     * A-02) but not in its listing, whose form is {@link Portals#meInsert(MeHandle, ProcessId, long, long,
     * InsertPosition)}.
     */
    public final MeHandle meInsert(MeHandle base, ProcessId matchId, long matchBits, long ignoreBits, Unlink unlink,
                                   InsertPosition position) {
        return new MeHandle(engine.meInsert(required(base).value(), required(matchId), matchBits, ignoreBits,
                required(unlink), required(position)));
    }

    /**
     * {@code PtlMEUnlink} (Portals 3.2 spec §3.7.4; 3.3 &sect;3.9): removes the entry and releases its MD; posts no
     * UNLINK event.
     */
    public final void meUnlink(MeHandle me) {
        engine.meUnlink(required(me).value());
    }

    // ---- memory descriptors (3.2 section 3.5, 3.3 §3.10) -----------------------------------------

    /**
     * {@code PtlMDUnlink} (Portals 3.2 spec §3.8.4; 3.3 &sect;3.10): {@code PTL_MD_INUSE} while operations are pending
     * on it.
     */
    public final void mdUnlink(MdHandle md) {
        engine.mdUnlink(required(md).value());
    }

    /**
     * {@code PtlMDUpdate} (Portals 3.2 spec §3.8.5; 3.3 &sect;3.10): sets the MD to {@code newMd} (if not null),
     * atomically, only if {@code testq} is {@link EqHandle#NONE} or empty; an MD so set takes its next request at local
     * offset 0 again. {@code newMd} is read as the library's dialect reads an MD.
     *
     * @return {@code OK} or {@code NOUPDATE}, and the MD's value before the call ({@code old_md})
     */
    public final MdUpdateResult mdUpdate(MdHandle md, @Nullable MemoryDescriptor newMd, EqHandle testq) {
        return engine.mdUpdate(required(md).value(), newMd, required(testq).value());
    }

    // ---- event queues (3.2 section 3.6, 3.3 §3.11) ------------------------------------------------

    /**
     * {@code PtlEQFree} (Portals 3.2 spec §3.9.6; 3.3 &sect;3.11). Threads waiting on it wake with {@code PTL_INV_EQ}.
     */
    public final void eqFree(EqHandle eq) {
        engine.eqFree(required(eq).value());
    }

    /**
     * {@code PtlEQGet} (Portals 3.2 spec §3.9.7; 3.3 &sect;3.11): takes the next event into {@code event}, without
     * blocking.
     *
     * @return {@code OK}; {@code EQ_DROPPED} (an event was taken, and events were lost before it); or
     *         {@code EQ_EMPTY} (nothing to take, or another thread is waiting; {@code event} untouched)
     */
    public final ReturnCode eqGet(EqHandle eq, Event event) {
        return engine.eqGet(required(eq).value(), required(event));
    }

    /**
     * {@code PtlEQWait} (Portals 3.2 spec §3.9.8; 3.3 &sect;3.11): blocks until an event arrives and takes it. Several
     * waiting threads are served one event each, in the order they started waiting.
     *
     * @return {@code OK} or {@code EQ_DROPPED}
     * @throws PortalsException {@code INV_EQ} also if the queue is freed while waiting
     */
    public final ReturnCode eqWait(EqHandle eq, Event event) {
        return engine.eqWait(required(eq).value(), required(event));
    }

    /**
     * {@code PtlEQWait} that a Java interrupt ends, as {@link java.util.concurrent.locks.Lock#lockInterruptibly}
     * is to {@code lock}: {@link #eqWait} ignores interrupts (the spec's PtlEQWait has no way to end but an event or
     * the queue's end); this form stops waiting when its thread is interrupted, before or while it waits, and
     * takes no event. An event handed to the thread before the interrupt is returned, the interrupt status left set.
     *
     * @return {@code OK} or {@code EQ_DROPPED}
     * @throws InterruptedException the thread was interrupted (its interrupt status is cleared)
     * @throws PortalsException {@code INV_EQ} also if the queue is freed while waiting
     */
    public final ReturnCode eqWaitInterruptibly(EqHandle eq, Event event) throws InterruptedException {
        return engine.eqWaitInterruptibly(required(eq).value(), required(event));
    }

    // ---- data movement (3.2 section 3.8, 3.3 §3.13) -----------------------------------------------

    /**
     * {@code PtlPut} (Portals 3.2 spec §3.11.1; 3.3 &sect;3.13): sends the whole of the MD to {@code target}.
     *
     * @param remoteOffset used only if the target MD has {@link MdOption#MANAGE_REMOTE}
     * @param hdrData      64 bits delivered in the target's PUT events
     */
    public final void put(MdHandle md, AckRequest ack, ProcessId target, int portal, int cookie, long matchBits,
                          long remoteOffset, long hdrData) {
        engine.put(required(md).value(), required(ack), required(target), portal, cookie, matchBits, remoteOffset,
                hdrData);
    }

    /**
     * {@code PtlGet} (Portals 3.2 spec §3.11.2; 3.3 &sect;3.13): reads the MD's length of bytes from {@code target}
     * into the MD.
     */
    public final void get(MdHandle md, ProcessId target, int portal, int cookie, long matchBits, long remoteOffset) {
        engine.get(required(md).value(), required(target), portal, cookie, matchBits, remoteOffset);
    }

    /** {@code argument}, or {@code PTL_SEGV} if it is null (the Java form of "not a legal address"). */
    static <T> T required(@Nullable T argument) {
        if (argument == null) {
            throw new PortalsException(ReturnCode.SEGV, "a required argument is null (not a legal address)");
        }
        return argument;
    }
}
