package org.portals3j.bench;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;

/**
 * The CPU cost of {@link PingPong}'s round trip without a second thread: one thread does, on inmem, what
 * both ranks of the ping-pong do (put from rank 0, PtlEQWait for PUT_START and PUT_END at rank 1, put
 * back, PtlEQWait twice at rank 0). On inmem a put is delivered inline, so every event is there before
 * its PtlEQWait and nothing ever waits: what is timed is the instructions of the path, with every cache
 * line warm in one core. The baseline does the same with {@link PingPong}'s hand-over (copy into the
 * peer's buffer, volatile store), both directions in one thread.
 *
 * <p>The gap between this and {@link PingPong}'s half round trip is what two threads add: cache lines
 * moving between cores, the wake-up, and waiting for a lock the other thread holds. Run with JFR
 * ({@code -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=...}) to see
 * where the instructions go.
 *
 * <p>Each batch is also timed by the thread's CPU time, whose lower decile over the batches leaves out the time
 * the thread waited for a core: on a loaded machine that figure still compares two builds, the median of the
 * wall-clock times does not.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.portals3j.bench.CpuRoundTrip [--size N] [--seconds S]</pre>
 */
public final class CpuRoundTrip {
    static final int PORTAL = 4;
    static final long BITS = PingPong.MATCH_BITS;
    private static final int BATCH = 100_000;

    private CpuRoundTrip() {
    }

    /**
     * Half round trips in nanoseconds, for Portals and the baseline: the median of the batches' wall-clock times,
     * and the lower decile of their thread CPU times (NaN where the JVM cannot measure a thread's CPU time).
     */
    public record Result(int size, double portalsNanos, double baselineNanos, int batches, double portalsCpuNanos,
                         double baselineCpuNanos) {
        public double ratio() {
            return portalsNanos / baselineNanos;
        }
    }

    public static void main(String[] args) throws Exception {
        int size = 8;
        double seconds = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                default -> {
                    System.err.println("usage: CpuRoundTrip [--size N] [--seconds S]");
                    System.exit(2);
                }
            }
        }
        print(measure(size, seconds), System.out);
    }

    static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "CPU half round trip, %d B, one thread, median of %d batches of %d: Portals %.1f ns,"
                + " baseline %.1f ns, ratio %.2f; thread CPU time, lower decile: Portals %.1f ns, baseline %.1f ns%n",
                r.size(), r.batches(), BATCH, r.portalsNanos(), r.baselineNanos(), r.ratio(), r.portalsCpuNanos(),
                r.baselineCpuNanos());
    }

    /** Alternates batches of Portals and baseline round trips for about {@code seconds}. */
    public static Result measure(int size, double seconds) throws Exception {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive, not " + size);
        }
        try (Arena arena = Arena.ofShared(); TwoRanks ranks = TwoRanks.open("inmem")) {
            Portals[] p = {ranks.portals(0), ranks.portals(1)};
            EqHandle[] eq = new EqHandle[2];
            MdHandle[] send = new MdHandle[2];
            ProcessId[] peer = {ranks.id(1), ranks.id(0)};
            for (int r = 0; r < 2; r++) {
                eq[r] = p[r].eqAlloc(ranks.ni(r), 1024);
                ranks.appendReceive(r, PORTAL, BITS, arena.allocate(size, 64), eq[r]);
                send[r] = p[r].mdBind(ranks.ni(r), MemoryDescriptor.of(arena.allocate(size, 64)));
            }
            Event event = new Event();
            MemorySegment[] from = {arena.allocate(size, 64), arena.allocate(size, 64)};
            MemorySegment[] to = {arena.allocate(size, 64), arena.allocate(size, 64)};
            PingPongBaseline.Flag[] flags = {new PingPongBaseline.Flag(), new PingPongBaseline.Flag()};
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            double[] portals = new double[1024];
            double[] baseline = new double[1024];
            double[] portalsCpu = new double[1024];
            double[] baselineCpu = new double[1024];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            boolean cpu = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
            int n = 0;
            int warm = 5;
            do {
                long c0 = cpu ? threads.getCurrentThreadCpuTime() : 0L;
                long t0 = System.nanoTime();
                portalsBatch(p, eq, send, peer, event, size);
                long t1 = System.nanoTime();
                long c1 = cpu ? threads.getCurrentThreadCpuTime() : 0L;
                baselineBatch(from, to, flags, size);
                long t2 = System.nanoTime();
                long c2 = cpu ? threads.getCurrentThreadCpuTime() : 0L;
                if (warm > 0) {
                    warm--;
                } else if (n < portals.length) {
                    portals[n] = (t1 - t0) / (2.0 * BATCH);
                    baseline[n] = (t2 - t1) / (2.0 * BATCH);
                    portalsCpu[n] = (c1 - c0) / (2.0 * BATCH);
                    baselineCpu[n] = (c2 - c1) / (2.0 * BATCH);
                    n++;
                }
            } while (System.nanoTime() < deadline || n < 3);
            return new Result(size, median(portals, n), median(baseline, n), n,
                    cpu ? decile(portalsCpu, n) : Double.NaN, cpu ? decile(baselineCpu, n) : Double.NaN);
        }
    }

    private static void portalsBatch(Portals[] p, EqHandle[] eq, MdHandle[] send, ProcessId[] peer, Event event,
                                     int size) {
        for (int i = 0; i < BATCH; i++) {
            p[0].put(send[0], AckRequest.NOACK_REQ, peer[0], PORTAL, 0, BITS, 0L, 0L);
            Events.waitPutEnd(p[1], eq[1], event, size);
            p[1].put(send[1], AckRequest.NOACK_REQ, peer[1], PORTAL, 0, BITS, 0L, 0L);
            Events.waitPutEnd(p[0], eq[0], event, size);
        }
    }

    private static void baselineBatch(MemorySegment[] from, MemorySegment[] to, PingPongBaseline.Flag[] flags,
                                      int size) {
        for (int i = 0; i < BATCH; i++) {
            MemorySegment.copy(from[0], 0L, to[1], 0L, size);
            flags[1].value = i;
            MemorySegment.copy(from[1], 0L, to[0], 0L, size);
            flags[0].value = i;
        }
    }

    private static double median(double[] values, int n) {
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return sorted[n / 2];
    }

    private static double decile(double[] values, int n) {
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return sorted[n / 10];
    }
}
