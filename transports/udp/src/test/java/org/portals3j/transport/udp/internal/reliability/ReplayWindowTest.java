package org.portals3j.transport.udp.internal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The anti-replay window: each counter at most once, nothing older than the window, counters modulo 2^64. */
class ReplayWindowTest {
    private static final int W = ReplayWindow.WIDTH;

    @ParameterizedTest
    @ValueSource(longs = {0L, 1234L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, -W / 2})
    void aCounterIsAcceptedOnceWhateverItsValue(long start) {
        ReplayWindow w = new ReplayWindow();
        assertThat(w.accept(start)).as("the first counter ever").isTrue();
        assertThat(w.accept(start)).as("its replay").isFalse();
        assertThat(w.accept(start + 1)).isTrue();
        assertThat(w.accept(start + 1)).isFalse();
        assertThat(w.accept(start)).isFalse();
    }

    @Test
    void reorderedCountersWithinTheWindowAreAcceptedOnceEach() {
        ReplayWindow w = new ReplayWindow();
        long base = 1_000_000L;
        assertThat(w.accept(base + W - 1)).isTrue(); // the newest arrives first
        for (long c = base; c < base + W - 1; c++) {
            assertThat(w.accept(c)).as("counter %d, late but in the window", c).isTrue();
        }
        for (long c = base; c < base + W; c++) {
            assertThat(w.accept(c)).as("counter %d again", c).isFalse();
        }
    }

    @Test
    void theOldestCounterInTheWindowIsAcceptedAndTheOneBelowItIsNot() {
        ReplayWindow w = new ReplayWindow();
        long top = 50_000L;
        assertThat(w.accept(top)).isTrue();
        assertThat(w.accept(top - W)).as("exactly WIDTH below the highest").isFalse();
        assertThat(w.accept(top - W + 1)).as("WIDTH - 1 below the highest").isTrue();
        assertThat(w.accept(top - W + 1)).isFalse();
        assertThat(w.accept(top + 1)).isTrue(); // the window moves: top - W + 1 falls out
        assertThat(w.accept(top - W + 2)).isTrue();
        assertThat(w.accept(top - W + 1)).isFalse();
    }

    @Test
    void aJumpOfAtLeastTheWidthForgetsEverythingBelowIt() {
        ReplayWindow w = new ReplayWindow();
        for (long c = 0; c < 100; c++) {
            assertThat(w.accept(c)).isTrue();
        }
        assertThat(w.accept(99 + W)).isTrue();
        for (long c = 0; c < 100; c++) {
            assertThat(w.accept(c)).as("%d is older than the window now", c).isFalse();
        }
        // the ring slots those counters used belong to the new ones: none is taken for seen
        for (long c = 100; c < 99 + W; c++) {
            assertThat(w.accept(c)).as("counter %d", c).isTrue();
        }
        assertThat(w.accept(99 + 2L * W + 37)).isTrue(); // more than one width at once
        assertThat(w.accept(99 + 2L * W + 36)).isTrue();
        assertThat(w.accept(99 + W)).isFalse();
    }

    @Test
    void countersWrapFromTheLargestUnsignedValueToZero() {
        ReplayWindow w = new ReplayWindow();
        assertThat(w.accept(-3L)).isTrue(); // 2^64 - 3
        assertThat(w.accept(1L)).as("4 later, across the wrap").isTrue();
        assertThat(w.highest()).isEqualTo(1L);
        assertThat(w.accept(-1L)).as("2^64 - 1, before the wrap, late").isTrue();
        assertThat(w.accept(0L)).isTrue();
        assertThat(w.accept(-2L)).isTrue();
        assertThat(w.accept(-3L)).isFalse();
        assertThat(w.accept(-1L)).isFalse();
        assertThat(w.accept(1L - W)).as("WIDTH below, across the wrap").isFalse();
        assertThat(w.accept(2L - W)).isTrue();
    }

    @Test
    void aCounterHalfTheRangeAwayIsOldNotNew() {
        ReplayWindow w = new ReplayWindow();
        assertThat(w.accept(10L)).isTrue();
        assertThat(w.accept(10L + Long.MIN_VALUE)).as("2^63 away: behind, far beyond the window").isFalse();
        assertThat(w.accept(10L + Long.MAX_VALUE)).as("2^63 - 1 ahead: new").isTrue();
        assertThat(w.accept(10L)).isFalse();
    }

    /** Random arrival orders and replays against a model that remembers every counter it accepted. */
    @Test
    void agreesWithAModelOnRandomArrivals() {
        SplittableRandom random = new SplittableRandom(17);
        for (int run = 0; run < 20; run++) {
            ReplayWindow w = new ReplayWindow();
            Set<Long> accepted = new HashSet<>();
            long next = random.nextLong();
            Long highest = null;
            for (int i = 0; i < 20_000; i++) {
                long c;
                int kind = random.nextInt(10);
                if (kind < 5) {
                    c = next;
                    next += 1 + random.nextInt(3);
                } else if (kind < 8) {
                    c = next - random.nextInt(2 * W); // late, or a replay, maybe older than the window
                } else if (kind < 9) {
                    c = next + random.nextInt(4 * W); // a jump ahead
                    next = c + 1;
                } else {
                    c = next - 1;
                }
                boolean expected = highest == null
                        || (c - highest > 0 || (highest - c < W && !accepted.contains(c)));
                assertThat(w.accept(c)).as("run %d, arrival %d, counter %d, highest %s", run, i, c,
                        String.valueOf(highest))
                        .isEqualTo(expected);
                if (expected) {
                    accepted.add(c);
                    if (highest == null || c - highest > 0) {
                        highest = c;
                    }
                }
            }
        }
    }
}
