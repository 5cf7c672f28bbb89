package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** JitQuiet's rule, on given compilation times: quiet after {@link JitQuiet#QUIET_SAMPLES} unchanged samples. */
class JitQuietTest {
    @Test
    void quietAfterFourUnchangedSamplesCountsTheSamplesTaken() throws InterruptedException {
        long[] compiled = {10, 12, 15, 15, 15, 15, 15};
        AtomicInteger pauses = new AtomicInteger();
        long waited = JitQuiet.await(() -> compiled[Math.min(pauses.get(), compiled.length - 1)],
                pauses::incrementAndGet);
        // samples 1 and 2 moved (12, 15), samples 3-6 did not: quiet at the sixth
        assertThat(pauses.get()).isEqualTo(6);
        assertThat(waited).isEqualTo(6 * JitQuiet.SAMPLE_MILLIS);
    }

    @Test
    void aCompilationBetweenSamplesStartsTheCountOver() throws InterruptedException {
        long[] compiled = {5, 5, 5, 5, 6, 6, 6, 6, 6};
        AtomicInteger pauses = new AtomicInteger();
        JitQuiet.await(() -> compiled[Math.min(pauses.get(), compiled.length - 1)], pauses::incrementAndGet);
        assertThat(pauses.get()).isEqualTo(8);
    }

    @Test
    void aJitThatNeverGoesQuietEndsTheWaitAtTheLimit() throws InterruptedException {
        AtomicInteger pauses = new AtomicInteger();
        long waited = JitQuiet.await(pauses::get, pauses::incrementAndGet);
        assertThat(waited).isEqualTo(-1);
        assertThat(pauses.get()).isEqualTo((int) (JitQuiet.LIMIT_MILLIS / JitQuiet.SAMPLE_MILLIS));
    }
}
