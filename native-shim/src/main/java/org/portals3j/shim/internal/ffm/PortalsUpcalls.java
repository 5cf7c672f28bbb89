package org.portals3j.shim.internal.ffm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.shim.internal.CDialect;
import org.portals3j.shim.internal.ShimProcess;

/**
 * The targets of the upcall stubs for the Portals 3.2 functions whose C form is 3.2's own (the
 * {@code PTL_SHIM_ONLY_32} lines of {@code shim_functions.h}: {@code PtlMEInsert} without {@code unlink},
 * {@code PtlMDAttach} with {@code unlink_nofit}, {@code PtlMDBind}, {@code PtlEQAlloc} and
 * {@code PtlACEntry}): one static method per function, taking the scalars {@code shim.c} passes (see
 * {@code shim_table.h}) and returning the {@code PTL_*} code. Each forwards to {@link Portals} and never
 * throws ({@link Failures}). The functions 3.2 shares with 3.3 are {@link SharedUpcalls}', the 3.3 forms
 * {@link Portals33Upcalls}'.
 *
 * <p>The order of checks is {@link SharedUpcalls}': {@code PTL_NOINIT} (or {@code PTL_FAIL} when the
 * process chose Portals 3.3, {@link Failures#notLive}); then a NULL out-pointer is {@code PTL_SEGV}; then
 * the engine's checks. A value outside its C enum is {@code PTL_FAIL}.
 */
final class PortalsUpcalls {
    private static final int OK = CConstants.OK;
    private static final int SEGV = CConstants.SEGV;
    private static final int FAIL = CConstants.FAIL;

    private PortalsUpcalls() {
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

    /** {@code handle} may be NULL here (Portals 3.2 spec §3.8.2.2): the MD is attached and its handle not returned. */
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

}
