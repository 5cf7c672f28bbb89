package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.PollingHandler;

/**
 * A test handler: records every message (source, id from the first header int, payload length, CRC of the
 * bytes deposited), every completion and every peer failure. Accepts payloads into fresh memory, up to
 * {@link #acceptLimit}; checks that onHeader/onDeposited alternate and come from one thread.
 */
final class Recorder implements PollingHandler {
    record Message(int source, int id, long payloadLength, long deposited, long crc, boolean failed) {
    }

    final ConcurrentLinkedQueue<Message> messages = new ConcurrentLinkedQueue<>();
    final Map<Long, Boolean> completions = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<Long> completionOrder = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<Integer> failedPeers = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    /** The threads that called {@link #onPollersGone}, one entry per call. */
    final ConcurrentLinkedQueue<String> pollersGone = new ConcurrentLinkedQueue<>();
    /** What {@link #pollersGoneMark} read at each {@link #onPollersGone} call. */
    final ConcurrentLinkedQueue<Long> pollersGoneMarks = new ConcurrentLinkedQueue<>();
    volatile LongSupplier pollersGoneMark = () -> 0L;
    volatile long acceptLimit = Long.MAX_VALUE;
    /** When set, payloads are accepted into this segment rather than a fresh array. */
    volatile @org.checkerframework.checker.nullness.qual.Nullable MemorySegment destination;
    volatile boolean discardAll;
    volatile long stallMillis;
    /** Every delivery takes this long (a slow receiver). */
    volatile long slowNanos;
    private boolean headerPhase;
    private int currentId;
    private long currentLength;
    private volatile @org.checkerframework.checker.nullness.qual.Nullable Thread deliveryThread;

    @Override
    public void onPollersGone() {
        pollersGoneMarks.add(pollersGoneMark.getAsLong());
        pollersGone.add(Thread.currentThread().getName());
    }

    @Override
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        checkThread();
        if (headerPhase) {
            violations.add("onHeader twice without onDeposited");
        }
        headerPhase = true;
        currentId = headerLength >= 4 ? header.get(ValueLayout.JAVA_INT_UNALIGNED, 0) : -1;
        currentLength = payloadLength;
        long n = Math.min(acceptLimit, payloadLength);
        MemorySegment into = destination;
        if (!discardAll && n > 0) {
            deposit.accept(into != null ? into : MemorySegment.ofArray(new byte[(int) n]), 0, n);
        }
    }

    @Override
    public void onDeposited(int source, Deposit deposit) {
        checkThread();
        if (!headerPhase) {
            violations.add("onDeposited without onHeader");
        }
        headerPhase = false;
        long crc = 0;
        if (deposit.accepted() && !deposit.failed()) {
            CRC32C c = new CRC32C();
            c.update(deposit.segment().asSlice(deposit.offset(), deposit.deposited()).asByteBuffer());
            crc = c.getValue();
        }
        messages.add(new Message(source, currentId, currentLength, deposit.deposited(), crc, deposit.failed()));
        long slow = slowNanos;
        if (slow > 0) {
            LockSupport.parkNanos(slow);
        }
        long stall = stallMillis;
        if (stall > 0) {
            stallMillis = 0;
            try {
                Thread.sleep(stall);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void checkThread() {
        Thread t = deliveryThread;
        if (t == null) {
            deliveryThread = Thread.currentThread();
        } else if (t != Thread.currentThread()) {
            violations.add("delivery from two threads");
        }
    }

    @Override
    public void onSendComplete(long token, boolean delivered) {
        if (completions.putIfAbsent(token, delivered) != null) {
            violations.add("token " + token + " completed twice");
        }
        completionOrder.add(token);
    }

    @Override
    public void onPeerFailure(int peer) {
        failedPeers.add(peer);
    }

    List<Message> from(int source) {
        List<Message> out = new ArrayList<>();
        for (Message m : messages) {
            if (m.source() == source) {
                out.add(m);
            }
        }
        return out;
    }

    static void await(String what, long timeoutMillis, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    void assertClean() {
        assertThat(violations).isEmpty();
    }

    /** Payload {@code length} bytes derived from {@code seed}, so the receiver's CRC can be predicted. */
    static MemorySegment payload(long length, int seed) {
        MemorySegment s = MemorySegment.ofArray(new byte[(int) length]);
        long x = seed * 0x9E3779B97F4A7C15L + 1;
        for (long i = 0; i < length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            s.set(ValueLayout.JAVA_BYTE, i, (byte) x);
        }
        return s;
    }

    static long crc(MemorySegment s, long offset, long length) {
        CRC32C c = new CRC32C();
        c.update(s.asSlice(offset, length).asByteBuffer());
        return c.getValue();
    }

    static MemorySegment header(int id) {
        MemorySegment h = MemorySegment.ofArray(new byte[16]);
        h.set(ValueLayout.JAVA_INT_UNALIGNED, 0, id);
        h.set(ValueLayout.JAVA_INT_UNALIGNED, 4, ~id);
        return h;
    }
}
