package org.portals3j.transport.gm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.MessageHandler;

/** A handler that accepts every payload (into native or heap memory, as told) and records what happens. */
final class Recorder implements MessageHandler {
    /** One message as it was deposited. */
    record Received(int source, byte[] header, long payloadLength, byte[] payload, boolean failed) {
    }

    final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    final Map<Long, Boolean> completions = new ConcurrentHashMap<>();
    final Set<Integer> failedPeers = ConcurrentHashMap.newKeySet();
    volatile boolean heapDestination;
    volatile boolean discard;
    private final Arena arena = Arena.ofShared();
    private byte @Nullable [] header;
    private MemorySegment destination = MemorySegment.NULL;

    @Override
    public void onHeader(int source, MemorySegment h, int headerLength, long payloadLength, Deposit deposit) {
        header = h.asSlice(0, headerLength).toArray(ValueLayout.JAVA_BYTE);
        destination = heapDestination ? MemorySegment.ofArray(new byte[(int) payloadLength + 16])
                : arena.allocate(payloadLength + 16, 64);
        if (!discard) {
            deposit.accept(destination, 16, payloadLength); // at an offset: the offset must be honoured
        }
    }

    @Override
    public void onDeposited(int source, Deposit deposit) {
        byte[] payload = destination.asSlice(16, deposit.deposited()).toArray(ValueLayout.JAVA_BYTE);
        byte[] h = header == null ? new byte[0] : header;
        received.add(new Received(source, h, deposit.length(), payload, deposit.failed()));
    }

    @Override
    public void onSendComplete(long token, boolean delivered) {
        if (completions.put(token, delivered) != null) {
            throw new AssertionError("token " + token + " completed twice");
        }
    }

    @Override
    public void onPeerFailure(int peer) {
        if (!failedPeers.add(peer)) {
            throw new AssertionError("peer " + peer + " reported failed twice");
        }
    }

    Received next(Duration timeout) throws InterruptedException {
        Received r = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("no message within " + timeout);
        }
        return r;
    }
}
