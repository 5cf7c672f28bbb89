package org.portals3j.tck.selftest.broken;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/**
 * A transport endpoint that passes everything to a real endpoint (the {@code network}) except some of the
 * <em>data messages</em> it sends, which it mishandles in one way a subclass chooses.
 *
 * <h2>Which messages are broken</h2>
 * A data message is a message with a payload: a Portals put or get reply, an Isotach message (ISO frame), a
 * noniso data packet. The data messages this endpoint sends to each peer are numbered 1, 2, 3, ... from the
 * moment the endpoint opens, and the subclass says which numbers it breaks ({@link #breaks(long)}): faults are
 * counter based, never random, so a kit test that sends the same messages meets the same faults every run.
 * Header-only messages (Portals acks and get requests, Isotach tokens, pulse marks, credits, sync and barrier
 * packets) always get through: breaking them too would stop jobs from starting at all (Isotach's open_net
 * needs its sync and token traffic), and the kit would then fail every assertion, which proves nothing about
 * which assertions detect which fault.
 *
 * <h2>Threading</h2>
 * As the contract allows ({@link Transport}), {@link #send} may be called from any thread. The numbering is
 * atomic; what a subclass holds back is guarded by the subclass. A message the subclass swallows is completed
 * to the sender's handler as delivered, so the sender cannot tell.
 */
public abstract class BrokenTransport implements Transport, Polling {
    /** One JVM, as {@code inmem}; not single-copy: a broken transport copies what it holds back or alters. */
    static final Set<TransportCapability> CAPABILITIES = Set.of(TransportCapability.SINGLE_PROCESS);

    /** Data messages mishandled so far, by provider name, over every endpoint this JVM opened. */
    private static final Map<String, AtomicLong> FAULTS_BY_PROVIDER = new ConcurrentHashMap<>();

    private final String name;
    private final Transport network;
    private final AtomicLongArray dataMessages;
    private final AtomicLong faults = new AtomicLong();
    private volatile @Nullable MessageHandler handler;
    private volatile boolean closed;

    protected BrokenTransport(String name, Transport network) {
        this.name = name;
        this.network = network;
        this.dataMessages = new AtomicLongArray(network.size());
    }

    /**
     * How many data messages the endpoints of provider {@code name} have mishandled in this JVM: the self-test's
     * evidence that a broken transport's fault really happened during the kit's run on it.
     */
    public static long faultsInjected(String name) {
        AtomicLong n = FAULTS_BY_PROVIDER.get(name);
        return n == null ? 0 : n.get();
    }

    /** Whether the {@code n}-th data message to a peer (counting from 1) is mishandled. */
    protected abstract boolean breaks(long n);

    /**
     * Mishandles a data message instead of sending it. The arguments have been checked as {@link #send}
     * checks them; the header is valid only during this call, the payload until the send completes.
     */
    protected abstract void misbehave(int peer, MemorySegment header, int headerLength,
                                      MemorySegment payload, long payloadOffset, long payloadLength, long token);

    /** Called after a message went to {@code peer} untouched. */
    protected void passed(int peer) {
    }

    /** The real endpoint under this one. */
    protected final Transport network() {
        return network;
    }

    /** Reports a send as complete to this endpoint's handler, as the network would. */
    protected final void complete(long token, boolean delivered) {
        MessageHandler h = handler;
        if (token != NO_NOTIFY && h != null) {
            h.onSendComplete(token, delivered);
        }
    }

    /**
     * A heap copy of {@code length} bytes of {@code segment} from {@code offset}, or null when they cannot be
     * read here (memory freed or confined to another thread): the caller then sends the message as it is, and
     * the network fails it as it fails any send whose payload is unreadable.
     */
    protected static @Nullable MemorySegment copyOf(MemorySegment segment, long offset, long length) {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a broken transport copies at most 2 GiB, not " + length + " bytes");
        }
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) length]);
        try {
            MemorySegment.copy(segment, offset, copy, 0, length);
        } catch (IllegalStateException | WrongThreadException e) {
            return null;
        }
        return copy;
    }

    @Override
    public final void send(int peer, MemorySegment header, int headerLength,
                           MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        if (payloadLength > 0 && peer >= 0 && peer < size() && !closed
                && breaks(dataMessages.incrementAndGet(peer))) {
            check(header, headerLength, payload, payloadOffset, payloadLength);
            faults.incrementAndGet();
            FAULTS_BY_PROVIDER.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
            misbehave(peer, header, headerLength, payload, payloadOffset, payloadLength, token);
            return;
        }
        network.send(peer, header, headerLength, payload, payloadOffset, payloadLength, token);
        passed(peer);
    }

    /** The checks {@link Transport#send} promises, for a message that never reaches the network's own. */
    private void check(MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
                       long payloadLength) {
        if (headerLength < 0 || headerLength > maxHeaderLength() || headerLength > header.byteSize()) {
            throw new IllegalArgumentException("header length " + headerLength + " (max " + maxHeaderLength() + ")");
        }
        if (payloadOffset < 0 || payloadOffset > payload.byteSize() - payloadLength) {
            throw new IllegalArgumentException("payload region [" + payloadOffset + ", +" + payloadLength
                    + ") is outside a segment of " + payload.byteSize() + " bytes");
        }
    }

    @Override
    public final String provider() {
        return name;
    }

    @Override
    public final Set<TransportCapability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public final int rank() {
        return network.rank();
    }

    @Override
    public final int size() {
        return network.size();
    }

    @Override
    public final int maxHeaderLength() {
        return network.maxHeaderLength();
    }

    @Override
    public final long maxPayloadLength() {
        return network.maxPayloadLength();
    }

    @Override
    public final void start(MessageHandler messageHandler) {
        network.start(messageHandler); // throws if started before: the first handler stays
        this.handler = messageHandler;
    }

    @Override
    public boolean poll() {
        return Polling.of(network).poll();
    }

    /** Not passed on: a broken transport does not promise {@link TransportCapability#REPORTS_POLLERS_GONE}. */
    @Override
    public void pollingStopped() {
    }

    @Override
    public final boolean isPeerAlive(int peer) {
        return network.isPeerAlive(peer);
    }

    /** The network's counters, and {@code faults}: how many data messages this endpoint mishandled. */
    @Override
    public final Map<String, Long> counters() {
        Map<String, Long> all = new HashMap<>(network.counters());
        all.put("faults", faults.get());
        return all;
    }

    @Override
    public void close() {
        closed = true;
        network.close();
    }
}
