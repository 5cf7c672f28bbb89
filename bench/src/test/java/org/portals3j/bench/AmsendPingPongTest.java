package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Runs AmsendPingPong for real in --quick mode and checks what it prints (never how fast it was). */
class AmsendPingPongTest {
    private static final Pattern ROW = Pattern.compile(
            "^\\s*(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$", Pattern.MULTILINE);
    private static final Pattern BANDWIDTH = Pattern.compile(
            "^bandwidth 1 MiB: Put ([0-9.]+) GB/s, Amsend ([0-9.]+) GB/s, Amsend/Put ([0-9.]+) .*$", Pattern.MULTILINE);
    private static final Pattern ALLOCATION = Pattern.compile(
            "^allocation in the measured Amsend round trips \\(every thread\\): (-?\\d+) bytes over (\\d+) round trips",
            Pattern.MULTILINE);

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = AmsendPingPong.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aQuickRunPrintsBothSizesTheBandwidthAndTheAllocation() {
        for (String[] args : new String[][] {{"--flags", "send_reply"}, {"--flags", "normal"}, {"--mode", "polling"}}) {
            String out = run("--quick", args[0], args[1]);
            Matcher row = ROW.matcher(out);
            assertThat(row.find()).as(out).isTrue();
            assertThat(row.group(1)).isEqualTo("8");
            assertThat(row.find()).as(out).isTrue();
            assertThat(row.group(1)).isEqualTo("1024");
            assertThat(Double.parseDouble(row.group(4))).as("amsend p50").isPositive();
            Matcher bw = BANDWIDTH.matcher(out);
            assertThat(bw.find()).as(out).isTrue();
            assertThat(Double.parseDouble(bw.group(2))).as("Amsend GB/s").isPositive();
            Matcher alloc = ALLOCATION.matcher(out);
            assertThat(alloc.find()).as(out).isTrue();
            assertThat(Long.parseLong(alloc.group(2))).isEqualTo(400);
        }
    }

    @Test
    void badOptionsAreRefusedWithTheUsage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = AmsendPingPong.run(new String[] {"--flags", "local_state"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("send_reply or normal").contains("usage:");
    }
}
