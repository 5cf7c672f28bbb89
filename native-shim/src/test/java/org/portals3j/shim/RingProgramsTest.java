package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * C test programs of src/test/c that need more than two ranks, compiled with portalscc and run unmodified as a
 * job of four processes on udp and on gm over tcp;ofi_rxm, each checking what its header comment says (as
 * {@link TwoRankProgramsTest}).
 */
class RingProgramsTest {
    private static final int RANKS = 4;

    @ParameterizedTest(name = "over {0}")
    @EnumSource(names = {"UDP", "GM_TCP"})
    void aTokenGoesRoundARingOfFourRanksWithSendEndBeforeTheTokensReturn(JobTransport transport) throws Exception {
        transport.assumeAvailable();
        Path program = CBuild.compile33("ring_token33");
        List<CJob.Rank> ranks = CJob.run(program, RANKS, transport, "300");
        String job = CJob.describe(ranks);
        for (CJob.Rank rank : ranks) {
            assertThat(rank.status()).as(job).isZero();
            assertThat(rank.out()).as(job).contains("ring_token33: rank " + rank.rank() + " passed")
                    .doesNotContain("FAIL");
        }
    }
}
