package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** MpiCollectives: a line per mode, rank count and benchmark with a positive time; bad options refused. */
class MpiCollectivesTest {
    private static final Pattern LINE = Pattern.compile(
            "threads (barrier|allreduce) +ranks (\\d): +([0-9.]+) us, per call +(-?[0-9.]+) voluntary and .*");

    @Test
    void measuresEachBenchmarkOnEachRankCountOverInmem() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int rc = MpiCollectives.run(new String[] {"--transport", "inmem", "--ranks", "2,3", "--iterations", "20",
            "--warmup", "5"}, new PrintStream(printed, true, StandardCharsets.UTF_8), System.err);

        assertThat(rc).isZero();
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines.get(0)).startsWith("# MPI layer collectives, transport inmem, 20 calls after 5 warm-up");
        assertThat(lines).hasSize(5);
        String[] expected = {"barrier 2", "allreduce 2", "barrier 3", "allreduce 3"};
        for (int i = 0; i < expected.length; i++) {
            Matcher m = LINE.matcher(lines.get(i + 1));
            assertThat(m.matches()).as(lines.get(i + 1)).isTrue();
            assertThat(m.group(1) + " " + m.group(2)).isEqualTo(expected[i]);
            assertThat(Double.parseDouble(m.group(3))).isPositive();
        }
    }

    @Test
    void anUnknownModeIsRefusedWithTheUsage() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = MpiCollectives.run(new String[] {"--mode", "fibres"}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown mode 'fibres'", MpiCollectives.USAGE);
    }
}
