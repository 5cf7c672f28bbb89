package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.isotach.RandomSharedMemoryTest.Access;
import org.portals3j.tck.isotach.RandomSharedMemoryTest.Kind;

/**
 * The seed a run of the randomised shared-memory test printed replays it ({@code portals tck --seed N}): every
 * access of every host is chosen by the seed alone, never by how the run went. Here on inmem (the default). In the
 * kit's package to reach its package-private plan; named TestCase so that the kit does not take it for one of its own.
 */
class RandomSharedMemoryReplayTestCase {
    private static final long SEED = -4811350292153958126L;

    @Test
    void theSeedChoosesEveryAccessAndAnotherSeedOthers() {
        List<List<Access>> plans = RandomSharedMemoryTest.plans(SEED, 4, 300);
        assertThat(plans).hasSize(4).allSatisfy(p -> assertThat(p).hasSizeGreaterThanOrEqualTo(300));
        Set<Kind> kinds = EnumSet.noneOf(Kind.class);
        plans.forEach(p -> p.forEach(a -> kinds.add(a.kind())));
        assertThat(kinds).as("a plan with every kind of access").containsExactlyInAnyOrder(Kind.values());
        assertThat(RandomSharedMemoryTest.plans(SEED, 4, 300)).isEqualTo(plans);
        assertThat(RandomSharedMemoryTest.plans(SEED + 1, 4, 300)).isNotEqualTo(plans);
        assertThat(RandomSharedMemoryTest.plans(SEED, 6, 300)).as("each host count draws its own stream")
                .isNotEqualTo(plans);
    }

    /**
     * Two runs with one seed issue the same accesses, in the same order, at every host: the plan of the seed. An
     * access the layer refuses (buffers full, the read cap of 8) is tried again; it used to be replaced by a new
     * random one, so that a replay could issue other accesses than the run it replayed.
     */
    @Test
    void twoRunsWithOneSeedIssueThePlanOfTheSeed() {
        List<List<Access>> first = RandomSharedMemoryTest.runSeeded(4, SEED, 300);
        List<List<Access>> second = RandomSharedMemoryTest.runSeeded(4, SEED, 300);
        assertThat(first).isEqualTo(RandomSharedMemoryTest.plans(SEED, 4, 300));
        assertThat(second).isEqualTo(first);
    }
}
