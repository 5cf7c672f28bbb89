package org.portals3j.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Transport;

/** The stamp-batching period: set, or chosen by whether the transport's ranks may be separate processes. */
class IsotachConfigStampBatchTest {

    @Test
    void byDefaultThePeriodIsLeftToTheTransport() {
        IsotachConfig c = IsotachConfig.defaults();
        assertThat(c.stampBatchNanos()).isEqualTo(IsotachConfig.BY_TRANSPORT);
        assertThat(c.stampBatchNanosFor(false)).isEqualTo(IsotachConfig.IN_PROCESS_STAMP_BATCH_NANOS).isEqualTo(5_000);
        assertThat(c.stampBatchNanosFor(true)).isEqualTo(IsotachConfig.NETWORK_STAMP_BATCH_NANOS).isEqualTo(8_000);
        assertThat(c.toString()).contains("stamp batch by transport");
    }

    @Test
    void aPeriodThatIsSetHoldsOnEveryTransport() {
        for (long period : new long[] {0, 3_000, 12_000}) {
            IsotachConfig c = IsotachConfig.builder().stampBatchNanos(period).build();
            assertThat(c.stampBatchNanosFor(false)).isEqualTo(period);
            assertThat(c.stampBatchNanosFor(true)).isEqualTo(period);
            assertThat(c.toString()).contains("stamp batch " + period + " ns");
        }
    }

    @Test
    void aNegativePeriodOtherThanByTransportIsRefused() {
        assertThatThrownBy(() -> IsotachConfig.builder().stampBatchNanos(-2).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stamp batch period must be >= 0 nanoseconds (or -1: chosen by the transport), was -2");
    }

    @Test
    void aTransportWhoseProviderIsNotOnTheClassPathCountsAsInProcess() {
        Transport unknown = (Transport) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Transport.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "provider" -> "no-such-provider";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        assertThat(IsotachConfig.defaults().stampBatchNanosOn(unknown)).isEqualTo(IsotachConfig.IN_PROCESS_STAMP_BATCH_NANOS);
    }
}
