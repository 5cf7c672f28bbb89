package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.gm.internal.protocol.Bounce;
import org.portals3j.transport.gm.internal.protocol.RegistrationCache;

/**
 * One message to one peer, from {@code send} until GM has given its buffer back and, for RMA, the peer's FIN has
 * come. Made once per slot with its DMA-able buffer; guarded by its peer's lock.
 */
final class SendSlot {
    final int index;
    /**
     * gm_dma_malloc'd: the wire header, the upper layer's header, an eager payload. Made with the endpoint for the
     * slots application threads use, on first use for those only handler callbacks reach; NULL until then.
     */
    MemorySegment buffer;
    boolean inUse;
    /** Posted to GM and not yet returned by a SENT event. */
    boolean withGm;
    /** The token has been reported (or the send was NO_NOTIFY). */
    boolean completed;
    boolean rma;
    /** The payload could not be read: the message carries the header only, and completes not delivered. */
    boolean unreadable;
    boolean finReceived;
    long token;
    int headerLength;
    long payloadLength;
    /** Bytes of the message (wire header included) and the index of its size class. */
    long messageLength;
    int sizeIndex;
    long rmaAddress;
    long rmaKey;
    RegistrationCache.@Nullable Registration registration;
    @Nullable Bounce bounce;

    SendSlot(int index, MemorySegment buffer) {
        this.index = index;
        this.buffer = buffer;
    }
}
