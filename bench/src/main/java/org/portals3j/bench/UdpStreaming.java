package org.portals3j.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.portals3j.transport.IdleMode;

/**
 * The {@code udp} transport's streaming figures, measured in one run: windows of 1 MiB Puts on a clean
 * loopback, the same with 1% of received datagrams dropped by the transport's fault injector, and a raw
 * DatagramChannel blast of the same datagram size (the {@link PingPong} bandwidth measurement with the
 * datagram baseline). Clean and lossy jobs alternate, {@code rounds} times, so that both see the same
 * machine; the medians are reported.
 *
 * <pre>./portals stream [--rounds N] [--quick] [--option udp.KEY=VALUE ...]</pre>
 * {@code --option} sets a transport option for every job (to compare settings: run once with, once without).
 *
 * <p>{@code --faults} runs {@link UdpFaultStreaming} instead (delay, jitter, reordering and loss).
 */
public final class UdpStreaming {
    static final String LOSS = "0.01";

    private UdpStreaming() {
    }

    /** Median figures in GB/s. */
    public record Result(double clean, double lossy, double rawBlast, int rounds) {
        public double lossyOverClean() {
            return lossy / clean;
        }

        public double cleanOverRaw() {
            return clean / rawBlast;
        }
    }

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--faults")) {
            UdpFaultStreaming.main(args);
            return;
        }
        int rounds = 3;
        boolean quick = false;
        Map<String, String> extra = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--quick" -> quick = true;
                case "--option" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        System.err.println("--option takes udp.KEY=VALUE");
                        System.exit(2);
                    }
                    extra.put(kv[0], kv[1]);
                }
                default -> {
                    System.err.println("usage: UdpStreaming [--rounds N] [--quick] [--option udp.KEY=VALUE ...]");
                    System.exit(2);
                }
            }
        }
        if (!extra.isEmpty()) {
            System.out.println("options: " + extra);
        }
        print(measure(rounds, quick, extra), System.out);
    }

    public static Result measure(int rounds, boolean quick) throws Exception {
        return measure(rounds, quick, Map.of());
    }

    /** {@link #measure(int, boolean)} with {@code extra} transport options in every job. */
    public static Result measure(int rounds, boolean quick, Map<String, String> extra) throws Exception {
        List<Double> clean = new ArrayList<>();
        List<Double> lossy = new ArrayList<>();
        List<Double> raw = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            PingPong.Result c = PingPong.measure(options(extra, quick));
            clean.add(c.bandwidth().portalsPut());
            raw.add(c.bandwidth().baseline());
            Map<String, String> lossyOptions = new LinkedHashMap<>(extra);
            lossyOptions.put("udp.fault.loss", LOSS);
            PingPong.Result l = PingPong.measure(options(lossyOptions, quick));
            lossy.add(l.bandwidth().portalsPut());
            raw.add(l.bandwidth().baseline());
        }
        return new Result(PingPong.median(clean), PingPong.median(lossy), PingPong.median(raw), rounds);
    }

    private static PingPong.Options options(Map<String, String> extra, boolean quick) {
        Map<String, String> o = new LinkedHashMap<>(extra);
        return new PingPong.Options("udp", o, PingPong.Baseline.DATAGRAM, IdleMode.BACKOFF, new int[] {8},
                quick ? 50 : 200, quick);
    }

    public static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "udp streaming, 1 MiB Puts in windows of %d (medians of %d rounds, GB/s = 10^9 B/s):%n",
                PingPong.WINDOW, r.rounds());
        out.printf(Locale.ROOT, "  clean loopback        %6.2f GB/s%n", r.clean());
        out.printf(Locale.ROOT, "  1%% datagrams lost     %6.2f GB/s   ratio to clean %.2f%n", r.lossy(),
                r.lossyOverClean());
        out.printf(Locale.ROOT, "  raw datagram blast    %6.2f GB/s   clean / raw %.2f (same datagram size, %d B)%n",
                r.rawBlast(), r.cleanOverRaw(), PingPong.DEFAULT_DATAGRAM_SIZE);
    }
}
