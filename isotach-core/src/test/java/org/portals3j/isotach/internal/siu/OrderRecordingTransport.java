package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.internal.PollersGoneByTests;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.MessageHandler;

/**
 * A transport endpoint that delivers nothing and records every frame sent through it, in order: what a switch
 * node (and the host above it) put on the wire, for the ordering tests of the internal classes.
 */
final class OrderRecordingTransport implements PollersGoneByTests {
    /** One frame sent: destination, header bytes, payload length. */
    record Sent(int peer, byte[] header, long payloadLength) {
        byte kind() {
            return header[0];
        }

        MemorySegment segment() {
            return MemorySegment.ofArray(header);
        }

        int u8(long offset) {
            return Frame.u8(segment(), offset);
        }

        long i64(long offset) {
            return Frame.i64(segment(), offset);
        }

        int i32(long offset) {
            return Frame.i32(segment(), offset);
        }
    }

    private final int rank;
    private final int size;
    private final List<Sent> sent = new ArrayList<>();

    OrderRecordingTransport(int rank, int size) {
        this.rank = rank;
        this.size = size;
    }

    @Override
    public String provider() {
        return "order-recording";
    }

    @Override
    public int rank() {
        return rank;
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

    /** Runs after each recorded send, in the sender's thread, as an inline delivery would (null: nothing). */
    private volatile @Nullable IntConsumer afterSend;

    void afterSend(IntConsumer action) {
        afterSend = action;
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength, MemorySegment payload,
                     long payloadOffset, long payloadLength, long token) {
        synchronized (this) {
            sent.add(new Sent(peer, header.asSlice(0, headerLength).toArray(ValueLayout.JAVA_BYTE), payloadLength));
        }
        IntConsumer action = afterSend;
        if (action != null) {
            action.accept(peer);
        }
    }

    @Override
    public boolean isPeerAlive(int peer) {
        return true;
    }

    @Override
    public void close() {
    }

    /** Every frame sent so far. */
    synchronized List<Sent> sent() {
        return new ArrayList<>(sent);
    }

    /** The frames of {@code kind} sent so far. */
    synchronized List<Sent> sent(byte kind) {
        List<Sent> out = new ArrayList<>();
        for (Sent s : sent) {
            if (s.kind() == kind) {
                out.add(s);
            }
        }
        return out;
    }
}
