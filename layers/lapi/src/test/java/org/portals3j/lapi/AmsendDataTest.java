package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Eager and rendezvous data delivery of LAPI_Amsend (the eager and rendezvous protocols of the package documentation).
 */
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

    @Test
    void theThresholdSeparatesOnePacketFromRendezvous() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext a = job.task(0);
            int payload = (int) a.qenv(LapiQuery.PKT_PAYLOAD_SZ);
            MemorySegment dst = job.allocate(payload);
            Map<Long, Boolean> onePacket = new ConcurrentHashMap<>();
            job.task(1).addrSet((ctx, uhdr, info) -> {
                MemorySegment one = info.udataOnePacket();
                onePacket.put(info.msgLen(), one != null);
                if (one != null) {
                    assertThat(one.byteSize()).isEqualTo(info.msgLen());
                    assertThat(one.isReadOnly()).isTrue();
                }
                return dst;
            }, 1);
            LapiCounter cmpl = a.newCounter();
            MemorySegment uhdr = job.allocate(16);
            a.amsend(1, 1, uhdr, 16, job.pattern(payload - 16, 1), payload - 16, 0, null, cmpl);
            a.waitcntr(cmpl, 1);
            assertThat(dst.asSlice(0, payload - 16).mismatch(job.pattern(payload - 16, 1))).isEqualTo(-1);
            a.amsend(1, 1, uhdr, 16, job.pattern(payload - 15, 2), payload - 15, 0, null, cmpl);
            a.waitcntr(cmpl, 1);
            assertThat(dst.asSlice(0, payload - 15).mismatch(job.pattern(payload - 15, 2))).isEqualTo(-1);
            assertThat(onePacket).containsEntry((long) payload - 16, true).containsEntry((long) payload - 15, false);
        }
    }

    @Test
    void aRendezvousMessageArrivesWholeAfterItsHeaderHandlerRan() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext a = job.task(0);
            long len = a.qenv(LapiQuery.PKT_PAYLOAD_SZ) * 10 + 3;
            MemorySegment dst = job.allocate(len + 16);
            job.task(1).addrSet((ctx, uhdr, info) -> {
                dst.fill((byte) 0x5A);
                assertThat(info.udataOnePacket()).isNull();
                info.setCompletion((c, ui) -> assertThat(dst.asSlice(0, len).mismatch(job.pattern(len, 9)))
                        .isEqualTo(-1), null);
                return dst;
            }, 1);
            LapiCounter org = a.newCounter();
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 1, null, 0, job.pattern(len, 9), len, 0, org, cmpl);
            a.waitcntr(cmpl, 1);
            assertThat(a.getcntr(org)).isEqualTo(1);
            assertThat(dst.asSlice(0, len).mismatch(job.pattern(len, 9))).isEqualTo(-1);
            assertThat(dst.get(ValueLayout.JAVA_BYTE, len)).isEqualTo((byte) 0x5A);
            assertThat(job.asyncErrors).isEmpty();
        }
    }

    @Test
    void everyTaskSendsToEveryTaskIncludingItselfEagerAndRendezvous() throws Exception {
        int n = 4;
        try (LapiJob job = LapiJob.start(n)) {
            int big = 3 * (int) job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ);
            int[][] got = new int[n][n];
            for (int r = 0; r < n; r++) {
                int me = r;
                job.task(r).addrSet((ctx, uhdr, info) -> {
                    int from = info.srcTask();
                    long len = info.msgLen();
                    MemorySegment buf = job.allocate(len);
                    info.setCompletion((c, ui) -> {
                        assertThat(buf.mismatch(job.pattern(len, from))).isEqualTo(-1);
                        synchronized (got) {
                            got[me][from]++;
                        }
                    }, null);
                    return buf;
                }, 1);
            }
            int rounds = 20;
            job.onAll(r -> {
                LapiContext c = job.task(r);
                LapiCounter cmpl = c.newCounter();
                MemorySegment small = job.pattern(100, r);
                MemorySegment large = job.pattern(big, r);
                for (int i = 0; i < rounds; i++) {
                    for (int t = 0; t < n; t++) {
                        c.amsend(t, 1, null, 0, i % 2 == 0 ? small : large, i % 2 == 0 ? 100 : big, 0, null, cmpl);
                    }
                }
                c.waitcntr(cmpl, rounds * n);
            });
            for (int[] row : got) {
                for (int count : row) {
                    assertThat(count).isEqualTo(rounds);
                }
            }
            assertThat(job.asyncErrors).isEmpty();
        }
    }
}
