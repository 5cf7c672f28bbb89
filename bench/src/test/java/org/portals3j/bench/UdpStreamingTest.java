package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs the udp streaming comparison for real, briefly, and checks what it reports (never how fast). */
class UdpStreamingTest {

    @Test
    void aQuickRoundMeasuresCleanLossyAndRawRatesAndPrintsTheirRatios() throws Exception {
        UdpStreaming.Result r = UdpStreaming.measure(1, true);
        assertThat(r.clean()).isPositive();
        assertThat(r.lossy()).isPositive();
        assertThat(r.rawBlast()).isPositive();
        assertThat(r.lossyOverClean()).isCloseTo(r.lossy() / r.clean(), within(1e-12));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UdpStreaming.print(r, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("medians of 1 rounds", "clean loopback", "1% datagrams lost", "ratio to clean",
                "raw datagram blast", "clean / raw");
    }
}
