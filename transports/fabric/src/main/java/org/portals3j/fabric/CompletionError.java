package org.portals3j.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.portals3j.fabric.internal.NativeFabric;
import org.portals3j.fabric.internal.Structs;

/**
 * A caller-owned, reusable error completion: a flyweight over a native {@code fi_cq_err_entry} that
 * {@link CompletionQueue#readError} fills. Close it when done. Not thread-safe.
 */
public final class CompletionError implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment entry = arena.allocate(Structs.FI_CQ_ERR_ENTRY);

    MemorySegment entry() {
        return entry;
    }

    /** {@code op_context}: the failed operation's context. */
    public long context() {
        return Structs.errorLong(entry, "op_context");
    }

    /** {@code flags} of the failed operation. */
    public long flags() {
        return Structs.errorLong(entry, "flags");
    }

    /** {@code len}: bytes transferred. */
    public long length() {
        return Structs.errorLong(entry, "len");
    }

    /** {@code tag}. */
    public long tag() {
        return Structs.errorLong(entry, "tag");
    }

    /** {@code olen}: bytes that did not fit ({@code FI_ETRUNC}); tcp;ofi_rxm 1.17 leaves it 0. */
    public long overflowLength() {
        return Structs.errorLong(entry, "olen");
    }

    /**
     * {@code err}: the positive FI_* error number, e.g. 265 for {@code FI_ETRUNC}. shm 1.17 stores it negated,
     * against fi_cq(3); the binding returns the absolute value.
     */
    public int errno() {
        return Math.abs(Structs.errorInt(entry, "err"));
    }

    /** {@code prov_errno}. */
    public int providerErrno() {
        return Structs.errorInt(entry, "prov_errno");
    }

    /** The FI_* name of {@link #errno()}. */
    public String errnoName() {
        return NativeFabric.get().errnoName(errno());
    }

    /** The error as an exception, to throw when the caller cannot handle it. */
    public FabricException toException() {
        return FabricException.of("operation with context " + context(), errno());
    }

    /** Frees the native memory; does nothing if already closed. */
    @Override
    public void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
