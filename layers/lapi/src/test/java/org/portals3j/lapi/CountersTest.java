package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Counters: Setcntr/Getcntr/Waitcntr, and the order in which Amsend moves them (LAPI_Amsend, Parameters: tgt_cntr,
 * org_cntr, cmpl_cntr; O-10).
 */
class CountersTest {

    @Test
    void waitcntrSubtractsAndReturnsWhatIsLeft() throws Exception {
        try (LapiJob job = LapiJob.start(1)) {
            LapiContext c = job.task(0);
            LapiCounter k = c.newCounter();
            assertThat(c.getcntr(k)).isZero();
            c.setcntr(k, 7);
            assertThat(c.getcntr(k)).isEqualTo(7);
            c.setcntr(k, 5);
            assertThat(c.waitcntr(k, 3)).isEqualTo(2);
            assertThat(c.getcntr(k)).isEqualTo(2);
            assertThatThrownBy(() -> c.getcntr(null)).isInstanceOfSatisfying(LapiException.class,
                    e -> assertThat(e.error()).isEqualTo(LapiError.CNTR_NULL));
            assertThatThrownBy(() -> c.waitcntr(null, 1)).isInstanceOfSatisfying(LapiException.class,
                    e -> assertThat(e.error()).isEqualTo(LapiError.CNTR_NULL));
            assertThatThrownBy(() -> c.setcntr(null, 1)).isInstanceOfSatisfying(LapiException.class,
                    e -> assertThat(e.error()).isEqualTo(LapiError.CNTR_NULL));
            assertThat(k.address()).isNotEqualTo(c.newCounter().address());
        }
    }

    @Test
    void waitcntrBlocksUntilTheIncrementsArrive() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            job.task(1).addrSet((ctx, uhdr, info) -> null, 1);
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            Future<Integer> waiter = job.submit(() -> a.waitcntr(cmpl, 2));
            a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            assertThat(waiter.get(20, TimeUnit.SECONDS)).isZero();
            assertThat(a.getcntr(cmpl)).isZero();
        }
    }

    @Test
    void counterAtGivesTheSameCounterForTheSameCellAndUsesIt() throws Exception {
        try (LapiJob job = LapiJob.start(2); Arena arena = Arena.ofShared()) {
            MemorySegment cell = arena.allocate(8, 8);
            LapiContext b = job.task(1);
            LapiCounter k = b.counterAt(cell);
            assertThat(b.counterAt(cell)).isSameAs(k);
            assertThat(k.address()).isEqualTo(cell.address());
            b.addrSet((ctx, uhdr, info) -> null, 1);
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 1, null, 0, null, 0, cell.address(), null, cmpl);
            b.waitcntr(k, 1);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(cell.get(ValueLayout.JAVA_INT, 0)).isZero();
            b.setcntr(k, 4);
            assertThat(cell.get(ValueLayout.JAVA_INT, 0)).isEqualTo(4);
        }
    }

    @Test
    void tgtAndCmplWaitForTheCompletionHandlerAndOrgComesFirst() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger sideEffect = new AtomicInteger();
            LapiContext b = job.task(1);
            b.addrSet((ctx, uhdr, info) -> {
                info.setCompletion((c, ui) -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    sideEffect.set(42);
                }, null);
                return null;
            }, 1);
            LapiCounter tgt = b.newCounter();
            long[] t = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? tgt.address() : 0, t));
            LapiContext a = job.task(0);
            LapiCounter org = a.newCounter();
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 1, null, 0, job.pattern(8, 1), 8, t[1], org, cmpl);
            a.waitcntr(org, 1);
            a.fence();
            assertThat(b.getcntr(tgt)).isZero();
            assertThat(a.getcntr(cmpl)).isZero();
            release.countDown();
            b.waitcntr(tgt, 1);
            assertThat(sideEffect).hasValue(42);
            a.waitcntr(cmpl, 1);
        }
    }

    @Test
    void oneCounterAsOrgAndCmplReachesTwo() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            job.task(1).addrSet((ctx, uhdr, info) -> null, 1);
            LapiContext a = job.task(0);
            LapiCounter both = a.newCounter();
            a.amsend(1, 1, null, 0, job.pattern(8, 1), 8, 0, both, both);
            a.waitcntr(both, 2);
            job.onAll(r -> job.task(r).gfence());
            assertThat(a.getcntr(both)).isZero();
        }
    }

    @Test
    void manyMessagesFromSeveralThreadsLoseNoIncrement() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicInteger handled = new AtomicInteger();
            job.task(1).addrSet((ctx, uhdr, info) -> {
                handled.incrementAndGet();
                return null;
            }, 1);
            LapiCounter tgt = job.task(1).newCounter();
            long[] t = new long[2];
            job.onAll(r -> job.task(r).addressInit(tgt.address(), t));
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            int perThread = 1000;
            Future<?> f1 = job.submit(() -> send(a, perThread, t[1], cmpl));
            Future<?> f2 = job.submit(() -> send(a, perThread, t[1], cmpl));
            send(a, perThread, t[1], cmpl);
            f1.get(20, TimeUnit.SECONDS);
            f2.get(20, TimeUnit.SECONDS);
            assertThat(a.waitcntr(cmpl, 3 * perThread)).isZero();
            job.task(1).waitcntr(tgt, 3 * perThread);
            assertThat(handled).hasValue(3 * perThread);
        }
    }

    private static Void send(LapiContext a, int n, long tgt, LapiCounter cmpl) {
        for (int i = 0; i < n; i++) {
            a.amsend(1, 1, null, 0, null, 0, tgt, null, cmpl);
        }
        return null;
    }
}
