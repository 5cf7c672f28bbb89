package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Eager and rendezvous data delivery of LAPI_Amsend (lapi-digest.md 3.2). */
class AmsendDataTest {

    @Test
    void anEagerMessageReachesTheBufferTheTargetsHandlerReturns() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            MemorySegment dst = job.allocate(64);
            AtomicReference<String> thread = new AtomicReference<>();
            AtomicInteger calls = new AtomicInteger();
            HeaderHandler h = (ctx, uhdr, info) -> {
                thread.set(Thread.currentThread().getName());
                calls.incrementAndGet();
                assertThat(uhdr.get(ValueLayout.JAVA_LONG, 0)).isEqualTo(42L);
                return dst;
            };
            job.onAll(r -> job.task(r).addrSet(h, 5));
            LapiCounter tgt = job.task(1).newCounter();
            long[] counters = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? tgt.address() : 0, counters));
            LapiContext a = job.task(0);
            MemorySegment uhdr = job.allocate(8);
            uhdr.set(ValueLayout.JAVA_LONG, 0, 42L);
            MemorySegment data = job.pattern(64, 3);
            LapiCounter org = a.newCounter();
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 5, uhdr, 8, data, 64, counters[1], org, cmpl);
            assertThat(a.waitcntr(cmpl, 1)).isZero();
            assertThat(a.getcntr(org)).isEqualTo(1);
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
            assertThat(dst.mismatch(data)).isEqualTo(-1);
            assertThat(thread.get()).isEqualTo("lapi-dispatch-1");
            assertThat(calls).hasValue(1);
            assertThat(job.asyncErrors).isEmpty();
        }
    }
}
