package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** INTERRUPT_SET 0: no dispatcher thread; progress inside Waitcntr, Getcntr, Fence, Gfence and Probe. */
class PollingModeTest {
    private static final LapiConfig POLLING = LapiConfig.DEFAULT.withInterruptMode(false);

    @Test
    void handlersRunOnTheThreadThatWaitsAndNoDispatcherThreadExists() throws Exception {
        try (LapiJob job = LapiJob.start(2, POLLING)) {
            assertThat(job.task(0).qenv(LapiQuery.INTERRUPT_SET)).isZero();
            assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("lapi-dispatch"));
            AtomicReference<String> ranOn = new AtomicReference<>();
            MemorySegment dst = job.allocate(3 * 4096);
            job.task(1).addrSet((ctx, uhdr, info) -> {
                ranOn.set(Thread.currentThread().getName());
                return dst;
            }, 1);
            LapiCounter tgt = job.task(1).newCounter();
            long[] t = new long[2];
            job.onAll(r -> job.task(r).addressInit(tgt.address(), t));
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 1, null, 0, job.pattern(3 * 4096, 4), 3 * 4096, t[1], null, cmpl);
            Thread waiter = Thread.ofPlatform().name("the-waiter").start(() -> job.task(1).waitcntr(tgt, 1));
            job.task(0).waitcntr(cmpl, 1);
            waiter.join(LapiJob.PATIENCE.toMillis());
            assertThat(ranOn.get()).isEqualTo("the-waiter");
            assertThat(dst.mismatch(job.pattern(3 * 4096, 4))).isEqualTo(-1);
        }
    }

    @Test
    void probeAndGetcntrMakeProgress() throws Exception {
        try (LapiJob job = LapiJob.start(2, POLLING)) {
            AtomicInteger handled = new AtomicInteger();
            job.task(1).addrSet((ctx, uhdr, info) -> {
                handled.incrementAndGet();
                return null;
            }, 1);
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            LapiJob.await(() -> {
                job.task(1).probe();
                return handled.get() == 1;
            }, "the header handler run by LAPI_Probe");
            LapiJob.await(() -> a.getcntr(cmpl) == 1, "cmpl_cntr moved by LAPI_Getcntr's progress");
        }
    }
}
