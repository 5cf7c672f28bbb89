package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs MpiOsu for real with tiny counts and checks that every table and ratio was produced with positive figures
 * (never how fast anything was). Skipped, saying why, where Open MPI's mpicc or mpirun is missing.
 */
class MpiOsuTest {
    private static final Pattern RATIO = Pattern.compile("^ratio (.+) = ([0-9.]+) \\(([0-9.]+) / ([0-9.]+) .*$");

    @Test
    void aQuickRunPrintsEveryTableAndRatioWithPositiveFigures() {
        String missing = OpenMpiPeer.missingTools();
        assumeTrue(missing == null, () -> "skipped: " + missing);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = MpiOsu.run(new String[] {"--quick", "--max-size", "16K"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);

        assertThat(exit).as("exit code; stderr:%n%s%nstdout:%n%s", err, text).isZero();
        List<String> tables = new ArrayList<>();
        for (String block : text.split("\\R\\R")) {
            String[] lines = block.strip().split("\\R");
            if (lines.length >= 2 && lines[1].startsWith("# OSU MPI")) {
                OsuTable t = OsuTable.parse(block.strip().substring(block.strip().indexOf("# OSU MPI")));
                assertThat(t.rows()).as(block).isNotEmpty();
                t.rows().forEach((size, v) -> assertThat(v).as("%s, size %d", lines[0], size).isPositive());
                tables.add(lines[1] + (lines[0].contains("Open MPI") ? " peer" : " layer"));
            }
        }
        // latency (the layer twice: ranks as threads, as processes) and bandwidth on 2 ranks; allreduce and barrier
        // on 2 and 4 ranks; each by the layer and the peer
        assertThat(tables).hasSize(13);
        assertThat(tables).filteredOn(t -> t.startsWith("# OSU MPI Latency Test")).hasSize(3);
        assertThat(tables).filteredOn(t -> t.contains("Bandwidth")).hasSize(2);
        assertThat(tables).filteredOn(t -> t.contains("Allreduce")).hasSize(4);
        assertThat(tables).filteredOn(t -> t.contains("Barrier")).hasSize(4);
        assertThat(text).contains("# raw Portals Put ping-pong");
        // the threads' and the processes' latency tables each say how the JIT settled before they were timed
        assertThat(Pattern.compile("^# the JIT (went quiet \\d+ ms|was still compiling \\d+ ms) after the warm-up$",
                Pattern.MULTILINE).matcher(text).results().count()).as(text).isEqualTo(2);
        List<String> ratios = new ArrayList<>();
        for (String line : text.split("\\R")) {
            Matcher m = RATIO.matcher(line);
            if (m.matches()) {
                ratios.add(m.group(1));
                for (int g = 2; g <= 4; g++) {
                    assertThat(Double.parseDouble(m.group(g))).as(line).isPositive();
                }
            }
        }
        assertThat(ratios).hasSize(10).contains("latency 8 B, 2 ranks: layer / Open MPI",
                "latency 8 B, 2 ranks as processes: layer / Open MPI",
                "bandwidth 16384 B, 2 ranks: layer / Open MPI", "latency 8 B, 2 ranks: layer / raw Portals Put");
    }

    @Test
    void theSuitesMpiRowRunsTheDefaultLengthOfMpiOsu() {
        Suite.Options full = Suite.Options.parse();
        assertThat(full).isNotNull();
        assertThat(Suite.mpiRun(full)).isEqualTo(new OsuRun(Suite.MIB, 10_000, 2_000, 100));
        assertThat(Suite.mpiRun(full).iterationsFor(64 * 1024)).as("a tenth above 8 KiB").isEqualTo(1_000);
        Suite.Options quick = Suite.Options.parse("--quick");
        assertThat(quick).isNotNull();
        assertThat(Suite.mpiRun(quick)).isEqualTo(new OsuRun(64 * 1024, 20, 2, 2));
    }

    @Test
    void badOptionsAreRefusedWithUsage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = MpiOsu.run(new String[] {"--max-size", "4"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--max-size must be at least 8", "usage: MpiOsu");
    }
}
