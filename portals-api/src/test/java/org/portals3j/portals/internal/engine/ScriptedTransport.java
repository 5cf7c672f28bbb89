package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/**
 * A transport that passes everything to another one, with what a test sets: a smaller largest payload
 * (refused with IllegalArgumentException, as the udp transport refuses a longer one), a message type
 * whose next send throws, and hooks run as each message is handed over, before it is passed on and
 * after (the in-memory transport delivers inline, so after means once the receiver has handled it). It can also
 * hold the messages it is given, as a network transport has taken a message it has not sent yet (reading the
 * payload only when it is let go), and hold the reports of sends complete, as a network transport reports them
 * only when the peer's acknowledgement arrives. Since it may hold messages, it never delivers inline.
 */
final class ScriptedTransport implements Transport, Polling {
    private final Transport inner;
    private final long maxPayload;
    private volatile @Nullable MessageType refuseNext;
    private volatile @Nullable Consumer<MessageType> onSend;
    private volatile @Nullable Consumer<MessageType> onSent;
    private volatile @Nullable MessageHandler handler;
    private volatile boolean holdingSends;
    private volatile boolean holdingCompletions;
    /** Messages taken and not passed on yet (guarded by this). */
    private final List<HeldSend> heldSends = new ArrayList<>();
    /** Reports of sends complete not passed to the handler yet (guarded by this). */
    private final List<long[]> heldCompletions = new ArrayList<>();

    /** A message taken: its header copied, its payload to be read when it is passed on. */
    private record HeldSend(int peer, MemorySegment header, MemorySegment payload, long offset, long length,
                            long token) {
    }

    ScriptedTransport(Transport inner, long maxPayload) {
        this.inner = inner;
        this.maxPayload = maxPayload;
    }

    /** The next send of a message of {@code type} throws (a transport fault the engine must survive). */
    void refuseNext(MessageType type) {
        refuseNext = type;
    }

    /** From now on, {@link #send} takes each message and keeps it (payload unread) until {@link #releaseSends}. */
    void holdSends() {
        holdingSends = true;
    }

    /** Passes every held message on, in order, reading its payload now; sends are no longer held. */
    void releaseSends() {
        List<HeldSend> sends;
        synchronized (this) {
            holdingSends = false;
            sends = new ArrayList<>(heldSends);
            heldSends.clear();
        }
        for (HeldSend m : sends) {
            inner.send(m.peer, m.header, (int) m.header.byteSize(), m.payload, m.offset, m.length, m.token);
        }
    }

    /** Reports every held message undelivered, as a transport whose peer died does; sends are no longer held. */
    void failHeldSends() {
        List<HeldSend> sends;
        synchronized (this) {
            holdingSends = false;
            sends = new ArrayList<>(heldSends);
            heldSends.clear();
        }
        MessageHandler h = handler;
        for (HeldSend m : sends) {
            if (h != null && m.token != NO_NOTIFY) {
                h.onSendComplete(m.token, false);
            }
        }
    }

    /** How many messages are held. */
    synchronized int heldSends() {
        return heldSends.size();
    }

    /** From now on, reports of sends complete are kept until {@link #releaseCompletions}. */
    void holdCompletions() {
        holdingCompletions = true;
    }

    /** Passes every held report to the handler, in order; reports are no longer held. */
    void releaseCompletions() {
        List<long[]> reports;
        synchronized (this) {
            holdingCompletions = false;
            reports = new ArrayList<>(heldCompletions);
            heldCompletions.clear();
        }
        MessageHandler h = handler;
        for (long[] r : reports) {
            if (h != null) {
                h.onSendComplete(r[0], r[1] != 0);
            }
        }
    }

    /** How many reports of sends complete are held. */
    synchronized int heldCompletions() {
        return heldCompletions.size();
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
        synchronized (this) {
            if (holdingSends) {
                MemorySegment copy = MemorySegment.ofArray(new byte[headerLength]);
                MemorySegment.copy(header, 0, copy, 0, headerLength);
                heldSends.add(new HeldSend(peer, copy, payload, payloadOffset, payloadLength, token));
                return;
            }
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
    public Set<TransportCapability> capabilities() {
        Set<TransportCapability> c = EnumSet.noneOf(TransportCapability.class);
        c.addAll(inner.capabilities());
        c.remove(TransportCapability.INLINE_DELIVERY);
        return c;
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
        this.handler = handler;
        inner.start(new PollingHandler() {
            @Override
            public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength,
                                 Deposit deposit) {
                handler.onHeader(source, header, headerLength, payloadLength, deposit);
            }

            @Override
            public void onDeposited(int source, Deposit deposit) {
                handler.onDeposited(source, deposit);
            }

            @Override
            public void onSendComplete(long token, boolean delivered) {
                synchronized (ScriptedTransport.this) {
                    if (holdingCompletions) {
                        heldCompletions.add(new long[] {token, delivered ? 1 : 0});
                        return;
                    }
                }
                handler.onSendComplete(token, delivered);
            }

            @Override
            public void onPeerFailure(int peer) {
                handler.onPeerFailure(peer);
            }

            @Override
            public void onPollersGone() {
                if (handler instanceof PollingHandler p) {
                    p.onPollersGone();
                }
            }
        });
    }

    @Override
    public boolean poll() {
        return Polling.of(inner).poll();
    }

    @Override
    public void pollingStopped() {
        Polling.of(inner).pollingStopped();
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
