package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** LAPI_Fence and LAPI_Gfence: data fences, and Gfence a barrier (LAPI_Fence, LAPI_Gfence man pages). */
class FenceTest {

    @Test
    void fenceReturnsWithTheDataInPlaceWhileACompletionHandlerStillBlocks() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            long big = job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ) * 3;
            MemorySegment small = job.allocate(64);
            MemorySegment large = job.allocate(big);
            job.task(1).addrSet((ctx, uhdr, info) -> {
                info.setCompletion((c, ui) -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, null);
                return info.msgLen() == 64 ? small : large;
            }, 1);
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 1, null, 0, job.pattern(64, 1), 64, 0, null, cmpl);
            a.amsend(1, 1, null, 0, job.pattern(big, 2), big, 0, null, cmpl);
            a.fence();
            assertThat(small.mismatch(job.pattern(64, 1))).isEqualTo(-1);
            assertThat(large.mismatch(job.pattern(big, 2))).isEqualTo(-1);
            assertThat(a.getcntr(cmpl)).isZero();
            release.countDown();
            a.waitcntr(cmpl, 2);
        }
    }

    @Test
    void gfenceIsABarrierAfterWhichEveryTasksDataIsDelivered() throws Exception {
        int n = 3;
        try (LapiJob job = LapiJob.start(n)) {
            MemorySegment[] inbox = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                inbox[r] = job.allocate(8L * n);
                int me = r;
                job.task(r).addrSet((ctx, uhdr, info) -> inbox[me].asSlice(8L * info.srcTask(), 8), 1);
            }
            AtomicInteger entered = new AtomicInteger();
            int[] seenAfter = new int[n];
            for (int round = 0; round < 5; round++) {
                int k = round;
                job.onAll(r -> {
                    LapiContext c = job.task(r);
                    MemorySegment v = job.allocate(8);
                    v.fill((byte) (k + 1));
                    for (int t = 0; t < n; t++) {
                        c.amsend(t, 1, null, 0, v, 8, 0, null, null);
                    }
                    entered.incrementAndGet();
                    c.gfence();
                    seenAfter[r] = entered.get();
                    for (int from = 0; from < n; from++) {
                        assertThat(inbox[r].get(ValueLayout.JAVA_BYTE, 8L * from))
                                .isEqualTo((byte) (k + 1));
                    }
                    c.gfence();
                });
                for (int r = 0; r < n; r++) {
                    assertThat(seenAfter[r]).isEqualTo(n * (round + 1));
                }
            }
        }
    }
}
