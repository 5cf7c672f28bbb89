package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the fault-injected udp stream for real, as briefly as it goes, and checks what it reports (never how fast). */
class UdpFaultStreamingTest {

    @Test
    void oneShortRoundMeasuresEveryScenarioAndPrintsItsRatios() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<UdpFaultStreaming.Row> rows = UdpFaultStreaming.measure(1, new PutStream.Budget(1, 1, 1, 0),
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertThat(rows).extracting(r -> r.scenario().name()).containsExactly("clean", "loss 5%", "loss 20%",
                "delay 10 ms", "delay 10 ms, 25% reordered", "jitter 10 +- 5 ms");
        for (UdpFaultStreaming.Row r : rows) {
            assertThat(r.median()).isPositive();
            assertThat(r.runs().getFirst().mibSent()).isEqualTo(2L * PutStream.WINDOW);
        }
        assertThat(rows.get(1).runs().getFirst().counters().getOrDefault("fault.lost", 0L)).isPositive();
        assertThat(rows.get(4).runs().getFirst().counters().getOrDefault("fault.late", 0L)).isPositive();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UdpFaultStreaming.print(rows, 1, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("medians of 1 rounds", "/ clean", "/ delay", "delay 10 ms, 25% reordered",
                "rtx.fast");
    }
}
