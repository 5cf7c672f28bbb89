package org.portals3j.isotach;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What {@link IsotachNet#receive} fills in: the report's {@code noniso_mbm} (Isotach report App. J, noniso.h,
 * pp. 159-162). One holder is reused across calls, so receiving allocates nothing.
 *
 * <p>The payload is a view of the layer's receive slot, valid only until the next {@code receive} call
 * (Isotach report §3.1.2, pp. 8-9; App. A.3, pp. 96-97): that call frees the slot and returns its credit to the sender.
 * Copy what you keep. The report's inline-data union for payloads of at most 4 bytes (Isotach report App. A.3,
 * pp. 96-97) has no Java form: the payload is always {@link #data()}.
 */
public final class NonisoMessage {
    private int senderId = -1;
    private int size;
    private MemorySegment data = MemorySegment.NULL;

    /** The node that sent the message. */
    public int senderId() {
        return senderId;
    }

    /** Payload length in bytes. */
    public int size() {
        return size;
    }

    /** The payload: exactly {@link #size()} bytes, valid until the next {@code receive}. */
    public MemorySegment data() {
        return data;
    }

    /** The payload copied into a new array (convenience; allocates). */
    public byte[] toByteArray() {
        return data.toArray(ValueLayout.JAVA_BYTE);
    }

    /** Filled in by the layer. */
    public void set(int sender, MemorySegment payload) {
        this.senderId = sender;
        this.size = (int) payload.byteSize();
        this.data = payload;
    }

    /** Cleared by the layer when nothing was delivered. */
    public void clear() {
        this.senderId = -1;
        this.size = 0;
        this.data = MemorySegment.NULL;
    }
}
