package org.portals3j.tck.selftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.TckSeed;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;

/** Randomised tests of the kit print their seed, and the seed a run printed replays it. */
class TckSeedTest {
    private static final @Nullable String SEED_BEFORE = System.getProperty(TckSeed.PROPERTY);
    private final PrintStream out = System.out;

    @AfterEach
    @SuppressWarnings("clear.system.property") // the kit's own property, never a predefined one
    void putBackWhatTheTestChanged() {
        System.setOut(out);
        if (SEED_BEFORE == null) {
            System.clearProperty(TckSeed.PROPERTY);
        } else {
            System.setProperty(TckSeed.PROPERTY, SEED_BEFORE);
        }
    }

    @Test
    @SuppressWarnings("clear.system.property") // the kit's own property, never a predefined one
    void aSeedIsNewForEveryTestUnlessThePropertyReplaysOneAndIsPrintedEitherWay() {
        ByteArrayOutputStream printed = capture();
        System.clearProperty(TckSeed.PROPERTY);
        long first = TckSeed.of("first");
        long second = TckSeed.of("second");
        assertThat(first).as("two fresh seeds (equal once in 2^64 runs)").isNotEqualTo(second);
        System.setProperty(TckSeed.PROPERTY, Long.toString(first));
        assertThat(TckSeed.of("replayed")).isEqualTo(first);
        assertThat(printed.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "first: seed " + first + " (replay with -Dportals3j.tck.seed=" + first + ")",
                "second: seed " + second + " (replay with -Dportals3j.tck.seed=" + second + ")",
                "replayed: seed " + first + " (replay with -Dportals3j.tck.seed=" + first + ")");
    }

    @Test
    void aSeedThatIsNotANumberIsRefusedSayingWhatToGive() {
        System.setProperty(TckSeed.PROPERTY, "0xZZ");
        assertThatThrownBy(() -> TckSeed.of("bad")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("portals3j.tck.seed must be a seed as a run printed it (a decimal number, e.g."
                        + " -4811350292153958126), not '0xZZ'");
    }

    /**
     * A real randomised test of the kit, run through the runner with a seed to replay: both of its invocations say
     * they use that seed (the six-host one used to print a seed that replayed another run), and the kit's
     * property is as it was afterwards.
     */
    @Test
    void theRunnersSeedReachesEveryRandomisedTestOfTheRun() throws Exception {
        System.setProperty(TckSeed.PROPERTY, "7");
        ByteArrayOutputStream printed = capture();
        TckResult result = TckRunner.builder()
                .transports(List.of("inmem"))
                .classes(List.of(Class.forName("org.portals3j.tck.isotach.RandomSharedMemoryTest")))
                .seed(-4811350292153958126L)
                .patience(Duration.ofSeconds(10))
                .build().run();
        System.setOut(out);
        TransportRun inmem = result.runs().get(0);
        assertThat(inmem.count(TestStatus.PASSED)).as("%s", inmem.outcomes()).isEqualTo(2);
        assertThat(printed.toString(StandardCharsets.UTF_8).lines().toList()).contains(
                "RandomSharedMemoryTest, 4 hosts: seed -4811350292153958126 (replay with"
                        + " -Dportals3j.tck.seed=-4811350292153958126)",
                "RandomSharedMemoryTest, 6 hosts: seed -4811350292153958126 (replay with"
                        + " -Dportals3j.tck.seed=-4811350292153958126)");
        assertThat(Objects.toString(System.getProperty(TckSeed.PROPERTY))).isEqualTo("7");
    }

    /** Standard output, copied into the returned buffer until {@link #putBackWhatTheTestChanged}. */
    private ByteArrayOutputStream capture() {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        System.setOut(new PrintStream(copy, true, StandardCharsets.UTF_8));
        return copy;
    }
}
