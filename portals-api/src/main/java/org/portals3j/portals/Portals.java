package org.portals3j.portals;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.internal.engine.PortalsEngine;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;

/**
 * The Portals 3.2 library of one process (one rank of a job): every function of chapter 3, one method
 * each. See the package documentation for the table from spec function to method, and for what every
 * event field holds.
 *
 * <p>For the Portals 3.3 API see {@link Portals33}: a library is one or the other.
 *
 * <h2>Conventions</h2>
 * <ul>
 *   <li>A failure is thrown as {@link PortalsException} whose {@link PortalsException#code()} is the
 *       spec's return code. {@code PTL_EQ_EMPTY}, {@code PTL_EQ_DROPPED} and {@code PTL_NOUPDATE} are
 *       not failures: {@link #eqGet}, {@link #eqWait} and {@link #mdUpdate} return them.</li>
 *   <li>Out-arguments are return values. An out-argument the caller supplies ({@link #eqGet}'s and
 *       {@link #eqWait}'s {@link Event}), or any other reference argument, that is {@code null} is the
 *       Java form of "not a legal address": {@code PTL_SEGV}.</li>
 *   <li>Every method is atomic with respect to other threads and incoming operations (L2042); only
 *       {@link #eqWait} blocks.</li>
 *   <li>Before {@link #init()} (and after {@link #fini()}) every other method fails with {@code PTL_NOINIT}.</li>
 * </ul>
 */
public final class Portals {
    /** {@code PTL_UID_ANY}: wildcard user id in access control entries (L7469). */
    public static final int UID_ANY = -1;
    /** {@code PTL_PT_INDEX_ANY}: wildcard portal index, valid only in {@link #acEntry} (L7504, A-61). */
    public static final int PT_INDEX_ANY = -1;

    private final PortalsEngine engine;

    private Portals(PortalsEngine engine) {
        this.engine = engine;
    }

    /**
     * The library for the rank whose endpoint is {@code transport}, with the default configuration. It
     * starts receiving at once (messages for interfaces not yet initialised are discarded).
     */
    public static Portals create(Job job, Transport transport) {
        return create(job, transport, PortalsConfig.DEFAULT);
    }

    public static Portals create(Job job, Transport transport, PortalsConfig config) {
        return new Portals(PortalsEngine.create(job, transport, config));
    }

    /** The rank this library serves. */
    public int rank() {
        return engine.rank();
    }

    /** The job this library is part of. */
    public Job job() {
        return engine.job();
    }

    /** The endpoint it sends and receives through. */
    public Transport transport() {
        return engine.transport();
    }

    // ---- 3.1 initialisation ---------------------------------------------------------------------

    /**
     * {@code PtlInit} (L2618). May be called any number of times (L2629).
     *
     * @return {@code max_interfaces}: how many interfaces can be initialised
     */
    public int init() {
        return engine.init();
    }

    /** {@code PtlFini} (L2705): releases everything. Later calls answer {@code PTL_NOINIT}. */
    public void fini() {
        engine.fini();
    }

    // ---- 3.2 network interfaces -----------------------------------------------------------------

    /**
     * {@code PtlNIInit} (L2852).
     *
     * @param iface   which interface; {@link InterfaceId#DEFAULT} is interface 0
     * @param pid     the process id wanted (a well-known pid), or {@link ProcessId#PID_ANY}
     * @param desired the limits wanted, or null for the defaults; honoured up to {@link NiLimits#MAXIMUM}
     * @return the handle and the limits in force ({@code actual})
     * @throws PortalsException {@code INIT_INV}, {@code INV_PROC}, {@code INIT_DUP} (already initialised with
     *         another pid, A-08), {@code INV_ASIZE}, {@code NOINIT}
     */
    public NiInit niInit(InterfaceId iface, int pid, @Nullable NiLimits desired) {
        return engine.niInit(required(iface).value(), pid, desired);
    }

    /** {@code PtlNIFini} (L3156): every handle of the interface dies. */
    public void niFini(NiHandle ni) {
        engine.niFini(required(ni).value());
    }

    /** {@code PtlNIStatus} (L3246): the value of a status register. */
    public long niStatus(NiHandle ni, StatusRegister register) {
        return engine.niStatus(required(ni).value(), required(register));
    }

    /** {@code PtlNIDist} (L3428): 0 to this process, 1 to any other (a static measure, A-52). */
    public long niDist(NiHandle ni, ProcessId process) {
        return engine.niDist(required(ni).value(), required(process));
    }

    /** {@code PtlNIHandle} (L3598): the interface an object belongs to; an NI handle answers itself. */
    public NiHandle niHandle(Handle handle) {
        return new NiHandle(engine.niHandle(required(handle).value()));
    }

    // ---- 3.3 identification ---------------------------------------------------------------------

    /** {@code PtlGetUid} (L3749). */
    public int getUid(NiHandle ni) {
        return engine.getUid(required(ni).value());
    }

    /** {@code PtlGetId} (L3931): this process's id on the interface. */
    public ProcessId getId(NiHandle ni) {
        return engine.getId(required(ni).value());
    }

    // ---- 3.4 match entries ----------------------------------------------------------------------

    /**
     * {@code PtlMEAttach} (L4098): a new entry at the head ({@code BEFORE}) or tail ({@code AFTER}) of the
     * portal's match list; {@code position} does not matter on an empty list.
     */
    public MeHandle meAttach(NiHandle ni, int portal, ProcessId matchId, long matchBits, long ignoreBits,
                             Unlink unlink, InsertPosition position) {
        return new MeHandle(engine.meAttach(required(ni).value(), portal, required(matchId), matchBits, ignoreBits,
                required(unlink), required(position)));
    }

    /** {@code PtlMEAttachAny} (L4465): a one-entry list on the lowest unused portal index. */
    public AttachedEntry meAttachAny(NiHandle ni, ProcessId matchId, long matchBits, long ignoreBits, Unlink unlink) {
        return engine.meAttachAny(required(ni).value(), required(matchId), matchBits, ignoreBits, required(unlink));
    }

    /**
     * {@code PtlMEInsert} (L4679) as the function listing writes it, without an {@code unlink} argument:
     * the entry is created with {@link Unlink#UNLINK}, what both chapter-5 examples pass.
     */
    public MeHandle meInsert(MeHandle current, ProcessId matchId, long matchBits, long ignoreBits,
                             InsertPosition position) {
        return meInsert(current, matchId, matchBits, ignoreBits, Unlink.UNLINK, position);
    }

    /** {@code PtlMEInsert} with the {@code unlink} argument of its argument table (L4785, A-02). */
    public MeHandle meInsert(MeHandle current, ProcessId matchId, long matchBits, long ignoreBits, Unlink unlink,
                             InsertPosition position) {
        return new MeHandle(engine.meInsert(required(current).value(), required(matchId), matchBits, ignoreBits,
                required(unlink), required(position)));
    }

    /** {@code PtlMEUnlink} (L4924): removes the entry and releases its MD; posts no UNLINK event. */
    public void meUnlink(MeHandle me) {
        engine.meUnlink(required(me).value());
    }

    // ---- 3.5 memory descriptors -----------------------------------------------------------------

    /** {@code PtlMDAttach} (L5297). The returned handle may be ignored ({@code handle} may be NULL, L5548). */
    public MdHandle mdAttach(MeHandle me, MemoryDescriptor md, Unlink unlinkOp, Unlink unlinkNofit) {
        return new MdHandle(engine.mdAttach(required(me).value(), required(md), required(unlinkOp), required(unlinkNofit)));
    }

    /** {@code PtlMDBind} (L5597): a free-floating MD for {@link #put} and {@link #get}. */
    public MdHandle mdBind(NiHandle ni, MemoryDescriptor md) {
        return new MdHandle(engine.mdBind(required(ni).value(), required(md)));
    }

    /** {@code PtlMDUnlink} (L5810): {@code PTL_MD_INUSE} while operations are pending on it. */
    public void mdUnlink(MdHandle md) {
        engine.mdUnlink(required(md).value());
    }

    /**
     * {@code PtlMDUpdate} (L5905): sets the MD to {@code newMd} (if not null), atomically, only if
     * {@code testq} is {@link EqHandle#NONE} or empty; an MD so set takes its next request at local
     * offset 0 again.
     *
     * @return {@code OK} or {@code NOUPDATE}, and the MD's value before the call ({@code old_md})
     */
    public MdUpdateResult mdUpdate(MdHandle md, @Nullable MemoryDescriptor newMd, EqHandle testq) {
        return engine.mdUpdate(required(md).value(), newMd, required(testq).value());
    }

    // ---- 3.6 event queues -----------------------------------------------------------------------

    /** {@code PtlEQAlloc} (L6716): a queue that holds {@code count} events. */
    public EqHandle eqAlloc(NiHandle ni, long count) {
        return new EqHandle(engine.eqAlloc(required(ni).value(), count));
    }

    /** {@code PtlEQFree} (L6879). */
    public void eqFree(EqHandle eq) {
        engine.eqFree(required(eq).value());
    }

    /**
     * {@code PtlEQGet} (L6966): takes the next event into {@code event}, without blocking.
     *
     * @return {@code OK}; {@code EQ_DROPPED} (an event was taken, and events were lost before it); or
     *         {@code EQ_EMPTY} (nothing to take, or another thread is waiting; {@code event} untouched)
     */
    public ReturnCode eqGet(EqHandle eq, Event event) {
        return engine.eqGet(required(eq).value(), required(event));
    }

    /**
     * {@code PtlEQWait} (L7119): blocks until an event arrives and takes it. Several waiting threads are
     * served one event each, in the order they started waiting.
     *
     * @return {@code OK} or {@code EQ_DROPPED}
     * @throws PortalsException {@code INV_EQ} also if the queue is freed while waiting
     */
    public ReturnCode eqWait(EqHandle eq, Event event) {
        return engine.eqWait(required(eq).value(), required(event));
    }

    // ---- 3.7 access control ---------------------------------------------------------------------

    /**
     * {@code PtlACEntry} (L7291): sets access control entry {@code index}.
     *
     * @param uid    the user allowed, or {@link #UID_ANY}
     * @param portal the portal index allowed, or {@link #PT_INDEX_ANY}
     */
    public void acEntry(NiHandle ni, int index, ProcessId matchId, int uid, int portal) {
        engine.acEntry(required(ni).value(), index, required(matchId), uid, portal);
    }

    // ---- 3.8 data movement ----------------------------------------------------------------------

    /**
     * {@code PtlPut} (L7571): sends the whole of the MD to {@code target}.
     *
     * @param offset  used only if the target MD has {@link MdOption#MANAGE_REMOTE}
     * @param hdrData 64 bits delivered in the target's PUT events
     */
    public void put(MdHandle md, AckRequest ack, ProcessId target, int portal, int cookie, long matchBits,
                    long offset, long hdrData) {
        engine.put(required(md).value(), required(ack), required(target), portal, cookie, matchBits, offset, hdrData);
    }

    /** {@code PtlGet} (L7973): reads the MD's length of bytes from {@code target} into the MD. */
    public void get(MdHandle md, ProcessId target, int portal, int cookie, long matchBits, long offset) {
        engine.get(required(md).value(), required(target), portal, cookie, matchBits, offset);
    }

    private static <T> T required(@Nullable T argument) {
        if (argument == null) {
            throw new PortalsException(ReturnCode.SEGV, "a required argument is null (not a legal address)");
        }
        return argument;
    }

    @Override
    public String toString() {
        return "Portals[rank " + rank() + " of " + job() + "]";
    }
}
