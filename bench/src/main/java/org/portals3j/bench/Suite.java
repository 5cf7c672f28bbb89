package org.portals3j.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.portals3j.bench.SuiteReport.Point;
import org.portals3j.bench.SuiteReport.Series;
import org.portals3j.bench.SuiteReport.Skipped;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.lapi.RetFlag;
import org.portals3j.transport.Availability;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.gm.GmTransportProvider;

/**
 * {@code portals bench}: the performance table per transport beside the peers a user would pick instead, in one run
 * on one machine, by calling the module's existing measurements; writes OSU-format tables, results.json, plots and
 * index.html (see bench/README.md).
 */
public final class Suite {
    static final int MIB = 1 << 20;
    /** The load average above which the machine counts as busy (this machine has 2 cores). */
    static final double DEFAULT_IDLE_THRESHOLD = 1.0;
    static final int[] SIZES = {8, 64, 1024, 4096, 16 * 1024, 64 * 1024, 256 * 1024, MIB};
    static final int[] QUICK_SIZES = {8, 1024, 64 * 1024};
    /** Bandwidth sizes besides 1 MiB (which comes with the latency run); the 8-byte windows give the message rate. */
    static final int[] BANDWIDTH_SIZES = {8, 1024, 64 * 1024};
    static final int[] QUICK_BANDWIDTH_SIZES = {8};
    static final List<String> PEERS = List.of("openmpi", "sockets", "fi_pingpong", "fi_rdm_pingpong", "handoff", "lapi",
            "lapi_c", "mpi", "isotach", "shim");
    /** The gm providers the libfabric rows run on (libfabric's tcp;ofi_rxm and shm). */
    static final List<String> LIBFABRIC_PROVIDERS = List.of("tcp", "shm");

    static final String USAGE = """
            usage: portals bench [--transport inmem,udp] [--quick] [--out DIR] [--peers LIST] [--iterations N]
                                 [--require-idle] [--idle-threshold LOAD] [--native DIR] [--source DIR]
                                 [--bind-to auto|core|none]
              --transport       transports to measure (comma-separated, default inmem,udp)
              --quick           a smoke run of about a minute (few iterations, fewer sizes): not figures to quote
              --out             where results.json, the plots and index.html go (default bench-report)
              --peers           rows besides Portals Put/Get and the transport's own baseline (default all:
                                openmpi,sockets,fi_pingpong,fi_rdm_pingpong,handoff,lapi,lapi_c,mpi,isotach,
                                shim); the others are reported as skipped
              --iterations      measured round trips per size (default 10000; --quick 200)
              --require-idle    refuse to run when the 1-minute load average is above the threshold
              --idle-threshold  that threshold (default 1.0)
              --bind-to         core: PingPong's rank threads on the first 2 allowed CPUs, one each, as mpirun
                                binds its peer's ranks; none: unbound; auto (default): core on a transport
                                that delivers inline (inmem), else none
              --native, --source  the C rows (shim, lapi_c): native-shim's build (native-shim/target/native) and
                                the directory of bench_pingpong.c and lapi_bench.c (native-shim/src/test/c)""";

    private Suite() {
    }

    /** What to run. */
    record Options(List<String> transports, boolean quick, Path out, Set<String> peers, int iterations,
                   boolean requireIdle, double idleThreshold, Path nativeDir, Path shimSources,
                   Placement placement) {
        Options {
            transports = List.copyOf(transports);
            peers = Set.copyOf(peers);
            if (transports.isEmpty()) {
                throw new IllegalArgumentException("--transport needs at least one transport");
            }
            if (iterations < 10) {
                throw new IllegalArgumentException("--iterations must be at least 10, not " + iterations);
            }
        }

        int[] sizes() {
            return quick ? QUICK_SIZES.clone() : SIZES.clone();
        }

        int[] bandwidthSizes() {
            return quick ? QUICK_BANDWIDTH_SIZES.clone() : BANDWIDTH_SIZES.clone();
        }

        int warmup() {
            return Math.max(10, iterations / 10);
        }

        /** @return the options, or null when help was asked for */
        static Options parse(String... args) {
            List<String> transports = List.of("inmem", "udp");
            boolean quick = false;
            Path out = Path.of("bench-report");
            Set<String> peers = new LinkedHashSet<>(PEERS);
            Integer iterations = null;
            boolean requireIdle = false;
            double threshold = DEFAULT_IDLE_THRESHOLD;
            Path nativeDir = Path.of("native-shim/target/native");
            Path shimSources = Path.of("native-shim/src/test/c");
            Placement placement = null;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--help", "-h" -> {
                        return null;
                    }
                    case "--quick" -> quick = true;
                    case "--require-idle" -> requireIdle = true;
                    case "--transport", "--out", "--peers", "--iterations", "--idle-threshold", "--native",
                         "--source", "--bind-to" -> {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException(a + " needs a value");
                        }
                        String v = args[++i];
                        switch (a) {
                            case "--transport" -> transports = list(v);
                            case "--out" -> out = Path.of(v);
                            case "--peers" -> {
                                peers = new LinkedHashSet<>(list(v));
                                for (String p : peers) {
                                    if (!PEERS.contains(p)) {
                                        throw new IllegalArgumentException("unknown peer '" + p + "': one of "
                                                + String.join(",", PEERS));
                                    }
                                }
                            }
                            case "--iterations" -> iterations = number(a, v);
                            case "--native" -> nativeDir = Path.of(v);
                            case "--source" -> shimSources = Path.of(v);
                            case "--bind-to" -> placement = Placement.parse(v);
                            default -> {
                                try {
                                    threshold = Double.parseDouble(v.trim());
                                } catch (NumberFormatException e) {
                                    throw new IllegalArgumentException(a + " needs a number, not '" + v + "'", e);
                                }
                            }
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + a + "'");
                }
            }
            int n = iterations != null ? iterations : quick ? PingPong.QUICK_ITERATIONS : PingPong.DEFAULT_ITERATIONS;
            return new Options(transports, quick, out, peers, n, requireIdle, threshold, nativeDir, shimSources,
                    placement != null ? placement : Placement.AUTO);
        }

        private static List<String> list(String v) {
            return Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        }

        private static int number(String option, String v) {
            try {
                return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " needs a number, not '" + v + "'", e);
            }
        }
    }

    public static void main(String[] args) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // the plots need no display
        }
        System.exit(run(args, System.out, System.err, Path.of("/proc/loadavg")));
    }

    /**
     * Parses {@code args}, checks the load in {@code loadavg}, measures, prints the OSU tables and writes the report;
     * returns the exit code: 0, 2 bad options, 3 machine busy with --require-idle, 1 a measurement failed.
     */
    static int run(String[] args, PrintStream out, PrintStream err, Path loadavg) {
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
        double load = load(loadavg);
        String warning = idleWarning(load, options.idleThreshold());
        if (warning != null) {
            err.println("portals bench: " + warning);
            if (options.requireIdle()) {
                err.println("portals bench: --require-idle: not measuring; wait for the machine to be idle or drop"
                        + " --require-idle");
                return 3;
            }
        }
        try {
            SuiteReport report = measure(options, load, warning, err);
            report.printOsu(out);
            report.write(options.out());
            err.println("portals bench: report in " + options.out().resolve("index.html"));
            return 0;
        } catch (Exception e) {
            err.println("portals bench failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /** The 1-minute load average in {@code loadavg} (the format of /proc/loadavg), or NaN when unreadable. */
    static double load(Path loadavg) {
        try {
            String text = Files.readString(loadavg, StandardCharsets.US_ASCII).trim();
            return Double.parseDouble(text.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** "machine not idle: load X" when {@code load} is above {@code threshold} or unknown, else null. */
    static String idleWarning(double load, double threshold) {
        if (Double.isNaN(load)) {
            return "machine not idle: load unknown (/proc/loadavg unreadable)";
        }
        return load > threshold ? String.format(Locale.ROOT, "machine not idle: load %.2f (threshold %.2f): figures"
                + " and ratios are less reliable", load, threshold) : null;
    }

    // ---- measuring ------------------------------------------------------------------------------

    private static final class Collector {
        final List<Series> series = new ArrayList<>();
        final List<Skipped> skipped = new ArrayList<>();
        final PrintStream progress;

        Collector(PrintStream progress) {
            this.progress = progress;
        }

        void add(Series s) {
            series.add(s);
        }

        void skip(String name, String why) {
            skipped.add(new Skipped(name, why));
            progress.println("portals bench: " + name + ": skipped: " + why);
        }

        /** Runs {@code row}; a failure becomes a skipped row with the error (the others still run). */
        void attempt(String name, Row row) {
            progress.println("portals bench: " + name + "...");
            try {
                row.run();
            } catch (Exception e) {
                skip(name, "failed: " + e);
            }
        }
    }

    @FunctionalInterface
    private interface Row {
        void run() throws Exception;
    }

    static final String PUT = "Portals Put";
    static final String GET = SuiteReport.GET_PREFIX + " (whole get)";
    static final String GET_WINDOWS = SuiteReport.GET_PREFIX;
    /** The udp transport with {@code udp.mac=crc32c}: integrity only, no authentication (a private network). */
    static final String UDP_CRC32C = "udp-crc32c";
    static final Map<String, String> UDP_CRC32C_OPTIONS = Map.of("udp.mac", "crc32c", "udp.allowUnauthenticated",
            "true");
    static final String FI_PINGPONG = "libfabric fi_pingpong";
    static final String FI_RDM_PINGPONG = "libfabric fi_rdm_pingpong";
    static final String FI_RDM_MISSING = "fi_rdm_pingpong is not on PATH: it comes with libfabric's fabtests, which"
            + " Debian's libfabric-bin does not ship (it has fi_pingpong only)";
    static final String OMPI_SHM = "Open MPI 4.1 shared memory";
    static final String OMPI_TCP = "Open MPI 4.1 TCP loopback";
    static final String C_UDP = "C UDP sockets, busy-poll";
    static final String C_TCP = "C TCP sockets, busy-poll";
    static final String SHIM_C = "C through libportals3";
    static final String SHIM_JAVA = "Java API";
    static final String SHIM_JAVA_ROW = SHIM_JAVA + " (2 processes)";
    static final String LAPI = "LAPI Amsend";
    /** The Put ping-pong and windows AmsendPingPong measures beside Amsend, in the same run. */
    static final String LAPI_PUT = "Portals Put (AmsendPingPong)";
    static final String LAPI_C = "LAPI Amsend from C";
    static final String LAPI_C_PUT = "PtlPut from C (lapi_bench)";
    static final String LAPI_C_ROW = "LAPI Amsend vs PtlPut from C (lapi_bench) on udp";
    static final String ISOTACH = "Isotach MBM";
    static final String NONISO = "noniso MBM";

    static SuiteReport measure(Options o, double load, String warning, PrintStream progress) throws Exception {
        Collector c = new Collector(progress);
        String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        for (String t : o.transports()) {
            c.attempt(PUT + " on " + t, () -> portalsPut(o, t, c));
            if (t.equals("udp")) {
                c.attempt(PUT + " on " + UDP_CRC32C, () -> udpCrc32c(o, c));
            }
            c.attempt(GET + " on " + t, () -> {
                GetLatency.Row[] rows = GetLatency.measure(t, o.sizes(), o.iterations(), o.warmup());
                List<Point> points = new ArrayList<>();
                for (GetLatency.Row r : rows) {
                    points.add(new Point(r.size(), r.p50(), r.p99()));
                }
                c.add(new Series(GET, SuiteReport.LATENCY, t, false, "p50", points, "request and reply, as"
                        + " osu_get_latency"));
            });
            c.attempt(GET_WINDOWS + " bandwidth on " + t, () -> getWindows(o, t, c));
        }
        if (!o.transports().contains("udp")) {
            c.skip(PUT + " on " + UDP_CRC32C, "udp is not in --transport " + String.join(",", o.transports()));
        }
        peer(o, c, "openmpi", OMPI_SHM + " and " + OMPI_TCP, () -> openMpi(o, c));
        peer(o, c, "sockets", C_UDP + " and " + C_TCP, () -> sockets(o, c));
        boolean fi = selected(o, c, "fi_pingpong", FI_PINGPONG);
        boolean rdm = selected(o, c, "fi_rdm_pingpong", FI_RDM_PINGPONG);
        if (fi || rdm) {
            for (String provider : LIBFABRIC_PROVIDERS) {
                c.attempt("libfabric peers on " + provider, () -> libfabric(o, c, provider, fi, rdm));
            }
        }
        peer(o, c, "handoff", "thread hand-off floor (HandOffFloor)", () -> {
            HandOffFloor.Result r = HandOffFloor.measure(o.quick() ? 2 : 8, o.quick() ? 2_000 : 50_000,
                    o.quick() ? 0.2 : 2.0);
            c.add(new Series("thread hand-off floor (HandOffFloor)", SuiteReport.LATENCY, "-", true, "p50",
                    List.of(new Point(8, r.halfRoundTrip().get(HandOffFloor.Mode.FLAG) / 1e3, Double.NaN)),
                    String.format(Locale.ROOT, "two threads, 8 B copy + flag; a Portals put's instructions add"
                            + " %.1f ns (floor %.2fx the flag)", r.portalsInstructions(), r.floorRatio())));
        });
        for (String t : o.transports()) {
            peer(o, c, "lapi", "LAPI Amsend on " + t, () -> lapi(o, t, c));
            peer(o, c, "mpi", "Portals3J MPI layer on " + t, () -> mpiLayer(o, t, c));
            peer(o, c, "isotach", "Isotach vs noniso MBM on " + t, () -> isotach(o, t, c));
        }
        peer(o, c, "lapi_c", LAPI_C_ROW, () -> lapiC(o, c));
        peer(o, c, "shim", SHIM_C + " vs " + SHIM_JAVA, () -> shim(o, c));
        return new SuiteReport(date, machine(), load, warning, o.quick(), c.series, c.skipped,
                SuiteGoals.of(o.transports(), c.series));
    }

    private static void peer(Options o, Collector c, String key, String name, Row row) {
        if (selected(o, c, key, name)) {
            c.attempt(name, row);
        }
    }

    /** Whether the peer {@code key} is selected; if not, {@code name} is reported as skipped. */
    private static boolean selected(Options o, Collector c, String key, String name) {
        if (!o.peers().contains(key)) {
            c.skip(name, "not selected (--peers " + String.join(",", o.peers()) + ")");
            return false;
        }
        return true;
    }

    /** PingPong on {@code t}: Put latency and 1 MiB bandwidth with the transport's baseline; then the other sizes. */
    private static void portalsPut(Options o, String t, Collector c) throws Exception {
        PingPong.Baseline baseline = PingPong.Baseline.defaultFor(t);
        PingPong.Result r = PingPong.measure(new PingPong.Options(t, Map.of(), baseline, IdleMode.BACKOFF, o.sizes(),
                o.iterations(), o.quick(), -1, MIB, o.placement()));
        String base = baseline == PingPong.Baseline.DATAGRAM ? "raw DatagramChannel"
                : "thread hand-off (MemorySegment.copy + flag)";
        List<Point> put = new ArrayList<>();
        List<Point> peer = new ArrayList<>();
        for (PingPong.Row row : r.rows()) {
            put.add(new Point(row.size(), row.portalsP50(), row.portalsP99()));
            if (!Double.isNaN(row.baselineP50())) {
                peer.add(new Point(row.size(), row.baselineP50(), row.baselineP99()));
            }
        }
        c.add(new Series(PUT, SuiteReport.LATENCY, t, false, "p50", put, "half round trip, PingPong; "
                + r.placement()));
        c.add(new Series(base, SuiteReport.LATENCY, t, true, "p50", peer, "same threads, same run"));
        List<Point> bw = new ArrayList<>();
        List<Point> rate = new ArrayList<>();
        for (int size : o.bandwidthSizes()) {
            PingPong.Result s = PingPong.measure(new PingPong.Options(t, Map.of(), baseline, IdleMode.BACKOFF,
                    new int[] {8}, Math.max(20, o.iterations() / 10), o.quick(), -1, size, o.placement()));
            bw.add(new Point(size, s.bandwidth().portalsPut() * 1e3, Double.NaN));
            if (size == 8) {
                rate.add(new Point(8, s.bandwidth().portalsPut() * 1e9 / 8, Double.NaN));
            }
        }
        bw.add(new Point(MIB, r.bandwidth().portalsPut() * 1e3, Double.NaN));
        c.add(new Series(PUT, SuiteReport.BANDWIDTH, t, false, "median", bw, "windows of " + PingPong.WINDOW
                + " puts"));
        c.add(new Series(base, SuiteReport.BANDWIDTH, t, true, "median",
                List.of(new Point(MIB, r.bandwidth().baseline() * 1e3, Double.NaN)),
                baseline == PingPong.Baseline.DATAGRAM ? "raw blast of the same bytes" : "MemorySegment.copy"));
        if (!rate.isEmpty()) {
            c.add(new Series(PUT, SuiteReport.RATE, t, false, "median", rate, "8-byte puts in windows of "
                    + PingPong.WINDOW));
        }
    }

    /** osu_peer over shared memory and over TCP on loopback: percentiles, mean latency and bandwidth. */
    private static void openMpi(Options o, Collector c) throws Exception {
        String missing = OpenMpiPeer.missingTools();
        if (missing != null) {
            c.skip(OMPI_SHM + " and " + OMPI_TCP, missing);
            return;
        }
        int max = Arrays.stream(o.sizes()).max().orElse(MIB);
        int bwIterations = o.quick() ? 2 : 100;
        try (OpenMpiPeer ompi = OpenMpiPeer.build()) {
            for (String[] btl : new String[][] {{OpenMpiPeer.SHARED_MEMORY, OMPI_SHM}, {OpenMpiPeer.TCP, OMPI_TCP}}) {
                Map<Integer, double[]> pct = ompi.percentiles(btl[0], Math.max(max, MIB), o.iterations(),
                        o.warmup());
                List<Point> lat = new ArrayList<>();
                for (int size : o.sizes()) {
                    double[] v = pct.get(size);
                    if (v != null) {
                        lat.add(new Point(size, v[0], v[1]));
                    }
                }
                c.add(new Series(btl[1], SuiteReport.LATENCY, "-", true, "p50", lat, "osu_peer percentiles, mpirun"
                        + " --mca btl " + btl[0] + "; ranks as mpirun placed them: " + ompi.bindings()));
                OsuTable bw = ompi.run(btl[0], "bw", 2, MIB, bwIterations, Math.max(1, bwIterations / 10));
                List<Point> bws = new ArrayList<>();
                for (int size : bandwidthPlus(o)) {
                    bws.add(new Point(size, bw.at(size), Double.NaN));
                }
                c.add(new Series(btl[1], SuiteReport.BANDWIDTH, "-", true, "mean", bws, "osu_peer bw, windows of "
                        + OsuRun.WINDOW));
                c.add(new Series(btl[1], SuiteReport.RATE, "-", true, "mean",
                        List.of(new Point(8, bw.at(8) * 1e6 / 8, Double.NaN)), "8-byte messages of osu_peer bw"));
            }
        }
    }

    /** The kernel's floor: plain sockets in C, busy-polling, one process per CPU ({@link SocketFloor}). */
    private static void sockets(Options o, Collector c) throws Exception {
        String missing = SocketFloor.missingTools();
        if (missing != null) {
            c.skip(C_UDP + " and " + C_TCP, missing);
            return;
        }
        int max = Arrays.stream(o.sizes()).max().orElse(MIB);
        try (SocketFloor floor = SocketFloor.build()) {
            for (String[] row : new String[][] {{SocketFloor.UDP, C_UDP}, {SocketFloor.TCP, C_TCP}}) {
                Map<Integer, double[]> pct = floor.percentiles(row[0], max, o.iterations(), o.warmup());
                List<Point> lat = new ArrayList<>();
                for (int size : o.sizes()) {
                    double[] v = pct.get(size);
                    if (v != null) {
                        lat.add(new Point(size, v[0], v[1]));
                    }
                }
                c.add(new Series(row[1], SuiteReport.LATENCY, "-", true, "p50", lat, "socket_floor " + row[0]
                        + ": the kernel's loopback floor, send and recv(MSG_DONTWAIT) in a loop; "
                        + floor.placement()));
            }
        }
    }

    private static int[] bandwidthPlus(Options o) {
        int[] s = Arrays.copyOf(o.bandwidthSizes(), o.bandwidthSizes().length + 1);
        s[s.length - 1] = MIB;
        return s;
    }

    /**
     * On one gm provider: gm's Put beside fi_pingpong where gm runs (GmPingPong, alternating), else fi_pingpong alone;
     * then fi_rdm_pingpong. A missing tool, provider or gm is a skipped row with the reason.
     */
    private static void libfabric(Options o, Collector c, String provider, boolean fiSelected, boolean rdmSelected)
            throws Exception {
        String lf = FiPingPong.libfabricProvider(provider);
        String fiName = FI_PINGPONG + " " + lf;
        String rdmName = FI_RDM_PINGPONG + " " + lf;
        Path fi = fiSelected ? FiPingPong.onPath() : null;
        Path rdm = rdmSelected ? FiPingPong.onPath(FiPingPong.Tool.FI_RDM_PINGPONG.program) : null;
        if (fiSelected && fi == null) {
            c.skip(fiName, "fi_pingpong is not on PATH: install libfabric-bin");
        }
        if (rdmSelected && rdm == null) {
            c.skip(rdmName, FI_RDM_MISSING);
        }
        if (fi == null && rdm == null) {
            return;
        }
        String noProvider = FiPingPong.providerMissing(provider);
        if (noProvider != null) {
            if (fi != null) {
                c.skip(fiName, noProvider);
            }
            if (rdm != null) {
                c.skip(rdmName, noProvider);
            }
            return;
        }
        int[] sizes = o.quick() ? new int[] {8, 1024} : new int[] {8, 1024, 64 * 1024, MIB};
        Availability gm = GmTransportProvider.availability(provider);
        GmPingPong.Options g = new GmPingPong.Options(List.of(provider), Map.of(), IdleMode.BACKOFF, sizes,
                o.iterations(), o.quick() ? 1 : GmPingPong.DEFAULT_ROUNDS, o.quick(), fi == null ? "" : fi.toString(),
                "");
        if (!gm.available()) {
            c.skip(PUT + " over gm (" + provider + ")", "the gm transport cannot run here: " + gm.reason());
        } else if (fi != null) {
            GmPingPong.ProviderResult r = GmPingPong.measure(g, provider);
            List<Point> mine = new ArrayList<>();
            List<Point> theirs = new ArrayList<>();
            for (GmPingPong.Row row : r.rows()) {
                mine.add(new Point(row.size(), row.gmP50(), Double.NaN));
                if (!Double.isNaN(row.fiPingPong())) {
                    theirs.add(new Point(row.size(), row.fiPingPong(), Double.NaN));
                }
            }
            c.add(new Series(PUT, SuiteReport.LATENCY, "gm/" + provider, false, "p50", mine, "GmPingPong, median of"
                    + " rounds"));
            addOrSkip(c, new Series(fiName, SuiteReport.LATENCY, "-", true, "mean", theirs, "alternating with gm in"
                    + " rounds"));
        } else {
            PingPong.Result r = PingPong.measure(g.pingPong(provider));
            List<Point> mine = new ArrayList<>();
            for (PingPong.Row row : r.rows()) {
                mine.add(new Point(row.size(), row.portalsP50(), row.portalsP99()));
            }
            c.add(new Series(PUT, SuiteReport.LATENCY, "gm/" + provider, false, "p50", mine, "PingPong on gm"));
        }
        if (fi != null && !gm.available()) {
            alone(o, c, new FiPingPong(fi.toString()), fiName, provider, sizes);
        }
        if (rdm != null) {
            alone(o, c, new FiPingPong(FiPingPong.Tool.FI_RDM_PINGPONG, rdm.toString()), rdmName, provider, sizes);
        }
    }

    /** One libfabric ping-pong on its own: the marginal half round trip per size (see FiPingPong). */
    private static void alone(Options o, Collector c, FiPingPong peer, String name, String provider, int[] sizes)
            throws Exception {
        List<Point> points = new ArrayList<>();
        for (int size : sizes) {
            double us = peer.halfRoundTripMicros(provider, size, o.iterations());
            if (!Double.isNaN(us)) {
                points.add(new Point(size, us, Double.NaN));
            }
        }
        addOrSkip(c, new Series(name, SuiteReport.LATENCY, "-", true, "mean", points, "set-up cancelled"
                + " (FiPingPong)"));
    }

    /** Adds {@code s}, or reports it skipped when set-up noise left it no figure at any size. */
    private static void addOrSkip(Collector c, Series s) {
        if (s.points().isEmpty()) {
            c.skip(s.name(), "no figure at any size: the two runs' difference was not positive (set-up noise above"
                    + " the transfers' time); measure on an idle machine or with more --iterations");
        } else {
            c.add(s);
        }
    }

    /** Windows of gets of the Put bandwidth rows' sizes; the 8-byte windows give the message rate. */
    private static void getWindows(Options o, String t, Collector c) throws Exception {
        int[] sizes = bandwidthPlus(o);
        GetLatency.Rate[] rates = GetLatency.bandwidth(t, sizes, o.quick() ? 8 : 64, o.quick() ? 4 : 16);
        List<Point> bw = new ArrayList<>();
        List<Point> rate = new ArrayList<>();
        for (GetLatency.Rate r : rates) {
            bw.add(new Point(r.size(), r.gigabytesPerSecond() * 1e3, Double.NaN));
            if (r.size() == 8) {
                rate.add(new Point(8, r.getsPerSecond(), Double.NaN));
            }
        }
        c.add(new Series(GET_WINDOWS, SuiteReport.BANDWIDTH, t, false, "median", bw, "windows of "
                + PingPong.WINDOW + " gets, GetLatency"));
        c.add(new Series(GET_WINDOWS, SuiteReport.RATE, t, false, "median", rate, "8-byte gets in windows of "
                + PingPong.WINDOW));
    }

    /**
     * Put on udp with {@code udp.mac=crc32c} (integrity only): latency and 1 MiB bandwidth, beside Open MPI TCP
     * loopback; the (cheaper) thread baseline it runs beside is not reported: the udp row has the datagram one.
     */
    private static void udpCrc32c(Options o, Collector c) throws Exception {
        PingPong.Result r = PingPong.measure(new PingPong.Options("udp", UDP_CRC32C_OPTIONS,
                PingPong.Baseline.THREADS, IdleMode.BACKOFF, o.sizes(), o.iterations(), o.quick(), -1, MIB,
                o.placement()));
        List<Point> put = new ArrayList<>();
        for (PingPong.Row row : r.rows()) {
            put.add(new Point(row.size(), row.portalsP50(), row.portalsP99()));
        }
        String note = "udp.mac=crc32c, udp.allowUnauthenticated=true: no authentication; " + r.placement();
        c.add(new Series(PUT, SuiteReport.LATENCY, UDP_CRC32C, false, "p50", put, "half round trip, PingPong; "
                + note));
        c.add(new Series(PUT, SuiteReport.BANDWIDTH, UDP_CRC32C, false, "median",
                List.of(new Point(MIB, r.bandwidth().portalsPut() * 1e3, Double.NaN)), "windows of "
                + PingPong.WINDOW + " puts; " + note));
    }

    private static void lapi(Options o, String t, Collector c) throws Exception {
        AmsendPingPong.Result r = AmsendPingPong.measure(new AmsendPingPong.Options(t,
                Math.max(AmsendPingPong.ROUNDS, o.iterations()), RetFlag.SEND_REPLY, false, o.quick()));
        List<Point> amsend = new ArrayList<>();
        List<Point> put = new ArrayList<>();
        for (AmsendPingPong.Row row : r.rows()) {
            amsend.add(new Point(row.size(), row.amsendP50(), row.amsendP99()));
            put.add(new Point(row.size(), row.putP50(), row.putP99()));
        }
        c.add(new Series(LAPI, SuiteReport.LATENCY, t, false, "p50", amsend, "AmsendPingPong, interrupt mode"));
        c.add(new Series(LAPI_PUT, SuiteReport.LATENCY, t, false, "p50", put, "AmsendPingPong's Put ping-pong,"
                + " alternating with Amsend's in rounds"));
        c.add(new Series(LAPI, SuiteReport.BANDWIDTH, t, false, "median",
                List.of(new Point(MIB, r.bandwidth().amsend() * 1e3, Double.NaN)), "1 MiB windows, AmsendPingPong"));
        c.add(new Series(LAPI_PUT, SuiteReport.BANDWIDTH, t, false, "median",
                List.of(new Point(MIB, r.bandwidth().put() * 1e3, Double.NaN)), "1 MiB windows, AmsendPingPong,"
                + " alternating with Amsend's"));
    }

    /** LapiCBench: native-shim's lapi_bench.c, Amsend against PtlPut from C in one 2-process job on udp. */
    private static void lapiC(Options o, Collector c) throws Exception {
        String missing = LapiCBench.missing(o.nativeDir(), o.shimSources());
        if (missing != null) {
            c.skip(LAPI_C_ROW, missing);
            return;
        }
        LapiCBench.Result r = o.quick()
                ? LapiCBench.measure(o.nativeDir(), o.shimSources(), o.iterations(), 4, 10, 100)
                : LapiCBench.measure(o.nativeDir(), o.shimSources(), o.iterations(), 200, 5_000, 600);
        List<Point> amsend = new ArrayList<>();
        List<Point> put = new ArrayList<>();
        for (LapiCBench.Row row : r.rows()) {
            amsend.add(new Point(row.size(), row.amsend(), Double.NaN));
            put.add(new Point(row.size(), row.put(), Double.NaN));
        }
        String note = "lapi_bench, 2 processes, " + r.placement() + (r.jitMillis() < 0 ? ""
                : "; rank 0's JIT compiled for " + r.jitMillis() + " ms during the 1 MiB rounds");
        c.add(new Series(LAPI_C, SuiteReport.LATENCY, "udp", false, "median", amsend, note));
        c.add(new Series(LAPI_C_PUT, SuiteReport.LATENCY, "udp", false, "median", put, note));
        c.add(new Series(LAPI_C, SuiteReport.BANDWIDTH, "udp", false, "median",
                List.of(new Point(MIB, r.amsendMiBs() * MIB / 1e6, Double.NaN)), note));
        c.add(new Series(LAPI_C_PUT, SuiteReport.BANDWIDTH, "udp", false, "median",
                List.of(new Point(MIB, r.putMiBs() * MIB / 1e6, Double.NaN)), note));
    }

    /** The MPI layer's run: {@code MpiOsu}'s default length, up to 1 MiB (64 KiB with --quick). */
    static OsuRun mpiRun(Options o) {
        return OsuRun.standard(o.quick() ? 64 * 1024 : MIB, o.quick());
    }

    private static void mpiLayer(Options o, String t, Collector c) throws Exception {
        MpiOsuLayer layer = new MpiOsuLayer(t, mpiRun(o));
        OsuTable lat = layer.latency();
        List<Point> points = new ArrayList<>();
        for (int size : o.sizes()) {
            if (lat.rows().containsKey(size)) {
                points.add(new Point(size, lat.at(size), Double.NaN));
            }
        }
        c.add(new Series("Portals3J MPI layer", SuiteReport.LATENCY, t, false, "mean", points, "MpiOsuLayer,"
                + " ranks as threads"));
        OsuTable bw = layer.bandwidth();
        List<Point> bws = new ArrayList<>();
        for (int size : bandwidthPlus(o)) {
            if (bw.rows().containsKey(size)) {
                bws.add(new Point(size, bw.at(size), Double.NaN));
            }
        }
        c.add(new Series("Portals3J MPI layer", SuiteReport.BANDWIDTH, t, false, "mean", bws, "MpiOsuLayer"));
    }

    private static void isotach(Options o, String t, Collector c) throws Exception {
        IsotachConfig config = IsotachConfig.builder().build();
        int[] sizes = o.quick() ? new int[] {64} : new int[] {64, 1024};
        int n = o.quick() ? 100 : 2000;
        List<Point> iso = new ArrayList<>();
        List<Point> noniso = new ArrayList<>();
        List<Point> isoRate = new ArrayList<>();
        List<Point> nonisoRate = new ArrayList<>();
        for (int size : sizes) {
            IsotachBench.Pair lat = IsotachBench.latency(t, config, size, n);
            iso.add(new Point(size, lat.isotach() / 1e3, Double.NaN));
            noniso.add(new Point(size, lat.noniso() / 1e3, Double.NaN));
            IsotachBench.Pair thr = IsotachBench.throughput(t, config, size, n * 5);
            isoRate.add(new Point(size, thr.isotach(), Double.NaN));
            nonisoRate.add(new Point(size, thr.noniso(), Double.NaN));
        }
        c.add(new Series(ISOTACH, SuiteReport.LATENCY, t, false, "median", iso, "IsotachBench"));
        c.add(new Series(NONISO, SuiteReport.LATENCY, t, false, "median", noniso, "IsotachBench"));
        c.add(new Series(ISOTACH, SuiteReport.RATE, t, false, "median", isoRate, "IsotachBench stream"));
        c.add(new Series(NONISO, SuiteReport.RATE, t, false, "median", nonisoRate, "IsotachBench stream"));
    }

    /** ShimPingPong: the C Put ping-pong through the shim and the same in Java, 2 processes each on udp. */
    private static void shim(Options o, Collector c) throws Exception {
        String missing = ShimPingPong.missing(o.nativeDir(), o.shimSources());
        if (missing != null) {
            c.skip(SHIM_C + " vs " + SHIM_JAVA, missing);
            return;
        }
        ShimPingPong.Result r = ShimPingPong.measure(o.nativeDir(), o.shimSources(),
                o.quick() ? new int[] {8} : new int[] {8, 1024}, o.quick() ? o.iterations() : 2 * o.iterations(),
                o.quick() ? 1 : 3);
        List<Point> cRows = new ArrayList<>();
        List<Point> javaRows = new ArrayList<>();
        for (ShimPingPong.Row row : r.rows()) {
            cRows.add(new Point(row.size(), row.c(), Double.NaN));
            javaRows.add(new Point(row.size(), row.java(), Double.NaN));
        }
        String note = String.format(Locale.ROOT, "ShimPingPong, 2 processes; PtlGetUid from C %.1f ns, from Java"
                + " %.1f ns", r.cCallNanos(), r.javaCallNanos());
        c.add(new Series(SHIM_C, SuiteReport.LATENCY, "udp", false, "p50", cRows, note));
        c.add(new Series(SHIM_JAVA_ROW, SuiteReport.LATENCY, "udp", false, "p50", javaRows, note));
    }

    /** The machine: host, CPU model, cores, OS, JVM. */
    static Map<String, String> machine() {
        Map<String, String> m = new LinkedHashMap<>();
        String host = "unknown";
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            // keep "unknown"
        }
        m.put("host", host);
        m.put("cpu", cpuModel());
        m.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        m.put("jvm arguments", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return "unknown";
    }
}
