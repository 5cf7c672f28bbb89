package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/**
 * The completion handler (LAPI_Amsend man page, Description): once, after the data, on a completion thread that may
 * block.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiCompletionHandlerTest {

    @Test
    @SpecAssertion({"L-036", "L-037", "L-038"})
    void itRunsOnceAfterTheDataOnACompletionThreadWithTheUserInfo() {
        try (LapiJob job = LapiJob.start(2)) {
            for (long len : new long[] {300, 5 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ)}) {
                MemorySegment dest = job.allocate(len);
                MemorySegment data = job.pattern(len, (int) len);
                Object info = new Object();
                List<Object> seen = new CopyOnWriteArrayList<>();
                Recorder handler = new Recorder().into(dest).completion((c, userInfo) -> {
                    seen.add(c);
                    seen.add(userInfo == null ? "null" : userInfo);
                    seen.add(Thread.currentThread().getName());
                    seen.add(LapiSupport.sameBytes(dest, data));
                }, info);
                LapiCounter cmpl = job.task(0).newCounter();
                send(job.task(0), 1, job.task(1).address(handler), null, data, 0, null, cmpl);
                LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
                job.gfenceAll();
                assertThat(seen).as("one run (context, userInfo, thread, payload complete)").hasSize(4);
                assertThat(seen.get(0)).isSameAs(job.task(1));
                assertThat(seen.get(1)).isSameAs(info);
                assertThat((String) seen.get(2)).isNotEqualTo(handler.last().thread());
                assertThat(seen.get(3)).as("the whole payload was in place when it ran").isEqualTo(true);
            }
        }
    }

    /** A completion handler blocked on a latch does not stop the dispatcher: the next header handler runs. */
    @Test
    @SpecAssertion("L-039")
    void aNormalCompletionHandlerMayBlockWhileHeaderHandlersGoOn() {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocked = new CountDownLatch(1);
            Recorder blocking = new Recorder().completion((c, info) -> {
                blocked.countDown();
                LapiJob.await(release, "the test releases the completion handler");
            }, null);
            Recorder next = new Recorder();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(blocking), null, null, 0, null, cmpl);
            LapiJob.await(blocked, "the completion handler blocks");
            send(job.task(0), 1, job.task(1).address(next), null, null, 0, null, null);
            LapiJob.awaitCondition("the next header handler ran", () -> next.count() == 1);
            assertThat(job.task(0).getcntr(cmpl)).as("the blocked message is not complete").isZero();
            release.countDown();
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
        }
    }

    /** A completion handler may send an Amsend and wait for its completion. */
    @Test
    @SpecAssertion("L-040")
    void aNormalCompletionHandlerMayAmsendAndWaitcntr() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder echo = new Recorder();
            long echoAtTask0 = job.task(0).address(echo);
            AtomicReference<Object> result = new AtomicReference<>();
            LapiContext target = job.task(1);
            Recorder handler = new Recorder().completion((c, info) -> {
                try {
                    LapiCounter done = c.newCounter();
                    send(c, 0, echoAtTask0, null, null, 0, null, done);
                    result.set(c.waitcntr(done, 1));
                } catch (RuntimeException e) {
                    result.set(e);
                }
            }, null);
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, target.address(handler), null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(result.get()).as("Waitcntr's cur_cntr_val").isEqualTo(0);
            assertThat(echo.count()).isEqualTo(1);
        }
    }

    /** With one completion thread (the default, O-11), two handlers of one task never overlap. */
    @Test
    @SpecAssertion("L-041")
    void withOneCompletionThreadHandlersNeverOverlap() {
        try (LapiJob job = LapiJob.start(3, c -> c.withCompletionThreads(1))) {
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            Recorder handler = new Recorder().completion((c, info) -> {
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                Thread.yield();
                inside.decrementAndGet();
            }, null);
            long hh = job.task(2).address(handler);
            LapiCounter c0 = job.task(0).newCounter();
            LapiCounter c1 = job.task(1).newCounter();
            int n = 100;
            Thread t = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < n; i++) {
                    send(job.task(0), 2, hh, null, null, 0, null, c0);
                }
            });
            for (int i = 0; i < n; i++) {
                send(job.task(1), 2, hh, null, null, 0, null, c1);
            }
            LapiJob.awaitCondition("task 0's sender finished", () -> !t.isAlive());
            LapiJob.awaitCounter(job.task(0), c0, n, "task 0's cmpl_cntr");
            LapiJob.awaitCounter(job.task(1), c1, n, "task 1's cmpl_cntr");
            assertThat(overlaps.get()).isZero();
        }
    }

    @Test
    @SpecAssertion("L-042")
    void withoutACompletionHandlerTheCountersStillMove() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(100, 0), tgt.address(), null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
        }
    }
}
