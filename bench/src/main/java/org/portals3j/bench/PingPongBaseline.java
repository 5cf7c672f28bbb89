package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;
import org.portals3j.transport.IdleStrategy;

/**
 * One rank's side of {@link PingPong}'s baseline, on the rank's own thread: a buffer handed over in memory
 * ({@link MemorySegment#copy}, volatile flag and unpark) or a raw {@link DatagramBaseline} ping-pong and blast.
 */
final class PingPongBaseline implements AutoCloseable {
    /** Left padding: keeps a flag on a cache line of its own (fields of a superclass come first). */
    @SuppressWarnings("unused")
    static class PadLeft {
        long p01, p02, p03, p04, p05, p06, p07, p08;
    }

    static class FlagValue extends PadLeft {
        volatile long value;
    }

    /** A volatile sequence number alone on its cache line. */
    @SuppressWarnings("unused")
    static final class Flag extends FlagValue {
        long p11, p12, p13, p14, p15, p16, p17, p18;
    }

    /** What the two ranks' baselines share; the rank threads are set by the ranks as they start. */
    static final class Pair {
        final Thread[] threads = new Thread[2];
        /** flags[r]: the last hand-over to rank r. */
        final Flag[] flags = {new Flag(), new Flag()};
        /** Rank r copies from send[r] into recv[1 - r]. */
        final MemorySegment[] send = new MemorySegment[2];
        final MemorySegment[] recv = new MemorySegment[2];
        /** Each rank's raw datagram channel (datagram baseline only). */
        final DatagramBaseline[] datagrams = new DatagramBaseline[2];
        /** Receiver-measured blast rates (GB/s), one per measured bandwidth window (datagram baseline only). */
        final List<Double> blastRates = new ArrayList<>();
        /** True once a rank failed: a waiting rank gives up. */
        final BooleanSupplier failed;

        Pair(Arena arena, int bufferSize, BooleanSupplier failed) {
            this.failed = failed;
            for (int r = 0; r < 2; r++) {
                send[r] = arena.allocate(bufferSize, 64).fill(PingPong.PATTERN[r]);
                recv[r] = arena.allocate(bufferSize, 64);
            }
        }

        /** Wakes a rank waiting on its flag (after a failure). */
        void unpark() {
            for (Thread t : threads) {
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
        }
    }

    private final Pair pair;
    private final int rank;
    private final int peerRank;
    private final IdleStrategy idle;
    private final DatagramBaseline datagram;
    private final long[] received = new long[1];
    private long sequence;

    /**
     * Rank {@code rank}'s side, with its datagram channel ({@code datagram}, null for the hand-over); the datagram
     * baseline needs {@link #connect()} once both ranks have opened theirs.
     */
    PingPongBaseline(Pair pair, int rank, IdleStrategy idle, DatagramBaseline datagram) {
        this.pair = pair;
        this.rank = rank;
        this.peerRank = 1 - rank;
        this.idle = idle;
        this.datagram = datagram;
        pair.datagrams[rank] = datagram;
    }

    /** Points this rank's datagram channel at the peer's (nothing for the hand-over). */
    void connect() {
        if (datagram != null) {
            datagram.peer(pair.datagrams[peerRank].address());
        }
    }

    /*
     * As in PingPong, the timed work of one round trip is in small methods of its own, which the JIT compiles
     * after a few thousand calls.
     */

    /** {@code warmup + iterations} round trips of {@code size} bytes; rank 0 records the measured ones. */
    void roundTrips(int size, int warmup, int iterations, Histogram histogram) {
        if (datagram != null) {
            datagramRoundTrips(size, warmup, iterations, histogram);
            return;
        }
        MemorySegment from = pair.send[rank];
        MemorySegment to = pair.recv[peerRank];
        Flag mine = pair.flags[rank];
        Flag theirs = pair.flags[peerRank];
        Thread peerThread = pair.threads[peerRank];
        int total = warmup + iterations;
        for (int i = 0; i < total; i++) {
            long seq = ++sequence;
            if (rank == 0) {
                long nanos = handOverRoundTrip(from, to, size, mine, theirs, peerThread, seq);
                if (i >= warmup && histogram != null) {
                    histogram.recordValue(nanos);
                }
            } else {
                handOverEcho(from, to, size, mine, theirs, peerThread, seq);
            }
        }
    }

    /** The raw datagram ping-pong; sizes above one datagram have no baseline (nothing is recorded). */
    private void datagramRoundTrips(int size, int warmup, int iterations, Histogram histogram) {
        if (size > datagram.datagramSize()) {
            return;
        }
        int total = warmup + iterations;
        for (int i = 0; i < total; i++) {
            if (rank == 0) {
                long nanos = datagramRoundTrip(size);
                if (i >= warmup && histogram != null) {
                    histogram.recordValue(nanos);
                }
            } else {
                datagramEcho(size);
            }
        }
    }

    private long datagramRoundTrip(int size) {
        long t0 = System.nanoTime();
        datagram.send(size);
        datagram.receive(pair.failed);
        return System.nanoTime() - t0;
    }

    private void datagramEcho(int size) {
        datagram.receive(pair.failed);
        datagram.send(size);
    }

    /** Rank 0: copy into the peer's buffer, signal, wait for the copy back; returns nanoseconds. */
    private long handOverRoundTrip(MemorySegment from, MemorySegment to, int size, Flag mine, Flag theirs,
                                   Thread peerThread, long seq) {
        long t0 = System.nanoTime();
        MemorySegment.copy(from, 0L, to, 0L, size);
        theirs.value = seq;
        LockSupport.unpark(peerThread);
        awaitFlag(mine, seq);
        return System.nanoTime() - t0;
    }

    /** Rank 1: wait for the hand-over, copy back, signal. */
    private void handOverEcho(MemorySegment from, MemorySegment to, int size, Flag mine, Flag theirs,
                              Thread peerThread, long seq) {
        awaitFlag(mine, seq);
        MemorySegment.copy(from, 0L, to, 0L, size);
        theirs.value = seq;
        LockSupport.unpark(peerThread);
    }

    /** Waits as PtlEQWait does: reset the strategy, then idle until the condition holds. */
    private void awaitFlag(Flag flag, long seq) {
        IdleStrategy s = idle;
        s.reset();
        while (flag.value != seq) {
            s.idle(0);
            if (pair.failed.getAsBoolean()) {
                throw new IllegalStateException("rank " + peerRank + " failed");
            }
        }
    }

    /**
     * Rank 0's baseline window of {@code window} x {@code size} bytes: as many {@code MemorySegment.copy}s, or a raw
     * blast of the same bytes and the receiver's "done".
     */
    void window(int window, int size) {
        if (datagram != null) {
            datagram.sendBlast((long) window * size);
            datagram.receive(pair.failed);
            return;
        }
        MemorySegment from = pair.send[0];
        MemorySegment to = pair.recv[1];
        for (int k = 0; k < window; k++) {
            MemorySegment.copy(from, 0L, to, 0L, size);
        }
    }

    /**
     * Rank 1's side of a baseline window: receives the blast and says "done", keeping the rate where {@code
     * measured} (nothing for the hand-over, which rank 0 does alone).
     */
    void receiveWindow(int window, int size, boolean measured) {
        if (datagram == null) {
            return;
        }
        long nanos = datagram.receiveBlast((long) window * size, received, pair.failed);
        datagram.send(1);
        if (measured) {
            synchronized (pair.blastRates) {
                pair.blastRates.add((double) received[0] / nanos);
            }
        }
    }

    /**
     * Rank 0, once rank 1 has received every window: the baseline's rate in GB/s, from rank 0's timing of windows of
     * {@code bytes} ({@code windows}) or, for the blast, the median of the receiver's.
     */
    double rate(double bytes, Histogram windows) {
        return datagram != null ? PingPong.median(pair.blastRates) : bytes / windows.getValueAtPercentile(50);
    }

    @Override
    public void close() {
        if (datagram != null) {
            datagram.close();
        }
    }
}
