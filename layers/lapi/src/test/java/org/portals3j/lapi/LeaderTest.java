package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The dispatcher's role: a waiting thread takes it while it waits and gives it back (interrupt and polling mode). */
class LeaderTest {

    @Test
    void aWaiterRunsTheHeaderHandlerItselfWhileTheDispatcherStepsAside() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicReference<String> ranOn = new AtomicReference<>();
            recordTheHandlersThread(job, ranOn);
            LapiCounter tgt = job.task(1).newCounter();
            Thread waiter = Thread.ofPlatform().name("the-waiter").start(() -> job.task(1).waitcntr(tgt, 1));
            LapiJob.await(() -> tgt.progress().blocker() == waiter, "the waiter leading");
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 1, null, 0, null, 0, tgt.address(), null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            waiter.join(LapiJob.PATIENCE.toMillis());
            assertThat(waiter.isAlive()).isFalse();
            assertThat(ranOn.get()).isEqualTo("the-waiter");
            assertThat(tgt.progress().blocker()).isNull();
        }
    }

    /**
     * The role goes to a waiter, back to the dispatcher thread for a message no thread waits for, and to the next
     * waiter again; the dispatcher thread holds it only while it drains the queue, so a waiter takes it without
     * recalling that thread (which is never interrupted: its interrupt status stays clear throughout).
     */
    @Test
    void theRoleGoesToTheWaiterAndBackWithoutInterruptingTheDispatcher() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicReference<String> ranOn = new AtomicReference<>("");
            recordTheHandlersThread(job, ranOn);
            LapiCounter tgt = job.task(1).newCounter();
            Progress progress = tgt.progress();
            Thread dispatcher = LapiJob.thread("lapi-dispatch-1");
            long leadsBefore = progress.leads();
            long dispatcherBefore = progress.dispatcherEvents();
            for (int round = 1; round <= 3; round++) {
                String name = "the-waiter-" + round;
                Thread waiter = Thread.ofPlatform().name(name).start(() -> job.task(1).waitcntr(tgt, 1));
                LapiJob.await(() -> progress.blocker() == waiter, "waiter " + name + " leading");
                job.task(0).amsend(1, 1, null, 0, null, 0, tgt.address(), null, null);
                waiter.join(LapiJob.PATIENCE.toMillis());
                assertThat(waiter.isAlive()).isFalse();
                assertThat(ranOn.getAndSet("")).isEqualTo(name);
                assertThat(progress.leads()).isEqualTo(leadsBefore + round);
                long dispatched = progress.dispatcherEvents();
                job.task(0).amsend(1, 1, null, 0, null, 0, 0, null, null);
                LapiJob.await(() -> !ranOn.get().isEmpty(), "the header handler of a message nobody waits for");
                assertThat(ranOn.getAndSet("")).isEqualTo("lapi-dispatch-1");
                assertThat(progress.dispatcherEvents()).isGreaterThan(dispatched);
                LapiJob.await(() -> !progress.roleHeld(), "the dispatcher thread giving the role up once idle");
                assertThat(dispatcher.isInterrupted()).isFalse();
            }
            assertThat(progress.dispatcherEvents()).isGreaterThan(dispatcherBefore);
            assertThat(progress.leads()).isEqualTo(leadsBefore + 3);
        }
    }

    @Test
    void anInterruptedLeaderFailsItsWaitAndTheDispatcherResumes() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicReference<String> ranOn = new AtomicReference<>();
            recordTheHandlersThread(job, ranOn);
            LapiCounter never = job.task(1).newCounter();
            AtomicReference<LapiError> failure = new AtomicReference<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread waiter = Thread.ofPlatform().name("the-waiter").start(() -> {
                try {
                    job.task(1).waitcntr(never, 1);
                } catch (LapiException e) {
                    failure.set(e.error());
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                }
            });
            LapiJob.await(() -> never.progress().blocker() == waiter, "the waiter leading");
            waiter.interrupt();
            waiter.join(LapiJob.PATIENCE.toMillis());
            assertThat(failure.get()).isEqualTo(LapiError.UNKNOWN);
            assertThat(stillInterrupted).isTrue();
            assertThat(never.progress().blocker()).isNull();
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(ranOn.get()).isEqualTo("lapi-dispatch-1");
        }
    }

    @Test
    void aTargetThatNeverCallsLapiStillRunsItsHeaderHandler() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicReference<String> ranOn = new AtomicReference<>();
            recordTheHandlersThread(job, ranOn);
            LapiCounter cmpl = job.task(0).newCounter();
            for (int i = 0; i < 3; i++) {
                job.task(0).amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            }
            job.task(0).waitcntr(cmpl, 3);
            assertThat(ranOn.get()).isEqualTo("lapi-dispatch-1");
        }
    }

    /**
     * After the target's last LAPI wait the dispatcher thread has stepped aside and parks with no time limit: only
     * the event's arrival wakes it, so the handler running at all (no thread of task 1 calls LAPI again) shows it.
     */
    @Test
    void aMessageAfterTheLastWaitWakesTheDispatcherThread() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicReference<String> ranOn = new AtomicReference<>();
            recordTheHandlersThread(job, ranOn);
            LapiCounter tgt = job.task(1).newCounter();
            Thread waiter = Thread.ofPlatform().name("the-waiter").start(() -> job.task(1).waitcntr(tgt, 1));
            LapiJob.await(() -> tgt.progress().blocker() == waiter, "the waiter leading");
            job.task(0).amsend(1, 1, null, 0, null, 0, tgt.address(), null, null);
            waiter.join(LapiJob.PATIENCE.toMillis());
            assertThat(ranOn.getAndSet("")).isEqualTo("the-waiter");
            job.task(0).amsend(1, 1, null, 0, null, 0, tgt.address(), null, null);
            LapiJob.await(() -> !ranOn.get().isEmpty(), "the second message's header handler");
            assertThat(ranOn.get()).isEqualTo("lapi-dispatch-1");
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
        }
    }

    @Test
    void aSetcntrOnAnotherThreadWakesTheLeader() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            LapiContext c = job.task(0);
            LapiCounter k = c.newCounter();
            Future<Integer> waiter = job.submit(() -> c.waitcntr(k, 2));
            LapiJob.await(() -> k.progress().blocker() != null, "the waiter leading");
            c.setcntr(k, 5);
            assertThat(waiter.get(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(3);
        }
    }

    @Test
    void aCompletionThreadsIncrementWakesTheLeader() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            MemorySegment dst = job.allocate(64);
            job.task(1).addrSet((ctx, uhdr, info) -> {
                info.setCompletion((ctx2, userInfo) -> { }, null);
                info.setRetFlags(RetFlag.NORMAL);
                return dst;
            }, 1);
            LapiCounter tgt = job.task(1).newCounter();
            Future<Integer> waiter = job.submit(() -> job.task(1).waitcntr(tgt, 1));
            LapiJob.await(() -> tgt.progress().blocker() != null, "the waiter leading");
            job.task(0).amsend(1, 1, null, 0, job.pattern(64, 3), 64, tgt.address(), null, null);
            assertThat(waiter.get(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isZero();
            assertThat(dst.mismatch(job.pattern(64, 3))).isEqualTo(-1);
        }
    }

    @Test
    void aPollingWaiterBlockedInTheQueueIsWokenBySetcntr() throws Exception {
        try (LapiJob job = LapiJob.start(1, LapiConfig.DEFAULT.withInterruptMode(false))) {
            LapiContext c = job.task(0);
            LapiCounter k = c.newCounter();
            Future<Integer> waiter = job.submit(() -> c.waitcntr(k, 1));
            LapiJob.await(() -> k.progress().blocker() != null, "the waiter blocked in the event queue");
            c.setcntr(k, 1);
            assertThat(waiter.get(LapiJob.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isZero();
        }
    }

    /** Task 1's header handler at index 1 records the name of the thread it runs on. */
    private static void recordTheHandlersThread(LapiJob job, AtomicReference<String> ranOn) {
        job.task(1).addrSet((ctx, uhdr, info) -> {
            ranOn.set(Thread.currentThread().getName());
            return null;
        }, 1);
    }
}
