package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;

/**
 * A transport that passes everything to another one, with what a test sets: a smaller largest payload
 * (refused with IllegalArgumentException, as the udp transport refuses a longer one), a message type
 * whose next send throws, and hooks run as each message is handed over, before it is passed on and
 * after (the in-memory transport delivers inline, so after means once the receiver has handled it).
 */
final class ScriptedTransport implements Transport {
    private final Transport inner;
    private final long maxPayload;
    private volatile @Nullable MessageType refuseNext;
    private volatile @Nullable Consumer<MessageType> onSend;
    private volatile @Nullable Consumer<MessageType> onSent;

    ScriptedTransport(Transport inner, long maxPayload) {
        this.inner = inner;
        this.maxPayload = maxPayload;
    }

    /** The next send of a message of {@code type} throws (a transport fault the engine must survive). */
    void refuseNext(MessageType type) {
        refuseNext = type;
    }

    /** Runs {@code hook} with the type of each message handed to this transport, before it goes on. */
    void onSend(Consumer<MessageType> hook) {
        onSend = hook;
    }

    /** Runs {@code hook} with the type of each message once the transport it goes on to has taken it. */
    void onSent(Consumer<MessageType> hook) {
        onSent = hook;
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
                     long payloadLength, long token) {
        if (payloadLength > maxPayload) {
            throw new IllegalArgumentException("payload of " + payloadLength + " bytes; this transport carries at most "
                    + maxPayload);
        }
        MessageType type = MessageType.of(new MessageHeader().load(header).typeCode());
        Consumer<MessageType> hook = onSend;
        if (hook != null && type != null) {
            hook.accept(type);
        }
        if (type != null && type == refuseNext) {
            refuseNext = null;
            throw new UnsupportedOperationException("test: the transport refuses this " + type);
        }
        inner.send(peer, header, headerLength, payload, payloadOffset, payloadLength, token);
        Consumer<MessageType> after = onSent;
        if (after != null && type != null) {
            after.accept(type);
        }
    }

    @Override
    public long maxPayloadLength() {
        return maxPayload;
    }

    @Override
    public String provider() {
        return "scripted-" + inner.provider();
    }

    @Override
    public int rank() {
        return inner.rank();
    }

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public int maxHeaderLength() {
        return inner.maxHeaderLength();
    }

    @Override
    public void start(MessageHandler handler) {
        inner.start(handler);
    }

    @Override
    public boolean poll() {
        return inner.poll();
    }

    @Override
    public void pollingStopped() {
        inner.pollingStopped();
    }

    @Override
    public boolean isPeerAlive(int peer) {
        return inner.isPeerAlive(peer);
    }

    @Override
    public Map<String, Long> counters() {
        return inner.counters();
    }

    @Override
    public void close() {
        inner.close();
    }
}
