package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs CpuRoundTrip for real, briefly, and checks its figures and line (never how fast it was). */
class CpuRoundTripTest {

    @Test
    void aShortRunTimesBothPathsAndPrintsTheirRatio() throws Exception {
        CpuRoundTrip.Result r = CpuRoundTrip.measure(64, 0.2);

        assertThat(r.size()).isEqualTo(64);
        assertThat(r.batches()).as("measured batches").isGreaterThanOrEqualTo(3);
        assertThat(r.portalsNanos()).isPositive();
        assertThat(r.baselineNanos()).isPositive();
        assertThat(r.ratio()).isCloseTo(r.portalsNanos() / r.baselineNanos(), within(1e-9));
        assertThat(r.portalsCpuNanos()).as("thread CPU time, which Linux measures").isPositive();
        assertThat(r.baselineCpuNanos()).isPositive();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CpuRoundTrip.print(r, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("CPU half round trip, 64 B, one thread, median of " + r.batches() + " batches")
                .contains("; thread CPU time, lower decile: Portals ");
    }

    @Test
    void aSizeBelowOneByteIsRefused() {
        assertThatThrownBy(() -> CpuRoundTrip.measure(0, 0.1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size must be positive");
    }
}
