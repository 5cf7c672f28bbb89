package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/**
 * A transport for rank 0 of a job of two that delivers nothing and reports nothing: it records each message it is
 * given (header copied, payload read at once), runs a test's hook on it, and throws {@link #refusal} if set. The
 * test plays the peer and the network, calling the engine's handler methods itself.
 */
final class RecordingTransport implements Transport {
    /** A message handed over. */
    record Sent(int peer, MessageHeader header, byte[] payload, long token) {
    }

    final List<Sent> sent = new ArrayList<>();
    @Nullable Consumer<Sent> onSend;
    @Nullable RuntimeException refusal;

    /** The one message sent so far. */
    Sent only() {
        if (sent.size() != 1) {
            throw new AssertionError("expected one message sent, not " + sent.size() + ": " + sent);
        }
        return sent.getFirst();
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
                     long payloadLength, long token) {
        RuntimeException r = refusal;
        if (r != null) {
            throw r;
        }
        MessageHeader copy = new MessageHeader().load(header);
        byte[] bytes = payload.asSlice(payloadOffset, payloadLength).toArray(ValueLayout.JAVA_BYTE);
        Sent s = new Sent(peer, copy, bytes, token);
        sent.add(s);
        Consumer<Sent> hook = onSend;
        if (hook != null) {
            hook.accept(s);
        }
    }

    @Override
    public String provider() {
        return "recording";
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return Set.of();
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 2;
    }

    @Override
    public int maxHeaderLength() {
        return MessageHeader.LENGTH;
    }

    @Override
    public long maxPayloadLength() {
        return 1 << 20;
    }

    @Override
    public void start(MessageHandler handler) {
    }

    @Override
    public boolean isPeerAlive(int peer) {
        return true;
    }

    @Override
    public void close() {
    }
}
