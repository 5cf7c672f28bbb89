package org.portals3j.transport.udp.internal.reliability;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One message being sent: its header (copied at send time, as the SPI allows the caller to reuse its
 * buffer), a reference to its payload (read straight into datagrams, also for retransmissions), and
 * how far it has been cut into fragments. Pooled per peer.
 */
public final class OutgoingMessage {
    public final MemorySegment header;
    public int headerLength;
    public MemorySegment payload = MemorySegment.NULL;
    public long payloadOffset;
    public long payloadLength;
    public long token;
    /** Payload bytes already given to fragments. */
    public long fragmented;
    /** Whether the first fragment (which carries the header) was cut. */
    public boolean started;
    /** The payload could not be read: the receiver was told (ABORT) and the send completes false. */
    public boolean failed;
    @Nullable OutgoingMessage next;

    public OutgoingMessage(int maxHeaderLength) {
        this.header = MemorySegment.ofArray(new byte[maxHeaderLength]);
    }

    /** Whether every fragment was cut. */
    public boolean fullyFragmented() {
        return started && fragmented == payloadLength;
    }

    void clear() {
        payload = MemorySegment.NULL;
        headerLength = 0;
        payloadOffset = 0;
        payloadLength = 0;
        token = 0;
        fragmented = 0;
        started = false;
        failed = false;
        next = null;
    }
}
