package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.portals3j.transport.Job;

/** The Portals 3.3 job id a library derives from its job's id ({@link LibraryState#jobId}). */
class JobIdTest {

    private static int jid(String id) {
        return LibraryState.jobId(Job.builder(1).id(id).build());
    }

    @Test
    void aNumericJobIdBelowTwoToThe31IsTheJidItself() {
        assertThat(jid("0")).isZero();
        assertThat(jid("4711")).isEqualTo(4711);
        assertThat(jid("2147483647")).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void anyOtherJobIdIsHashedToANonNegativeValueSoNeverJidAny() {
        for (String id : new String[] {"job-1b4e28ba-2fa1-11d2-883f-0016d3cca427", "slurm-4711.0", "2147483648",
            "-5", "", "99999999999"}) {
            assertThat(jid(id)).as(id).isEqualTo(id.hashCode() & Integer.MAX_VALUE).isNotNegative();
        }
    }

    @Test
    void everyRankOfAJobDerivesTheSameJid() {
        Job job = Job.builder(3).id("job-shared").build();
        assertThat(LibraryState.jobId(job)).isEqualTo(jid("job-shared"));
    }
}
