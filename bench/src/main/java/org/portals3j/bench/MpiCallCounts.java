package org.portals3j.bench;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import mpi.MPI;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What one round trip of the MPI layer's blocking ping-pong does, counted rather than timed: the calls into the
 * public Portals API, the lock acquisitions, the events the layer handles and the park/unpark hand-overs, from
 * JFR's method timing ({@code jdk.MethodTiming}, exact invocation counts) over the round trips after a warm-up; then
 * the same counts for {@link RawPutLatency}'s Put ping-pong on the same transport. See bench/README.md, the MPI
 * section.
 *
 * <p>Usage: {@code MpiCallCounts [--transport inmem|udp] [--size BYTES] [--iterations N] [--warmup N]}
 */
public final class MpiCallCounts {
    /** The methods counted (JFR method filters: a class counts all its methods). */
    static final String FILTER = String.join(";",
            "org.portals3j.portals.PortalsLibrary",
            "org.portals3j.portals.Portals",
            "java.util.concurrent.locks.ReentrantLock::lock",
            "java.util.concurrent.locks.ReentrantLock::tryLock",
            "org.portals3j.transport.internal.SpinLock::lock",
            "org.portals3j.transport.internal.SpinLock::tryLock",
            "java.util.concurrent.locks.LockSupport::park",
            "java.util.concurrent.locks.LockSupport::parkNanos",
            "java.util.concurrent.locks.LockSupport::unpark",
            "org.portals3j.mpi.internal.PointToPoint::handle");

    private MpiCallCounts() {
    }

    public static void main(String[] args) throws Exception {
        MpiPingPongArgs a = MpiPingPongArgs.parse("MpiCallCounts", args);
        if (a == null) {
            return;
        }
        int iterations = a.iterations;
        Map<String, Long> counts = measure(a.transport, a.size, iterations, a.warmup);
        System.out.println(a.title() + ": calls per round trip, both ranks (and every other thread of the JVM)");
        print(counts, iterations);
        Map<String, Long> raw = rawPut(a.transport, a.size, iterations, a.warmup);
        System.out.println("# raw Portals Put ping-pong (RawPutLatency), same transport and size, warm-up included");
        print(raw, iterations + a.warmup);
    }

    private static void print(Map<String, Long> counts, int roundTrips) {
        long portals = 0;
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            System.out.printf(Locale.ROOT, "%10.2f  %s%n", (double) e.getValue() / roundTrips, e.getKey());
            if (e.getKey().startsWith("org.portals3j.portals.")) {
                portals += e.getValue();
            }
        }
        System.out.printf(Locale.ROOT, "%10.2f  (every Portals API call)%n", (double) portals / roundTrips);
    }

    /**
     * Invocations of each method of {@link #FILTER} over {@link RawPutLatency}'s whole run ({@code warmup} and
     * {@code iterations} round trips, with its set-up: a few dozen calls).
     */
    static Map<String, Long> rawPut(String transport, int size, int iterations, int warmup) throws Exception {
        Path file = Files.createTempFile("raw-put-call-counts", ".jfr");
        try {
            try (Recording r = new Recording()) {
                r.enable("jdk.MethodTiming").with("filter", FILTER).with("period", "endChunk");
                r.start();
                RawPutLatency.measure(transport, size, iterations, warmup);
                r.stop();
                r.dump(file);
            }
            return invocations(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Invocations of each method of {@link #FILTER} called at least once over {@code iterations} round trips of
     * {@code size} bytes between two rank threads (with the barriers that bound them), after {@code warmup} untimed.
     */
    static Map<String, Long> measure(String transport, int size, int iterations, int warmup) throws Exception {
        AtomicReference<@Nullable Recording> recording = new AtomicReference<>();
        Path file = Files.createTempFile("mpi-call-counts", ".jfr");
        try {
            MpiRanks.run(transport, 2, rank -> {
                MPI.Init(new String[0]);
                ByteBuffer buf = MPI.newByteBuffer(Math.max(1, size));
                pingPong(rank, buf, size, warmup);
                MPI.COMM_WORLD.barrier();
                if (rank == 0) {
                    Recording r = new Recording();
                    r.enable("jdk.MethodTiming").with("filter", FILTER).with("period", "endChunk");
                    r.start();
                    recording.set(r);
                }
                MPI.COMM_WORLD.barrier();
                pingPong(rank, buf, size, iterations);
                MPI.COMM_WORLD.barrier();
                if (rank == 0) {
                    Recording r = recording.get();
                    if (r == null) {
                        throw new IllegalStateException("rank 0 started no recording");
                    }
                    r.stop();
                    r.dump(file);
                    r.close();
                }
                MPI.Finalize();
                return new double[0];
            });
            return invocations(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void pingPong(int rank, ByteBuffer buf, int size, int rounds) throws Exception {
        for (int i = 0; i < rounds; i++) {
            MpiPingPongArgs.roundTrip(rank, buf, size);
        }
    }

    /** The invocations per method recorded in {@code file}, methods never called left out. */
    static Map<String, Long> invocations(Path file) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        List<RecordedEvent> events = new ArrayList<>(RecordingFile.readAllEvents(file));
        for (RecordedEvent e : events) {
            if (!e.getEventType().getName().equals("jdk.MethodTiming")) {
                continue;
            }
            long n = e.getLong("invocations");
            @Nullable RecordedMethod m = e.getValue("method");
            if (m != null && n > 0 && !m.getName().equals("required")) {
                out.merge(m.getType().getName() + "." + m.getName() + m.getDescriptor(), n, Long::sum);
            }
        }
        return out;
    }
}
