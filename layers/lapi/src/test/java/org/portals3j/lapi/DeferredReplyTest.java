package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Final replies no counter waits for (eager, no {@code cmpl_cntr}) are deferred by the target: they ride on its
 * next packet to the origin, go together once half the credits are owed, or come when the origin fences.
 */
class DeferredReplyTest {

    /** Every task's header handler at index 1 lands its data in a buffer of its own. */
    private static void landAnywhere(LapiJob job, int tasks) {
        for (int r = 0; r < tasks; r++) {
            MemorySegment landing = job.allocate(64);
            job.task(r).addrSet((ctx, uhdr, info) -> landing, 1);
        }
    }

    private static Acks acks(LapiJob job, int task) {
        return job.task(task).engine().endpoint.acks;
    }

    private static boolean allDelivered(LapiJob job, int task) {
        return job.task(task).engine().flow.allDelivered();
    }

    @Test
    void aDeferredReplyRidesOnTheNextPacketBack() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            landAnywhere(job, 2);
            LapiCounter at0 = job.task(0).newCounter();
            LapiCounter at1 = job.task(1).newCounter();
            job.task(0).amsend(1, 1, null, 0, job.pattern(8, 1), 8, at1.address(), null, null);
            job.task(1).waitcntr(at1, 1);
            LapiJob.await(() -> acks(job, 1).owed(0) == 1, "task 1 owing task 0 its reply");
            assertThat(allDelivered(job, 0)).as("no reply came back on its own").isFalse();

            job.task(1).amsend(0, 1, null, 0, job.pattern(8, 2), 8, at0.address(), null, null);
            assertThat(acks(job, 1).owed(0)).as("the answer took the reply with it").isZero();
            job.task(0).waitcntr(at0, 1);
            LapiJob.await(() -> allDelivered(job, 0), "task 0's Amsend ended by the reply on the answer");
        }
    }

    @Test
    void aFenceCollectsTheDeferredReplies() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            landAnywhere(job, 2);
            LapiCounter at1 = job.task(1).newCounter();
            for (int i = 0; i < 3; i++) {
                job.task(0).amsend(1, 1, null, 0, job.pattern(8, i), 8, at1.address(), null, null);
            }
            job.task(1).waitcntr(at1, 3);
            LapiJob.await(() -> acks(job, 1).owed(0) == 3, "task 1 owing task 0 three replies");

            job.task(0).fence();
            assertThat(allDelivered(job, 0)).isTrue();
            assertThat(acks(job, 1).owed(0)).isZero();
        }
    }

    @Test
    void halfTheCreditsOwedGoBackTogether() throws Exception {
        try (LapiJob job = LapiJob.start(2, LapiConfig.DEFAULT.withCredits(8))) {
            landAnywhere(job, 2);
            LapiCounter at1 = job.task(1).newCounter();
            assertThat(acks(job, 1).threshold()).isEqualTo(4);
            for (int i = 0; i < 4; i++) {
                job.task(0).amsend(1, 1, null, 0, job.pattern(8, i), 8, at1.address(), null, null);
            }
            job.task(1).waitcntr(at1, 4);
            LapiJob.await(() -> allDelivered(job, 0), "the four replies, sent together without a fence");
            assertThat(acks(job, 1).owed(0)).isZero();
        }
    }

    @Test
    void aRequestWithACmplCntrIsAnsweredAtOnce() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            landAnywhere(job, 2);
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 1, null, 0, job.pattern(8, 1), 8, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            LapiJob.await(() -> allDelivered(job, 0), "the reply");
            assertThat(acks(job, 1).owed(0)).isZero();
        }
    }
}
