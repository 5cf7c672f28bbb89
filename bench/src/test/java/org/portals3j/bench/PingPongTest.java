package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.PortalsConfig;

/** Runs PingPong for real in --quick mode and checks what it prints (never how fast it was). */
class PingPongTest {
    private static final Pattern ROW = Pattern.compile(
            "^\\s*(\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");
    private static final Pattern BANDWIDTH = Pattern.compile(
            "^bandwidth 1 MiB: Portals Put ([0-9.]+) GB/s, MemorySegment.copy ([0-9.]+) GB/s, ratio ([0-9.]+) .*$");

    private record Run(int exit, String out, String err) {
    }

    /** How far a 2-decimal ratio of two exact values may be from the ratio of their 3-decimal renderings. */
    private static double roundingTolerance(double a, double b) {
        return 0.0051 + 1.1 * (a / b) * (0.0005 / a + 0.0005 / b);
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = PingPong.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void quickRunPrintsOneRowPerSizeAndTheBandwidthLine() {
        Run r = run("--quick");

        assertThat(r.exit()).as("exit code; stderr:%n%s", r.err()).isZero();
        Map<Integer, double[]> rows = new LinkedHashMap<>();
        List<String> bandwidth = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                double[] v = new double[6];
                for (int i = 0; i < 6; i++) {
                    v[i] = Double.parseDouble(m.group(i + 3));
                }
                assertThat(rows.put(Integer.parseInt(m.group(1)), v)).as("a second row for size %s", m.group(1))
                        .isNull();
                assertThat(Integer.parseInt(m.group(2))).as("iterations of %s", line).isPositive();
            }
            if (BANDWIDTH.matcher(line).matches()) {
                bandwidth.add(line);
            }
        }
        int[] expected = PingPong.DEFAULT_SIZES;
        assertThat(rows.keySet()).as(r.out()).containsExactly(Arrays.stream(expected).boxed().toArray(Integer[]::new));
        assertThat(expected[0]).isEqualTo(8);
        assertThat(expected[expected.length - 1]).isEqualTo(1 << 20);
        for (Map.Entry<Integer, double[]> e : rows.entrySet()) {
            double[] v = e.getValue(); // portals p50, p99, baseline p50, p99, ratio p50, ratio p99
            assertThat(v[0]).as("portals p50 of %d", e.getKey()).isPositive().isLessThanOrEqualTo(v[1]);
            assertThat(v[2]).as("baseline p50 of %d", e.getKey()).isPositive().isLessThanOrEqualTo(v[3]);
            // the printed ratios are the quotients of the printed figures (up to their rounding)
            assertThat(v[4]).as("ratio p50 of %d", e.getKey())
                    .isCloseTo(v[0] / v[2], within(roundingTolerance(v[0], v[2])));
            assertThat(v[5]).as("ratio p99 of %d", e.getKey())
                    .isCloseTo(v[1] / v[3], within(roundingTolerance(v[1], v[3])));
        }
        assertThat(bandwidth).as(r.out()).hasSize(1);
        Matcher m = BANDWIDTH.matcher(bandwidth.get(0));
        assertThat(m.matches()).isTrue();
        double put = Double.parseDouble(m.group(1));
        double copy = Double.parseDouble(m.group(2));
        double ratio = Double.parseDouble(m.group(3));
        assertThat(put).isPositive();
        assertThat(copy).isPositive();
        assertThat(ratio).isCloseTo(put / copy, within(0.01 + 0.01 * put / copy));
        assertThat(r.out()).contains("transport 'inmem'", "idle strategy backoff");
    }

    @Test
    void sizesIdleAndTransportOptionsAreHonoured() {
        Run r = run("--quick", "--sizes", "8,4K", "--idle", "yield", "--transport=inmem", "--iterations", "100");

        assertThat(r.exit()).as("exit code; stderr:%n%s", r.err()).isZero();
        List<Integer> sizes = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                sizes.add(Integer.parseInt(m.group(1)));
                assertThat(Integer.parseInt(m.group(2))).isEqualTo(100);
            }
        }
        assertThat(sizes).containsExactly(8, 4096);
        assertThat(r.out()).contains("idle strategy yield").containsPattern("(?m)^bandwidth 1 MiB: ");
    }

    @Test
    void theDatagramBaselineIsARawDatagramPingPongUpToOneDatagramAndABlast() {
        Run r = run("--quick", "--baseline", "datagram", "--sizes", "8,1K,1M", "--iterations", "100");

        assertThat(r.exit()).as("exit code; stderr:%n%s", r.err()).isZero();
        assertThat(r.out()).contains("raw DatagramChannel datagram on loopback");
        Map<Integer, String> rows = new LinkedHashMap<>();
        for (String line : r.out().split("\n")) {
            if (line.matches("^\\s*\\d+\\s+\\d+\\s.*")) {
                rows.put(Integer.parseInt(line.trim().split("\\s+")[0]), line);
            }
        }
        assertThat(rows.keySet()).containsExactly(8, 1024, 1 << 20);
        assertThat(rows.get(8)).matches(ROW.pattern());
        assertThat(rows.get(1024)).matches(ROW.pattern());
        // 1 MiB does not fit one datagram: no baseline, said so with dashes rather than a made-up figure
        assertThat(rows.get(1 << 20).trim().split("\\s+")).endsWith("-", "-", "-", "-");
        Matcher m = Pattern.compile("(?m)^bandwidth 1 MiB: Portals Put ([0-9.]+) GB/s, raw datagram blast ([0-9.]+) "
                + "GB/s")
                .matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        assertThat(Double.parseDouble(m.group(2))).isPositive();
    }

    @Test
    void transportOptionsAndBaselineParse() {
        PingPong.Options o = PingPong.Options.parse("--transport", "udp", "--option", "udp.fault.loss=0.01",
                "--option=udp.datagramSize=8000");
        assertThat(o.baseline()).isEqualTo(PingPong.Baseline.DATAGRAM);
        assertThat(o.transportOptions()).containsEntry("udp.fault.loss", "0.01")
                .containsEntry("udp.datagramSize", "8000");
        assertThat(o.datagramSize()).isEqualTo(8000);
        assertThat(PingPong.Options.parse("--baseline", "threads", "--transport", "udp").baseline())
                .isEqualTo(PingPong.Baseline.THREADS);
        assertThat(PingPong.Options.parse().baseline()).isEqualTo(PingPong.Baseline.THREADS);
        assertThat(run("--option", "novalue").err()).contains("--option needs KEY=VALUE");
        assertThat(run("--baseline", "carrier-pigeon").err()).contains("unknown baseline 'carrier-pigeon'");
    }

    @Test
    void stagingAndBandwidthSizeParseAndReachTheLibrary() {
        PingPong.Options o = PingPong.Options.parse("--staging", "0", "--bandwidth-size", "8K");
        assertThat(o.stagedSendLimit()).isZero();
        assertThat(o.config().stagedSendLimit()).isZero();
        assertThat(o.bandwidthSize()).isEqualTo(8192);
        PingPong.Options defaults = PingPong.Options.parse();
        assertThat(defaults.config().stagedSendLimit()).isEqualTo(PortalsConfig.DEFAULT_STAGED_SEND_LIMIT);
        assertThat(defaults.bandwidthSize()).isEqualTo(1 << 20);
        assertThat(run("--staging", "-5").err()).contains("the staging limit must be >= 0");
    }

    @Test
    void windowsOfSmallPutsWarmUpWithTensOfThousandsOfPutsAndMibWindowsWithSixteen() {
        for (String size : List.of("8", "1K", "64K")) {
            PingPong.Options o = PingPong.Options.parse("--bandwidth-size", size);
            assertThat(o.bandwidthWarmupWindows() * PingPong.WINDOW).as("unmeasured puts of %s B", size)
                    .isEqualTo(PingPong.WARMUP_PUTS);
        }
        assertThat(PingPong.Options.parse("--bandwidth-size", "128K").bandwidthWarmupWindows()).isEqualTo(16);
        assertThat(PingPong.Options.parse().bandwidthWarmupWindows()).as("1 MiB, the default").isEqualTo(16);
        assertThat(PingPong.Options.parse("--bandwidth-size", "8", "--quick").bandwidthWarmupWindows()).isEqualTo(4);
        assertThat(PingPong.Options.parse().placement()).as("the default placement").isEqualTo(Placement.AUTO);
    }

    @Test
    void badOptionsAreRefusedWithUsage() {
        Run unknown = run("--frobnicate");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown option '--frobnicate'", "usage: PingPong");

        Run idle = run("--idle", "sleepy");
        assertThat(idle.exit()).isEqualTo(2);
        assertThat(idle.err()).contains("unknown idle strategy 'sleepy'");

        Run size = run("--sizes", "8,0");
        assertThat(size.exit()).isEqualTo(2);
        assertThat(size.err()).contains("message size 0");
    }

    @Test
    void anUnknownTransportFailsWithExitCode1() {
        Run r = run("--quick", "--transport", "no-such-transport");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("unknown transport 'no-such-transport'", "inmem");
    }

    @Test
    void sizeSuffixesParse() {
        PingPong.Options o = PingPong.Options.parse("--sizes", "8, 2k,1M", "--iterations=1000");
        assertThat(o.sizes()).containsExactly(8, 2048, 1 << 20);
        assertThat(o.iterations()).isEqualTo(1000);
        assertThat(o.iterationsFor(8)).isEqualTo(1000);
        assertThat(o.iterationsFor(1 << 20)).isLessThan(1000).isPositive();
        assertThat(PingPong.Options.parse("--help")).isNull();
    }
}
