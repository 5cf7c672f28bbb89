package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** How LapiCBench reads lapi_bench's rank 0 output (the real run is SuiteTest's). */
class LapiCBenchTest {
    private static final String OUT = """
            # one upcall: LAPI_Probe 41.3 ns (median of 10 runs of 500 calls)
            # lapi_bench: LAPI_Amsend against PtlPut, iterations=50 warmup=10 (medians)
            # Size          Put half-RTT (us)  Amsend half-RTT (us)  Amsend/Put
            # rank 0: warmed up: 2 passes of 10 round trips of each kind per size, then 4 MiB of each kind
            # rank 0: the JIT went quiet 200 ms after the warm-up, before the 8 B rows
            8                         4.23                  4.55        1.08
            # rank 0: the JIT went quiet 250 ms after the warm-up, before the 1024 B rows
            1024                      4.42                  4.95        1.12
            # rank 0: the JIT went quiet 200 ms after the warm-up, before the 1 MiB rounds
            # rank 0: the JIT's compiler threads used 30 ms of CPU during the 1 MiB rounds
            # bandwidth, count=4 per round, medians of 6 rounds
            # Size               Put (MiB/s)        Amsend (MiB/s)  Amsend/Put
            1048576                 4445.0                4272.2        0.96
            lapi_bench: rank 0 passed
            """;

    @Test
    void theTablesRowsAndTheJitLineAreRead() {
        LapiCBench.Result r = LapiCBench.parse(OUT, "here");
        assertThat(r.rows()).containsExactly(new LapiCBench.Row(8, 4.23, 4.55), new LapiCBench.Row(1024, 4.42, 4.95));
        assertThat(r.putMiBs()).isEqualTo(4445.0);
        assertThat(r.amsendMiBs()).isEqualTo(4272.2);
        assertThat(r.jitMillis()).isEqualTo(30);
        assertThat(r.placement()).isEqualTo("here");
    }

    @Test
    void outputWithoutTheBandwidthRowIsRefusedWithWhatWasPrinted() {
        String cut = OUT.substring(0, OUT.indexOf("1048576"));
        assertThatThrownBy(() -> LapiCBench.parse(cut, "here")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no 1 MiB row").hasMessageContaining("1024                      4.42");
    }
}
