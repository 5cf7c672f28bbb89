package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.expectError;
import static org.portals3j.tck.lapi.LapiSupport.sameBytes;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/**
 * The calls around Amsend (the LAPI_Waitcntr, LAPI_Fence, LAPI_Put, LAPI_Get and LAPI_Qenv man pages): counters,
 * fences, Put and Get, Qenv.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiSurroundingCallsTest {

    @Test
    @SpecAssertion({"L-081", "L-082", "L-085"})
    void setcntrGetcntrAndNullCounters() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext c = job.task(0);
            LapiCounter counter = c.newCounter();
            c.setcntr(counter, 7);
            assertThat(c.getcntr(counter)).isEqualTo(7);
            expectError(LapiError.CNTR_NULL, () -> c.getcntr(null));
            expectError(LapiError.CNTR_NULL, () -> c.setcntr(null, 1));
            expectError(LapiError.CNTR_NULL, () -> c.waitcntr(null, 1));
        }
    }

    @Test
    @SpecAssertion({"L-083", "L-084"})
    void waitcntrWaitsForTheValueAndSubtractsIt() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext c = job.task(0);
            LapiCounter counter = c.newCounter();
            c.setcntr(counter, 5);
            assertThat(c.waitcntr(counter, 3)).as("cur_cntr_val").isEqualTo(2);
            assertThat(c.getcntr(counter)).isEqualTo(2);

            LapiCounter cmpl = c.newCounter();
            Recorder handler = new Recorder();
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicInteger left = new AtomicInteger(-1);
            Thread waiter = Thread.ofPlatform().start(() -> {
                waiting.countDown();
                left.set(c.waitcntr(cmpl, 2));
            });
            LapiJob.await(waiting, "the waiter starts");
            send(c, 1, job.task(1).address(handler), null, null, 0, null, cmpl);
            LapiJob.awaitCondition("the first message completed", () -> handler.count() == 1);
            assertThat(left.get()).as("Waitcntr has not returned after one increment").isEqualTo(-1);
            send(c, 1, job.task(1).address(handler), null, null, 0, null, cmpl);
            LapiJob.awaitCondition("Waitcntr returns", () -> !waiter.isAlive());
            assertThat(left.get()).isZero();
            assertThat(c.getcntr(cmpl)).isZero();
        }
    }

    @Test
    @SpecAssertion({"L-086", "L-091", "L-100"})
    void aTerminatedContextRefusesEveryCall() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext c = job.task(0);
            LapiCounter counter = c.newCounter();
            c.term();
            expectError(LapiError.HNDL_INVALID, () -> c.getcntr(counter));
            expectError(LapiError.HNDL_INVALID, () -> c.setcntr(counter, 1));
            expectError(LapiError.HNDL_INVALID, () -> c.waitcntr(counter, 0));
            expectError(LapiError.HNDL_INVALID, c::fence);
            expectError(LapiError.HNDL_INVALID, c::gfence);
            expectError(LapiError.HNDL_INVALID, () -> c.qenv(LapiQuery.NUM_TASKS));
        }
    }

    @Test
    @SpecAssertion("L-087")
    void afterFenceEveryEarlierTransferIsInPlace() {
        try (LapiJob job = LapiJob.start(2)) {
            long big = 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ);
            MemorySegment amDest = job.allocate(big);
            MemorySegment putDest = job.allocate(500);
            long putAddr = job.task(1).expose(putDest);
            Recorder handler = new Recorder().into(amDest);
            MemorySegment am = job.pattern(big, 1);
            MemorySegment put = job.pattern(500, 2);
            send(job.task(0), 1, job.task(1).address(handler), null, am, 0, null, null);
            job.task(0).put(1, 500, putAddr, put, 0, null, null);
            job.task(0).fence();
            assertThat(sameBytes(amDest, am)).as("the Amsend's data").isTrue();
            assertThat(sameBytes(putDest, put)).as("the Put's data").isTrue();
        }
    }

    @Test
    @SpecAssertion("L-088")
    void fenceDoesNotWaitForCompletionHandlers() {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            Recorder handler = new Recorder().into(len -> job.allocate(len))
                    .completion((c, i) -> LapiJob.await(release, "the test releases the completion handler"), null);
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(64, 0), 0, null, cmpl);
            job.task(0).fence();
            assertThat(job.task(0).getcntr(cmpl)).as("the completion handler is still blocked").isZero();
            release.countDown();
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
        }
    }

    @Test
    @SpecAssertion("L-089")
    void gfenceIsABarrier() {
        try (LapiJob job = LapiJob.start(3)) {
            CountDownLatch returned = new CountDownLatch(2);
            for (int t = 0; t < 2; t++) {
                LapiContext c = job.task(t);
                Thread.ofPlatform().start(() -> {
                    c.gfence();
                    returned.countDown();
                });
            }
            LapiJob.holdsForQuietPeriod("tasks 0 and 1 wait in Gfence for task 2", () -> returned.getCount() == 2);
            job.task(2).gfence();
            LapiJob.await(returned, "tasks 0 and 1 leave Gfence");
        }
    }

    @Test
    @SpecAssertion("L-090")
    void afterGfenceEveryTasksTransfersAreDelivered() {
        try (LapiJob job = LapiJob.start(3)) {
            long big = 2 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ) + 3;
            MemorySegment[] am = {job.allocate(big), job.allocate(big + 1)};
            MemorySegment[] put = {job.allocate(300), job.allocate(300)};
            long putAddr0 = job.task(2).expose(put[0]);
            long putAddr1 = job.task(2).expose(put[1]);
            Recorder handler = new Recorder().into(len -> am[(int) (len - big)]);
            long hh = job.task(2).address(handler);
            send(job.task(0), 2, hh, null, job.pattern(big, 10), 0, null, null);
            send(job.task(1), 2, hh, null, job.pattern(big + 1, 11), 0, null, null);
            job.task(0).put(2, 300, putAddr0, job.pattern(300, 20), 0, null, null);
            job.task(1).put(2, 300, putAddr1, job.pattern(300, 21), 0, null, null);
            job.gfenceAll();
            assertThat(sameBytes(put[0], job.pattern(300, 20))).isTrue();
            assertThat(sameBytes(put[1], job.pattern(300, 21))).isTrue();
            assertThat(sameBytes(am[0], job.pattern(big, 10))).isTrue();
            assertThat(sameBytes(am[1], job.pattern(big + 1, 11))).isTrue();
        }
    }

    @Test
    @SpecAssertion({"L-092", "L-093"})
    void putWritesTheBytesAndMovesTheThreeCounters() {
        try (LapiJob job = LapiJob.start(2)) {
            for (long len : new long[] {0, 100, 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ)}) {
                MemorySegment region = job.allocate(len + 16);
                region.fill((byte) 0x33);
                long addr = job.task(1).expose(region);
                LapiCounter tgt = job.task(1).newCounter();
                LapiCounter org = job.task(0).newCounter();
                LapiCounter cmpl = job.task(0).newCounter();
                MemorySegment data = len == 0 ? null : job.pattern(len, 4);
                job.task(0).put(1, len, addr + 8, data, tgt.address(), org, cmpl);
                LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr of a put of " + len);
                LapiJob.awaitCounter(job.task(0), org, 1, "org_cntr of a put of " + len);
                assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
                if (data != null) {
                    assertThat(sameBytes(region.asSlice(8, len), data)).isTrue();
                }
                assertThat(region.get(ValueLayout.JAVA_BYTE, 7)).isEqualTo((byte) 0x33);
                assertThat(region.get(ValueLayout.JAVA_BYTE, 8 + len)).isEqualTo((byte) 0x33);
            }
        }
    }

    @Test
    @SpecAssertion({"L-094", "L-095"})
    void getReadsTheBytesAndMovesItsCounters() {
        try (LapiJob job = LapiJob.start(2)) {
            for (long len : new long[] {0, 100, 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ)}) {
                MemorySegment region = job.pattern(len + 8, 6);
                long addr = job.task(1).expose(region);
                LapiCounter tgt = job.task(1).newCounter();
                LapiCounter org = job.task(0).newCounter();
                MemorySegment into = job.allocate(len);
                job.task(0).get(1, len, addr + 8, len == 0 ? null : into, tgt.address(), org);
                LapiJob.awaitCounter(job.task(0), org, 1, "org_cntr of a get of " + len);
                assertThat(sameBytes(into, region.asSlice(8, len))).as("the data had arrived at org_cntr").isTrue();
                LapiJob.awaitCounter(job.task(1), tgt, 1, "tgt_cntr of a get of " + len);
            }
        }
    }

    @Test
    @SpecAssertion("L-096")
    void putAndGetCheckTheTargetAndTheLength() {
        try (LapiJob job = LapiJob.start(2, c -> c.withMaxData(1000))) {
            MemorySegment region = job.allocate(2000);
            long addr = job.task(1).expose(region);
            MemorySegment local = job.allocate(2000);
            LapiContext c = job.task(0);
            expectError(LapiError.TGT, () -> c.put(2, 10, addr, local, 0, null, null));
            expectError(LapiError.TGT, () -> c.put(-1, 10, addr, local, 0, null, null));
            expectError(LapiError.TGT, () -> c.get(2, 10, addr, local, 0, null));
            expectError(LapiError.DATA_LEN, () -> c.put(1, 1001, addr, local, 0, null, null));
            expectError(LapiError.DATA_LEN, () -> c.get(1, 1001, addr, local, 0, null));
        }
    }

    @Test
    @SpecAssertion({"L-097", "L-098", "L-099"})
    void qenvDescribesTheJobAndTheLimits() {
        int tasks = 3;
        try (LapiJob job = LapiJob.start(tasks, c -> c.withMaxData(123_456))) {
            boolean[] seen = new boolean[tasks];
            for (int t = 0; t < tasks; t++) {
                LapiContext c = job.task(t);
                int id = (int) c.qenv(LapiQuery.TASK_ID);
                assertThat(id).isBetween(0, tasks - 1);
                assertThat(seen[id]).as("task id %d twice", id).isFalse();
                seen[id] = true;
                assertThat(c.qenv(LapiQuery.NUM_TASKS)).isEqualTo(tasks);
                long maxUhdr = c.qenv(LapiQuery.MAX_UHDR_SZ);
                assertThat(maxUhdr).isPositive();
                assertThat(maxUhdr % 8).as("MAX_UHDR_SZ is a multiple of UHDR_ALIGN").isZero();
                assertThat(c.qenv(LapiQuery.MAX_DATA_SZ)).isEqualTo(123_456);
            }
            LapiContext c = job.task(0);
            Recorder handler = new Recorder();
            long maxUhdr = c.qenv(LapiQuery.MAX_UHDR_SZ);
            LapiCounter cmpl = c.newCounter();
            send(c, 1, job.task(1).address(handler), job.pattern(maxUhdr, 0), null, 0, null, cmpl);
            LapiJob.awaitCounter(c, cmpl, 1, "cmpl_cntr");
            expectError(LapiError.UHDR_LEN, () -> send(c, 1, job.task(1).address(handler),
                    job.pattern(maxUhdr + 8, 0), null, 0, null, cmpl));
            int table = (int) c.qenv(LapiQuery.LOC_ADDRTBL_SZ);
            c.addrSet(handler, table - 1);
            expectError(LapiError.ADDR_HNDL_RANGE, () -> c.addrSet(handler, table));
        }
    }
}
