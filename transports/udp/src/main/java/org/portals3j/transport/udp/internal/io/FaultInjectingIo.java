package org.portals3j.transport.udp.internal.io;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.internal.Counter;
import org.portals3j.transport.internal.CounterRegistry;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;

/**
 * Wraps a {@link DatagramIo} and damages what it receives: loss, corruption (one random bit flipped),
 * delay (fixed, with uniform jitter, and for some datagrams a further delay that lets later ones overtake
 * them), then neighbour reordering (held back behind the next one) and duplication, each with its own
 * probability. Seeded, so a failing run can be repeated. Used by the tests and the streaming benchmark;
 * only the thread running the receive path calls {@link #receive}, only the protocol thread {@link #await}.
 */
public final class FaultInjectingIo implements DatagramIo {
    /**
     * What to inject. Probabilities are per received datagram; a datagram's delay is {@code delayNanos}
     * plus a uniform draw from {@code [-jitterNanos, jitterNanos]}, plus {@code lateNanos} with probability
     * {@code late}; at most {@code delayLineCapacity} datagrams wait at once.
     */
    public record Faults(double loss, double duplicate, double reorder, double corrupt, long delayNanos,
                         long jitterNanos, double late, long lateNanos, int delayLineCapacity, long seed) {
        public Faults {
            if (jitterNanos < 0 || jitterNanos > delayNanos || lateNanos < 0 || delayLineCapacity < 1) {
                throw new IllegalArgumentException("need 0 <= jitter <= delay, late delay >= 0, a delay line of at"
                        + " least 1; got jitter " + jitterNanos + ", delay " + delayNanos + ", late " + lateNanos
                        + ", line " + delayLineCapacity);
            }
        }

        /** No fault but loss, duplication, neighbour reordering and corruption (no delay line). */
        public static Faults of(double loss, double duplicate, double reorder, double corrupt, long seed) {
            return new Faults(loss, duplicate, reorder, corrupt, 0, 0, 0, 0, 1, seed);
        }

        boolean delays() {
            return delayNanos > 0 || late > 0;
        }
    }

    /** The injector's counters, merged into the endpoint's: what it did to the datagrams it received. */
    static final String[] COUNTER_NAMES = {
        "fault.lost", "fault.corrupted", "fault.duplicated", "fault.reordered", "fault.delayed", "fault.late",
        "fault.delayLineDrops",
    };
    static final int LOST = 0;
    static final int CORRUPTED = 1;
    static final int DUPLICATED = 2;
    static final int REORDERED = 3;
    static final int DELAYED = 4;
    static final int LATE = 5;
    static final int DELAY_LINE_DROPS = 6;
    /**
     * Below this much time to the next due datagram, {@link #await} parks rather than sleep in the selector (whole ms).
     */
    static final long PARK_BELOW_NANOS = 1_000_000L;

    private final DatagramIo inner;
    private final Faults faults;
    private final LongSupplier clock;
    private final SplittableRandom random;
    /** The injector's counters, by index of {@link #COUNTER_NAMES} (atomic adds: no hot path). */
    private final CounterRegistry registry = new CounterRegistry(COUNTER_NAMES.length);
    private final Counter[] counts = new Counter[COUNTER_NAMES.length];
    /** A datagram to deliver before reading the socket again (a duplicate, or one held back). */
    private final ByteBuffer pending;
    private boolean hasPending;
    /** Reordering holds this one back until another datagram has been delivered. */
    private final ByteBuffer delayed;
    private boolean hasDelayed;
    private int delayedAge;
    private final @Nullable DelayLine line;
    /** Where a datagram that finds the delay line full is received, to be dropped. */
    private final @Nullable ByteBuffer overflow;
    /** When the delay line's earliest datagram is due, for {@link #await} (which runs on the protocol thread). */
    private volatile long nextDue = Long.MAX_VALUE;
    /** Something is waiting to be delivered without reading the socket (read by {@link #await}). */
    private volatile boolean ready;

    public FaultInjectingIo(DatagramIo inner, int datagramSize, Faults faults) {
        this(inner, datagramSize, faults, System::nanoTime);
    }

    /** With {@code clock} as the time source (nanoseconds, as {@link System#nanoTime}): tests inject their own. */
    public FaultInjectingIo(DatagramIo inner, int datagramSize, Faults faults, LongSupplier clock) {
        this.inner = inner;
        this.faults = faults;
        this.clock = clock;
        this.random = new SplittableRandom(faults.seed());
        for (int i = 0; i < COUNTER_NAMES.length; i++) {
            counts[i] = registry.counter(COUNTER_NAMES[i],
                    "received datagrams the fault injector treated as the name says");
        }
        this.pending = ByteBuffer.allocateDirect(datagramSize + DatagramHeader.TRAILER_ROOM);
        this.delayed = ByteBuffer.allocateDirect(datagramSize + DatagramHeader.TRAILER_ROOM);
        if (faults.delays()) {
            this.line = new DelayLine(faults.delayLineCapacity(), datagramSize);
            this.overflow = ByteBuffer.allocateDirect(datagramSize + DatagramHeader.TRAILER_ROOM);
        } else {
            this.line = null;
            this.overflow = null;
        }
    }

    private static void copy(ByteBuffer from, ByteBuffer to) {
        to.clear();
        to.put(0, from, 0, from.limit());
        to.limit(from.limit());
    }

    @Override
    public boolean receive(ByteBuffer dst) throws IOException {
        try {
            return receiveDamaged(dst);
        } finally {
            ready = hasPending || hasDelayed;
        }
    }

    private boolean receiveDamaged(ByteBuffer dst) throws IOException {
        if (hasPending) {
            hasPending = false;
            copy(pending, dst);
            return true;
        }
        while (true) {
            if (!next(dst)) {
                if (hasDelayed && ++delayedAge > 2) {
                    // nothing overtook it for a while: let it go rather than hold it forever
                    hasDelayed = false;
                    copy(delayed, dst);
                    return true;
                }
                return false;
            }
            if (!hasDelayed && random.nextDouble() < faults.reorder()) {
                copy(dst, delayed);
                hasDelayed = true;
                delayedAge = 0;
                counts[REORDERED].incrementShared();
                continue;
            }
            if (hasDelayed) {
                // deliver this one now and the held-back one right after it
                copy(delayed, pending);
                hasDelayed = false;
                hasPending = true;
            } else if (random.nextDouble() < faults.duplicate()) {
                copy(dst, pending);
                hasPending = true;
                counts[DUPLICATED].incrementShared();
            }
            return true;
        }
    }

    /** The next datagram that survived loss and corruption and, with a delay line, is due. */
    private boolean next(ByteBuffer dst) throws IOException {
        DelayLine l = line;
        if (l == null) {
            while (true) {
                if (!inner.receive(dst)) {
                    return false;
                }
                if (!lost()) {
                    corrupt(dst);
                    return true;
                }
            }
        }
        long now = clock.getAsLong();
        admit(l, now);
        boolean due = l.size() > 0 && l.nextDue() - now <= 0;
        if (due) {
            l.take(dst);
        }
        nextDue = l.nextDue();
        return due;
    }

    /** Drains the socket into the delay line, each datagram due after its own delay; a full line drops. */
    private void admit(DelayLine l, long now) throws IOException {
        ByteBuffer spill = overflow;
        if (spill == null) {
            throw new IllegalStateException("a delay line without its overflow buffer");
        }
        while (true) {
            ByteBuffer room = l.reserve();
            if (!inner.receive(room != null ? room : spill)) {
                return;
            }
            if (lost()) {
                continue;
            }
            if (room == null) {
                counts[DELAY_LINE_DROPS].incrementShared();
                continue;
            }
            corrupt(room);
            long delay = faults.delayNanos();
            if (faults.jitterNanos() > 0) {
                delay += random.nextLong(-faults.jitterNanos(), faults.jitterNanos() + 1);
            }
            if (faults.late() > 0 && random.nextDouble() < faults.late()) {
                delay += faults.lateNanos();
                counts[LATE].incrementShared();
            }
            counts[DELAYED].incrementShared();
            l.commit(now + delay);
        }
    }

    private boolean lost() {
        if (random.nextDouble() < faults.loss()) {
            counts[LOST].incrementShared();
            return true;
        }
        return false;
    }

    private void corrupt(ByteBuffer b) {
        if (random.nextDouble() < faults.corrupt() && b.limit() > 0) {
            int bit = random.nextInt(b.limit() * 8);
            b.put(bit >>> 3, (byte) (b.get(bit >>> 3) ^ (1 << (bit & 7))));
            counts[CORRUPTED].incrementShared();
        }
    }

    @Override
    public void send(ByteBuffer src, int length, InetSocketAddress target) throws IOException {
        inner.send(src, length, target);
    }

    /**
     * Waits as the socket's {@code await} does, but no longer than until the delay line's earliest datagram
     * is due: a delayed datagram comes out on time though nothing else arrives. The selector counts whole
     * milliseconds, so the last millisecond is parked (a datagram arriving on the socket meanwhile waits
     * at most that long, and is delayed anyway).
     */
    @Override
    public void await(long timeoutMillis) throws IOException {
        if (ready) {
            return;
        }
        long wait = timeoutMillis * 1_000_000L;
        long untilDue = nextDue == Long.MAX_VALUE ? Long.MAX_VALUE : nextDue - clock.getAsLong();
        if (untilDue <= 0) {
            return;
        }
        if (untilDue < wait && untilDue < PARK_BELOW_NANOS) {
            LockSupport.parkNanos(untilDue);
            return;
        }
        inner.await(Math.max(1, Math.min(wait, untilDue) / 1_000_000L));
    }

    @Override
    public void wakeup() {
        inner.wakeup();
    }

    @Override
    public InetSocketAddress localAddress() {
        return inner.localAddress();
    }

    @Override
    public int receiveBufferBytes() {
        return inner.receiveBufferBytes();
    }

    /** Adds this injector's counters ({@code fault.*}) to {@code into}. */
    public void addCounters(Map<String, Long> into) {
        registry.snapshotInto(into);
    }

    /** How many datagrams wait in the delay line (tests). */
    int delayLineSize() {
        DelayLine l = line;
        return l == null ? 0 : l.size();
    }

    @Override
    public void close() {
        inner.close();
    }
}
