package org.portals3j.shim.internal.ffm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AttachedEntry;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdUpdateResult;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.NiInit;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.AnyHandle;
import org.portals3j.portals.Unlink;
import org.portals3j.shim.internal.CDialect;
import org.portals3j.shim.internal.ShimProcess;

/**
 * The targets of the upcall stubs for the 24 Portals 3.2 functions of {@code portals3.h}: one static
 * method per function, taking the scalars {@code shim.c} passes (see {@code shim_table.h}) and returning
 * the {@code PTL_*} code. Each forwards to {@link Portals} and never throws ({@link Failures}). The 3.3
 * functions are {@link Portals33Upcalls}'.
 *
 * <p>Order of checks, as {@code portals3.h} documents: {@code PTL_NOINIT} (or {@code PTL_FAIL} when the
 * process chose Portals 3.3, {@link Failures#notLive}); then a NULL out-pointer the
 * function needs is {@code PTL_SEGV}, before the engine is asked, so that no object is made the caller
 * cannot name; then the engine's checks. A value outside its C enum is {@code PTL_FAIL}.
 */
final class PortalsUpcalls {
    private static final int OK = CConstants.OK;
    private static final int SEGV = CConstants.SEGV;
    private static final int FAIL = CConstants.FAIL;

    /** The event each C thread's PtlEQGet/PtlEQWait fills before it is copied out: no allocation per event. */
    private static final ThreadLocal<@Nullable Event> EVENT = new ThreadLocal<>();

    private PortalsUpcalls() {
    }

    /** This thread's event, made on its first PtlEQGet/PtlEQWait. */
    private static Event event() {
        @Nullable Event e = EVENT.get();
        if (e == null) {
            e = new Event();
            EVENT.set(e);
        }
        return e;
    }

    static int init(long maxInterfaces) {
        try {
            if (maxInterfaces == 0L) {
                return SEGV;
            }
            CStructs.putInt(maxInterfaces, ShimProcess.init());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlInit", t);
        }
    }

    static int fini() {
        try {
            ShimProcess.fini();
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlFini", t);
        }
    }

    static int niInit(int iface, int pid, long desired, long actual, long handle) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlNIInit", CDialect.PORTALS_3_2);
            }
            if (actual == 0L) {
                Failures.sayOnce("PtlNIInit-actual", "PtlNIInit: actual is NULL, which Portals 3.2 answers with"
                        + " PTL_SEGV (L2952); a Portals 3.3 program may pass NULL: compile it with -DPTL_DIALECT_33");
                return SEGV;
            }
            if (handle == 0L) {
                return SEGV;
            }
            @Nullable NiLimits wanted = desired == 0L ? null : CStructs.readLimits(desired);
            NiInit ni = p.niInit(new InterfaceId(iface), pid, wanted);
            CStructs.writeLimits(actual, ni.actual());
            CStructs.putLong(handle, ni.handle().value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlNIInit", t);
        }
    }

    static int niFini(long ni) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlNIFini", CDialect.PORTALS_3_2);
            }
            p.niFini(new NiHandle(ni));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlNIFini", t);
        }
    }

    static int niStatus(long ni, int register, long status) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlNIStatus", CDialect.PORTALS_3_2);
            }
            if (status == 0L) {
                return SEGV;
            }
            CStructs.putLong(status, p.niStatus(new NiHandle(ni), new StatusRegister(register)));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlNIStatus", t);
        }
    }

    static int niDist(long ni, int nid, int pid, long distance) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlNIDist", CDialect.PORTALS_3_2);
            }
            if (distance == 0L) {
                return SEGV;
            }
            CStructs.putLong(distance, p.niDist(new NiHandle(ni), new ProcessId(nid, pid)));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlNIDist", t);
        }
    }

    static int niHandle(long handle, long ni) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlNIHandle", CDialect.PORTALS_3_2);
            }
            if (ni == 0L) {
                return SEGV;
            }
            CStructs.putLong(ni, p.niHandle(new AnyHandle(handle)).value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlNIHandle", t);
        }
    }

    static int getUid(long ni, long uid) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlGetUid", CDialect.PORTALS_3_2);
            }
            if (uid == 0L) {
                return SEGV;
            }
            CStructs.putInt(uid, p.getUid(new NiHandle(ni)));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlGetUid", t);
        }
    }

    static int getId(long ni, long id) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlGetId", CDialect.PORTALS_3_2);
            }
            if (id == 0L) {
                return SEGV;
            }
            ProcessId me = p.getId(new NiHandle(ni));
            CStructs.writeProcessId(id, me.nid(), me.pid());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlGetId", t);
        }
    }

    static int meAttach(long ni, int index, int nid, int pid, long matchBits, long ignoreBits, int unlink,
                        int position, long handle) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMEAttach", CDialect.PORTALS_3_2);
            }
            if (handle == 0L) {
                return SEGV;
            }
            @Nullable Unlink u = CConstants.unlink(unlink);
            @Nullable InsertPosition pos = CConstants.position(position);
            if (u == null || pos == null) {
                return FAIL;
            }
            MeHandle me = p.meAttach(new NiHandle(ni), index, new ProcessId(nid, pid), matchBits, ignoreBits, u, pos);
            CStructs.putLong(handle, me.value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMEAttach", t);
        }
    }

    static int meAttachAny(long ni, long index, int nid, int pid, long matchBits, long ignoreBits, int unlink,
                           long handle) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMEAttachAny", CDialect.PORTALS_3_2);
            }
            if (index == 0L || handle == 0L) {
                return SEGV;
            }
            @Nullable Unlink u = CConstants.unlink(unlink);
            if (u == null) {
                return FAIL;
            }
            AttachedEntry entry = p.meAttachAny(new NiHandle(ni), new ProcessId(nid, pid), matchBits, ignoreBits, u);
            CStructs.putInt(index, entry.portalIndex());
            CStructs.putLong(handle, entry.handle().value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMEAttachAny", t);
        }
    }

    static int meInsert(long current, int nid, int pid, long matchBits, long ignoreBits, int position, long handle) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMEInsert", CDialect.PORTALS_3_2);
            }
            if (handle == 0L) {
                return SEGV;
            }
            @Nullable InsertPosition pos = CConstants.position(position);
            if (pos == null) {
                return FAIL;
            }
            MeHandle me = p.meInsert(new MeHandle(current), new ProcessId(nid, pid), matchBits, ignoreBits, pos);
            CStructs.putLong(handle, me.value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMEInsert", t);
        }
    }

    static int meUnlink(long me) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMEUnlink", CDialect.PORTALS_3_2);
            }
            p.meUnlink(new MeHandle(me));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMEUnlink", t);
        }
    }

    /** {@code handle} may be NULL here (L5548): the MD is attached and its handle not returned. */
    static int mdAttach(long me, long md, int unlinkOp, int unlinkNofit, long handle) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMDAttach", CDialect.PORTALS_3_2);
            }
            @Nullable Unlink op = CConstants.unlink(unlinkOp);
            @Nullable Unlink nofit = CConstants.unlink(unlinkNofit);
            if (op == null || nofit == null) {
                return FAIL;
            }
            MdHandle h = p.mdAttach(new MeHandle(me), CStructs.readMd(md), op, nofit);
            if (handle != 0L) {
                CStructs.putLong(handle, h.value());
            }
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMDAttach", t);
        }
    }

    static int mdBind(long ni, long md, long handle) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMDBind", CDialect.PORTALS_3_2);
            }
            if (handle == 0L) {
                return SEGV;
            }
            CStructs.putLong(handle, p.mdBind(new NiHandle(ni), CStructs.readMd(md)).value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMDBind", t);
        }
    }

    static int mdUnlink(long md) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMDUnlink", CDialect.PORTALS_3_2);
            }
            p.mdUnlink(new MdHandle(md));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMDUnlink", t);
        }
    }

    /** {@code old_md} and {@code new_md} may be NULL (L5939); {@code *old_md} is written also on PTL_NOUPDATE. */
    static int mdUpdate(long md, long oldMd, long newMd, long testq) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlMDUpdate", CDialect.PORTALS_3_2);
            }
            MdUpdateResult result = p.mdUpdate(new MdHandle(md), newMd == 0L ? null : CStructs.readMd(newMd),
                    new EqHandle(testq));
            if (oldMd != 0L) {
                CStructs.writeMd(oldMd, result.previous());
            }
            return result.status().value();
        } catch (Throwable t) {
            return Failures.code("PtlMDUpdate", t);
        }
    }

    static int eqAlloc(long ni, long count, long handle) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlEQAlloc", CDialect.PORTALS_3_2);
            }
            if (handle == 0L) {
                return SEGV;
            }
            CStructs.putLong(handle, p.eqAlloc(new NiHandle(ni), count).value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlEQAlloc", t);
        }
    }

    static int eqFree(long eq) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlEQFree", CDialect.PORTALS_3_2);
            }
            p.eqFree(new EqHandle(eq));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlEQFree", t);
        }
    }

    /** On {@code PTL_EQ_EMPTY}, {@code *event} is left as it was. */
    static int eqGet(long eq, long event) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlEQGet", CDialect.PORTALS_3_2);
            }
            if (event == 0L) {
                return SEGV;
            }
            Event e = event();
            ReturnCode rc = p.eqGet(new EqHandle(eq), e);
            if (rc != ReturnCode.EQ_EMPTY) {
                CStructs.writeEvent(event, e);
            }
            return rc.value();
        } catch (Throwable t) {
            return Failures.code("PtlEQGet", t);
        }
    }

    static int eqWait(long eq, long event) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlEQWait", CDialect.PORTALS_3_2);
            }
            if (event == 0L) {
                return SEGV;
            }
            Event e = event();
            ReturnCode rc = p.eqWait(new EqHandle(eq), e);
            CStructs.writeEvent(event, e);
            return rc.value();
        } catch (Throwable t) {
            return Failures.code("PtlEQWait", t);
        }
    }

    static int acEntry(long ni, int index, int nid, int pid, int uid, int portal) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlACEntry", CDialect.PORTALS_3_2);
            }
            p.acEntry(new NiHandle(ni), index, new ProcessId(nid, pid), uid, portal);
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlACEntry", t);
        }
    }

    static int put(long md, int ackReq, int nid, int pid, int portal, int cookie, long matchBits, long offset,
                   long hdrData) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlPut", CDialect.PORTALS_3_2);
            }
            @Nullable AckRequest ack = CConstants.ackRequest(ackReq);
            if (ack == null) {
                return FAIL;
            }
            p.put(new MdHandle(md), ack, new ProcessId(nid, pid), portal, cookie, matchBits, offset, hdrData);
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlPut", t);
        }
    }

    static int get(long md, int nid, int pid, int portal, int cookie, long matchBits, long offset) {
        try {
            Portals p = ShimProcess.live();
            if (p == null) {
                return Failures.notLive("PtlGet", CDialect.PORTALS_3_2);
            }
            p.get(new MdHandle(md), new ProcessId(nid, pid), portal, cookie, matchBits, offset);
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlGet", t);
        }
    }
}
