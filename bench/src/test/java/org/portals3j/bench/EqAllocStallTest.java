package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs EqAllocStall for real on small queues and checks its figures and lines (never how fast it was). */
class EqAllocStallTest {

    @Test
    void aShortRunMeasuresEverySizeAndPrintsALineForIt() throws Exception {
        List<EqAllocStall.Result> results = EqAllocStall.measure(10, 14, 2, true);

        assertThat(results).extracting(EqAllocStall.Result::log2Events).containsExactly(10, 12, 14);
        for (EqAllocStall.Result r : results) {
            assertThat(r.allocMillis()).isPositive();
            assertThat(r.firstMillis()).isPositive();
            assertThat(r.baselineMillis()).isPositive();
            assertThat(r.longestCallMillis()).isGreaterThanOrEqualTo(0);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EqAllocStall.print(results, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).hasSize(4).element(1).asString().startsWith("2^10");
        assertThat(results).allSatisfy(r -> assertThat(r.allocations()).isGreaterThanOrEqualTo(2));
    }

    @Test
    void sizesOutsideWhatAQueueHoldsAreRefused() {
        assertThatThrownBy(() -> EqAllocStall.measure(16, 26, 1, false)).isInstanceOf(IllegalArgumentException.class);
    }
}
