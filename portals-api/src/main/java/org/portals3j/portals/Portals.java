package org.portals3j.portals;

import org.portals3j.portals.internal.engine.PortalsEngine;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;

/**
 * The Portals 3.2 library of one process (one rank of a job): every function of chapter 3, one method
 * each. See the package documentation for the table from spec function to method, and for what every
 * event field holds.
 *
 * <p>The functions Portals 3.3 shares with 3.2 are {@link PortalsLibrary}'s, which this class and
 * {@link Portals33} extend; this class adds the 3.2 signatures of the others ({@code PtlMEInsert} as the
 * listing writes it, {@code PtlMDAttach}, {@code PtlMDBind}, {@code PtlEQAlloc}, {@code PtlACEntry}). A
 * library is one dialect or the other.
 *
 * <h2>Conventions</h2>
 * <ul>
 *   <li>A failure is thrown as {@link PortalsException} whose {@link PortalsException#code()} is the
 *       spec's return code. {@code PTL_EQ_EMPTY}, {@code PTL_EQ_DROPPED} and {@code PTL_NOUPDATE} are
 *       not failures: {@link #eqGet}, {@link #eqWait} and {@link #mdUpdate} return them.</li>
 *   <li>Out-arguments are return values. An out-argument the caller supplies ({@link #eqGet}'s and
 *       {@link #eqWait}'s {@link Event}), or any other reference argument, that is {@code null} is the
 *       Java form of "not a legal address": {@code PTL_SEGV}.</li>
 *   <li>Every method is atomic with respect to other threads and incoming operations (Portals 3.2 spec §2.4); only
 *       {@link #eqWait} blocks.</li>
 *   <li>Before {@link #init()} (and after {@link #fini()}) every other method fails with {@code PTL_NOINIT}.</li>
 * </ul>
 */
public final class Portals extends PortalsLibrary {

    private Portals(PortalsEngine engine) {
        super(engine);
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

    // ---- 3.4 match entries ----------------------------------------------------------------------

    /**
     * {@code PtlMEInsert} (Portals 3.2 spec §3.7.3) as the function listing writes it, without an {@code unlink}
     * argument: the entry is created with {@link Unlink#UNLINK}, what both chapter-5 examples pass. With the
     * {@code unlink} argument of its argument table it is {@link PortalsLibrary#meInsert}.
     */
    public MeHandle meInsert(MeHandle current, ProcessId matchId, long matchBits, long ignoreBits,
                             InsertPosition position) {
        return meInsert(current, matchId, matchBits, ignoreBits, Unlink.UNLINK, position);
    }

    // ---- 3.5 memory descriptors -----------------------------------------------------------------

    /**
     * {@code PtlMDAttach} (Portals 3.2 spec §3.8.2). The returned handle may be ignored ({@code handle} may be NULL,
     * Portals 3.2 spec §3.8.2.2).
     */
    public MdHandle mdAttach(MeHandle me, MemoryDescriptor md, Unlink unlinkOp, Unlink unlinkNofit) {
        return new MdHandle(engine.mdAttach(required(me).value(), required(md), required(unlinkOp),
                required(unlinkNofit)));
    }

    /** {@code PtlMDBind} (Portals 3.2 spec §3.8.3): a free-floating MD for {@link #put} and {@link #get}. */
    public MdHandle mdBind(NiHandle ni, MemoryDescriptor md) {
        return new MdHandle(engine.mdBind(required(ni).value(), required(md)));
    }

    // ---- 3.6 event queues -----------------------------------------------------------------------

    /** {@code PtlEQAlloc} (Portals 3.2 spec §3.9.5): a queue that holds {@code count} events. */
    public EqHandle eqAlloc(NiHandle ni, long count) {
        return new EqHandle(engine.eqAlloc(required(ni).value(), count));
    }

    /**
     * {@code PtlEQAlloc} with a handler, an extension: a 3.2 queue of {@code count} events that also runs
     * {@code handler} for each event deposited, as a Portals 3.3 queue's {@code eq_handler} does (3.3 &sect;3.11.6;
     * {@link EventHandler} says where and when it runs, and what it must not do). Its events are numbered as every
     * 3.2 queue's. For a layer that must learn of an event when none of its threads waits (to wake one).
     */
    public EqHandle eqAlloc(NiHandle ni, long count, EventHandler handler) {
        EventHandler h = required(handler);
        return new EqHandle(engine.eqAlloc(required(ni).value(), count, h == EventHandler.NONE ? null : h));
    }

    // ---- 3.7 access control ---------------------------------------------------------------------

    /**
     * {@code PtlACEntry} (Portals 3.2 spec §3.10.1): sets access control entry {@code index}.
     *
     * @param uid    the user allowed, or {@link #UID_ANY}
     * @param portal the portal index allowed, or {@link #PT_INDEX_ANY}
     */
    public void acEntry(NiHandle ni, int index, ProcessId matchId, int uid, int portal) {
        engine.acEntry(required(ni).value(), index, required(matchId), uid, portal);
    }

    @Override
    public String toString() {
        return "Portals[rank " + rank() + " of " + job() + "]";
    }
}
