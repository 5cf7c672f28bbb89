package org.portals3j.shim.internal.ffm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AnyHandle;
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
import org.portals3j.portals.PortalsLibrary;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;

/**
 * The targets of the upcall stubs for the functions both dialects have with one C signature (the
 * {@code PTL_SHIM_BOTH} lines of {@code shim_functions.h}): one static method per function, taking the
 * {@link DialectBinding} of its table member first, then the scalars the entry point passes, and returning
 * the {@code PTL_*} code. Each forwards to the {@link PortalsLibrary} method of the same name and never
 * throws ({@link Failures}). The functions whose C forms differ are {@link PortalsUpcalls}' (3.2) and
 * {@link Portals33Upcalls}' (3.3).
 *
 * <p>Order of checks, as {@code portals3.h} documents: {@code PTL_NOINIT} (or {@code PTL_FAIL} when the
 * process chose the other dialect, {@link Failures#notLive}); then a NULL out-pointer the function needs is
 * {@code PTL_SEGV}, before the engine is asked, so that no object is made the caller cannot name; then the
 * engine's checks. A value outside its C enum is {@code PTL_FAIL}.
 */
final class SharedUpcalls {
    private static final int OK = CConstants.OK;
    private static final int SEGV = CConstants.SEGV;
    private static final int FAIL = CConstants.FAIL;

    /**
     * The event each C thread's PtlEQGet/PtlEQWait/PtlEQPoll fills before it is copied out: no allocation per event.
     */
    private static final ThreadLocal<@Nullable Event> EVENT = new ThreadLocal<>();

    private SharedUpcalls() {
    }

    /** This thread's event, made on its first call that takes one. */
    static Event event() {
        @Nullable Event e = EVENT.get();
        if (e == null) {
            e = new Event();
            EVENT.set(e);
        }
        return e;
    }

    static int init(DialectBinding d, long maxInterfaces) {
        try {
            if (d.hasEventHandlers() && NativeEventHandler.isRunningOn(Thread.currentThread())) {
                return inHandler("PtlInit");
            }
            if (maxInterfaces == 0L) {
                return SEGV;
            }
            CStructs.putInt(maxInterfaces, d.init());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlInit", t);
        }
    }

    /**
     * {@code PtlFini}. Called from a 3.3 event handler it does nothing (and says so once: the C function
     * returns nothing), as every other function called there returns {@code PTL_FAIL} and does nothing.
     */
    static int fini(DialectBinding d) {
        try {
            if (d.hasEventHandlers() && NativeEventHandler.isRunningOn(Thread.currentThread())) {
                return inHandler("PtlFini");
            }
            d.fini();
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlFini", t);
        }
    }

    /**
     * {@code desired} may be NULL (the defaults); of a 3.3 {@code ptl_ni_limits_t} the five 3.2 limits are
     * honoured. {@code actual} NULL is {@code PTL_SEGV} in 3.2, which lists that code for it
     * (Portals 3.2 spec §3.4.1.1), and legal in 3.3 ({@link DialectBinding#acceptsNullActual}).
     */
    static int niInit(DialectBinding d, int iface, int pid, long desired, long actual, long handle) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlNIInit", d.dialect());
            }
            if (actual == 0L && !d.acceptsNullActual()) {
                Failures.sayOnce("PtlNIInit-actual", "PtlNIInit: actual is NULL, which Portals 3.2 answers with"
                        + " PTL_SEGV (Portals 3.2 spec §3.4.1.1); a Portals 3.3 program may pass NULL:"
                        + " compile it with -DPTL_DIALECT_33");
                return SEGV;
            }
            if (handle == 0L) {
                return SEGV;
            }
            @Nullable NiLimits wanted = desired == 0L ? null : d.readLimits(desired);
            NiInit ni = p.niInit(new InterfaceId(iface), pid, wanted);
            if (actual != 0L) {
                d.writeLimits(actual, ni.actual());
            }
            CStructs.putLong(handle, ni.handle().value());
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlNIInit", t);
        }
    }

    static int niFini(DialectBinding d, long ni) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlNIFini", d.dialect());
            }
            p.niFini(new NiHandle(ni));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlNIFini", t);
        }
    }

    static int niStatus(DialectBinding d, long ni, int register, long status) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlNIStatus", d.dialect());
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

    static int niDist(DialectBinding d, long ni, int nid, int pid, long distance) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlNIDist", d.dialect());
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

    static int niHandle(DialectBinding d, long handle, long ni) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlNIHandle", d.dialect());
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

    static int getUid(DialectBinding d, long ni, long uid) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlGetUid", d.dialect());
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

    static int getId(DialectBinding d, long ni, long id) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlGetId", d.dialect());
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

    static int meAttach(DialectBinding d, long ni, int index, int nid, int pid, long matchBits, long ignoreBits,
                        int unlink, int position, long handle) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlMEAttach", d.dialect());
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

    static int meAttachAny(DialectBinding d, long ni, long index, int nid, int pid, long matchBits, long ignoreBits,
                           int unlink, long handle) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlMEAttachAny", d.dialect());
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

    static int meUnlink(DialectBinding d, long me) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlMEUnlink", d.dialect());
            }
            p.meUnlink(new MeHandle(me));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMEUnlink", t);
        }
    }

    static int mdUnlink(DialectBinding d, long md) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlMDUnlink", d.dialect());
            }
            p.mdUnlink(new MdHandle(md));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlMDUnlink", t);
        }
    }

    /**
     * {@code old_md} and {@code new_md} may be NULL (Portals 3.2 spec §3.8.5); {@code *old_md} is written also on
     * PTL_NOUPDATE.
     */
    static int mdUpdate(DialectBinding d, long md, long oldMd, long newMd, long testq) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlMDUpdate", d.dialect());
            }
            MdUpdateResult result = p.mdUpdate(new MdHandle(md), newMd == 0L ? null : d.readMd(newMd),
                    new EqHandle(testq));
            if (oldMd != 0L) {
                d.writeMd(oldMd, result.previous());
            }
            return result.status().value();
        } catch (Throwable t) {
            return Failures.code("PtlMDUpdate", t);
        }
    }

    static int eqFree(DialectBinding d, long eq) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlEQFree", d.dialect());
            }
            p.eqFree(new EqHandle(eq));
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlEQFree", t);
        }
    }

    /** On {@code PTL_EQ_EMPTY}, {@code *event} is left as it was. */
    static int eqGet(DialectBinding d, long eq, long event) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlEQGet", d.dialect());
            }
            if (event == 0L) {
                return SEGV;
            }
            Event e = event();
            ReturnCode rc = p.eqGet(new EqHandle(eq), e);
            if (rc != ReturnCode.EQ_EMPTY) {
                d.writeEvent(event, e);
            }
            return rc.value();
        } catch (Throwable t) {
            return Failures.code("PtlEQGet", t);
        }
    }

    static int eqWait(DialectBinding d, long eq, long event) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlEQWait", d.dialect());
            }
            if (event == 0L) {
                return SEGV;
            }
            Event e = event();
            ReturnCode rc = p.eqWait(new EqHandle(eq), e);
            d.writeEvent(event, e);
            return rc.value();
        } catch (Throwable t) {
            return Failures.code("PtlEQWait", t);
        }
    }

    static int put(DialectBinding d, long md, int ackReq, int nid, int pid, int portal, int cookie, long matchBits,
                   long offset, long hdrData) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlPut", d.dialect());
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

    static int get(DialectBinding d, long md, int nid, int pid, int portal, int cookie, long matchBits, long offset) {
        try {
            PortalsLibrary p = d.live();
            if (p == null) {
                return Failures.notLive("PtlGet", d.dialect());
            }
            p.get(new MdHandle(md), new ProcessId(nid, pid), portal, cookie, matchBits, offset);
            return OK;
        } catch (Throwable t) {
            return Failures.code("PtlGet", t);
        }
    }

    /** A call made from a C event handler that the engine does not see: refused, once said on stderr. */
    private static int inHandler(String function) {
        Failures.sayOnce(function + "-in-handler", function + " was called from an event handler, which must not"
                + " call Portals functions (Portals 3.3 section 3.11.6): it returns PTL_FAIL there and does nothing");
        return FAIL;
    }
}
