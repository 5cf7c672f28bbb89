package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MdUpdateResult;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;

/**
 * The memory descriptor calls: PtlMDAttach, PtlMDBind, PtlMDUnlink and PtlMDUpdate, and the checks of a
 * {@code ptl_md_t} they share. Each call takes the engine lock itself.
 */
final class MemoryDescriptors {
    /** A thread that owns no segment: a segment accessible by it is accessible by every thread. */
    private static final Thread NOT_AN_OWNER = Thread.ofPlatform().unstarted(() -> { });

    private final LibraryState library;

    MemoryDescriptors(LibraryState library) {
        this.library = library;
    }

    /**
     * PtlMDAttach (Portals 3.2 spec §3.8.2): a bad {@code eventq} is PTL_ILL_MD here. Portals 3.3's PtlMDAttach
     * has no {@code unlink_nofit} (3.3 &sect;3.10, {@code PtlMDAttach(me, md, unlink_op, &handle)}): a 3.3
     * caller passes {@link Unlink#RETAIN}, so an MD a request does not fit is passed over, never unlinked.
     */
    long mdAttach(long meHandle, MemoryDescriptor value, Unlink unlinkOp, Unlink unlinkNofit) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(meHandle, HandleCodec.KIND_ME, ReturnCode.INV_ME);
            MatchEntryState me = ni.liveMe(meHandle);
            EventQueueState queue = validate(ni, value, ReturnCode.ILL_MD);
            if (me.md != null) {
                throw new PortalsException(ReturnCode.INUSE, "the match entry already has a memory descriptor");
            }
            MemoryDescriptorState md = ni.newMd(value, queue);
            if (md == null) {
                throw new PortalsException(ReturnCode.NOSPACE, "the interface already has max_mem_descriptors = "
                        + ni.limits.maxMemDescriptors() + " memory descriptors");
            }
            md.me = me;
            md.unlinkOp = unlinkOp;
            md.unlinkNofit = unlinkNofit;
            me.md = md;
            return md.handle;
        } finally {
            library.release();
        }
    }

    /** PtlMDBind (Portals 3.2 spec §3.8.3): a free-floating MD, never auto-unlinked. */
    long mdBind(long niHandle, MemoryDescriptor value) {
        return mdBind(niHandle, value, Unlink.RETAIN);
    }

    /**
     * Portals 3.3 PtlMDBind (3.3 &sect;3.10): a free-floating MD that, with {@link Unlink#UNLINK}, is
     * unlinked automatically once inactive, as an attached one is (reference implementation,
     * {@code p3lib/md.c lib_PtlMDBind} sets the same unlink flag as {@code lib_PtlMDAttach}).
     */
    long mdBind(long niHandle, MemoryDescriptor value, Unlink unlinkOp) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            EventQueueState queue = validate(ni, value, ReturnCode.INV_EQ);
            MemoryDescriptorState md = ni.newMd(value, queue);
            if (md == null) {
                throw new PortalsException(ReturnCode.NOSPACE, "the interface already has max_mem_descriptors = "
                        + ni.limits.maxMemDescriptors() + " memory descriptors");
            }
            md.bound = true;
            md.unlinkOp = unlinkOp;
            return md.handle;
        } finally {
            library.release();
        }
    }

    /**
     * Checks a {@code ptl_md_t} (grounds for PTL_ILL_MD: Portals 3.2 spec §3.8.2.1, §3.8.3.1, §3.8.5.1) and resolves
     * its event queue. A 3.3 library checks the 3.3 {@code ptl_md_t}: no {@code max_offset} to check, the three 3.3
     * option bits allowed, and with {@code PTL_MD_MAX_SIZE} a {@code max_size} from 0 to the length
     * (LNet's {@code lnet_md_build} refuses other values with -EINVAL, the ILL_MD of 3.3).
     *
     * @param badQueue the code for an {@code eventq} that names no queue at all: PTL_ILL_MD for
     *                 PtlMDAttach/PtlMDUpdate, PTL_INV_EQ for PtlMDBind (Portals 3.2 spec §3.8.3.1, A-14). A live queue
     *                 of another interface is PTL_ILL_MD everywhere (Portals 3.2 spec §3.8.2.1, §3.8.3.1).
     */
    private @Nullable EventQueueState validate(NetworkInterfaceState ni, MemoryDescriptor md, ReturnCode badQueue) {
        String problem = null;
        if (md.length() < 0) {
            problem = "length " + Long.toUnsignedString(md.length()) + " is larger than any memory";
        } else if (md.start().isNative() && md.start().address() == 0) {
            if (md.length() > 0) {
                problem = "start is NULL but length is " + md.length() + " (A-55)";
            }
        } else if (md.length() > md.start().byteSize()) {
            problem = "length " + md.length() + " runs past the end of the " + md.start().byteSize() + "-byte segment";
        } else if (!md.start().scope().isAlive()) {
            problem = "the memory of start has been freed (its arena is closed)";
        } else if (!md.start().isAccessibleBy(NOT_AN_OWNER)) {
            // An invalid region for a network (Portals 3.2 spec §3.8.2.1, §3.8.3.1): the transport reads and writes the
            // MD from its own threads, so a confined segment would fail at random, depending on which thread
            // delivers. Refuse it at once, saying what to do.
            problem = "start is confined to one thread (Arena.ofConfined); the network reaches it from other"
                    + " threads: allocate it from Arena.ofShared(), Arena.global() or Arena.ofAuto()";
        }
        if (problem == null && md.threshold() < MemoryDescriptor.THRESH_INF) {
            problem = "threshold " + md.threshold() + " is negative (use THRESH_INF for no bound)";
        }
        boolean v33 = library.dialect == Dialect.PORTALS_3_3;
        if (problem == null && !v33 && md.maxOffset() < 0) {
            problem = "max_offset " + md.maxOffset() + " is negative";
        }
        if (problem == null && (md.options() & ~(v33 ? MdOption.ALL_BITS_33 : MdOption.ALL_BITS)) != 0) {
            problem = "options 0x" + Integer.toHexString(md.options()) + " has bits that are not PTL_MD_* options"
                    + (v33 ? " of Portals 3.3" : " of Portals 3.2 (MAX_SIZE and EVENT_*_DISABLE are Portals 3.3's)");
        }
        if (problem == null && v33 && (md.options() & MdOption.MAX_SIZE.bit()) != 0
                && (md.maxSize() < 0 || md.maxSize() > md.length())) {
            problem = "max_size " + md.maxSize() + " is outside 0..length (" + md.length() + ") with PTL_MD_MAX_SIZE";
        }
        if (problem != null) {
            throw new PortalsException(ReturnCode.ILL_MD, problem);
        }
        long eq = md.eventq().value();
        if (eq == 0L) {
            return null;
        }
        EventQueueState queue = ni.lookupEq(eq);
        if (queue != null) {
            return queue;
        }
        int iface = HandleCodec.iface(eq);
        if (HandleCodec.library(eq) == library.libraryId && iface < library.nis.length && iface != ni.index
                && library.nis[iface].lookupEq(eq) != null) {
            throw new PortalsException(ReturnCode.ILL_MD, "the event queue belongs to interface " + iface
                    + ", the memory descriptor to interface " + ni.index);
        }
        throw new PortalsException(badQueue, "eventq 0x" + Long.toHexString(eq)
                + " is neither a live event queue nor PTL_EQ_NONE");
    }

    /**
     * PtlMDUnlink (Portals 3.2 spec §3.8.4): PTL_MD_INUSE while operations are pending (Portals 3.2 spec §3.8.4); no
     * UNLINK event (Portals 3.2 spec §3.9.1).
     */
    void mdUnlink(long mdHandle) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
            MemoryDescriptorState md = ni.liveMd(mdHandle);
            if (md.pending > 0) {
                throw new PortalsException(ReturnCode.MD_INUSE, md.pending
                        + " operation(s) are still pending on the memory descriptor");
            }
            ni.unlinkMd(md, false, 0L, 0, 0, 0, 0, 0L, 0L, 0L, 0L);
        } finally {
            library.release();
        }
    }

    /**
     * PtlMDUpdate (Portals 3.2 spec §3.8.5): atomically, only if {@code testq} is PTL_EQ_NONE or empty
     * (Portals 3.2 spec §3.8.5). The old value is always returned, also on PTL_NOUPDATE; an update restarts the local
     * offset at 0, as both reference implementations rebuild the MD; it does not count against the threshold
     * (Portals 3.2 spec §3.8.1.1). With {@code newValue} null nothing changes, but the {@code testq} test still decides
     * the status.
     */
    MdUpdateResult mdUpdate(long mdHandle, @Nullable MemoryDescriptor newValue, long testq) {
        library.acquire();
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(mdHandle, HandleCodec.KIND_MD, ReturnCode.INV_MD);
            MemoryDescriptorState md = ni.liveMd(mdHandle);
            EventQueueState test = null;
            if (testq != 0L) {
                int iface = HandleCodec.iface(testq);
                test = HandleCodec.library(testq) == library.libraryId && iface < library.nis.length
                        ? library.nis[iface].lookupEq(testq) : null;
                if (test == null) {
                    throw new PortalsException(ReturnCode.INV_EQ, "testq 0x" + Long.toHexString(testq)
                            + " is neither a live event queue nor PTL_EQ_NONE");
                }
            }
            MemoryDescriptor previous = md.snapshot();
            EventQueueState queue = newValue == null ? null : validate(ni, newValue, ReturnCode.ILL_MD);
            if (test != null && !test.isEmpty()) {
                return new MdUpdateResult(ReturnCode.NOUPDATE, previous);
            }
            if (newValue != null) {
                md.set(newValue, queue);
                md.localOffset = 0;
            }
            return new MdUpdateResult(ReturnCode.OK, previous);
        } finally {
            library.release();
        }
    }
}
