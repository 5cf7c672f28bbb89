package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.NiInit;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;

/**
 * The library and network interface calls: PtlInit, PtlFini, PtlNIInit, PtlNIFini, PtlNIStatus, PtlNIDist,
 * PtlNIHandle, PtlGetUid, PtlGetId and Portals 3.3 PtlGetJid. Each call takes the engine lock itself.
 */
final class NetworkInterfaces {
    private final LibraryState library;
    /** Told of a PtlNIFini: it forgets the puts it was receiving for the interface. */
    private final Target target;

    NetworkInterfaces(LibraryState library, Target target) {
        this.library = library;
        this.target = target;
    }

    /**
     * PtlInit (Portals 3.2 spec §3.3.1): may be called any number of times; returns max_interfaces. PTL_FAIL ("an error
     * during initialization", Portals 3.2 spec §3.3.1.1) when the process's network endpoint is closed: no interface
     * could work.
     */
    int init() {
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

    /** PtlFini (Portals 3.2 spec §3.3.2): tears down every interface. Calls after it answer PTL_NOINIT. */
    void fini() {
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

    /**
     * PtlNIInit (Portals 3.2 spec §3.4.1). A repeat call with the same pid or PTL_PID_ANY returns the existing handle
     * and its limits, ignoring {@code desired} (Portals 3.2 spec §3.4.1); asking for a different explicit pid is
     * PTL_INIT_DUP. {@code desired} is honoured within {@link NiLimits#MAXIMUM}; a negative
     * {@code max_atable_index} is PTL_INV_ASIZE.
     */
    NiInit niInit(int iface, int pid, @Nullable NiLimits desired) {
        library.acquire();
        try {
            library.requireInit();
            if (iface < 0 || iface >= library.nis.length) {
                throw new PortalsException(ReturnCode.INIT_INV, "interface " + iface
                        + " does not exist (this process has "
                        + library.nis.length + ", numbered from 0)");
            }
            if (pid < ProcessId.PID_ANY) {
                throw new PortalsException(ReturnCode.INV_PROC, "pid " + pid + " is neither PTL_PID_ANY nor >= 0");
            }
            NetworkInterfaceState ni = library.nis[iface];
            if (ni.isLive()) {
                if (pid != ProcessId.PID_ANY && pid != ni.pid) {
                    throw new PortalsException(ReturnCode.INIT_DUP, "interface " + iface
                            + " is already initialised with pid "
                            + ni.pid + "; it cannot be initialised again with pid " + pid);
                }
                return new NiInit(new NiHandle(ni.handle()), ni.limits);
            }
            NiLimits limits = desired == null ? library.config.defaultLimits() : honour(desired);
            ni.init(pid == ProcessId.PID_ANY ? library.self.pid() : pid, library.self.uid(), library.jid, limits,
                    iface == 0 || library.config.aclEntryZeroEverywhere());
            return new NiInit(new NiHandle(ni.handle()), limits);
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

    /** PtlNIFini (Portals 3.2 spec §3.4.2). */
    void niFini(long niHandle) {
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
     * the transport's report frees it ({@link PortalsEngine#onSendComplete}), and only then is the buffer used again.
     */
    private static void detach(PendingOp op) {
        op.ni = null;
        op.md = null;
        op.replyMd = null;
    }

    /** PtlNIStatus (Portals 3.2 spec §3.4.3). */
    long niStatus(long niHandle, StatusRegister register) {
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

    /** PtlNIDist (Portals 3.2 spec §3.4.4): 0 to oneself, 1 to any other process of the job. */
    long niDist(long niHandle, ProcessId process) {
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

    /** PtlNIHandle (Portals 3.2 spec §3.4.5): the interface an object belongs to; an NI handle gives itself back. */
    long niHandle(long anyHandle) {
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

    /** PtlGetUid (Portals 3.2 spec §3.5.1). */
    int getUid(long niHandle) {
        library.acquire();
        try {
            library.requireInit();
            return library.ni(niHandle).uid;
        } finally {
            library.release();
        }
    }

    /** PtlGetId (Portals 3.2 spec §3.6.2). */
    ProcessId getId(long niHandle) {
        library.acquire();
        try {
            library.requireInit();
            return new ProcessId(library.self.nid(), library.ni(niHandle).pid);
        } finally {
            library.release();
        }
    }

    /** Portals 3.3 PtlGetJid (3.3 &sect;3.8): the job id of this process ({@link #jobId}). */
    int getJid(long niHandle) {
        library.acquire();
        try {
            library.requireInit();
            return library.ni(niHandle).jid;
        } finally {
            library.release();
        }
    }
}
