package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs the staged-versus-unstaged comparison for real, briefly, and checks what it reports (never how fast). */
class StagedSendsTest {

    @Test
    void aQuickRoundReportsEveryFigureStagedAndUnstagedWithItsRatio() throws Exception {
        StagedSends.Result r = StagedSends.measure(4096, new int[] {8, 4096}, 1024, 1, 50, true);
        assertThat(r.figures()).extracting(StagedSends.Figure::name).containsExactly("8 B half round trip p50",
                "8 B half round trip p99", "4096 B half round trip p50", "4096 B half round trip p99",
                "1024 B puts, windows of " + PingPong.WINDOW);
        for (StagedSends.Figure f : r.figures()) {
            assertThat(f.staged()).as(f.name()).isPositive();
            assertThat(f.unstaged()).as(f.name()).isPositive();
        }

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StagedSends.print(r, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("staged (limit 4096 B, 64 buffers) vs unstaged",
                "medians of 1 alternating jobs", "ratio", "raw_udp");
    }
}
