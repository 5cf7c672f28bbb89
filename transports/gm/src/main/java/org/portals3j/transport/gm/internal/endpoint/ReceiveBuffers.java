package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.gm.internal.protocol.WireHeader;

/**
 * The receive buffers an endpoint preposts, gm_dma_malloc'd once: low priority for data messages (so many per size
 * class), high priority for control messages. The context of buffer {@code i} names {@code i}; its header view
 * (the upper layer's header, after the wire header) is made once, so delivering a message allocates nothing.
 */
final class ReceiveBuffers {
    final MemorySegment[] memory;
    final MemorySegment[] headers;
    final int[] sizes;
    final int[] priorities;
    private int count;

    ReceiveBuffers(int capacity) {
        memory = new MemorySegment[capacity];
        headers = new MemorySegment[capacity];
        sizes = new int[capacity];
        priorities = new int[capacity];
    }

    /** Adds a buffer; false if gm_dma_malloc had no memory. */
    boolean add(GmPort port, int size, long length, int priority) {
        MemorySegment m = port.dmaMalloc(length);
        if (m.equals(MemorySegment.NULL)) {
            return false;
        }
        memory[count] = m;
        headers[count] = m.asSlice(WireHeader.LENGTH);
        sizes[count] = size;
        priorities[count] = priority;
        count++;
        return true;
    }

    int count() {
        return count;
    }

    boolean isData(int index) {
        return priorities[index] == GmPort.LOW_PRIORITY;
    }

    void post(GmPort port, int index) {
        port.provideReceiveBuffer(memory[index], sizes[index], priorities[index],
                Contexts.of(Contexts.RECEIVE, 0, index));
    }
}
