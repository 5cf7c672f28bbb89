package org.portals3j.isotach.internal.noniso;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.isotach.internal.PollersGoneByTests;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;

/**
 * A test fixture: N transport endpoints in one JVM, connected by one FIFO queue per destination. Nothing moves
 * until the test calls {@link #pump()} (or {@link #pump(int, int)}), so every interleaving a test needs is
 * explicit and deterministic.
 *
 * <p>It implements the transport SPI contract the noniso module relies on: per-peer FIFO, exactly-once,
 * two-phase receive (onHeader, deposit, onDeposited), the header copied at send time, the payload read only at
 * delivery time (as a zero-copy transport would, so a sender that reused a payload buffer before completion
 * would be caught) and exactly one completion per notified send, after the payload has been read.
 */
final class LoopbackNetwork {
    static final int MAX_HEADER = 256;

    /** One frame in flight. */
    private record Frame(int source, int dest, byte[] header, MemorySegment payload, long offset, long length,
                         long token) {
    }

    private final Endpoint[] endpoints;
    private final List<ArrayDeque<Frame>> queues = new ArrayList<>();
    /** Every header each rank sent, in send order. */
    private final List<List<byte[]>> sentHeaders = new ArrayList<>();
    private final boolean[] failNextDeposit;
    /** Run once right after the rank's next send: lets a test deliver frames in the middle of a poll. */
    private final @Nullable Runnable[] afterNextSend;

    LoopbackNetwork(int size) {
        endpoints = new Endpoint[size];
        failNextDeposit = new boolean[size];
        afterNextSend = new Runnable[size];
        for (int r = 0; r < size; r++) {
            endpoints[r] = new Endpoint(r);
            queues.add(new ArrayDeque<>());
            sentHeaders.add(new ArrayList<>());
        }
    }

    Transport endpoint(int rank) {
        return endpoints[rank];
    }

    /** Delivers queued frames, round robin over destinations, until every queue is empty; returns how many. */
    int pump() {
        int total = 0;
        boolean moved = true;
        while (moved) {
            moved = false;
            for (int d = 0; d < endpoints.length; d++) {
                if (pump(d, 1) > 0) {
                    total++;
                    moved = true;
                }
            }
        }
        return total;
    }

    /** Delivers at most {@code max} frames queued for {@code dest}; returns how many. */
    int pump(int dest, int max) {
        Endpoint e = endpoints[dest];
        MessageHandler h = e.handler;
        if (h == null) {
            return 0;
        }
        int n = 0;
        ArrayDeque<Frame> q = queues.get(dest);
        while (n < max && !q.isEmpty()) {
            Frame f = q.removeFirst();
            deliver(e, h, f);
            n++;
        }
        return n;
    }

    /** Frames queued for {@code dest}. */
    int pending(int dest) {
        return queues.get(dest).size();
    }

    int pendingTotal() {
        int n = 0;
        for (ArrayDeque<Frame> q : queues) {
            n += q.size();
        }
        return n;
    }

    /** The headers {@code rank} has sent so far (copies). */
    List<byte[]> headersSentBy(int rank) {
        return sentHeaders.get(rank);
    }

    /** The next payload transfer to {@code dest} fails after half of the bytes (Deposit#failed). */
    void failNextDeposit(int dest) {
        failNextDeposit[dest] = true;
    }

    /**
     * Runs {@code action} inside {@code rank}'s next send, after the frame is queued and before the call
     * returns, as the in-memory transport delivers inline inside a sender's call. Used to make frames arrive
     * in the middle of a host's poll.
     */
    void afterNextSend(int rank, Runnable action) {
        afterNextSend[rank] = action;
    }

    /** {@code rank} fails: its queue is discarded (failed completions) and every other endpoint is told. */
    void fail(int rank) {
        Endpoint dead = endpoints[rank];
        dead.closed = true;
        for (Frame f : queues.get(rank)) {
            complete(f, false);
        }
        queues.get(rank).clear();
        for (Endpoint e : endpoints) {
            MessageHandler h = e.handler;
            if (e != dead && h != null) {
                h.onPeerFailure(rank);
            }
        }
    }

    private void deliver(Endpoint e, MessageHandler h, Frame f) {
        DepositWriter writer = e.deposits[f.source()];
        Deposit deposit = writer.reset();
        MemorySegment header = MemorySegment.ofArray(f.header().clone());
        h.onHeader(f.source(), header, f.header().length, f.length(), deposit);
        boolean ok = true;
        if (deposit.accepted()) {
            long n = Math.min(deposit.length(), f.length());
            if (failNextDeposit[f.dest()]) {
                failNextDeposit[f.dest()] = false;
                n /= 2;
                writer.fail();
                ok = false;
            }
            MemorySegment.copy(f.payload(), f.offset(), deposit.segment(), deposit.offset(), n);
            writer.addDeposited(n);
        }
        h.onDeposited(f.source(), deposit);
        complete(f, ok);
    }

    private void complete(Frame f, boolean delivered) {
        MessageHandler sender = endpoints[f.source()].handler;
        if (f.token() != Transport.NO_NOTIFY && sender != null) {
            sender.onSendComplete(f.token(), delivered);
        }
    }

    private final class Endpoint implements PollersGoneByTests {
        private final int rank;
        private final DepositWriter[] deposits;
        private @Nullable MessageHandler handler;
        private boolean closed;

        Endpoint(int rank) {
            this.rank = rank;
            this.deposits = new DepositWriter[endpoints.length];
            for (int i = 0; i < deposits.length; i++) {
                deposits[i] = new DepositWriter();
            }
        }

        @Override
        public String provider() {
            return "loopback";
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return endpoints.length;
        }

        @Override
        public int maxHeaderLength() {
            return MAX_HEADER;
        }

        @Override
        public long maxPayloadLength() {
            return Long.MAX_VALUE;
        }

        @Override
        public void start(MessageHandler h) {
            if (handler != null) {
                throw new IllegalStateException("already started");
            }
            handler = h;
        }

        @Override
        public void send(int peer, MemorySegment header, int headerLength, MemorySegment payload, long payloadOffset,
                         long payloadLength, long token) {
            if (peer < 0 || peer >= endpoints.length) {
                throw new IllegalArgumentException("peer " + peer);
            }
            if (headerLength < 0 || headerLength > MAX_HEADER || headerLength > header.byteSize()) {
                throw new IllegalArgumentException("header length " + headerLength);
            }
            if (payloadOffset < 0 || payloadLength < 0 || payloadOffset > payload.byteSize() - payloadLength) {
                throw new IllegalArgumentException("payload region");
            }
            if (closed) {
                throw new IllegalStateException("closed");
            }
            byte[] copy = header.asSlice(0, headerLength).toArray(ValueLayout.JAVA_BYTE);
            sentHeaders.get(rank).add(copy);
            Frame f = new Frame(rank, peer, copy, payload, payloadOffset, payloadLength, token);
            if (endpoints[peer].closed) {
                complete(f, false);
                return;
            }
            queues.get(peer).addLast(f);
            Runnable hook = afterNextSend[rank];
            if (hook != null) {
                afterNextSend[rank] = null;
                hook.run();
            }
        }

        @Override
        public boolean isPeerAlive(int peer) {
            return !endpoints[peer].closed;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
