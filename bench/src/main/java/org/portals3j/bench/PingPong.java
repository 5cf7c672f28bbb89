package org.portals3j.bench;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.udp.UdpOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Put + event ping-pong between the two ranks of a job, against a baseline measured in the same run.
 *
 * <p><b>Portals:</b> each rank has a match entry with an MD to receive into (with an event queue) and
 * one bound MD per message size to send from. Rank 0 puts; rank 1 waits with {@code PtlEQWait} for
 * the PUT_END and puts the same size back; rank 0 waits for its own PUT_END. Rank 0 times the round
 * trip and records half of it.
 *
 * <p><b>Baseline:</b> the same two threads hand a buffer of the same size back and forth: copy it with
 * {@link MemorySegment#copy} into the peer's buffer, then signal through a volatile flag (and
 * {@link LockSupport#unpark}, as the engine does when it hands an event to a waiting thread), waiting
 * with the same {@link IdleMode}. For each size, baseline and Portals alternate in {@value #ROUNDS}
 * rounds on the same two threads, so that both see the same machine (it is shared and its load
 * changes from second to second).
 *
 * <p><b>Bandwidth:</b> windows of {@value #WINDOW} back-to-back 1 MiB puts from rank 0 and an 8-byte
 * put back from rank 1 once all have arrived, alternating with windows of {@value #WINDOW}
 * {@code MemorySegment.copy}s of 1 MiB in rank 0's thread; the medians give the rates.
 *
 * <p><b>Over UDP</b> ({@code --baseline datagram}, the default for a transport named {@code udp}) the
 * baseline is a raw {@link DatagramChannel} ping-pong of the same size between the same two threads
 * ({@link DatagramBaseline}: no reliability, no checksum, no MAC), for sizes that fit one datagram; and
 * the bandwidth baseline is a raw blast of {@code 16 MiB} in datagrams of the transport's size, measured
 * at the receiver.
 *
 * <p><b>Placement</b> ({@link Placement}, {@code --bind-to}): bound ({@code core}, as {@code mpirun --bind-to core}
 * binds rank processes), rank thread r runs on the r-th allowed CPU ({@link CpuAffinity}) from before it opens its
 * library, so the transport threads it starts share its CPU, as all threads of a bound rank process do. The default,
 * {@code auto}, binds only on a transport that delivers inline: with threads of its own (udp) a bound rank shares its
 * CPU with them and 1 MiB windows fell from 5 to 3-4.5 GB/s; without (inmem), floating rank threads fell into a cycle
 * of parks in the bandwidth windows, 120-160 us a window instead of 6 (bench/README.md, "Placement").
 *
 * <p>Usable as a library: {@link #measure(Options)} returns the figures, {@link #run} prints them.
 */
public final class PingPong {
    /** Portal index both ranks receive on. */
    static final int PORTAL = 4;
    static final long MATCH_BITS = 0x5049_4E47_504F_4E47L; // "PINGPONG"
    static final int MIB = 1 << 20;
    static final int WINDOW = 16;
    /** The largest bandwidth put whose windows warm up with {@link #WARMUP_PUTS} puts. */
    static final int SMALL_WINDOW_BYTES = 64 * 1024;
    /** Unmeasured puts before the measured windows of small puts. */
    static final int WARMUP_PUTS = 32_768;
    /** Baseline and Portals alternate this many times per size. */
    static final int ROUNDS = 10;
    static final long QUIET_MILLIS = 50;
    static final long QUIET_MAX_MILLIS = 3_000;
    static final int[] DEFAULT_SIZES = {8, 16, 64, 256, 1024, 4096, 16 * 1024, 64 * 1024, 256 * 1024, MIB};
    static final int DEFAULT_ITERATIONS = 10_000;
    static final int QUICK_ITERATIONS = 200;
    static final int MAX_SIZE = 64 * MIB;
    private static final long HISTOGRAM_MAX_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long BARRIER_TIMEOUT_SECONDS = 120;
    /** The bytes rank r sends (Portals and the hand-over baseline alike): PATTERN[r]. */
    static final byte[] PATTERN = {(byte) 0xA5, (byte) 0x5B};
    private static final TextTable TABLE = new TextTable(" ",
            TextTable.Column.right("size", 10, 0),
            TextTable.Column.right("iters", 7, 0),
            TextTable.Column.right("portals_p50", 12, 3),
            TextTable.Column.right("portals_p99", 12, 3),
            TextTable.Column.right("baseline_p50", 13, 3),
            TextTable.Column.right("baseline_p99", 13, 3),
            TextTable.Column.right("ratio_p50", 10, 2),
            TextTable.Column.right("ratio_p99", 10, 2));

    static final String USAGE = """
            usage: PingPong [--transport NAME] [--option KEY=VALUE]... [--baseline threads|datagram]
                            [--idle spin|yield|park|backoff] [--sizes 8,64,1K,1M] [--iterations N]
                            [--staging BYTES] [--bandwidth-size SIZE] [--bind-to auto|core|none]
                            [--quick]
              --transport   transport to run the 2-rank job on (default inmem)
              --option      a transport option, e.g. udp.fault.loss=0.01 (repeatable)
              --baseline    threads: two threads hand a buffer over (default); datagram: a raw
                            DatagramChannel ping-pong and blast (default for --transport udp)
              --idle        how waiting threads idle, for Portals and the baseline alike (default backoff)
              --sizes       message sizes in bytes, K/M suffixes allowed (default 8,16,64,...,1M: powers of 4)
              --iterations  measured round trips for sizes up to 4 KiB; fewer for larger sizes (default 10000)
              --staging     the library's staged-send limit (PortalsConfig.stagedSendLimit; 0 stages nothing;
                            default: the library's default)
              --bandwidth-size  the size of the puts in the bandwidth windows (default 1M)
              --bind-to     core: rank thread r on the r-th CPU this thread may use (sched_setaffinity; the
                            transport's threads, started by the rank, inherit it); none: all threads float;
                            auto (default): core on a transport that delivers inline (inmem), else none
              --quick       a short run (200 iterations) for tests""";

    private PingPong() {
    }

    /** What the Portals figures are compared with. */
    public enum Baseline {
        /** Two threads hand a buffer back and forth in memory. */
        THREADS,
        /** A raw DatagramChannel ping-pong (and blast) on loopback. */
        DATAGRAM;

        static Baseline parse(String name) {
            return switch (name.trim().toLowerCase(Locale.ROOT)) {
                case "threads" -> THREADS;
                case "datagram" -> DATAGRAM;
                default -> throw new IllegalArgumentException("unknown baseline '" + name + "': threads or datagram");
            };
        }

        /** The natural baseline of a transport: raw datagrams for {@code udp}, in-memory hand-over otherwise. */
        static Baseline defaultFor(String transport) {
            return transport.equals("udp") ? DATAGRAM : THREADS;
        }
    }

    /** Where the two rank threads run (as {@code mpirun --bind-to core|none} places rank processes). */
    /** Datagram size of the raw baseline unless the transport options set {@code udp.datagramSize}. */
    static final int DEFAULT_DATAGRAM_SIZE = UdpOptions.DEFAULT_DATAGRAM_SIZE;

    /**
     * What to run.
     *
     * @param stagedSendLimit the library's {@link PortalsConfig#stagedSendLimit()}, or -1 for its default
     * @param bandwidthSize   the size of the puts in the bandwidth windows
     * @param placement       where the rank threads run
     */
    public record Options(String transport, Map<String, String> transportOptions, Baseline baseline, IdleMode idle,
                          int[] sizes, int iterations, boolean quick, int stagedSendLimit, int bandwidthSize,
                          Placement placement) {
        public Options {
            Objects.requireNonNull(transport, "transport");
            Objects.requireNonNull(placement, "placement");
            Objects.requireNonNull(idle, "idle");
            Objects.requireNonNull(baseline, "baseline");
            transportOptions = Map.copyOf(transportOptions);
            sizes = sizes.clone();
            if (sizes.length == 0) {
                throw new IllegalArgumentException("no message sizes");
            }
            for (int s : sizes) {
                if (s < 1 || s > MAX_SIZE) {
                    throw new IllegalArgumentException("message size " + s + " is outside 1.." + MAX_SIZE);
                }
            }
            if (iterations < 1) {
                throw new IllegalArgumentException("iterations must be positive, not " + iterations);
            }
            if (stagedSendLimit < -1) {
                throw new IllegalArgumentException("the staging limit must be >= 0, not " + stagedSendLimit);
            }
            if (bandwidthSize < 8 || bandwidthSize > MAX_SIZE) {
                throw new IllegalArgumentException("bandwidth size " + bandwidthSize + " is outside 8.." + MAX_SIZE);
            }
        }

        /** Unbound rank threads. */
        public Options(String transport, Map<String, String> transportOptions, Baseline baseline, IdleMode idle,
                       int[] sizes, int iterations, boolean quick, int stagedSendLimit, int bandwidthSize) {
            this(transport, transportOptions, baseline, idle, sizes, iterations, quick, stagedSendLimit, bandwidthSize,
                    Placement.NONE);
        }

        /** With the library's default staging and 1 MiB bandwidth puts. */
        public Options(String transport, Map<String, String> transportOptions, Baseline baseline, IdleMode idle,
                       int[] sizes, int iterations, boolean quick) {
            this(transport, transportOptions, baseline, idle, sizes, iterations, quick, -1, MIB);
        }

        /** The library's configuration for these options. */
        PortalsConfig config() {
            PortalsConfig config = PortalsConfig.DEFAULT.withIdle(idle);
            return stagedSendLimit < 0 ? config : config.withStaging(stagedSendLimit, config.stagingBuffers());
        }

        @Override
        public int[] sizes() {
            return sizes.clone();
        }

        public Options(String transport, IdleMode idle, int[] sizes, int iterations, boolean quick) {
            this(transport, Map.of(), Baseline.defaultFor(transport), idle, sizes, iterations, quick);
        }

        /** The defaults: inmem, backoff, 8 B to 1 MiB, {@value #DEFAULT_ITERATIONS} iterations. */
        public static Options defaults() {
            return new Options("inmem", IdleMode.BACKOFF, DEFAULT_SIZES, DEFAULT_ITERATIONS, false);
        }

        /** The datagram size of the raw baseline: the transport's, when the options set it. */
        int datagramSize() {
            String v = transportOptions.get("udp.datagramSize");
            return v == null ? DEFAULT_DATAGRAM_SIZE : Integer.parseInt(v.trim());
        }

        /**
         * Parses command-line options.
         *
         * @return the options, or null if help was asked for
         * @throws IllegalArgumentException saying what is wrong
         */
        public static Options parse(String... args) {
            Args a = new Args();
            if (!PingPongArgs.parse(a, args)) {
                return null;
            }
            Baseline baseline = a.baseline.isEmpty() ? Baseline.defaultFor(a.transport) : Baseline.parse(a.baseline);
            return new Options(a.transport, a.common.transportOptions("KEY=VALUE"), baseline, a.common.idle(),
                    a.common.sizes(DEFAULT_SIZES), a.common.iterations(DEFAULT_ITERATIONS), a.common.quick,
                    a.staging.isEmpty() ? -1 : PingPongArgs.count("--staging", a.staging),
                    a.bandwidthSize.isEmpty() ? MIB : parseSizes(a.bandwidthSize)[0],
                    a.bindTo.isEmpty() ? Placement.AUTO : Placement.parse(a.bindTo));
        }

        /** PingPong's command line: the shared options and its own. */
        @Command(name = "PingPong")
        private static final class Args {
            @Mixin
            PingPongArgs common = new PingPongArgs();

            @Option(names = "--transport")
            String transport = "inmem";

            @Option(names = "--baseline")
            String baseline = "";

            @Option(names = "--staging")
            String staging = "";

            @Option(names = "--bandwidth-size")
            String bandwidthSize = "";

            @Option(names = "--bind-to")
            String bindTo = "";
        }

        static int[] parseSizes(String list) {
            String[] parts = list.split(",");
            int[] sizes = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                String p = parts[i].trim().toUpperCase(Locale.ROOT);
                long unit = 1;
                if (p.endsWith("K") || p.endsWith("M")) {
                    unit = p.endsWith("K") ? 1024 : MIB;
                    p = p.substring(0, p.length() - 1);
                }
                long v;
                try {
                    v = Long.parseLong(p) * unit;
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + parts[i] + "' is not a size (e.g. 8, 4K, 1M)", e);
                }
                if (v < 1 || v > MAX_SIZE) {
                    throw new IllegalArgumentException("message size " + parts[i] + " is outside 1.." + MAX_SIZE);
                }
                sizes[i] = (int) v;
            }
            return sizes;
        }

        /** Measured round trips for {@code size}: all of them up to 4 KiB, then fewer as the size grows. */
        int iterationsFor(int size) {
            long scaled = size <= 4096 ? iterations : (long) iterations * 4096 / size;
            return (int) Math.max(scaled, Math.min(iterations, Math.max(20, iterations / 50)));
        }

        /** Unrecorded round trips before the measured ones. */
        int warmupFor(int size) {
            return Math.max(10, iterationsFor(size) / 2);
        }

        int bandwidthWindows() {
            return quick ? 8 : 64;
        }

        /**
         * Unmeasured windows before the measured ones. Windows of up to {@value PingPong#SMALL_WINDOW_BYTES} B puts get
         * {@value PingPong#WARMUP_PUTS} puts, for the JIT to compile the window loop: after 16 windows it still ran
         * interpreted, and the 8 B rate came out at half or less (bench/README.md, "Placement").
         */
        int bandwidthWarmupWindows() {
            return quick ? 4 : bandwidthSize <= SMALL_WINDOW_BYTES ? WARMUP_PUTS / WINDOW : 16;
        }
    }

    /** One size: half round trips in microseconds (baseline NaN where it cannot run: a size above one datagram). */
    public record Row(int size, int iterations, double portalsP50, double portalsP99, double baselineP50,
                      double baselineP99) {
        public double ratioP50() {
            return portalsP50 / baselineP50;
        }

        public double ratioP99() {
            return portalsP99 / baselineP99;
        }
    }

    /**
     * Rates of windows of puts of {@link Options#bandwidthSize()} in GB/s (10^9 bytes per second); the baseline is
     * MemorySegment.copy or a raw datagram blast of the same bytes.
     */
    public record Bandwidth(double portalsPut, double baseline, int windows) {
        public double ratio() {
            return portalsPut / baseline;
        }
    }

    /**
     * @param allocatedBytes bytes both rank threads allocated during the measured Portals round trips,
     *                       or -1 if the JVM cannot tell
     * @param placement      where the rank threads ran, as the output's {@code placement:} line says it
     */
    public record Result(Options options, List<Row> rows, Bandwidth bandwidth, long allocatedBytes, long roundTrips,
                         String placement) {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Parses {@code args}, measures, prints the table; returns the process exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (options == null) {
            out.println(USAGE);
            return 0;
        }
        try {
            print(measure(options), out);
            return 0;
        } catch (Exception e) {
            err.println("ping-pong failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /** Prints the table, the bandwidth line and the allocation line. */
    public static void print(Result r, PrintStream out) {
        Options o = r.options();
        out.printf(Locale.ROOT, "PingPong: 2 ranks on transport '%s'%s, idle strategy %s%s; half round trip in"
                + " microseconds%n", o.transport(), o.transportOptions().isEmpty() ? "" : " " + o.transportOptions(),
                o.idle().name().toLowerCase(Locale.ROOT),
                o.stagedSendLimit() < 0 ? "" : ", staged-send limit " + o.stagedSendLimit() + " B");
        if (o.baseline() == Baseline.THREADS) {
            out.println("baseline: the same 2 threads hand a buffer back and forth (MemorySegment.copy into the peer's"
                    + " buffer, volatile flag + unpark, same idle strategy)");
        } else {
            out.printf(Locale.ROOT, "baseline: the same 2 threads ping-pong one raw DatagramChannel datagram on "
                    + "loopback (same idle strategy; sizes up to %d B only)%n", o.datagramSize());
        }
        out.println("placement: " + r.placement());
        TABLE.printHeader(out);
        for (Row row : r.rows()) {
            TABLE.printRow(out, row.size(), row.iterations(), row.portalsP50(), row.portalsP99(), row.baselineP50(),
                    row.baselineP99(), row.ratioP50(), row.ratioP99());
        }
        Bandwidth b = r.bandwidth();
        out.printf(Locale.ROOT, "bandwidth %s: Portals Put %.2f GB/s, %s %.2f GB/s, ratio %.2f"
                + " (medians of %d windows of %d)%n", o.bandwidthSize() % MIB == 0 ? o.bandwidthSize() / MIB + " MiB"
                : o.bandwidthSize() + " B", b.portalsPut(),
                o.baseline() == Baseline.THREADS ? "MemorySegment.copy" : "raw datagram blast", b.baseline(), b.ratio(),
                b.windows(), WINDOW);
        if (r.allocatedBytes() < 0) {
            out.println("allocation: not measurable on this JVM");
        } else {
            out.printf(Locale.ROOT, "allocation in the measured Portals round trips (both ranks): "
                    + "%d bytes over %d round trips (%.3f B per round trip)%n", r.allocatedBytes(), r.roundTrips(),
                    (double) r.allocatedBytes() / Math.max(1, r.roundTrips()));
        }
    }

    /** Runs the whole measurement on a 2-rank job. */
    public static Result measure(Options options) throws Exception {
        int[] sizes = options.sizes();
        int bufferSize = Math.max(Math.max(MIB, options.bandwidthSize()), Arrays.stream(sizes).max().orElse(MIB));
        Placement.Choice placement = options.placement().choose(options.transport());
        int[] cpus = placement.placement() == Placement.CORE ? placement.placement().cpus() : null;
        Job job = Job.local(2);
        try (Arena arena = Arena.ofShared()) {
            Shared shared = new Shared(options, arena, bufferSize, cpus);
            LocalJob.run(options.transport(), job, options.idle(), options.transportOptions(), context -> {
                RankRun rank = new RankRun(shared, context.rank());
                try {
                    rank.run(context);
                } catch (Throwable t) {
                    shared.abort();
                    throw t;
                }
            });
            Bandwidth bw = shared.bandwidth.get();
            if (bw == null || shared.rows.size() != sizes.length) {
                throw new IllegalStateException("the ranks ended without producing every figure");
            }
            long allocated = shared.allocated[0] < 0 || shared.allocated[1] < 0 ? -1
                    : shared.allocated[0] + shared.allocated[1];
            return new Result(options, List.copyOf(shared.rows), bw, allocated, shared.roundTrips,
                    placement(placement.how(), cpus, shared.masks));
        }
    }

    /** The placement line of the output and reports. */
    static String placement(String how, int[] cpus, String[] masks) {
        return cpus == null ? "rank threads not bound (" + how + "): rank 0 may run on CPUs " + masks[0]
                + ", rank 1 on " + masks[1] + ", and so may the transport's threads"
                : "rank threads bound (" + how + "): rank 0 to CPU " + cpus[0] + ", rank 1 to CPU " + cpus[1]
                + " (Cpus_allowed_list read back: " + masks[0] + " and " + masks[1] + "); the transport's threads,"
                + " which each rank starts, inherit its CPU";
    }

    // ---- shared between the two rank threads ----------------------------------------------------

    static final class Shared {
        final Options options;
        final CyclicBarrier barrier = new CyclicBarrier(2);
        final PingPongBaseline.Pair baseline;
        final Portals[] portals = new Portals[2];
        final EqHandle[] eqs = new EqHandle[2];
        final List<Row> rows = new ArrayList<>();
        final AtomicReference<Bandwidth> bandwidth = new AtomicReference<>();
        final long[] allocated = new long[2];
        final Arena arena;
        final int bufferSize;
        /** The CPU of each rank thread, or null: unbound. */
        final int[] cpus;
        /** Each rank thread's Cpus_allowed_list, read back once it is placed. */
        final String[] masks = {"unknown", "unknown"};
        long roundTrips;
        volatile boolean failed;

        Shared(Options options, Arena arena, int bufferSize, int[] cpus) {
            this.options = options;
            this.arena = arena;
            this.bufferSize = bufferSize;
            this.cpus = cpus;
            this.baseline = new PingPongBaseline.Pair(arena, bufferSize, () -> failed);
        }

        void await() throws InterruptedException, BrokenBarrierException, TimeoutException {
            barrier.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        /** A rank failed: wake the other wherever it waits (barrier, baseline flag, or PtlEQWait). */
        void abort() {
            failed = true;
            barrier.reset();
            for (int r = 0; r < 2; r++) {
                Portals p = portals[r];
                EqHandle eq = eqs[r];
                if (p != null && eq != null) {
                    try {
                        p.eqFree(eq); // a thread in PtlEQWait on it wakes with PTL_INV_EQ
                    } catch (RuntimeException ignored) {
                        // already gone
                    }
                }
            }
            baseline.unpark();
        }
    }

    // ---- one rank -------------------------------------------------------------------------------

    private static final class RankRun {
        private final Shared shared;
        private final Options options;
        private final int rank;
        private final int peerRank;
        private final Event event = new Event();
        private final IdleStrategy idle;
        private final com.sun.management.ThreadMXBean threads = allocationBean();
        private Portals portals;
        private EqHandle eq;
        private ProcessId peer;
        private MemorySegment recv;
        private MemorySegment expected;
        private MdHandle[] sendMds;
        private MdHandle bandwidthMd;
        private MdHandle ackMd;
        private PingPongBaseline baseline;

        RankRun(Shared shared, int rank) {
            this.shared = shared;
            this.options = shared.options;
            this.rank = rank;
            this.peerRank = 1 - rank;
            this.idle = options.idle().newStrategy();
        }

        void run(LocalJob.RankContext context) throws Exception {
            shared.baseline.threads[rank] = Thread.currentThread();
            if (shared.cpus != null) {
                // before setUp: the transport threads it starts inherit the CPU (bench/README.md, "Placement")
                CpuAffinity.bindCurrentThread(shared.cpus[rank]);
            }
            shared.masks[rank] = CpuAffinity.allowedList();
            setUp(context);
            baseline = new PingPongBaseline(shared.baseline, rank, idle, options.baseline() == Baseline.DATAGRAM
                    ? new DatagramBaseline(options.idle(), options.datagramSize()) : null);
            try (PingPongBaseline b = baseline) {
                shared.await(); // both ranks have their entries: no put can find nothing to match
                b.connect();
                measureAll();
            }
        }

        private void measureAll() throws Exception {
            int[] sizes = options.sizes();
            // Warm-up of both paths (JIT) over every size, recorded into a histogram that is thrown
            // away: the measured runs then take no branch the compiled code has not seen. (Warming up
            // without recording left the recording branch cold; the first measured round deoptimised,
            // and whichever size came first or second looked ~1 us slower in the baseline.)
            Histogram scratch = rank == 0 ? new Histogram(HISTOGRAM_MAX_NANOS, 3) : null;
            for (int pass = 0; pass < 2; pass++) {
                baseline.roundTrips(8, 2, options.iterations(), scratch);
                pingPong(0, 8, 2, options.iterations(), scratch, false);
                for (int i = 0; i < sizes.length; i++) {
                    baseline.roundTrips(sizes[i], 2, options.warmupFor(sizes[i]) / 2, scratch);
                    pingPong(i + 1, sizes[i], 2, options.warmupFor(sizes[i]) / 2, scratch, false);
                }
            }
            for (int i = 0; i < sizes.length; i++) {
                int size = sizes[i];
                int iterations = options.iterationsFor(size);
                int warmup = options.warmupFor(size);
                Histogram base = rank == 0 ? new Histogram(HISTOGRAM_MAX_NANOS, 3) : null;
                Histogram ptl = rank == 0 ? new Histogram(HISTOGRAM_MAX_NANOS, 3) : null;
                recv.asSlice(0, size).fill((byte) 0);
                shared.await(); // the receive buffers are cleared before any put of this size
                baseline.roundTrips(size, 2, warmup, scratch);
                pingPong(i + 1, size, 2, warmup, scratch, false);
                if (rank == 0) {
                    awaitQuietCompiler();
                }
                shared.await();
                // Rounds alternate baseline and Portals, so that a change in the machine's load during
                // the size's run hits both about equally. The ranks run the same counts, so they stay
                // in step without a barrier.
                int rounds = Math.min(ROUNDS, iterations);
                for (int round = 0; round < rounds; round++) {
                    int n = iterations / rounds + (round < iterations % rounds ? 1 : 0);
                    int again = Math.max(2, n / 20); // re-settle after the other mode ran
                    baseline.roundTrips(size, again, n, base);
                    pingPong(i + 1, size, again, n, ptl, true);
                }
                if (MemorySegment.mismatch(recv, 0, size, expected, 0, size) != -1) {
                    throw new IllegalStateException("rank " + rank + ": the " + size + "-byte puts did not deliver the"
                            + " sender's bytes");
                }
                if (rank == 0 && base != null && ptl != null) {
                    boolean none = base.getTotalCount() == 0;
                    shared.rows.add(new Row(size, iterations, halfMicros(ptl, 50), halfMicros(ptl, 99),
                            none ? Double.NaN : halfMicros(base, 50), none ? Double.NaN : halfMicros(base, 99)));
                    shared.roundTrips += iterations;
                }
            }
            shared.await();
            bandwidth();
            shared.await();
            portals.fini();
        }

        private void setUp(LocalJob.RankContext context) {
            Portals p = Portals.create(context.job(), context.transport(), options.config());
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            EqHandle q = p.eqAlloc(ni, 1024);
            Arena arena = shared.arena;
            int bufferSize = shared.bufferSize;
            recv = arena.allocate(bufferSize, 64);
            expected = arena.allocate(bufferSize, 64).fill(PATTERN[peerRank]);
            MemorySegment send = arena.allocate(bufferSize, 64).fill(PATTERN[rank]);
            MeHandle me = p.meAttach(ni, PORTAL, ProcessId.ANY, MATCH_BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            // MANAGE_REMOTE with offset 0: every put lands at the start, so the MD never fills up.
            p.mdAttach(me, MemoryDescriptor.of(recv).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                    .withEventQueue(q), Unlink.RETAIN, Unlink.RETAIN);
            int[] sizes = options.sizes();
            sendMds = new MdHandle[sizes.length + 1];
            sendMds[0] = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, 8)));
            for (int i = 0; i < sizes.length; i++) {
                sendMds[i + 1] = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, sizes[i])));
            }
            bandwidthMd = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, options.bandwidthSize())));
            ackMd = sendMds[0];
            JobMember other = context.job().peers().member(peerRank);
            peer = new ProcessId(other.nid(), other.pid());
            portals = p;
            eq = q;
            shared.portals[rank] = p;
            shared.eqs[rank] = q;
        }

        /*
         * The timed work of one round trip is in small methods of its own: they are called once per
         * iteration, so the JIT compiles them after a few thousand calls. A loop method called only a
         * few times would run interpreted until its on-stack replacement (tens of thousands of
         * iterations), and the interpreter's overhead would be timed with it.
         */

        /** {@code warmup + iterations} Portals round trips of {@code size} bytes; rank 0 records the measured ones. */
        private void pingPong(int mdIndex, int size, int warmup, int iterations, Histogram histogram,
                              boolean measured) {
            MdHandle md = sendMds[mdIndex];
            int total = warmup + iterations;
            long allocatedBefore = 0;
            for (int i = 0; i < total; i++) {
                if (i == warmup) {
                    allocatedBefore = allocatedBytes();
                }
                if (rank == 0) {
                    long nanos = portalsRoundTrip(md, size);
                    if (i >= warmup && histogram != null) {
                        histogram.recordValue(nanos);
                    }
                } else {
                    portalsEcho(md, size);
                }
            }
            if (measured) {
                long after = allocatedBytes();
                shared.allocated[rank] = after < 0 || allocatedBefore < 0 || shared.allocated[rank] < 0 ? -1
                        : shared.allocated[rank] + (after - allocatedBefore);
            }
        }

        /** Rank 0: put, wait for the put back; returns the round trip in nanoseconds. */
        private long portalsRoundTrip(MdHandle md, int size) {
            Portals p = portals;
            long t0 = System.nanoTime();
            p.put(md, AckRequest.NOACK_REQ, peer, PORTAL, 0, MATCH_BITS, 0L, 0L);
            Events.waitPutEnd(p, eq, event, size);
            return System.nanoTime() - t0;
        }

        /** Rank 1: wait for the put, put back. */
        private void portalsEcho(MdHandle md, int size) {
            Portals p = portals;
            Events.waitPutEnd(p, eq, event, size);
            p.put(md, AckRequest.NOACK_REQ, peer, PORTAL, 0, MATCH_BITS, 0L, 0L);
        }

        /**
         * Waits (at most {@value #QUIET_MAX_MILLIS} ms) until the JIT has compiled nothing for
         * {@value #QUIET_MILLIS} ms. The machine has 2 cores: a compiler thread still busy after the
         * warm-up takes one of them from the two ranks, and the first size measured came out ~1 us
         * slower in the baseline.
         */
        private void awaitQuietCompiler() throws InterruptedException {
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
                return;
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUIET_MAX_MILLIS);
            long last = jit.getTotalCompilationTime();
            while (System.nanoTime() < deadline) {
                Thread.sleep(QUIET_MILLIS);
                long now = jit.getTotalCompilationTime();
                if (now == last) {
                    return;
                }
                last = now;
            }
        }

        /** Windows of puts of the bandwidth size, alternating (on rank 0) with windows of the baseline. */
        private void bandwidth() throws Exception {
            int warmup = options.bandwidthWarmupWindows();
            int windows = options.bandwidthWindows();
            int size = options.bandwidthSize();
            Portals p = portals;
            EqHandle q = eq;
            Event ev = event;
            if (rank == 1) {
                for (int w = 0; w < warmup + windows; w++) {
                    for (int k = 0; k < WINDOW; k++) {
                        Events.waitPutEnd(p, q, ev, size);
                    }
                    p.put(ackMd, AckRequest.NOACK_REQ, peer, PORTAL, 0, MATCH_BITS, 0L, 0L);
                    baseline.receiveWindow(WINDOW, size, w >= warmup);
                }
                shared.await(); // every blast rate is recorded before rank 0 takes the median
                return;
            }
            Histogram put = new Histogram(HISTOGRAM_MAX_NANOS, 3);
            Histogram copy = new Histogram(HISTOGRAM_MAX_NANOS, 3);
            for (int w = 0; w < warmup + windows; w++) {
                long t0 = System.nanoTime();
                for (int k = 0; k < WINDOW; k++) {
                    p.put(bandwidthMd, AckRequest.NOACK_REQ, peer, PORTAL, 0, MATCH_BITS, 0L, 0L);
                }
                Events.waitPutEnd(p, q, ev, 8);
                long t1 = System.nanoTime();
                baseline.window(WINDOW, size);
                long t2 = System.nanoTime();
                if (w >= warmup) {
                    put.recordValue(t1 - t0);
                    copy.recordValue(t2 - t1);
                }
            }
            double bytes = (double) WINDOW * size;
            shared.await(); // rank 1 has recorded every blast rate
            shared.bandwidth.set(new Bandwidth(bytes / put.getValueAtPercentile(50), baseline.rate(bytes, copy),
                    windows));
        }

        private long allocatedBytes() {
            return threads == null ? -1 : threads.getCurrentThreadAllocatedBytes();
        }
    }

    private static com.sun.management.ThreadMXBean allocationBean() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled()) {
            bean.getCurrentThreadAllocatedBytes(); // first call may load classes
            return bean;
        }
        return null;
    }

    /** The median of {@code values} (the upper one of an even count). */
    static double median(List<Double> values) {
        synchronized (values) {
            List<Double> sorted = new ArrayList<>(values);
            sorted.sort(null);
            return sorted.get(sorted.size() / 2);
        }
    }

    /** Half of the round trip at {@code percentile}, in microseconds. */
    private static double halfMicros(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 2.0 / 1000.0;
    }
}
