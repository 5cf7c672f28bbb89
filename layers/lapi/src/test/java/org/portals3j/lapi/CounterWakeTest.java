package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Waitcntr is woken when its threshold is reached, not by every increment (interrupt mode). */
class CounterWakeTest {

    @Test
    void incrementsBelowTheThresholdDoNotWakeTheWaiter() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            LapiContext c = job.task(0);
            LapiCounter k = c.newCounter();
            Progress progress = k.progress();
            Future<Integer> waiter = job.submit(() -> c.waitcntr(k, 4));
            awaitSleepers(progress, 1);
            long before = progress.counterSignals();
            for (int i = 0; i < 3; i++) {
                k.increment();
            }
            assertThat(progress.counterSignals()).isEqualTo(before);
            k.increment();
            assertThat(waiter.get(20, TimeUnit.SECONDS)).isZero();
            assertThat(progress.counterSignals()).isGreaterThan(before);
        }
    }

    @Test
    void twoWaitersWithDifferentThresholdsOnOneCounterBothReturn() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            LapiContext c = job.task(0);
            LapiCounter k = c.newCounter();
            Future<Integer> three = job.submit(() -> c.waitcntr(k, 3));
            Future<Integer> one = job.submit(() -> c.waitcntr(k, 1));
            awaitSleepers(k.progress(), 2);
            k.increment();
            assertThat(one.get(20, TimeUnit.SECONDS)).isZero();
            for (int i = 0; i < 3; i++) {
                k.increment();
            }
            assertThat(three.get(20, TimeUnit.SECONDS)).isZero();
            assertThat(c.getcntr(k)).isZero();
        }
    }

    private static void awaitSleepers(Progress progress, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (progress.counterWaiters() < n) {
            assertThat(System.nanoTime() - deadline).as("waiters asleep in Waitcntr within 20 s").isNegative();
            Thread.sleep(1);
        }
    }
}
