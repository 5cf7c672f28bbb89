package org.portals3j.transport.udp.internal.io;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;

/**
 * A receive buffer of the pool: a direct little-endian {@link ByteBuffer} and a {@link MemorySegment} view
 * of the same memory, made once, so that copying a fragment into the destination segment allocates
 * nothing.
 */
public final class PooledBuffer {
    public final ByteBuffer buffer;
    public final MemorySegment segment;

    public PooledBuffer(int size) {
        this.buffer = ByteBuffer.allocateDirect(size + DatagramHeader.TRAILER_ROOM)
                .order(ByteOrder.LITTLE_ENDIAN);
        this.segment = MemorySegment.ofBuffer(buffer);
    }
}
