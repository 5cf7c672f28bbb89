package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * LAPI_Put and LAPI_Get on exposed regions, eager and rendezvous, and a hostile address (LAPI_Put, LAPI_Get man pages).
 */
class PutGetTest {

    @Test
    void putWritesExactlyAndMovesAllThreeCounters() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext a = job.task(0);
            LapiContext b = job.task(1);
            int payload = (int) a.qenv(LapiQuery.PKT_PAYLOAD_SZ);
            MemorySegment region = job.allocate(payload * 4L + 64);
            LapiCounter tgt = b.newCounter();
            long[] addr = new long[2];
            long[] cntr = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? b.expose(region) : 0, addr));
            job.onAll(r -> job.task(r).addressInit(r == 1 ? tgt.address() : 0, cntr));
            LapiCounter org = a.newCounter();
            LapiCounter cmpl = a.newCounter();
            for (long len : new long[] {1, 100, payload, payload + 1L, payload * 4L}) {
                MemorySegment src = job.pattern(len, (int) len);
                a.put(1, len, addr[1] + 32, src, cntr[1], org, cmpl);
                a.waitcntr(cmpl, 1);
                assertThat(a.waitcntr(org, 1)).isZero();
                assertThat(b.waitcntr(tgt, 1)).isZero();
                assertThat(region.asSlice(32, len).mismatch(src)).isEqualTo(-1);
            }
            a.put(1, 0, 0, null, cntr[1], org, cmpl);
            a.waitcntr(cmpl, 1);
            a.waitcntr(org, 1);
            b.waitcntr(tgt, 1);
            assertThat(job.asyncErrors).isEmpty();
        }
    }

    @Test
    void getReadsExactlyAndMovesOrgAndTgt() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext a = job.task(0);
            LapiContext b = job.task(1);
            int payload = (int) a.qenv(LapiQuery.PKT_PAYLOAD_SZ);
            long size = payload * 5L;
            MemorySegment region = job.pattern(size, 11);
            LapiCounter tgt = b.newCounter();
            long[] addr = new long[2];
            long[] cntr = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? b.expose(region.asReadOnly()) : 0, addr));
            job.onAll(r -> job.task(r).addressInit(r == 1 ? tgt.address() : 0, cntr));
            LapiCounter org = a.newCounter();
            for (long len : new long[] {8, payload + 1L, size - 5}) {
                MemorySegment dst = job.allocate(len);
                a.get(1, len, addr[1] + 5, dst, cntr[1], org);
                a.waitcntr(org, 1);
                assertThat(dst.mismatch(region.asSlice(5, len))).isEqualTo(-1);
                b.waitcntr(tgt, 1);
            }
            a.get(1, 0, 0, null, cntr[1], org);
            a.waitcntr(org, 1);
            b.waitcntr(tgt, 1);
            assertThat(job.asyncErrors).isEmpty();
        }
    }

    @Test
    void aHostileAddressIsReportedAndNeverWritten() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext a = job.task(0);
            LapiContext b = job.task(1);
            MemorySegment region = job.allocate(64);
            long[] addr = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? b.expose(region) : 0, addr));
            LapiCounter org = a.newCounter();
            LapiCounter cmpl = a.newCounter();
            long big = a.qenv(LapiQuery.PKT_PAYLOAD_SZ) * 2;
            a.put(1, 65, addr[1], job.pattern(65, 1), 0, org, cmpl);
            a.put(1, big, addr[1], job.pattern(big, 1), 0, org, cmpl);
            a.put(1, 8, 0x1234, job.pattern(8, 1), 0, org, cmpl);
            a.put(1, 8, addr[1] + (1L << 40), job.pattern(8, 1), 0, org, cmpl);
            a.waitcntr(cmpl, 4);
            a.waitcntr(org, 4);
            a.get(1, 100, addr[1], job.allocate(100), 0, org);
            a.waitcntr(org, 1);
            assertThat(region.mismatch(job.allocate(64))).isEqualTo(-1);
            assertThat(job.asyncErrors).filteredOn(e -> e.contains("not writable memory")).hasSize(4)
                    .allMatch(e -> e.startsWith("task 1 from 0 (PUT_ERR)"));
            assertThat(job.asyncErrors).anyMatch(e -> e.startsWith("task 1 from 0 (GET_ERR)")
                    && e.contains("not readable memory"));
            LapiJob.await(() -> job.asyncErrors.stream().anyMatch(e -> e.startsWith("task 0 from 1 (GET_ERR)")),
                    "the origin told that its Get was refused");
            assertThat(job.asyncErrors).noneMatch(e -> e.contains("(INT_ERR)") || e.contains("(AM_ERR)"));
        }
    }

    @Test
    void putAndGetCheckTheirArgumentsInOrder() throws Exception {
        try (LapiJob job = LapiJob.start(2, LapiConfig.DEFAULT.withMaxData(1000))) {
            LapiContext a = job.task(0);
            MemorySegment s = job.allocate(8);
            assertCode(LapiError.TGT, () -> a.put(2, 8, 1, s, 0, null, null));
            assertCode(LapiError.DATA_LEN, () -> a.put(1, 1001, 1, s, 0, null, null));
            assertCode(LapiError.DATA_LEN, () -> a.get(1, -1, 1, s, 0, null));
            assertCode(LapiError.TGT_ADDR_NULL, () -> a.put(1, 8, 0, null, 0, null, null));
            assertCode(LapiError.ORG_ADDR_NULL, () -> a.get(1, 8, 5, null, 0, null));
            assertThatThrownBy(() -> a.get(1, 9, 5, s, 0, null)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    private static void assertCode(LapiError code, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(LapiException.class,
                e -> assertThat(e.error()).isEqualTo(code));
    }
}
