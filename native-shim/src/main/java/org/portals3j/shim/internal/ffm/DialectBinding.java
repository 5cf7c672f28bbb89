package org.portals3j.shim.internal.ffm;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.PortalsLibrary;
import org.portals3j.shim.internal.CDialect;
import org.portals3j.shim.internal.DialectMismatch;
import org.portals3j.shim.internal.ShimProcess;
import org.portals3j.transport.TransportException;

/**
 * What an upcall of a function both dialects share ({@link SharedUpcalls}) knows of the dialect its caller
 * was compiled for: the process's library of that dialect, the dialect's structs, and its answer where the
 * two differ. {@link ShimTable} binds one constant to each member of a dialect's block.
 */
enum DialectBinding {
    PORTALS_3_2(CDialect.PORTALS_3_2) {
        @Override
        @Nullable PortalsLibrary live() {
            return ShimProcess.live();
        }

        @Override
        int init() throws TransportException, DialectMismatch {
            return ShimProcess.init();
        }

        @Override
        void fini() throws DialectMismatch {
            ShimProcess.fini();
        }

        /** 3.2's {@code PtlEQAlloc} takes no handler. */
        @Override
        boolean hasEventHandlers() {
            return false;
        }

        /** 3.2 lists {@code PTL_SEGV} for it (Portals 3.2 spec §3.4.1.1). */
        @Override
        boolean acceptsNullActual() {
            return false;
        }

        @Override
        NiLimits readLimits(long address) {
            return CStructs.readLimits(address);
        }

        @Override
        void writeLimits(long address, NiLimits limits) {
            CStructs.writeLimits(address, limits);
        }

        @Override
        MemoryDescriptor readMd(long address) {
            return CStructs.readMd(address);
        }

        @Override
        void writeMd(long address, MemoryDescriptor md) {
            CStructs.writeMd(address, md);
        }

        @Override
        void writeEvent(long address, Event event) {
            CStructs.writeEvent(address, event);
        }
    },

    PORTALS_3_3(CDialect.PORTALS_3_3) {
        @Override
        @Nullable PortalsLibrary live() {
            return ShimProcess.live33();
        }

        @Override
        int init() throws TransportException, DialectMismatch {
            return ShimProcess.init33();
        }

        @Override
        void fini() throws DialectMismatch {
            ShimProcess.fini33();
        }

        /** 3.3's {@code PtlEQAlloc} takes a handler ({@link NativeEventHandler}), which must not call Portals. */
        @Override
        boolean hasEventHandlers() {
            return true;
        }

        /**
         * The limits are then not returned: the reference implementation copies them only if given
         * ({@code p3api/ni.c}), and the 3.3 programs that pass {@code NULL} rely on it.
         */
        @Override
        boolean acceptsNullActual() {
            return true;
        }

        @Override
        NiLimits readLimits(long address) {
            return CStructs33.readLimits(address);
        }

        @Override
        void writeLimits(long address, NiLimits limits) {
            CStructs33.writeLimits(address, limits);
        }

        @Override
        MemoryDescriptor readMd(long address) {
            return CStructs33.readMd(address);
        }

        @Override
        void writeMd(long address, MemoryDescriptor md) {
            CStructs33.writeMd(address, md);
        }

        @Override
        void writeEvent(long address, Event event) {
            CStructs33.writeEvent(address, event);
        }
    };

    private final CDialect dialect;

    DialectBinding(CDialect dialect) {
        this.dialect = dialect;
    }

    /** The dialect, for {@link Failures#notLive}. */
    final CDialect dialect() {
        return dialect;
    }

    /** The process's library of this dialect between its {@code PtlInit} and {@code PtlFini}, else null. */
    abstract @Nullable PortalsLibrary live();

    /** {@code PtlInit}: makes the process's library of this dialect on the first call; {@code max_interfaces}. */
    abstract int init() throws TransportException, DialectMismatch;

    /** {@code PtlFini}. */
    abstract void fini() throws DialectMismatch;

    /** Whether the dialect has event handlers, from which {@code PtlInit} and {@code PtlFini} are refused. */
    abstract boolean hasEventHandlers();

    /** Whether {@code PtlNIInit}'s {@code actual} may be {@code NULL}. */
    abstract boolean acceptsNullActual();

    /** The dialect's {@code ptl_ni_limits_t} at {@code address}. */
    abstract NiLimits readLimits(long address);

    /** Writes {@code limits} as the dialect's {@code ptl_ni_limits_t}. */
    abstract void writeLimits(long address, NiLimits limits);

    /** The dialect's {@code ptl_md_t} at {@code address}. */
    abstract MemoryDescriptor readMd(long address);

    /** Writes {@code md} as the dialect's {@code ptl_md_t}. */
    abstract void writeMd(long address, MemoryDescriptor md);

    /** Writes {@code event} as the dialect's {@code ptl_event_t}, {@code sequence} last. */
    abstract void writeEvent(long address, Event event);
}
