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
    /** Accept into memory that has gone away: the deposit fails. */
    volatile boolean goneDestination;
    /** Runs at the start of every onHeader (on the receive path's thread). */
    volatile Runnable onHeaderHook = () -> { };
    private final Arena arena = Arena.ofShared();
    /** Per source: messages of different sources may interleave between onHeader and onDeposited. */
    private final Map<Integer, byte[]> headers = new ConcurrentHashMap<>();
    private final Map<Integer, MemorySegment> destinations = new ConcurrentHashMap<>();

    @Override
    public void onHeader(int source, MemorySegment h, int headerLength, long payloadLength, Deposit deposit) {
        onHeaderHook.run();
        headers.put(source, h.asSlice(0, headerLength).toArray(ValueLayout.JAVA_BYTE));
        MemorySegment destination;
        if (goneDestination) {
            try (Arena gone = Arena.ofConfined()) {
                destination = gone.allocate(payloadLength + 16, 64);
            }
        } else {
            destination = heapDestination ? MemorySegment.ofArray(new byte[(int) payloadLength + 16])
                    : arena.allocate(payloadLength + 16, 64);
        }
        destinations.put(source, destination);
        if (!discard) {
            deposit.accept(destination, 16, payloadLength); // at an offset: the offset must be honoured
        }
    }

    @Override
    public void onDeposited(int source, Deposit deposit) {
        MemorySegment destination = destinations.getOrDefault(source, MemorySegment.NULL);
        byte[] payload = destination.equals(MemorySegment.NULL) || !destination.scope().isAlive() ? new byte[0]
                : destination.asSlice(16, deposit.deposited()).toArray(ValueLayout.JAVA_BYTE);
        byte[] h = headers.getOrDefault(source, new byte[0]);
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
