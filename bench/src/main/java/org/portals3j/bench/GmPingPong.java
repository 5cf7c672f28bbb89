package org.portals3j.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.portals3j.transport.Availability;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.gm.GmTransportProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The gm transport against libfabric's own ping-pong on the same provider.
 *
 * <p><b>gm:</b> {@link PingPong}'s Put ping-pong on a 2-rank job over the {@code gm} transport ({@code
 * gm.provider} as given, other gm options through {@code --option}; the ranks are two threads of this JVM, each with
 * its own GM port and endpoint, as the udp rows are), idle strategy backoff unless {@code --idle} says otherwise:
 * the p50 half round trip per size and the 1 MiB windows of {@value PingPong#WINDOW} puts.
 *
 * <p><b>Peer:</b> {@code fi_pingpong -p PROVIDER -e rdm -S SIZE} of libfabric-bin, a server and a client process on
 * 127.0.0.1 ({@link FiPingPong}: mean half round trip, set-up cancelled out). The two alternate in rounds (the first
 * of each pair alternates too), and the table shows the medians of the rounds. fi_pingpong is the only libfabric
 * benchmark libfabric-bin ships, so the 1 MiB bandwidth peer is its 1 MiB ping-pong: size over half round trip,
 * compared with the same figure of gm's 1 MiB ping-pong.
 *
 * <p><b>Floors, in the same rounds:</b> libgm's own ping-pong in C ({@link LibgmPingPong}, with {@code
 * --gmx-pingpong}: the same library calls without Java, FFM or Portals) and the same Portals ping-pong on the
 * in-memory transport (the engine's own cost, no network), for sizes up to {@value #FLOOR_MAX_SIZE} bytes.
 *
 * <p><b>FFM:</b> {@link GmCallCost}: an empty downcall and an idle {@code gmx_poll}, times the downcalls an eager
 * message makes ({@value #DOWNCALLS_PER_MESSAGE}, counted in the transport's code: see {@link #print}).
 */
public final class GmPingPong {
    /**
     * Downcalls one eager message of a ping-pong costs, from the transport's code: gmx_send (sender's thread); the
     * gmx_poll that returns the RECV and gmx_provide_receive_buffer (the receiving rank's thread, polling). Its FIN
     * rides on the reply and the SENT events come with these polls; the polls that find nothing are not counted.
     */
    static final int DOWNCALLS_PER_MESSAGE = 3;
    /** The largest size the floors (libgm in C, Portals on inmem) are measured for. */
    static final int FLOOR_MAX_SIZE = 65536;
    static final int DEFAULT_ROUNDS = 3;
    static final int DEFAULT_ITERATIONS = 20_000;
    static final int CALLS_TIMED = 2_000_000;
    static final int QUICK_CALLS_TIMED = 20_000;
    private static final TextTable TABLE = new TextTable(" ",
            TextTable.Column.left("provider", 8, 0),
            TextTable.Column.right("size", 10, 0),
            TextTable.Column.right("iters", 7, 0),
            TextTable.Column.right("gm_p50", 10, 3),
            TextTable.Column.right("fi_pingpong", 12, 3),
            TextTable.Column.right("ratio", 7, 2),
            TextTable.Column.right("libgm_c", 9, 3),
            TextTable.Column.right("portals_inmem", 14, 3));

    static final String USAGE = """
            usage: GmPingPong [--providers tcp,shm] [--sizes 8,1M] [--iterations N] [--rounds R]
                              [--option gm.KEY=VALUE]... [--idle spin|yield|park|backoff]
                              [--fi-pingpong PATH] [--gmx-pingpong PATH] [--quick]
              --providers    gm.provider values to measure, each against fi_pingpong on the same provider
                             (tcp is tcp;ofi_rxm, udp is udp;ofi_rxd; default tcp,shm)
              --sizes        message sizes, K/M suffixes allowed (default 8,1K,1M)
              --iterations   round trips per round for sizes up to 4 KiB, fewer above (default 20000)
              --rounds       gm and fi_pingpong alternate this many times (default 3)
              --option       a gm transport option, e.g. gm.strict=false (repeatable)
              --idle         how the ranks wait in PtlEQWait (default backoff)
              --fi-pingpong  the fi_pingpong executable (default: the one on PATH)
              --gmx-pingpong libgm's C ping-pong (built by libgm's tests into
                             native-shim/libgm/target/c-tests/gmx_pingpong; default: not run)
              --quick        a short run (200 iterations, 1 round) for tests""";

    private GmPingPong() {
    }

    /** What to run. */
    public record Options(List<String> providers, Map<String, String> gmOptions, IdleMode idle, int[] sizes,
                          int iterations, int rounds, boolean quick, String fiPingPong, String gmxPingPong) {
        public Options {
            providers = List.copyOf(providers);
            gmOptions = Map.copyOf(gmOptions);
            sizes = sizes.clone();
            if (providers.isEmpty() || sizes.length == 0) {
                throw new IllegalArgumentException("no providers or no sizes");
            }
            if (iterations < 10 || rounds < 1) {
                throw new IllegalArgumentException("iterations must be >= 10 and rounds >= 1");
            }
        }

        @Override
        public int[] sizes() {
            return sizes.clone();
        }

        /** The same ping-pong on inmem, for the sizes up to {@value #FLOOR_MAX_SIZE} (none: null). */
        PingPong.Options enginePingPong() {
            int[] small = Arrays.stream(sizes).filter(s -> s <= FLOOR_MAX_SIZE).toArray();
            return small.length == 0 ? null : new PingPong.Options("inmem", Map.of(), PingPong.Baseline.THREADS, idle,
                    small, iterations, quick, -1, 8);
        }

        /** PingPong's options for one gm run on {@code provider}. */
        PingPong.Options pingPong(String provider) {
            Map<String, String> transport = new LinkedHashMap<>(gmOptions);
            transport.put("gm.provider", provider);
            return new PingPong.Options("gm", transport, PingPong.Baseline.THREADS, idle, sizes, iterations, quick, -1,
                    PingPong.MIB);
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
            List<String> providers = Arrays.stream(a.providers.split(",")).map(String::trim).toList();
            String what = "KEY=VALUE of a gm option other than gm.provider (see --providers)";
            for (String option : a.common.options) {
                if (option.startsWith("gm.provider=")) {
                    throw new IllegalArgumentException("--option needs " + what + ", not '" + option + "'");
                }
            }
            String fi = a.fiPingPong;
            if (fi.isEmpty()) {
                Path onPath = FiPingPong.onPath();
                fi = onPath == null ? "fi_pingpong" : onPath.toString();
            }
            boolean quick = a.common.quick;
            return new Options(providers, a.common.transportOptions(what), a.common.idle(),
                    a.common.sizes(new int[] {8, 1024, PingPong.MIB}), a.common.iterations(DEFAULT_ITERATIONS),
                    a.rounds.isEmpty() ? quick ? 1 : DEFAULT_ROUNDS : PingPongArgs.count("--rounds", a.rounds), quick,
                    fi, a.gmxPingPong);
        }

        /** GmPingPong's command line: the shared options and its own. */
        @Command(name = "GmPingPong")
        private static final class Args {
            @Mixin
            PingPongArgs common = new PingPongArgs();

            @Option(names = "--providers")
            String providers = "tcp,shm";

            @Option(names = "--rounds")
            String rounds = "";

            @Option(names = "--fi-pingpong")
            String fiPingPong = "";

            @Option(names = "--gmx-pingpong")
            String gmxPingPong = "";
        }
    }

    /**
     * One size on one provider: medians over the rounds, in microseconds per half round trip; the floors NaN where
     * not measured.
     */
    public record Row(String provider, int size, int iterations, double gmP50, double fiPingPong, double libgm,
                      double engine) {
        public double ratio() {
            return gmP50 / fiPingPong;
        }

        /** gm's ping-pong rate in GB/s (size over the p50 half round trip). */
        public double gmRate() {
            return size / gmP50 / 1000.0;
        }

        public double fiRate() {
            return size / fiPingPong / 1000.0;
        }
    }

    /** One provider: its rows, gm's 1 MiB Put windows (GB/s, median of rounds) and the call costs. */
    public record ProviderResult(String provider, List<Row> rows, double gmPutWindows, GmCallCost.Costs costs) {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Parses {@code args}, measures, prints; returns the exit code (2: bad arguments or nothing to run with). */
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
        for (String provider : options.providers()) {
            Availability a = GmTransportProvider.availability(provider);
            if (!a.available()) {
                err.println("gm over " + provider + " cannot run here: " + a.reason());
                return 2;
            }
        }
        try {
            printHeader(options, out);
            for (String provider : options.providers()) {
                print(measure(options, provider), out);
            }
            return 0;
        } catch (Exception e) {
            err.println("gm ping-pong failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /** gm and fi_pingpong on {@code provider}, alternating in rounds, then the call costs. */
    public static ProviderResult measure(Options options, String provider) throws Exception {
        int[] sizes = options.sizes();
        PingPong.Options gmOptions = options.pingPong(provider);
        FiPingPong fi = new FiPingPong(options.fiPingPong());
        List<List<Double>> gm = new ArrayList<>();
        List<List<Double>> peer = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            gm.add(new ArrayList<>());
            peer.add(new ArrayList<>());
        }
        List<List<Double>> libgm = new ArrayList<>();
        List<List<Double>> engine = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            libgm.add(new ArrayList<>());
            engine.add(new ArrayList<>());
        }
        PingPong.Options engineOptions = options.enginePingPong();
        LibgmPingPong gmx = options.gmxPingPong().isEmpty() ? null
                : new LibgmPingPong(Path.of(options.gmxPingPong()));
        List<Double> windows = new ArrayList<>();
        for (int round = 0; round < options.rounds(); round++) {
            for (int i = 0; i < sizes.length; i++) {
                if (gmx != null && sizes[i] <= FLOOR_MAX_SIZE) {
                    libgm.get(i).add(gmx.halfRoundTripMicros(provider, sizes[i], gmOptions.iterationsFor(sizes[i])));
                }
            }
            if (engineOptions != null) {
                PingPong.Result r = PingPong.measure(engineOptions);
                for (int i = 0, j = 0; i < sizes.length; i++) {
                    if (sizes[i] <= FLOOR_MAX_SIZE) {
                        engine.get(i).add(r.rows().get(j++).portalsP50());
                    }
                }
            }
            for (int half = 0; half < 2; half++) {
                if ((half == 0) == (round % 2 == 0)) {
                    for (int i = 0; i < sizes.length; i++) {
                        double micros = fi.halfRoundTripMicros(provider, sizes[i], gmOptions.iterationsFor(sizes[i]));
                        if (!Double.isNaN(micros)) {
                            peer.get(i).add(micros);
                        }
                    }
                } else {
                    PingPong.Result r = PingPong.measure(gmOptions);
                    for (int i = 0; i < sizes.length; i++) {
                        gm.get(i).add(r.rows().get(i).portalsP50());
                    }
                    windows.add(r.bandwidth().portalsPut());
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            rows.add(new Row(provider, sizes[i], gmOptions.iterationsFor(sizes[i]), PingPong.median(gm.get(i)),
                    medianOrNaN(peer.get(i)), medianOrNaN(libgm.get(i)), medianOrNaN(engine.get(i))));
        }
        GmCallCost.Costs costs = GmCallCost.measure(provider, options.quick() ? QUICK_CALLS_TIMED : CALLS_TIMED);
        return new ProviderResult(provider, rows, PingPong.median(windows), costs);
    }

    private static double medianOrNaN(List<Double> values) {
        return values.isEmpty() ? Double.NaN : PingPong.median(values);
    }

    static void printHeader(Options o, PrintStream out) {
        out.printf(Locale.ROOT, "GmPingPong: Portals Put ping-pong over the gm transport (2 ranks in one JVM, idle"
                + " %s%s) against fi_pingpong -e rdm (server and client processes on 127.0.0.1) on the same"
                + " provider; %d round(s) alternating; half round trip in microseconds: gm p50, fi_pingpong mean"
                + " (set-up cancelled); medians of the rounds. Floors: libgm_c, libgm's C ping-pong (p50; - when"
                + " not run), and portals_inmem, the same Portals ping-pong on the in-memory transport (p50)%n",
                o.idle().name().toLowerCase(Locale.ROOT), o.gmOptions().isEmpty() ? "" : ", " + o.gmOptions(),
                o.rounds());
        TABLE.printHeader(out);
    }

    /** The provider's rows, its bandwidth lines and its FFM line. */
    public static void print(ProviderResult r, PrintStream out) {
        Map<Integer, Row> bySize = new LinkedHashMap<>();
        for (Row row : r.rows()) {
            // "-" where there is no figure: every fi_pingpong run drowned in noise, or libgm_c not run
            TABLE.printRow(out, row.provider(), row.size(), row.iterations(), row.gmP50(), row.fiPingPong(),
                    row.ratio(), row.libgm(), row.engine());
            bySize.put(row.size(), row);
        }
        Row mib = bySize.get(PingPong.MIB);
        if (mib != null && !Double.isNaN(mib.fiPingPong())) {
            out.printf(Locale.ROOT, "bandwidth %s 1 MiB ping-pong: gm %.3f GB/s, fi_pingpong %.3f GB/s, ratio %.2f;"
                    + " gm Put windows of %d: %.3f GB/s, ratio %.2f%n", r.provider(), mib.gmRate(), mib.fiRate(),
                    mib.gmRate() / mib.fiRate(), PingPong.WINDOW, r.gmPutWindows(), r.gmPutWindows() / mib.fiRate());
        } else {
            out.printf(Locale.ROOT, "bandwidth %s: gm Put windows of %d x 1 MiB: %.3f GB/s (no 1 MiB ping-pong"
                    + " of both measured)%n", r.provider(), PingPong.WINDOW, r.gmPutWindows());
        }
        GmCallCost.Costs c = r.costs();
        Row first = r.rows().get(0);
        double crossings = DOWNCALLS_PER_MESSAGE * c.emptyDowncall();
        out.printf(Locale.ROOT, "ffm %s: empty downcall %.1f ns, idle gmx_poll %.1f ns; %d downcalls per eager"
                + " message: %.0f ns of crossings (%.1f%% of the %d B half round trip); as idle gmx_polls"
                + " %.0f ns%n", r.provider(), c.emptyDowncall(), c.idlePoll(), DOWNCALLS_PER_MESSAGE,
                crossings, 100.0 * crossings / (first.gmP50() * 1000.0), first.size(),
                DOWNCALLS_PER_MESSAGE * c.idlePoll());
    }
}
