package org.portals3j.shim.internal.ffm;

import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.EqPollResult;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.shim.internal.CDialect;
import org.portals3j.shim.internal.ShimProcess;

/**
 * The targets of the upcall stubs for the Portals 3.3 functions whose C form is 3.3's own (the
 * {@code PTL_SHIM_ONLY_33} lines of {@code shim_functions.h}): one static method per function, taking the
 * scalars {@code shim33.c} passes (the {@code *_33} members of {@code shim_table.h}) and returning the
 * {@code PTL_*} code. Each forwards to the {@link Portals33} method of the same name, reads and writes the
 * 3.3 structs ({@link CStructs33}), and never throws ({@link Failures}). The functions 3.3 shares with 3.2
 * are {@link SharedUpcalls}'; {@code PtlHandleIsEqual} needs no library and is answered in C (see
 * {@code shim33.c}).
 *
 * <p>The order of checks is {@link SharedUpcalls}': {@code PTL_NO_INIT} (or {@code PTL_FAIL} when the
 * process chose Portals 3.2, {@link Failures#notLive}); then a NULL out-pointer is {@code PTL_SEGV}; then
 * the engine's checks. A value outside its C enum is {@code PTL_FAIL}.
 */
final class Portals33Upcalls {
    private static final int OK = CConstants.OK;
    private static final int SEGV = CConstants.SEGV;
    private static final int FAIL = CConstants.FAIL;
    private static final int PT_INV_INDEX = ReturnCode.PT_INV_INDEX.value();
    private static final int INV_PTINDEX = ReturnCode.INV_PTINDEX.value();

    /** Each C thread's last PtlEQPoll queue list, reused while the program polls the same queues. */
    private static final ThreadLocal<EqHandle @Nullable []> POLL_QUEUES = new ThreadLocal<>();

    private Portals33Upcalls() {
    }

    private static int notLive(String function) {
        return Failures.notLive(function, CDialect.PORTALS_3_3);
    }

    static int getJid(long ni, long jid) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlGetJid");
            }
            if (jid == 0L) {
                return SEGV;
            }
            CStructs.putInt(jid, p.getJid(new NiHandle(ni)));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlGetJid", t);
        }
    }

    /** 3.3's PtlMEInsert has {@code unlink_op}. */
    static int meInsert(long base, int nid, int pid, long matchBits, long ignoreBits, int unlink, int position,
                        long handle) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlMEInsert");
            }
            if (handle == 0L) {
                return SEGV;
            }
            @Nullable Unlink u = CConstants.unlink(unlink);
            @Nullable InsertPosition pos = CConstants.position(position);
            if (u == null || pos == null) {
                return FAIL;
            }
            MeHandle me = p.meInsert(new MeHandle(base), new ProcessId(nid, pid), matchBits, ignoreBits, u, pos);
            CStructs.putLong(handle, me.value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMEInsert", t);
        }
    }

    /** {@code handle} may be NULL, as in 3.2 (Portals 3.2 spec §3.8.2.2). */
    static int mdAttach(long me, long md, int unlinkOp, long handle) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlMDAttach");
            }
            @Nullable Unlink op = CConstants.unlink(unlinkOp);
            if (op == null) {
                return FAIL;
            }
            MdHandle h = p.mdAttach(new MeHandle(me), CStructs33.readMd(md), op);
            if (handle != 0L) {
                CStructs.putLong(handle, h.value());
            }
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMDAttach", t);
        }
    }

    static int mdBind(long ni, long md, int unlinkOp, long handle) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlMDBind");
            }
            if (handle == 0L) {
                return SEGV;
            }
            @Nullable Unlink op = CConstants.unlink(unlinkOp);
            if (op == null) {
                return FAIL;
            }
            CStructs.putLong(handle, p.mdBind(new NiHandle(ni), CStructs33.readMd(md), op).value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMDBind", t);
        }
    }

    /** {@code handler} 0 ({@code PTL_EQ_HANDLER_NONE}) is no handler; any other is called for every event. */
    static int eqAlloc(long ni, long count, long handler, long handle) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlEQAlloc");
            }
            if (handle == 0L) {
                return SEGV;
            }
            EventHandler h = handler == 0L ? Portals33.EQ_HANDLER_NONE : new NativeEventHandler(handler);
            CStructs.putLong(handle, p.eqAlloc(new NiHandle(ni), count, h).value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlEQAlloc", t);
        }
    }

    /**
     * {@code size <= 0} is {@code PTL_EQ_INVALID}, as for an empty list (the 3.3 reference implementation
     * does the same). On {@code PTL_EQ_EMPTY} neither {@code *event} nor {@code *which_eq} is written.
     */
    static int eqPoll(long eqs, int size, int timeout, long event, long which) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlEQPoll");
            }
            if (eqs == 0L || event == 0L || which == 0L) {
                return SEGV;
            }
            if (size <= 0) {
                return CConstants.INV_EQ;
            }
            Event e = SharedUpcalls.event();
            EqPollResult r = p.eqPoll(pollQueues(eqs, size), CConstants.timeoutFromC(timeout), e);
            if (r.taken()) {
                CStructs33.writeEvent(event, e);
                CStructs.putInt(which, r.which());
            }
            return r.status().value();
        } catch (Throwable t) {
            return Failures.code("PtlEQPoll", t);
        }
    }

    /** The {@code size} handles at {@code eqs}, in this thread's array; a handle is made only when one changed. */
    private static EqHandle[] pollQueues(long eqs, int size) {
        EqHandle @Nullable [] queues = POLL_QUEUES.get();
        if (queues == null || queues.length != size) {
            queues = new EqHandle[size];
            Arrays.fill(queues, EqHandle.NONE);
            POLL_QUEUES.set(queues);
        }
        for (int i = 0; i < size; i++) {
            long value = CStructs.getLong(eqs + 8L * i);
            if (queues[i].value() != value) {
                queues[i] = new EqHandle(value);
            }
        }
        return queues;
    }

    /**
     * A bad portal index is {@code PTL_PT_INDEX_INVALID}: 3.3 has one code for it where 3.2's
     * {@code PtlACEntry} has its own ({@code PTL_PT_INV_INDEX}, Portals 3.2 spec §3.10.1.1), so the engine's 3.2 code
     * is translated here.
     */
    static int acEntry(long ni, int index, int nid, int pid, int uid, int jid, int portal) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlACEntry");
            }
            p.acEntry(new NiHandle(ni), index, new ProcessId(nid, pid), uid, jid, portal);
            return OK;
        } catch (Throwable t) {
            int code = Failures.code("PtlACEntry", t);
            return code == PT_INV_INDEX ? INV_PTINDEX : code;
        }
    }

    static int putRegion(long md, long localOffset, long length, int ackReq, int nid, int pid, int portal, int cookie,
                         long matchBits, long remoteOffset, long hdrData) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlPutRegion");
            }
            @Nullable AckRequest ack = CConstants.ackRequest(ackReq);
            if (ack == null) {
                return FAIL;
            }
            p.putRegion(new MdHandle(md), localOffset, length, ack, new ProcessId(nid, pid), portal, cookie, matchBits,
                    remoteOffset, hdrData);
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlPutRegion", t);
        }
    }

    static int getPut(long getMd, long putMd, int nid, int pid, int portal, int cookie, long matchBits,
                      long remoteOffset, long hdrData) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlGetPut");
            }
            p.getPut(new MdHandle(getMd), new MdHandle(putMd), new ProcessId(nid, pid), portal, cookie, matchBits,
                    remoteOffset, hdrData);
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlGetPut", t);
        }
    }

    static int getRegion(long md, long localOffset, long length, int nid, int pid, int portal, int cookie,
                         long matchBits, long remoteOffset) {
        try {
            Portals33 p = ShimProcess.live33();
            if (p == null) {
                return notLive("PtlGetRegion");
            }
            p.getRegion(new MdHandle(md), localOffset, length, new ProcessId(nid, pid), portal, cookie, matchBits,
                    remoteOffset);
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlGetRegion", t);
        }
    }
}
