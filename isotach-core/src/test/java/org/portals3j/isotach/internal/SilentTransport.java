package org.portals3j.isotach.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/** Rank 0 of a job of {@code size} whose frames go nowhere and to which nothing arrives; it counts what was sent. */
final class SilentTransport implements Transport, Polling {
    /** One frame sent: its destination and first header byte (the frame's kind). */
    record Sent(int peer, byte kind) {
    }

    private final int size;
    private final List<Sent> sent = new ArrayList<>();

    SilentTransport(int size) {
        this.size = size;
    }

    /** Every frame sent so far. */
    synchronized List<Sent> sent() {
        return new ArrayList<>(sent);
    }

    @Override
    public String provider() {
        return "silent";
    }

    /**
     * A transport with a thread of its own that reports its pollers gone, as the engine's tests assume: the tests
     * say when the pollers have gone themselves. Polling does nothing.
     */
    @Override
    public Set<TransportCapability> capabilities() {
        return Set.of(TransportCapability.REPORTS_POLLERS_GONE);
    }

    @Override
    public boolean poll() {
        return false;
    }

    @Override
    public void pollingStopped() {
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int maxHeaderLength() {
        return 256;
    }

    @Override
    public long maxPayloadLength() {
        return 1 << 20;
    }

    @Override
    public void start(MessageHandler handler) {
    }

    @Override
    public synchronized void send(int peer, MemorySegment header, int headerLength, MemorySegment payload,
                                  long payloadOffset, long payloadLength, long token) {
        sent.add(new Sent(peer, header.get(ValueLayout.JAVA_BYTE, 0)));
    }

    @Override
    public boolean isPeerAlive(int peer) {
        return true;
    }

    @Override
    public void close() {
    }
}
