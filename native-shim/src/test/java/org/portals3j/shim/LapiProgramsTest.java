package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The LAPI C test programs of src/test/c (lapi_*.c, with lapitest.h), each compiled with portalscc as a user
 * would and run unmodified as a job of N processes on udp; each checks the LAPI semantics named in its header
 * comment, prints "FAIL file:line ..." and exits 1 on the first discrepancy, and prints "NAME: rank R passed"
 * at the end.
 */
class LapiProgramsTest {

    @ParameterizedTest(name = "{0} passes on {1} ranks")
    @CsvSource({"lapi_errors, 2", "lapi_amsend, 2", "lapi_amsend, 3", "lapi_address, 3", "lapi_putget, 2",
        "lapi_putget, 4", "lapi_control, 2", "lapi_control, 3", "lapi_purge, 2", "lapi_polling, 2",
        "lapi_polling, 3"})
    void lapiProgramPassesEveryCheck(String name, int ranks) throws Exception {
        Path program = CBuild.compile(name);
        List<CJob.Rank> result = CJob.run(program, ranks);
        String job = CJob.describe(result);
        for (CJob.Rank rank : result) {
            assertThat(rank.status()).as(job).isZero();
            assertThat(rank.out()).as(job).contains(name + ": rank " + rank.rank() + " passed")
                    .doesNotContain("FAIL");
        }
    }

    /**
     * lapi_bench (a quick run) passes its checks; every rank warms up every path a row measures, the 1 MiB
     * rendezvous included, before the first row; and before each timed phase every rank says after how long its
     * JVM's compiler threads went quiet (or that they were still compiling after 10 s).
     */
    @Test
    void lapiBenchWarmsEveryPathThenWaitsForTheJitBeforeEachTimedPhase() throws Exception {
        Path program = CBuild.compile("lapi_bench");
        List<CJob.Rank> result = CJob.run(program, 2);
        String job = CJob.describe(result);
        for (CJob.Rank rank : result) {
            assertThat(rank.status()).as(job).isZero();
            assertThat(rank.out()).as(job).contains("lapi_bench: rank " + rank.rank() + " passed")
                    .doesNotContain("FAIL");
            String out = rank.out();
            int warmed = out.indexOf("# rank " + rank.rank() + ": warmed up: 2 passes of 10 round trips of each kind"
                    + " per size, then 4 MiB of each kind\n");
            assertThat(warmed).as("the warm-up ran the 1 MiB path too: " + job).isNotNegative();
            assertThat(out.indexOf("before the 8 B rows")).as("the warm-up, 1 MiB included, before the first row: "
                    + job).isGreaterThan(warmed);
            for (String phase : List.of("the 8 B rows", "the 1024 B rows", "the 1 MiB rounds")) {
                assertThat(rank.out()).as(job).containsPattern("# rank " + rank.rank()
                        + ": the JIT (went quiet \\d+|was still compiling 10000) ms after the warm-up, before "
                        + phase + "\n");
            }
        }
    }
}
