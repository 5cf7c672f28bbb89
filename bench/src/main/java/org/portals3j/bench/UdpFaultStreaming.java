package org.portals3j.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code udp} transport's 1 MiB Put stream on loopback through the fault injector: clean, with 5% and 20%
 * of received datagrams lost, with 10 ms of delay, with 10 ms of delay and 25% of datagrams 10 ms later
 * still (overtaken by the ones behind them), and with 10 ± 5 ms of jitter. Every endpoint delays what it
 * receives, so a round trip pays the delay twice. The scenarios alternate, {@code rounds} times, so that
 * all see the same machine; each prints its median rate, its ratio to the clean run and, for the delayed
 * ones, to the same delay without reordering, and the sending rank's retransmission counters.
 *
 * <pre>./portals stream --faults [--rounds N] [--seconds S] [--quick]</pre>
 */
public final class UdpFaultStreaming {
    static final String CLEAN = "clean";
    static final String DELAY = "delay 10 ms";

    /** A named set of fault options; {@code reference} is the scenario its second ratio is taken against, or null. */
    record Scenario(String name, Map<String, String> options, String reference) {
    }

    static final List<Scenario> SCENARIOS = List.of(
            new Scenario(CLEAN, Map.of(), null),
            new Scenario("loss 5%", Map.of("udp.fault.loss", "0.05"), null),
            new Scenario("loss 20%", Map.of("udp.fault.loss", "0.20"), null),
            new Scenario(DELAY, Map.of("udp.fault.delayMicros", "10000"), null),
            new Scenario("delay 10 ms, 25% reordered", Map.of("udp.fault.delayMicros", "10000",
                    "udp.fault.late", "0.25", "udp.fault.lateMicros", "10000"), DELAY),
            new Scenario("jitter 10 +- 5 ms", Map.of("udp.fault.delayMicros", "10000",
                    "udp.fault.jitterMicros", "5000"), DELAY));

    /** Counters of the sending rank shown per scenario (those this build has). */
    static final List<String> SHOWN_COUNTERS = List.of("datagrams.sent", "retransmits", "retransmits.fast", "timeouts",
            "retransmits.spurious", "cwnd.undos");

    private UdpFaultStreaming() {
    }

    /** One scenario's rounds. */
    record Row(Scenario scenario, List<PutStream.Result> runs) {
        double median() {
            List<Double> rates = new ArrayList<>();
            runs.forEach(r -> rates.add(r.gbPerSecond()));
            return PingPong.median(rates);
        }

        double min() {
            return runs.stream().mapToDouble(PutStream.Result::gbPerSecond).min().orElse(Double.NaN);
        }

        double max() {
            return runs.stream().mapToDouble(PutStream.Result::gbPerSecond).max().orElse(Double.NaN);
        }

        /** The median over the rounds of a sender counter per MiB sent, or NaN if this build has no such counter. */
        double perMib(String counter) {
            List<Double> values = new ArrayList<>();
            for (PutStream.Result r : runs) {
                Long v = r.counters().get(counter);
                if (v == null) {
                    return Double.NaN;
                }
                values.add(v / (double) r.mibSent());
            }
            return PingPong.median(values);
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = 3;
        boolean quick = false;
        double seconds = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--faults" -> {
                    // how UdpStreaming hands over
                }
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--quick" -> quick = true;
                default -> {
                    System.err.println("usage: UdpFaultStreaming [--rounds N] [--seconds S] [--quick]");
                    System.exit(2);
                }
            }
        }
        PutStream.Budget budget = quick ? new PutStream.Budget(1, 1, 4, 0.2)
                : new PutStream.Budget(4, 4, 2000, seconds);
        print(measure(rounds, budget, System.err), rounds, System.out);
    }

    /** Runs every scenario {@code rounds} times, alternating; progress goes to {@code log}. */
    static List<Row> measure(int rounds, PutStream.Budget budget, PrintStream log) throws Exception {
        Map<String, List<PutStream.Result>> runs = new LinkedHashMap<>();
        SCENARIOS.forEach(s -> runs.put(s.name(), new ArrayList<>()));
        for (int round = 0; round < rounds; round++) {
            for (Scenario s : SCENARIOS) {
                PutStream.Result r = PutStream.measure(s.options(), budget);
                runs.get(s.name()).add(r);
                log.printf(Locale.ROOT, "round %d  %-28s %7.3f GB/s  (%d windows, %.1f s)%n", round + 1, s.name(),
                        r.gbPerSecond(), r.windows(), r.seconds());
            }
        }
        List<Row> rows = new ArrayList<>();
        SCENARIOS.forEach(s -> rows.add(new Row(s, List.copyOf(runs.get(s.name())))));
        return rows;
    }

    static void print(List<Row> rows, int rounds, PrintStream out) {
        Map<String, Double> medians = new LinkedHashMap<>();
        rows.forEach(r -> medians.put(r.scenario().name(), r.median()));
        double clean = medians.get(CLEAN);
        out.printf(Locale.ROOT, "udp 1 MiB Put stream through the fault injector (windows of %d, medians of %d rounds,"
                + " GB/s = 10^9 B/s; counters: sending rank, per MiB sent):%n", PutStream.WINDOW, rounds);
        out.printf(Locale.ROOT, "  %-28s %8s %15s %9s %12s", "scenario", "GB/s", "range", "/ clean", "/ delay");
        for (String c : SHOWN_COUNTERS) {
            out.printf(Locale.ROOT, " %12s", c.replace("retransmits", "rtx"));
        }
        out.println();
        for (Row r : rows) {
            double median = r.median();
            String reference = r.scenario().reference();
            out.printf(Locale.ROOT, "  %-28s %8.3f %7.3f-%-7.3f %9.3f %12s", r.scenario().name(), median, r.min(),
                    r.max(),
                    median / clean, reference == null ? ""
                    : String.format(Locale.ROOT, "%.3f", median / medians.get(reference)));
            for (String c : SHOWN_COUNTERS) {
                double v = r.perMib(c);
                out.printf(Locale.ROOT, " %12s", Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v));
            }
            out.println();
        }
    }
}
