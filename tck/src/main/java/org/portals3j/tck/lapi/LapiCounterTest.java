package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.sameBytes;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/** Amsend's three counters (LAPI_Amsend man page, Parameters): by exactly one, each at its moment. */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiCounterTest {

    /** org_cntr moves while the target's header handler is held (an eager message is copied out already). */
    @Test
    @SpecAssertion("L-047")
    void orgCntrMovesOncePerMessageEvenWhileTheTargetIsHeld() {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch entered = new CountDownLatch(1);
            Recorder held = new Recorder().during(() -> {
                entered.countDown();
                LapiJob.await(release, "the test releases the header handler");
            });
            LapiCounter org = job.task(0).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(held), job.pattern(8, 0), job.pattern(100, 1), 0, org, cmpl);
            LapiJob.await(entered, "the header handler runs");
            LapiJob.awaitCounter(job.task(0), org, 1, "org_cntr while the handler is held");
            assertThat(job.task(0).getcntr(cmpl)).isZero();
            release.countDown();
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            job.gfenceAll();
            assertThat(job.task(0).getcntr(org)).as("exactly once").isEqualTo(1);
        }
    }

    /** Once org_cntr moved the origin's buffers may be overwritten: the target still gets what was sent. */
    @Test
    @SpecAssertion("L-048")
    void afterOrgCntrTheOriginBuffersMayBeReused() {
        try (LapiJob job = LapiJob.start(2)) {
            for (long len : new long[] {200, 4 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ)}) {
                MemorySegment dest = job.allocate(len);
                Recorder handler = new Recorder().into(dest);
                MemorySegment data = job.pattern(len, 9);
                MemorySegment sent = job.pattern(len, 9);
                MemorySegment uhdr = job.pattern(16, 4);
                byte[] sentUhdr = uhdr.toArray(ValueLayout.JAVA_BYTE);
                LapiCounter org = job.task(0).newCounter();
                LapiCounter cmpl = job.task(0).newCounter();
                send(job.task(0), 1, job.task(1).address(handler), uhdr, data, 0, org, cmpl);
                LapiJob.awaitCounter(job.task(0), org, 1, "org_cntr");
                data.fill((byte) 0);
                uhdr.fill((byte) 0);
                LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
                assertThat(sameBytes(dest, sent)).as("%d bytes delivered as sent", len).isTrue();
                assertThat(handler.last().uhdr()).isEqualTo(sentUhdr);
            }
        }
    }

    @Test
    @SpecAssertion({"L-049", "L-055"})
    void eachCounterMovesByOnePerMessage() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder().into(len -> job.allocate(len)).completion((c, i) -> { }, null);
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter both = job.task(0).newCounter();
            int n = 5;
            for (int i = 0; i < n; i++) {
                send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(32, i), tgt.address(), both, both);
            }
            LapiJob.awaitCounter(job.task(0), both, 2 * n, "org_cntr and cmpl_cntr, one counter");
            job.gfenceAll();
            LapiJob.holdsForQuietPeriod("no more increments", () -> job.task(0).getcntr(both) == 2 * n);
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(n);
        }
    }

    /** tgt_cntr and cmpl_cntr wait for the completion handler to return. */
    @Test
    @SpecAssertion({"L-050", "L-051"})
    void tgtCntrAndCmplCntrWaitForTheCompletionHandler() {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch entered = new CountDownLatch(1);
            Recorder handler = new Recorder().into(len -> job.allocate(len)).completion((c, i) -> {
                entered.countDown();
                LapiJob.await(release, "the test releases the completion handler");
            }, null);
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(64, 1), tgt.address(), null, cmpl);
            LapiJob.await(entered, "the completion handler runs");
            LapiJob.holdsForQuietPeriod("tgt_cntr and cmpl_cntr stay 0 while the completion handler runs",
                    () -> job.task(1).getcntr(tgt) == 0 && job.task(0).getcntr(cmpl) == 0);
            release.countDown();
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
        }
    }

    /** Amsend's return says nothing: with the target's dispatcher held, tgt_cntr and cmpl_cntr are 0 after it. */
    @Test
    @SpecAssertion("L-056")
    void returningFromAmsendMovesNoTargetSideCounter() {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch entered = new CountDownLatch(1);
            Recorder holder = new Recorder().during(() -> {
                entered.countDown();
                LapiJob.await(release, "the test releases the dispatcher");
            });
            Recorder handler = new Recorder();
            send(job.task(0), 1, job.task(1).address(holder), null, null, 0, null, null);
            LapiJob.await(entered, "task 1's dispatcher is held");
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(16, 0), tgt.address(), null, cmpl);
            assertThat(job.task(1).getcntr(tgt)).isZero();
            assertThat(job.task(0).getcntr(cmpl)).isZero();
            release.countDown();
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
        }
    }

    @Test
    @SpecAssertion("L-057")
    void aNullTgtCntrMovesNoCounterAtTheTarget() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiCounter a = job.task(1).newCounter();
            LapiCounter b = job.task(1).newCounter();
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(10, 0), 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            job.gfenceAll();
            assertThat(job.task(1).getcntr(a)).isZero();
            assertThat(job.task(1).getcntr(b)).isZero();
            assertThat(job.asyncErrors()).isEmpty();
        }
    }

    @Test
    @SpecAssertion("L-104")
    void aFinishedMessageNeverMovesItsCountersAgain() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder().into(len -> job.allocate(len)).completion((c, i) -> { }, null);
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter org = job.task(0).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            long big = 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ);
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(10, 0), tgt.address(), org, cmpl);
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(big, 0), tgt.address(), org, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr");
            LapiJob.awaitCounter(job.task(0), org, 2, "org_cntr");
            job.gfenceAll();
            LapiJob.holdsForQuietPeriod("no counter moves again", () -> job.task(0).getcntr(cmpl) == 2
                    && job.task(0).getcntr(org) == 2 && job.task(1).getcntr(tgt) == 2);
        }
    }
}
