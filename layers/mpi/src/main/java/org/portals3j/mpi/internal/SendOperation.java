package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.MemoryDescriptor;

/** A send: eager (done at SEND_END) or by rendezvous (done when the receiver's get has read it: GET_END). */
public final class SendOperation extends Operation {
    /** Whether it went by rendezvous (its MD is attached on the get portal) rather than eagerly (bound MD). */
    boolean rendezvous;

    /** The eager MD last bound for this operation, kept for its reuse over the same memory. */
    private @Nullable MemoryDescriptor eagerMd;

    public SendOperation(MemorySegment buffer) {
        super(buffer);
    }

    @Override
    void reuse(MemorySegment newBuffer) {
        super.reuse(newBuffer);
        rendezvous = false;
    }

    /**
     * The MD of eager puts of the whole buffer, events to {@code eq}: the last one if nothing changed (so that the
     * engine can keep it bound for the next send of the same buffer; no threshold, hence).
     */
    MemoryDescriptor eagerDescriptor(EqHandle eq) {
        MemoryDescriptor d = eagerMd;
        if (d == null || d.start() != buffer || !d.eventq().equals(eq)) {
            long length = buffer.byteSize();
            d = new MemoryDescriptor(buffer, length, MemoryDescriptor.THRESH_INF, length, 0, this, eq);
            eagerMd = d;
        }
        return d;
    }
}
