package org.portals3j.isotach.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.portals3j.transport.MessageHandler;

/** Rank 0 of a job of {@code size} whose frames go nowhere and to which nothing arrives; it counts what was sent. */
final class SilentTransport implements PollersGoneByTests {
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
