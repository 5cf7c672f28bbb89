package org.portals3j.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.StatusRegister;

/**
 * How long PtlEQAlloc of a large queue takes, and how long it stalls the rest of the process: one
 * thread allocates and frees queues of 2^16 to 2^24 events on rank 0 of an inmem job while a second
 * thread calls PtlNIStatus on the same library in a loop and records its longest call (each call takes
 * the library's lock, as every Portals call and every delivery does). The longest call in a window of
 * the same length without allocations is the noise floor of the same run. Baseline, in the same run:
 * building the events of a queue one object per slot under the lock (the eager design the engine does not use).
 *
 * <pre>java -Xmx6g -cp bench/target/benchmarks.jar org.portals3j.bench.EqAllocStall [--max-log2 N] [--reps N]</pre>
 */
public final class EqAllocStall {
    /** The least time each size is allocated for, so that the other thread gets to run meanwhile. */
    private static final long WINDOW_NANOS = 200_000_000L;

    private EqAllocStall() {
    }

    /**
     * One queue size: the first PtlEQAlloc + PtlEQFree time (the queue's slot new to that size), the
     * median over {@code allocations}, the longest other
     * call and the calls made meanwhile and in a quiet window of the same length, and the baseline's
     * time (0 when it was not measured).
     */
    public record Result(int log2Events, int allocations, double firstMillis, double allocMillis,
                         double longestCallMillis,
                         long callsDuring, double quietLongestMillis, long callsQuiet, double baselineMillis) {
    }

    public static void main(String[] args) throws Exception {
        int maxLog2 = 24;
        int reps = 3;
        boolean baseline = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--max-log2" -> maxLog2 = Integer.parseInt(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--no-baseline" -> baseline = false;
                default -> {
                    System.err.println("usage: EqAllocStall [--max-log2 N] [--reps N] [--no-baseline]");
                    System.exit(2);
                }
            }
        }
        List<Result> results = measure(16, maxLog2, reps, baseline);
        print(results, System.out);
    }

    static void print(List<Result> results, PrintStream out) {
        out.println("events  allocs  PtlEQAlloc+Free first, p50  | other thread's PtlNIStatus: longest (calls)"
                + " during, quiet | baseline: one object per slot");
        for (Result r : results) {
            out.printf(Locale.ROOT, "2^%-5d %6d %10.3f ms %10.3f ms  | %10.3f ms (%d) %10.3f ms (%d) | %s%n",
                    r.log2Events(), r.allocations(), r.firstMillis(), r.allocMillis(), r.longestCallMillis(),
                    r.callsDuring(), r.quietLongestMillis(),
                    r.callsQuiet(),
                    r.baselineMillis() > 0 ? String.format(Locale.ROOT, "%.1f ms", r.baselineMillis()) : "-");
        }
    }

    /** Sizes 2^{@code fromLog2} to 2^{@code toLog2}, every second power, {@code reps} allocations each. */
    public static List<Result> measure(int fromLog2, int toLog2, int reps, boolean baseline) throws Exception {
        if (fromLog2 < 1 || toLog2 > 24 || fromLog2 > toLog2 || reps < 1) {
            throw new IllegalArgumentException("sizes 2^" + fromLog2 + "..2^" + toLog2 + " (1..24), " + reps + " reps");
        }
        List<Result> results = new ArrayList<>();
        try (TwoRanks ranks = TwoRanks.open("inmem")) {
            Portals p = ranks.portals(0);
            NiHandle ni = ranks.ni(0);
            for (int log2 = fromLog2; log2 <= toLog2; log2 += 2) {
                int events = 1 << log2;
                Caller caller = new Caller(p, ni);
                caller.start();
                // at least reps allocations, and for at least WINDOW_NANOS, so the caller gets to run
                double[] times = new double[1024];
                int n = 0;
                long windowStart = System.nanoTime();
                caller.takeLongest();
                while (n < reps || (System.nanoTime() - windowStart < WINDOW_NANOS && n < times.length)) {
                    long t0 = System.nanoTime();
                    EqHandle eq = p.eqAlloc(ni, events);
                    p.eqFree(eq);
                    times[n++] = (System.nanoTime() - t0) / 1e6;
                }
                long window = System.nanoTime() - windowStart;
                caller.awaitACall(); // a call blocked by the allocations counts for them
                double during = caller.takeLongest();
                long callsDuring = caller.takeCalls();
                sleepNanos(window); // the same length with nothing allocated
                double quiet = caller.takeLongest();
                long callsQuiet = caller.takeCalls();
                caller.stop();
                double base = baseline ? oneObjectPerSlot(events) : 0;
                double first = times[0];
                Arrays.sort(times, 0, n);
                results.add(new Result(log2, n, first, times[n / 2], during, callsDuring, quiet, callsQuiet, base));
            }
        }
        return results;
    }

    /** What PtlEQAlloc did before: an array of {@code events} events, each a new object (milliseconds). */
    private static double oneObjectPerSlot(int events) {
        long t0 = System.nanoTime();
        Event[] ring = new Event[events];
        for (int i = 0; i < events; i++) {
            ring[i] = new Event();
        }
        double millis = (System.nanoTime() - t0) / 1e6;
        if (ring[events - 1] == null) {
            throw new AssertionError("unreachable: keeps the ring alive until here");
        }
        return millis;
    }

    private static void sleepNanos(long nanos) throws InterruptedException {
        Thread.sleep(Math.max(1, nanos / 1_000_000), (int) (nanos % 1_000_000));
    }

    /** A thread calling PtlNIStatus in a loop, recording its longest call. */
    private static final class Caller {
        private final Portals p;
        private final NiHandle ni;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private volatile long longest;
        private volatile long calls;
        private final Thread thread;

        Caller(Portals p, NiHandle ni) {
            this.p = p;
            this.ni = ni;
            this.thread = Thread.ofPlatform().name("eq-alloc-stall-caller").unstarted(this::run);
        }

        void start() {
            thread.start();
        }

        private void run() {
            while (running.get()) {
                long t0 = System.nanoTime();
                p.niStatus(ni, StatusRegister.DROP_COUNT);
                long took = System.nanoTime() - t0;
                if (took > longest) {
                    longest = took;
                }
                calls++; // this thread alone writes it
                Thread.onSpinWait();
            }
        }

        /** The longest call since the last take, in milliseconds, and starts again. */
        double takeLongest() {
            long l = longest;
            longest = 0;
            return l / 1e6;
        }

        /** Waits (up to a minute) until the caller completes one more call. */
        void awaitACall() throws InterruptedException {
            long before = calls;
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (calls == before && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
        }

        /** The calls made since the last take, and starts again. */
        long takeCalls() {
            long c = calls;
            calls = 0;
            return c;
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }
}
