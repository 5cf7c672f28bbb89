package org.portals3j.fabric;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.portals3j.fabric.internal.NativeFabric;

/**
 * One open libfabric object ({@code fid}) and the order rule of closing: an object that others were opened on or
 * bound to cannot close before them. Not thread-safe (see the package threading rules).
 */
abstract class FabricResource implements AutoCloseable {
    private final String kind;
    private final List<FabricResource> uses;
    private final MemorySegment handle;
    private int users;
    private boolean closed;

    /** Takes ownership of {@code handle}; {@code uses} may not close while this is open. */
    FabricResource(String kind, MemorySegment handle, List<FabricResource> uses) {
        this.kind = kind;
        this.handle = handle;
        this.uses = uses;
        for (FabricResource r : uses) {
            r.users++;
        }
    }

    /** The native object; throws {@link IllegalStateException} if this is closed. */
    final MemorySegment handle() {
        if (closed) {
            throw new IllegalStateException("this " + kind + " is closed");
        }
        return handle;
    }

    /** Whether {@link #close()} ran. */
    public final boolean isClosed() {
        return closed;
    }

    /**
     * Closes the native object ({@code fi_close}). Does nothing if already closed.
     *
     * @throws IllegalStateException if objects opened on or bound to this one are still open
     * @throws FabricException if libfabric refuses (the object then counts as closed: it is not used again)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (users > 0) {
            throw new IllegalStateException("cannot close this " + kind + ": " + users + " object(s) opened on "
                    + "or bound to it are still open; close them first");
        }
        closed = true;
        for (FabricResource r : uses) {
            r.users--;
        }
        int rc = closeNative(NativeFabric.get(), handle);
        FabricException.check("fi_close(" + kind + ")", rc);
    }

    /** Releases the native object; overridden where more than {@code fi_close} is needed. */
    int closeNative(NativeFabric lib, MemorySegment h) {
        return lib.close(h);
    }

    /** {@code segment} if it is native, else {@link IllegalArgumentException} naming the argument. */
    static MemorySegment requireNative(MemorySegment segment, String what) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException(what + " is a heap segment: libfabric operations run asynchronously "
                    + "and need native memory (allocate it with an Arena, and register it if mr_mode needs)");
        }
        return segment;
    }
}
