package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Flow control with a tiny receive ring (two credits), and LAPI_Purge_totask. */
class FlowControlTest {
    private static final LapiConfig TINY = LapiConfig.DEFAULT.withCredits(2).withPacketPayload(1024);

    @Test
    void aBurstFarBeyondTheRingAllArrives() throws Exception {
        try (LapiJob job = LapiJob.start(3, TINY)) {
            AtomicInteger bytes = new AtomicInteger();
            for (int r = 0; r < 3; r++) {
                job.task(r).addrSet((ctx, uhdr, info) -> {
                    bytes.addAndGet((int) info.msgLen());
                    return job.allocate(info.msgLen());
                }, 1);
            }
            int count = 300;
            job.onAll(r -> {
                LapiContext c = job.task(r);
                LapiCounter cmpl = c.newCounter();
                MemorySegment data = job.pattern(3000, r);
                for (int i = 0; i < count; i++) {
                    int len = i % 3 == 0 ? 3000 : 1000;
                    c.amsend((r + 1 + i % 2) % 3, 1, null, 0, data, len, 0, null, cmpl);
                }
                c.waitcntr(cmpl, count);
            });
            assertThat(bytes.get()).isEqualTo(3 * (100 * 3000 + 200 * 1000));
            assertThat(job.asyncErrors).isEmpty();
        }
    }

    @Test
    void amsendWaitsForCreditAndAPurgeReleasesIt() throws Exception {
        try (LapiJob job = LapiJob.start(2, TINY)) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger headers = new AtomicInteger();
            job.task(1).addrSet((ctx, uhdr, info) -> {
                headers.incrementAndGet();
                info.setCompletion((c, ui) -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, null);
                return null;
            }, 1);
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            Future<?> third = job.submit(() -> {
                a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
                return null;
            });
            LapiJob.await(() -> headers.get() == 2, "the two messages the credits allow");
            LapiJob.await(() -> a.creditWaiters(1) == 1, "the third Amsend waiting for credit");
            assertThat(third.isDone()).isFalse();
            a.purgeToTask(1);
            assertThatThrownBy(() -> third.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(LapiException.class,
                            e -> assertThat(e.error()).isEqualTo(LapiError.TGT_PURGED));
            Future<?> fourth = job.submit(() -> {
                a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
                return null;
            });
            release.countDown();
            fourth.get(20, TimeUnit.SECONDS);
            a.waitcntr(cmpl, 3);
            assertThat(headers).hasValue(3);
        }
    }
}
