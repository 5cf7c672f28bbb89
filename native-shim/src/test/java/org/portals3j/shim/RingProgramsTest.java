package org.portals3j.shim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * C test programs of src/test/c that need more than two ranks, compiled with portalscc and run unmodified as a
 * job of four processes on udp, each checking what its header comment says (as {@link TwoRankProgramsTest}).
 */
class RingProgramsTest {
    private static final int RANKS = 4;

    @Test
    void aTokenGoesRoundARingOfFourRanksWithSendEndBeforeTheTokensReturn() throws Exception {
        Path program = CBuild.compile33("ring_token33");
        List<CJob.Rank> ranks = CJob.run(program, RANKS, "300");
        for (CJob.Rank rank : ranks) {
            assertThat(rank.status()).as(rank.describe()).isZero();
            assertThat(rank.out()).as(rank.describe()).contains("ring_token33: rank " + rank.rank() + " passed")
                    .doesNotContain("FAIL");
        }
    }
}
