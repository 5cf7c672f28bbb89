package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
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
        "lapi_putget, 4", "lapi_bench, 2", "lapi_control, 2", "lapi_control, 3", "lapi_purge, 2", "lapi_polling, 2",
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
}
