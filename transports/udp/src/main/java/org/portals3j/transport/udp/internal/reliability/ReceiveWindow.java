package org.portals3j.transport.udp.internal.reliability;

import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.udp.internal.io.PooledBuffer;

/**
 * The receiving half of one peer connection. Sequence numbers below {@code deliverNext} were handed
 * to the upper layer; those in {@code [deliverNext, received)} arrived contiguously but wait (the
 * endpoint was not started yet, or they arrived out of order and the gap just filled); above
 * {@code received}, datagrams that arrived out of order wait in their slot. A datagram is accepted
 * only below {@code deliverNext + capacity}, so the held buffers are bounded by the window, and the
 * window advertised to the sender is exactly the room left.
 *
 * <p>Used by the protocol thread only.
 */
public final class ReceiveWindow {
    /** What to do with an arriving data datagram. */
    public enum Offer {
        /** In order and nothing waits before it: process it straight from the receive buffer. */
        DIRECT,
        /** Keep it (hand the buffer to {@link #hold}). */
        HOLD,
        /** Seen before: drop (and acknowledge again, the sender evidently missed our ack). */
        DUPLICATE,
        /** Beyond the window: drop (the sender overran it, or the field is hostile). */
        OUT_OF_WINDOW
    }

    /** Bits of selective acknowledgement in one datagram. */
    public static final int SACK_BITS = 64;

    private final int capacity;
    private final @Nullable PooledBuffer[] held;
    private long deliverNext;
    private long received;
    private int heldCount;

    public ReceiveWindow(int capacity) {
        this.capacity = capacity;
        this.held = new PooledBuffer[capacity];
    }

    /** Classifies {@code seq}; for {@link Offer#DIRECT} the caller processes it and calls {@link #consumedDirect}. */
    public Offer offer(long seq, boolean canDeliver) {
        if (seq < received) {
            return Offer.DUPLICATE;
        }
        if (seq < 0 || seq >= deliverNext + capacity) {
            return Offer.OUT_OF_WINDOW;
        }
        if (held[slot(seq)] != null) {
            return Offer.DUPLICATE;
        }
        if (seq == received && deliverNext == received && canDeliver) {
            return Offer.DIRECT;
        }
        return Offer.HOLD;
    }

    private int slot(long seq) {
        return (int) (seq % capacity);
    }

    /** The datagram offered as {@link Offer#DIRECT} was processed. */
    public void consumedDirect() {
        deliverNext++;
        received = deliverNext;
        advance();
    }

    /** Keeps {@code buffer} (its limit is the datagram length) for {@code seq}, offered as {@link Offer#HOLD}. */
    public void hold(long seq, PooledBuffer buffer) {
        held[slot(seq)] = buffer;
        heldCount++;
        advance();
    }

    private void advance() {
        while (received < deliverNext + capacity && held[slot(received)] != null) {
            received++;
        }
    }

    /** The next held datagram that is now in order, or null; the caller processes and recycles it. */
    public @Nullable PooledBuffer takeDeliverable() {
        if (deliverNext >= received) {
            return null;
        }
        int i = slot(deliverNext);
        PooledBuffer b = held[i];
        held[i] = null;
        heldCount--;
        deliverNext++;
        return b;
    }

    /** The cumulative acknowledgement: every sequence number below it arrived. */
    public long cumAck() {
        return received;
    }

    /** Bit {@code i}: {@code cumAck() + 1 + i} arrived (held out of order). */
    public long sack() {
        if (heldCount == 0) {
            return 0;
        }
        long bits = 0;
        long limit = Math.min(SACK_BITS, deliverNext + capacity - received - 1);
        for (int i = 0; i < limit; i++) {
            if (held[slot(received + 1 + i)] != null) {
                bits |= 1L << i;
            }
        }
        return bits;
    }

    /** Room advertised to the sender: it may send below {@code cumAck() + window()}. */
    public long window() {
        return deliverNext + capacity - received;
    }

    public int heldCount() {
        return heldCount;
    }

    public long deliverNext() {
        return deliverNext;
    }

    /** Gives back every held buffer (the peer died), oldest first. */
    public void releaseAll(Consumer<PooledBuffer> recycler) {
        for (int i = 0; i < capacity; i++) {
            PooledBuffer b = held[i];
            if (b != null) {
                held[i] = null;
                recycler.accept(b);
            }
        }
        heldCount = 0;
        deliverNext = received;
    }
}
