package org.portals3j.portals;

import org.portals3j.portals.internal.engine.Dialect;
import org.portals3j.portals.internal.engine.PortalsEngine;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;

/**
 * The Portals 3.3 library of one process: every function of the Portals 3.3 API (SAND2006-0420), one
 * method each, named as {@link Portals} names the 3.2 ones. A library is one dialect or the other for
 * its whole life: {@code Portals33.create} makes a 3.3 library, {@link Portals#create} a 3.2 one. Why
 * a class of its own, and every difference from 3.2, is in the package documentation.
 *
 * <p>The functions 3.3 shares with 3.2 are {@link PortalsLibrary}'s; this class adds the 3.3 signatures of
 * the others ({@code PtlMDAttach}, {@code PtlMDBind}, {@code PtlEQAlloc}, {@code PtlACEntry}) and the
 * functions 3.2 does not have. The conventions are {@link Portals}'s: failures are
 * {@link PortalsException}s with the spec's code; {@code PTL_EQ_EMPTY}, {@code PTL_EQ_DROPPED} and
 * {@code PTL_NOUPDATE} are returned; a {@code null} argument is {@code PTL_SEGV}; every method is atomic
 * with respect to other threads and incoming operations; only {@link #eqWait} and {@link #eqPoll} block.
 *
 * <p>Portals 3.3 text is not among the project's specs: each rule is documented where it is
 * implemented with its source, the Portals 3.3 reference implementation ({@code jkmcnk/portals3ib}:
 * {@code include/p3api/*.h}, {@code p3api/}, {@code p3lib/}, which cite "P3.3 API spec" sections) and
 * the 3.3 text as Lustre's LNet API keeps it. Section numbers ({@code 3.3 §3.10.1}) are the 3.3
 * document's, as the reference implementation cites them.
 */
public final class Portals33 extends PortalsLibrary {
    /** {@code PTL_JID_ANY}: wildcard job id in access control entries (3.3 &sect;3.2.6, 3.3 &sect;3.12.1). */
    public static final int JID_ANY = -1;
    /** {@code PTL_TIME_FOREVER}: {@link #eqPoll} waits without a time limit (3.3 &sect;3.11.12). */
    public static final long TIME_FOREVER = PortalsEngine.TIME_FOREVER;
    /** {@code PTL_EQ_HANDLER_NONE}: an event queue without a handler (3.3 &sect;3.11.6). */
    public static final EventHandler EQ_HANDLER_NONE = EventHandler.NONE;
    /**
     * {@code max_getput_md}: the longest put MD {@link #getPut} swaps, in bytes (the reference
     * implementation's limit, {@code PTL_GETPUT_BUFLEN}).
     */
    public static final int MAX_GETPUT_MD = MessageHeader.MAX_GETPUT_LENGTH;

    private Portals33(PortalsEngine engine) {
        super(engine);
    }

    /** The 3.3 library for the rank whose endpoint is {@code transport}, with the default configuration. */
    public static Portals33 create(Job job, Transport transport) {
        return create(job, transport, PortalsConfig.DEFAULT);
    }

    public static Portals33 create(Job job, Transport transport, PortalsConfig config) {
        return new Portals33(PortalsEngine.create(job, transport, config, Dialect.PORTALS_3_3));
    }

    // ---- 3.6-3.8 identification -----------------------------------------------------------------

    /**
     * {@code PtlGetJid} (3.3 &sect;3.8): the job id of this process, the same for every process of the
     * job and never {@link #JID_ANY}. It is what the {@code jid} of events initiated by this process
     * carries, and what {@link #acEntry}'s {@code jobId} is compared with.
     */
    public int getJid(NiHandle ni) {
        return engine.getJid(required(ni).value());
    }

    // ---- 3.10 memory descriptors ----------------------------------------------------------------

    /**
     * {@code PtlMDAttach(me, md, unlink_op, &handle)} (3.3 &sect;3.10). 3.3 dropped 3.2's
     * {@code unlink_nofit}: a request that does not fit the MD passes it over, and the MD stays. The MD
     * follows the 3.3 {@code ptl_md_t}: {@code maxSize} with {@link MdOption#MAX_SIZE}, the
     * {@link MdOption#EVENT_START_DISABLE}/{@link MdOption#EVENT_END_DISABLE} options, no
     * {@code max_offset} ({@link MemoryDescriptor#maxOffset()} is ignored).
     *
     * @param unlinkOp {@link Unlink#UNLINK}: unlink the MD (and its entry, if the entry has
     *                 {@code PTL_UNLINK}) once it becomes inactive
     */
    public MdHandle mdAttach(MeHandle me, MemoryDescriptor md, Unlink unlinkOp) {
        return new MdHandle(engine.mdAttach(required(me).value(), required(md), required(unlinkOp), Unlink.RETAIN));
    }

    /**
     * {@code PtlMDBind(ni, md, unlink_op, &handle)} (3.3 &sect;3.10): a free-floating MD which, unlike a
     * 3.2 bound MD, is unlinked automatically once inactive when {@code unlinkOp} is
     * {@link Unlink#UNLINK} (posting {@code PTL_EVENT_UNLINK}). Its threshold counts acknowledgements
     * too: a threshold of 2 lets a put and its ack happen before the MD unlinks.
     */
    public MdHandle mdBind(NiHandle ni, MemoryDescriptor md, Unlink unlinkOp) {
        return new MdHandle(engine.mdBind(required(ni).value(), required(md), required(unlinkOp)));
    }

    // ---- 3.11 event queues ----------------------------------------------------------------------

    /**
     * {@code PtlEQAlloc(ni, count, eq_handler, &handle)} (3.3 &sect;3.11): a queue of {@code count} events
     * rounded up to a power of two (at least 2), that numbers its events itself (1, 2, 3, ...) and runs
     * {@code handler} for each one (see {@link EventHandler}), or no handler with {@link #EQ_HANDLER_NONE}.
     * A {@code count} of 0 allocates nothing and returns {@link EqHandle#NONE} ({@code PTL_EQ_NONE}),
     * as the 3.3 reference implementation does.
     */
    public EqHandle eqAlloc(NiHandle ni, long count, EventHandler handler) {
        EventHandler h = required(handler);
        return new EqHandle(engine.eqAlloc(required(ni).value(), count, h == EventHandler.NONE ? null : h));
    }

    /**
     * {@code PtlEQPoll(eq_handles, size, timeout, &event, &which)} (3.3 &sect;3.11): takes the next event of
     * the first queue, in array order, that has one, waiting for one up to {@code timeoutMillis}. The
     * queues must all belong to one interface.
     *
     * @param timeoutMillis how long to wait: {@link #TIME_FOREVER}, 0 (look once), or milliseconds
     * @return the code ({@code OK}, {@code EQ_DROPPED}, or {@code EQ_EMPTY} when the time ran out) and the
     *         position in {@code queues} of the queue the event came from
     * @throws PortalsException {@code INV_EQ} for no queues, queues of different interfaces, or a queue
     *         that is not live (also one freed while waiting); {@code SEGV} for a null queue
     * @throws IllegalArgumentException for a negative timeout other than {@link #TIME_FOREVER} (C's
     *         unsigned {@code ptl_time_t} has none)
     */
    public EqPollResult eqPoll(EqHandle[] queues, long timeoutMillis, Event event) {
        for (EqHandle q : required(queues)) {
            required(q);
        }
        return engine.eqPoll(queues, timeoutMillis, required(event));
    }

    // ---- 3.12 access control --------------------------------------------------------------------

    /**
     * {@code PtlACEntry(ni, index, match_id, user_id, job_id, pt_index)} (3.3 &sect;3.12.1): as
     * {@link Portals#acEntry}, and the entry allows only requests from job {@code jobId} (or any job with
     * {@link #JID_ANY}).
     */
    public void acEntry(NiHandle ni, int index, ProcessId matchId, int uid, int jobId, int portal) {
        engine.acEntry(required(ni).value(), index, required(matchId), uid, jobId, portal);
    }

    // ---- 3.13 data movement ---------------------------------------------------------------------

    /**
     * {@code PtlPutRegion} (3.3 &sect;3.13.3): sends the {@code length} bytes at {@code localOffset} of the MD.
     *
     * @throws PortalsException {@code ILL_MD} if the region does not lie inside the MD
     */
    public void putRegion(MdHandle md, long localOffset, long length, AckRequest ack, ProcessId target, int portal,
                          int cookie, long matchBits, long remoteOffset, long hdrData) {
        engine.putRegion(required(md).value(), localOffset, length, required(ack), required(target), portal, cookie,
                matchBits, remoteOffset, hdrData);
    }

    /**
     * {@code PtlGetRegion} (3.3 &sect;3.13.5): reads {@code length} bytes from the target into the MD at
     * {@code localOffset}; the rest of the MD is not touched.
     *
     * @throws PortalsException {@code ILL_MD} if the region does not lie inside the MD
     */
    public void getRegion(MdHandle md, long localOffset, long length, ProcessId target, int portal, int cookie,
                          long matchBits, long remoteOffset) {
        engine.getRegion(required(md).value(), localOffset, length, required(target), portal, cookie, matchBits,
                remoteOffset);
    }

    /**
     * {@code PtlGetPut(get_md, put_md, target, pt_index, ac_index, match_bits, remote_offset, hdr_data)}: the
     * Portals 3.3 reference implementation's atomic swap, declared with the &sect;3.13 data-movement functions
     * in its {@code p3api/api.h} and implemented in {@code p3api/move.c}, {@code p3lib/move.c}. At the target, the
     * bytes of the MD the request matches are replaced by the bytes of
     * {@code putMd} and sent back into {@code getMd} at offset 0 ({@code getMd} may be {@code putMd}),
     * atomically with respect to every other {@code getPut} on the target.
     *
     * <ul>
     *   <li>The target's MD must have {@link MdOption#OP_PUT} and {@link MdOption#OP_GET}; its offset and length
     *       are chosen as for a put ({@link MdOption#MANAGE_REMOTE}, {@link MdOption#TRUNCATE}, the local
     *       offset, which then advances): {@code mlength} bytes are swapped, and the same {@code mlength} bytes
     *       come back (truncated to {@code getMd}'s length).</li>
     *   <li>Events: {@code putMd} logs SEND_START and SEND_END (always before the REPLY_END), {@code getMd}
     *       REPLY_START and REPLY_END (offset 0); the target logs GETPUT_START and GETPUT_END (the latter once the
     *       reply is sent), both with the request's {@code hdrData} (the reference implementation reports 0
     *       there). A failure ends the operation's END events with {@code ni_fail_type}, as for a get.</li>
     *   <li>Each MD gives one unit of threshold when called (the same MD gives two, as far as it has them);
     *       there is no acknowledgement.</li>
     * </ul>
     *
     * @throws PortalsException {@code INV_MD} for an MD handle that is not live, or an MD whose threshold is 0;
     *         {@code ILL_MD} for MDs of two interfaces or a {@code putMd} longer than {@link #MAX_GETPUT_MD};
     *         {@code INV_PROC} for a target that is not a process of the job
     */
    public void getPut(MdHandle getMd, MdHandle putMd, ProcessId target, int portal, int cookie, long matchBits,
                       long remoteOffset, long hdrData) {
        engine.getPut(required(getMd).value(), required(putMd).value(), required(target), portal, cookie, matchBits,
                remoteOffset, hdrData);
    }

    // ---- 3.14 handles ---------------------------------------------------------------------------

    /**
     * {@code PtlHandleIsEqual} (3.3 &sect;3.14.1): whether two handles are the same handle, whatever kind
     * each is typed as. A pure comparison: it needs no {@code PtlInit} and says nothing about whether
     * the object is alive. (The C function of the Portals 3 lineage, e.g. Lustre's, returns the truth
     * value; Portals 4 returns {@code PTL_OK}/{@code PTL_FAIL}: the C binding's choice.)
     */
    public boolean handleIsEqual(Handle handle1, Handle handle2) {
        return required(handle1).value() == required(handle2).value();
    }

    @Override
    public String toString() {
        return "Portals33[rank " + rank() + " of " + job() + "]";
    }
}
