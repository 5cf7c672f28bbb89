package org.portals3j.bench;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;

/**
 * What it costs two cores to hand data to each other, by cache lines: the floor under {@link PingPong}'s
 * in-memory figures. Two threads ping-pong exactly as {@link PingPong}'s baseline does (copy 8 bytes into the
 * peer's buffer, store the sequence number in a volatile {@code long} alone on its line, unpark the peer; wait
 * for the flag with the backoff idle strategy), in three ways, alternating in rounds:
 *
 * <ul>
 * <li>{@link Mode#FLAG}: that and nothing else: {@link PingPong}'s baseline. Only the flag's line crosses
 *     between the cores; the peer never reads the buffer it is given, so that line stays with the writer.</li>
 * <li>{@link Mode#FLAG_AND_LINE}: before the flag the sender also writes 64 bytes on a line of their own, which
 *     the receiver reads after the flag: one line of data that must cross.</li>
 * <li>{@link Mode#FLAG_AND_HEADER}: the same with a Portals message header ({@value MessageHeader#LENGTH} bytes, two
 *     lines): the least a receiver that matches a put itself must be told.</li>
 * </ul>
 *
 * <p>It then times the instructions of a Portals put and its two events on one core ({@link CpuRoundTrip}) and
 * adds them to the flag: with this engine's instructions no delivery design can do better than that sum, since
 * the receiving thread must learn of the put (at least the hand-off of one line) and the put's instructions
 * run between the hand-offs. The in-memory goal is at most 1.5x {@link PingPong}'s baseline; the line this prints
 * says whether that floor lies above it.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.portals3j.bench.HandOffFloor [--rounds N] [--iterations N]</pre>
 */
public final class HandOffFloor {
    /** What crosses between the two threads on every half round trip. */
    public enum Mode {
        FLAG(0), FLAG_AND_LINE(64), FLAG_AND_HEADER(MessageHeader.LENGTH);

        final int dataBytes;

        Mode(int dataBytes) {
            this.dataBytes = dataBytes;
        }
    }

    /**
     * Half round trips in nanoseconds (the median over all rounds) per mode, and the CPU cost of a Portals put
     * with its two events ({@link CpuRoundTrip}, one thread).
     */
    public record Result(Map<Mode, Double> halfRoundTrip, double portalsInstructions, int rounds, int iterations) {
        /** A mode's half round trip over the flag's. */
        public double ratio(Mode m) {
            return halfRoundTrip.get(m) / halfRoundTrip.get(Mode.FLAG);
        }

        /** The flag plus the instructions, over the flag: the least a Portals ping-pong can cost against it. */
        public double floorRatio() {
            return (halfRoundTrip.get(Mode.FLAG) + portalsInstructions) / halfRoundTrip.get(Mode.FLAG);
        }
    }

    private HandOffFloor() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 8;
        int iterations = 50_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: HandOffFloor [--rounds N] [--iterations N]");
                    System.exit(2);
                }
            }
        }
        print(measure(rounds, iterations, 2.0), System.out);
    }

    static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "Hand-off between two threads, half round trip p50 over %d rounds of %d:%n", r.rounds(),
                r.iterations());
        for (Mode m : Mode.values()) {
            out.printf(Locale.ROOT, "  %-16s %3d B of data  %7.1f ns  %5.2fx%n", m, m.dataBytes,
                    r.halfRoundTrip().get(m), r.ratio(m));
        }
        out.printf(Locale.ROOT, "Portals put + 2 events on one core (CpuRoundTrip): %.1f ns; flag + that: "
                + "%.1f ns = %.2fx"
                + " the flag%n", r.portalsInstructions(), r.halfRoundTrip().get(Mode.FLAG) + r.portalsInstructions(),
                r.floorRatio());
    }

    /**
     * Alternates the modes in {@code rounds} rounds of {@code iterations} round trips, then times the Portals
     * instructions for {@code cpuSeconds}.
     */
    public static Result measure(int rounds, int iterations, double cpuSeconds) throws Exception {
        if (rounds < 1 || iterations < 1) {
            throw new IllegalArgumentException("rounds and iterations must be positive, not " + rounds + " and "
                    + iterations);
        }
        Map<Mode, long[]> samples = new EnumMap<>(Mode.class);
        for (Mode m : Mode.values()) {
            samples.put(m, new long[rounds * iterations]);
        }
        try (Arena arena = Arena.ofShared()) {
            Side[] sides = {new Side(arena), new Side(arena)};
            for (int round = 0; round < rounds; round++) {
                for (Mode m : Mode.values()) {
                    pingPong(sides, m, iterations / 10 + 1, null, 0); // re-settle after the other modes
                    pingPong(sides, m, iterations, samples.get(m), round * iterations);
                }
            }
        }
        Map<Mode, Double> half = new EnumMap<>(Mode.class);
        for (Mode m : Mode.values()) {
            long[] s = samples.get(m);
            Arrays.sort(s);
            half.put(m, s[s.length / 2] / 2.0);
        }
        double instructions = CpuRoundTrip.measure(8, cpuSeconds).portalsNanos();
        return new Result(half, instructions, rounds, iterations);
    }

    /** One direction's mailbox: the baseline's buffer, data on lines of their own, then the flag. */
    private static final class Side {
        final PingPongBaseline.Flag flag = new PingPongBaseline.Flag();
        final MemorySegment buffer;
        final MemorySegment data;
        final MemorySegment eight;
        final IdleStrategy idle = IdleMode.BACKOFF.newStrategy();
        volatile Thread receiver = Thread.currentThread();
        final byte[] source = new byte[MessageHeader.LENGTH];
        final byte[] sink = new byte[MessageHeader.LENGTH];

        Side(Arena arena) {
            data = arena.allocate(128, 128);
            buffer = arena.allocate(64, 64);
            eight = arena.allocate(64, 64);
        }
    }

    /** {@code n} round trips in mode {@code m}; the caller's thread records them into {@code into} if given. */
    private static void pingPong(Side[] sides, Mode m, int n, long[] into, int at) throws InterruptedException {
        Side toPeer = sides[1];
        Side toMe = sides[0];
        long base = toMe.flag.value;
        Throwable[] failed = new Throwable[1];
        toMe.receiver = Thread.currentThread();
        Thread peer = new Thread(() -> {
            try {
                for (int i = 1; i <= n; i++) {
                    receive(toPeer, m, base + i);
                    send(toMe, m, base + i);
                }
            } catch (RuntimeException | Error e) {
                failed[0] = e;
            }
        }, "hand-off-peer");
        toPeer.receiver = peer;
        peer.start();
        try {
            for (int i = 1; i <= n; i++) {
                long t0 = System.nanoTime();
                send(toPeer, m, base + i);
                receive(toMe, m, base + i);
                if (into != null) {
                    into[at + i - 1] = System.nanoTime() - t0;
                }
            }
        } finally {
            peer.join();
        }
        if (failed[0] != null) {
            throw new IllegalStateException("the peer thread failed", failed[0]);
        }
    }

    private static void send(Side s, Mode m, long seq) {
        if (m.dataBytes > 0) {
            s.source[0] = (byte) seq; // the receiver checks it: the data of this very hand-off crossed
            MemorySegment.copy(s.source, 0, s.data, ValueLayout.JAVA_BYTE, 0, m.dataBytes);
        }
        MemorySegment.copy(s.eight, 0L, s.buffer, 0L, 8); // the baseline's copy, into a buffer nobody reads
        s.flag.value = seq;
        LockSupport.unpark(s.receiver);
    }

    private static void receive(Side s, Mode m, long seq) {
        IdleStrategy idle = s.idle;
        idle.reset();
        while (s.flag.value != seq) {
            idle.idle(0);
        }
        if (m.dataBytes > 0) {
            MemorySegment.copy(s.data, ValueLayout.JAVA_BYTE, 0, s.sink, 0, m.dataBytes);
            if (s.sink[0] != (byte) seq) {
                throw new IllegalStateException("hand-off " + seq + " read stale data");
            }
        }
    }
}
