package org.portals3j.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The stamp-batching period: a default, or set. */
class IsotachConfigStampBatchTest {

    @Test
    void byDefaultThePeriodIsSixteenMicroseconds() {
        IsotachConfig c = IsotachConfig.defaults();
        assertThat(c.stampBatchNanos()).isEqualTo(IsotachConfig.DEFAULT_STAMP_BATCH_NANOS).isEqualTo(16_000);
        assertThat(c.toString()).contains("stamp batch 16000 ns");
    }

    @Test
    void aPeriodThatIsSetHolds() {
        for (long period : new long[] {0, 3_000, 12_000}) {
            IsotachConfig c = IsotachConfig.builder().stampBatchNanos(period).build();
            assertThat(c.stampBatchNanos()).isEqualTo(period);
            assertThat(c.toString()).contains("stamp batch " + period + " ns");
        }
    }

    @Test
    void aNegativePeriodIsRefused() {
        assertThatThrownBy(() -> IsotachConfig.builder().stampBatchNanos(-2).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stamp batch period must be >= 0 nanoseconds, was -2");
    }
}
