package org.portals3j.bench;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * The Isotach layer's speed, measured against its own noniso path in the same run on the same transport — the
 * comparison the report made (Isotach report §10, pp. 83-88: Isotach latency within 2x and throughput at least half of
 * noniso; the issue asks for 1.5x and 0.7x), plus the pulse rate, how logical distance and token window move latency,
 * and what the stamp-batching period trades between latency and throughput.
 *
 * <ul>
 * <li><b>Latency</b>: two hosts, each driven by its own thread, ping-pong one message of each size; noniso
 *     ({@code send}/{@code receive}) and Isotach ({@code iso_send} as a singleton isochron/{@code iso_receive})
 *     rounds alternate, {@value #ROUNDS} rounds each after {@link #WARM_UP_NANOS} of uncounted rounds, and the
 *     median half round trip of each kind is compared.</li>
 * <li><b>Throughput</b>: host 0 streams {@code count} messages to host 1, which receives (and copies) them;
 *     messages per second from the first send to the last receipt, alternating noniso and Isotach windows
 *     after {@link #WARM_UP_NANOS} of uncounted windows.</li>
 * <li><b>Pulse rate</b>: 2, 4 and 8 hosts polled round-robin by one thread with {@code idleTickMicros = 0}
 *     (time advances as fast as the token window allows); logical-time ticks per second.</li>
 * <li><b>Distance and window</b>: Isotach 64-byte latency for logical distance 1, 2, 4 and token window 1, 2, 4,
 * 8.</li>
 * <li><b>Stamp batching</b>: 256-byte latency and throughput (with their ratios to noniso) for batching periods
 *     0, 2, 5, 8, 12 and 16 us: what a streaming host gains and from where a ping-pong starts to pay. The tables above
 *     use the default period ({@link IsotachConfig#DEFAULT_STAMP_BATCH_NANOS}).</li>
 * </ul>
 */
public final class IsotachBench {
    static final int ROUNDS = 5;
    /**
     * How long each job runs both kinds uncounted first (a new job's engines start cold; the JIT: {@link #warmUpJit}).
     */
    static final long WARM_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    static final int[] SIZES = {64, 128, 256, 512, 1024};

    private IsotachBench() {
    }

    /** Figures of one size. */
    public record Pair(int size, double noniso, double isotach) {
        public double ratio() {
            return isotach / noniso;
        }
    }

    public static void main(String[] args) throws Exception {
        String transport = "inmem";
        int iterations = 2000;
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--transport" -> transport = args[++i];
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--quick" -> quick = true;
                case "--help", "-h" -> {
                    System.out.println("usage: IsotachBench [--transport inmem|udp] [--iterations N] [--quick]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (try --help)");
            }
        }
        if (quick) {
            iterations = 100;
        }
        run(transport, iterations, quick, System.out);
    }

    static void run(String transport, int iterations, boolean quick, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "Isotach MBM vs noniso MBM on %s, %d iterations, median of %d alternating rounds%n",
                transport, iterations, ROUNDS);
        out.println("  size  noniso half-RTT  isotach half-RTT  ratio   noniso msg/s  isotach msg/s  ratio");
        int[] sizes = quick ? new int[] {64, 1024} : SIZES;
        IsotachConfig busy = IsotachConfig.builder().build();
        warmUpJit(transport, busy, sizes[0], iterations);
        for (int size : sizes) {
            Pair lat = latency(transport, busy, size, iterations);
            Pair thr = throughput(transport, busy, size, iterations * 5);
            out.printf(Locale.ROOT, "  %4d  %12.2f us  %13.2f us  %5.2fx  %13.0f  %13.0f  %5.2fx%n", size,
                    lat.noniso() / 1e3, lat.isotach() / 1e3, lat.ratio(), thr.noniso(), thr.isotach(), thr.ratio());
        }
        out.println();
        out.println("Pulse rate (idle tick 0: time advances as fast as the token window allows)");
        for (int hosts : quick ? new int[] {2} : new int[] {2, 4, 8}) {
            out.printf(Locale.ROOT, "  %d hosts: %,.0f pulses/s%n", hosts,
                    pulseRate(transport, hosts, quick ? 200 : 1000));
        }
        out.println();
        out.println("Isotach 64 B half round trip by logical distance and token window");
        out.print("  distance \\ window");
        int[] windows = quick ? new int[] {1, 4} : new int[] {1, 2, 4, 8};
        for (int w : windows) {
            out.printf(Locale.ROOT, "  %7d", w);
        }
        out.println();
        for (int d : quick ? new int[] {1, 2} : new int[] {1, 2, 4}) {
            out.printf(Locale.ROOT, "  %18d", d);
            for (int w : windows) {
                IsotachConfig c = IsotachConfig.builder().distance(d).tokenWindow(w).build();
                out.printf(Locale.ROOT, "  %5.1fus", isoLatency(transport, c, 64, Math.max(50, iterations / 4)) / 1e3);
            }
            out.println();
        }
        out.println();
        out.printf(Locale.ROOT, "Stamp batching (IsotachConfig.stampBatchNanos, %.1f us by default): 256 B, ratios to"
                + " noniso in the same round%n", IsotachConfig.DEFAULT_STAMP_BATCH_NANOS / 1e3);
        out.println("  period   half-RTT ratio   msg/s ratio");
        for (long period : quick ? new long[] {0, 5000} : new long[] {0, 2000, 5000, 8000, 12000, 16000}) {
            IsotachConfig c = IsotachConfig.builder().stampBatchNanos(period).build();
            Pair lat = latency(transport, c, 256, iterations);
            Pair thr = throughput(transport, c, 256, iterations * 5);
            out.printf(Locale.ROOT, "  %4.1f us   %6.2f us %5.2fx   %7.0f %5.2fx%n", period / 1e3, lat.isotach() / 1e3,
                    lat.ratio(), thr.isotach(), thr.ratio());
        }
    }

    /**
     * Runs throwaway jobs until the JIT has stopped compiling (its total compilation time did not grow over one job),
     * at most {@link #JIT_WARM_UP_LIMIT_NANOS}. The first job of a JVM measured 64 B at 12.7 us per noniso half round
     * trip against 1.1 us in every later job, and not with C2 off: on 2 cores its compiler threads take one.
     */
    private static void warmUpJit(String transport, IsotachConfig config, int size, int iterations) throws Exception {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            latency(transport, config, size, iterations);
            return;
        }
        long end = System.nanoTime() + JIT_WARM_UP_LIMIT_NANOS;
        long compiled = -1;
        while (jit.getTotalCompilationTime() != compiled && System.nanoTime() < end) {
            compiled = jit.getTotalCompilationTime();
            latency(transport, config, size, iterations);
            throughput(transport, config, size, iterations * 5);
        }
    }

    static final long JIT_WARM_UP_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private static double median(double[] values) {
        List<Double> list = new ArrayList<>();
        for (double v : values) {
            list.add(v);
        }
        return PingPong.median(list);
    }

    // ---- jobs -------------------------------------------------------------------------------------------------

    /** A job of {@code hosts} opened layers (MBM and noniso) on {@code transport}. */
    static final class Hosts implements AutoCloseable {
        final List<Transport> endpoints;
        final List<IsotachNet> nets = new ArrayList<>();
        final ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "isotach-bench");
            t.setDaemon(true);
            return t;
        });

        Hosts(String transport, IsotachConfig config, int hosts) throws Exception {
            endpoints = LocalJob.openAll(Transports.require(transport), Job.local(hosts), IdleMode.BACKOFF, Map.of());
            for (Transport t : endpoints) {
                nets.add(IsotachNet.create(t, config));
            }
            List<Future<Integer>> opening = new ArrayList<>();
            for (IsotachNet n : nets) {
                opening.add(threads.submit(() -> n.openNet(EnumSet.of(Interface.NONISO, Interface.ISO_MBM),
                        Duration.ofSeconds(30))));
            }
            for (Future<Integer> f : opening) {
                if (f.get() != IsotachNet.SUCCESS) {
                    throw new IllegalStateException("open_net failed");
                }
            }
        }

        @Override
        public void close() {
            nets.forEach(IsotachNet::close);
            endpoints.forEach(Transport::close);
            threads.shutdownNow();
        }
    }

    // ---- latency ------------------------------------------------------------------------------------------------

    static Pair latency(String transport, IsotachConfig config, int size, int iterations) throws Exception {
        try (Hosts h = new Hosts(transport, config, 2)) {
            Histogram noniso = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            Histogram iso = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            double[] nonisoMedians = new double[ROUNDS];
            double[] isoMedians = new double[ROUNDS];
            long warm = System.nanoTime() + WARM_UP_NANOS; // not counted: the first size paid for the JIT
            while (System.nanoTime() < warm) {
                pingPong(h, size, iterations, false, noniso);
                pingPong(h, size, iterations, true, iso);
            }
            for (int round = 0; round < ROUNDS; round++) {
                noniso.reset();
                iso.reset();
                pingPong(h, size, iterations, false, noniso);
                pingPong(h, size, iterations, true, iso);
                nonisoMedians[round] = noniso.getValueAtPercentile(50) / 2.0;
                isoMedians[round] = iso.getValueAtPercentile(50) / 2.0;
            }
            return new Pair(size, median(nonisoMedians), median(isoMedians));
        }
    }

    static double isoLatency(String transport, IsotachConfig config, int size, int iterations) throws Exception {
        try (Hosts h = new Hosts(transport, config, 2)) {
            Histogram iso = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            pingPong(h, size, iterations / 4 + 1, true, iso); // warm-up
            iso.reset();
            pingPong(h, size, iterations, true, iso);
            return iso.getValueAtPercentile(50) / 2.0;
        }
    }

    /** Host 0 sends, host 1 echoes; each host in its own thread, as applications would be. */
    private static void pingPong(Hosts h, int size, int iterations, boolean isotach, Histogram rtt) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        Future<?> echo = h.threads.submit(() -> {
            Endpoint e = new Endpoint(h.nets.get(1), size, isotach);
            start.await();
            for (int i = 0; i < iterations; i++) {
                e.await();
                e.send(0);
            }
            return null;
        });
        Endpoint e = new Endpoint(h.nets.get(0), size, isotach);
        start.await();
        for (int i = 0; i < iterations; i++) {
            long t0 = System.nanoTime();
            e.send(1);
            e.await();
            rtt.recordValue(System.nanoTime() - t0);
        }
        echo.get(60, TimeUnit.SECONDS);
    }

    /** One host's side of a ping-pong or stream: a send buffer, a receive holder, spin-then-yield waiting. */
    private static final class Endpoint {
        final IsotachNet net;
        final MemorySegment buffer;
        final MemorySegment copy;
        final int size;
        final boolean isotach;
        final IsoMessage iso = new IsoMessage();
        final NonisoMessage noniso = new NonisoMessage();

        Endpoint(IsotachNet net, int size, boolean isotach) {
            this.net = net;
            this.size = size;
            this.isotach = isotach;
            this.buffer = Arena.ofAuto().allocate(size);
            this.copy = Arena.ofAuto().allocate(size);
        }

        void send(int to) {
            int spins = 0;
            while ((isotach ? net.isoSend(to, buffer, size, true) : net.send(to, buffer, size)) != IsotachNet.SUCCESS) {
                idle(++spins);
            }
        }

        void await() {
            int spins = 0;
            while (true) {
                if (isotach) {
                    if (net.isoReceive(iso) == IsotachNet.SUCCESS && !iso.isNotice()) {
                        MemorySegment.copy(iso.data(), 0, copy, 0, iso.length());
                        return;
                    }
                } else if (net.receive(noniso) == IsotachNet.SUCCESS) {
                    MemorySegment.copy(noniso.data(), 0, copy, 0, noniso.size());
                    return;
                }
                idle(++spins);
            }
        }

        private static void idle(int spins) {
            if (spins > 200) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    // ---- throughput ---------------------------------------------------------------------------------------------

    static Pair throughput(String transport, IsotachConfig config, int size, int count) throws Exception {
        try (Hosts h = new Hosts(transport, config, 2)) {
            double[] noniso = new double[ROUNDS];
            double[] iso = new double[ROUNDS];
            long warm = System.nanoTime() + WARM_UP_NANOS; // not counted
            while (System.nanoTime() < warm) {
                stream(h, size, count, false);
                stream(h, size, count, true);
            }
            for (int round = 0; round < ROUNDS; round++) {
                noniso[round] = stream(h, size, count, false);
                iso[round] = stream(h, size, count, true);
            }
            return new Pair(size, median(noniso), median(iso));
        }
    }

    private static double stream(Hosts h, int size, int count, boolean isotach) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        Future<Long> receiver = h.threads.submit(() -> {
            Endpoint e = new Endpoint(h.nets.get(1), size, isotach);
            start.await();
            for (int i = 0; i < count; i++) {
                e.await();
            }
            return System.nanoTime();
        });
        Endpoint e = new Endpoint(h.nets.get(0), size, isotach);
        start.await();
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            e.send(1);
        }
        // keep the sender's layer moving until the receiver has everything (its sends may wait for credits)
        while (!receiver.isDone()) {
            h.nets.get(0).poll();
            Thread.onSpinWait();
        }
        long t1 = receiver.get();
        return count / ((t1 - t0) / 1e9);
    }

    // ---- pulse rate ---------------------------------------------------------------------------------------------

    static double pulseRate(String transport, int hosts, long millis) throws Exception {
        IsotachConfig c = IsotachConfig.builder().idleTickMicros(0).build();
        try (Hosts h = new Hosts(transport, c, hosts)) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis / 5);
            while (System.nanoTime() < end) { // warm-up
                h.nets.forEach(IsotachNet::poll);
            }
            long p0 = h.nets.get(0).counters().get("tm.pulsesIssued");
            long t0 = System.nanoTime();
            end = t0 + TimeUnit.MILLISECONDS.toNanos(millis);
            while (System.nanoTime() < end) {
                h.nets.forEach(IsotachNet::poll);
            }
            long p1 = h.nets.get(0).counters().get("tm.pulsesIssued");
            return (p1 - p0) / ((System.nanoTime() - t0) / 1e9);
        }
    }
}
