package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.expectError;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiException;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/**
 * Amsend's error codes (LAPI_Amsend man page, Return values), each decided at the origin before the call returns, with
 * no side effect: after a Gfence no handler has run at the target and no counter has moved on either side.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiErrorCodeTest {

    /** Task 0's Amsend to task 1 fails with {@code error} and leaves no trace anywhere. */
    private static void failsWithoutTrace(LapiError error, AmsendCall call) {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext origin = job.task(0);
            LapiContext target = job.task(1);
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            long hh = target.address(handler);
            LapiCounter tgt = target.newCounter();
            LapiCounter org = origin.newCounter();
            LapiCounter cmpl = origin.newCounter();
            MemorySegment data = job.pattern(64, 1);
            expectError(error, () -> call.send(origin, hh, data, tgt.address(), org, cmpl));
            job.gfenceAll();
            assertThat(handler.count()).as("header handler runs").isZero();
            assertThat(target.getcntr(tgt)).as("tgt_cntr").isZero();
            assertThat(origin.getcntr(org)).as("org_cntr").isZero();
            assertThat(origin.getcntr(cmpl)).as("cmpl_cntr").isZero();
            assertThat(job.asyncErrors()).as("asynchronous errors").isEmpty();
        }
    }

    /** One Amsend, given a valid handler address, data, and counters. */
    @FunctionalInterface
    interface AmsendCall {
        void send(LapiContext origin, long hdrHdl, MemorySegment data, long tgtCntr, LapiCounter org,
                  LapiCounter cmpl);
    }

    @Test
    @SpecAssertion("L-001")
    void aHandleNeverIssuedIsInvalid() {
        try (LapiJob job = LapiJob.start(2)) {
            int unused = Math.max(job.task(0).handle(), job.task(1).handle()) + 1000;
            expectError(LapiError.HNDL_INVALID, () -> LapiContext.ofHandle(unused));
            expectError(LapiError.HNDL_INVALID, () -> LapiContext.ofHandle(-1));
            assertThat(LapiContext.ofHandle(job.task(1).handle())).isSameAs(job.task(1));
        }
    }

    @Test
    @SpecAssertion({"L-002", "L-001"})
    void aTerminatedContextIsInvalid() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder();
            long hh = job.task(0).address(handler);
            LapiContext gone = job.task(1);
            int handle = gone.handle();
            gone.term();
            expectError(LapiError.HNDL_INVALID, () -> gone.amsend(0, hh, null, 0, null, 0, 0, null, null));
            expectError(LapiError.HNDL_INVALID, () -> LapiContext.ofHandle(handle));
            assertThat(handler.count()).isZero();
        }
    }

    @Test
    @SpecAssertion({"L-003", "L-019"})
    void aTargetEqualToNumTasksIsRefused() {
        failsWithoutTrace(LapiError.TGT, (o, hh, d, t, org, cmpl) ->
                o.amsend((int) o.qenv(LapiQuery.NUM_TASKS), hh, null, 0, d, d.byteSize(), t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-004", "L-019"})
    void aNegativeTargetIsRefused() {
        failsWithoutTrace(LapiError.TGT, (o, hh, d, t, org, cmpl) ->
                o.amsend(-1, hh, null, 0, d, d.byteSize(), t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-006", "L-019"})
    void aNullHeaderHandlerIsRefused() {
        failsWithoutTrace(LapiError.HDR_HNDLR_NULL, (o, hh, d, t, org, cmpl) ->
                o.amsend(1, 0, null, 0, d, d.byteSize(), t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-007", "L-019"})
    void aNullUhdrWithALengthIsRefused() {
        failsWithoutTrace(LapiError.UHDR_NULL, (o, hh, d, t, org, cmpl) ->
                o.amsend(1, hh, null, 8, d, d.byteSize(), t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-009", "L-019"})
    void aUhdrOneWordOverTheMaximumIsRefused() {
        failsWithoutTrace(LapiError.UHDR_LEN, (o, hh, d, t, org, cmpl) -> {
            int len = (int) o.qenv(LapiQuery.MAX_UHDR_SZ) + 8;
            o.amsend(1, hh, MemorySegment.ofArray(new byte[len]), len, d, d.byteSize(), t, org, cmpl);
        });
    }

    @Test
    @SpecAssertion({"L-011", "L-019"})
    void aUhdrOfHalfAWordIsRefused() {
        failsWithoutTrace(LapiError.UHDR_LEN, (o, hh, d, t, org, cmpl) ->
                o.amsend(1, hh, MemorySegment.ofArray(new byte[8]), 4, d, d.byteSize(), t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-012", "L-019"})
    void aUhdrOfThreeBytesIsRefused() {
        failsWithoutTrace(LapiError.UHDR_LEN, (o, hh, d, t, org, cmpl) ->
                o.amsend(1, hh, MemorySegment.ofArray(new byte[8]), 3, d, d.byteSize(), t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-013", "L-019"})
    void aNegativeUhdrLengthIsRefused() {
        failsWithoutTrace(LapiError.UHDR_LEN, (o, hh, d, t, org, cmpl) ->
                o.amsend(1, hh, MemorySegment.ofArray(new byte[8]), -8, d, d.byteSize(), t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-014", "L-019"})
    void nullDataWithALengthIsRefused() {
        failsWithoutTrace(LapiError.ORG_ADDR_NULL, (o, hh, d, t, org, cmpl) ->
                o.amsend(1, hh, null, 0, null, 1, t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-018", "L-019"})
    void aNegativeDataLengthIsRefused() {
        failsWithoutTrace(LapiError.DATA_LEN, (o, hh, d, t, org, cmpl) ->
                o.amsend(1, hh, null, 0, d, -1, t, org, cmpl));
    }

    @Test
    @SpecAssertion({"L-016", "L-019"})
    void dataOneByteOverTheConfiguredMaximumIsRefused() {
        try (LapiJob job = LapiJob.start(2, c -> c.withMaxData(10_000))) {
            LapiContext origin = job.task(0);
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            long hh = job.task(1).address(handler);
            LapiCounter org = origin.newCounter();
            LapiCounter cmpl = origin.newCounter();
            assertThat(origin.qenv(LapiQuery.MAX_DATA_SZ)).isEqualTo(10_000);
            MemorySegment data = job.pattern(10_001, 3);
            expectError(LapiError.DATA_LEN, () -> origin.amsend(1, hh, null, 0, data, 10_001, 0, org, cmpl));
            job.gfenceAll();
            assertThat(handler.count()).isZero();
            assertThat(origin.getcntr(org)).isZero();
            assertThat(origin.getcntr(cmpl)).isZero();
        }
    }

    /**
     * Several faults at once: the code is the first fault's in parameter order (our choice, open point: the LAPI_Amsend
     * man page, Return values, gives no precedence).
     */
    @Test
    @SpecAssertion({"L-020", "L-019"})
    void withSeveralFaultsTheFirstInParameterOrderIsReported() {
        try (LapiJob job = LapiJob.start(2, c -> c.withMaxData(10_000))) {
            LapiContext o = job.task(0);
            Recorder handler = new Recorder();
            long hh = job.task(1).address(handler);
            MemorySegment odd = MemorySegment.ofArray(new byte[8]);
            expectError(LapiError.TGT, () -> o.amsend(2, 0, null, 8, null, -1, 0, null, null));
            expectError(LapiError.HDR_HNDLR_NULL, () -> o.amsend(1, 0, null, 8, null, -1, 0, null, null));
            expectError(LapiError.UHDR_NULL, () -> o.amsend(1, hh, null, 3, null, -1, 0, null, null));
            expectError(LapiError.UHDR_LEN, () -> o.amsend(1, hh, odd, 3, null, 1, 0, null, null));
            expectError(LapiError.ORG_ADDR_NULL, () -> o.amsend(1, hh, odd, 8, null, 10_001, 0, null, null));
            LapiContext gone = job.task(1);
            gone.term();
            expectError(LapiError.HNDL_INVALID, () -> gone.amsend(5, 0, null, 3, null, -1, 0, null, null));
            assertThat(handler.count()).isZero();
        }
    }

    /**
     * An Amsend waiting for flow control is released by a purge of its target with TGT_PURGED. The origin has one
     * credit; the target's dispatcher is held by a header handler blocked on a latch, so no credit comes back and
     * a second Amsend must wait.
     */
    @Test
    @SpecAssertion("L-021")
    void aPurgeReleasesAnAmsendWaitingForFlowControl() {
        try (LapiJob job = LapiJob.start(2, c -> c.withCredits(1))) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch entered = new CountDownLatch(1);
            Recorder holder = new Recorder().during(() -> {
                entered.countDown();
                LapiJob.await(release, "the test releases the target's dispatcher");
            });
            Recorder handler = new Recorder();
            send(job.task(0), 1, job.task(1).address(holder), null, null, 0, null, null);
            LapiJob.await(entered, "task 1's dispatcher is held");
            AtomicReference<Object> outcome = new AtomicReference<>();
            CountDownLatch returned = new CountDownLatch(1);
            Thread.ofPlatform().start(() -> {
                try {
                    send(job.task(0), 1, job.task(1).address(handler), null, null, 0, null, null);
                    outcome.set("returned normally");
                } catch (LapiException e) {
                    outcome.set(e.error());
                } finally {
                    returned.countDown();
                }
            });
            LapiJob.await(() -> job.task(0).creditWaiters(1) == 1, "the second Amsend waiting for a credit");
            assertThat(returned.getCount()).as("the second Amsend has not returned").isEqualTo(1);
            job.task(0).purgeToTask(1);
            LapiJob.await(returned, "the purge releases the waiting Amsend");
            assertThat(outcome.get()).isEqualTo(LapiError.TGT_PURGED);
            release.countDown();
            job.gfenceAll();
            assertThat(handler.count()).as("the purged message was not sent").isZero();
        }
    }
}
