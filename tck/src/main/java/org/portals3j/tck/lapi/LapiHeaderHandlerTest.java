package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.sameBytes;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.AsyncErrorType;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiException;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.lapi.RetFlag;
import org.portals3j.tck.SpecAssertion;

/**
 * The header handler (LAPI_Amsend man page, Role of the header handler): where, when, how often it runs and what it is
 * given.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiHeaderHandlerTest {

    @Test
    @SpecAssertion({"L-023", "L-024", "L-025", "L-026"})
    void itRunsOnceAtTheTargetWithTheOriginsHeaderAndLengths() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder atTarget = new Recorder().into(len -> job.allocate(len));
            LapiCounter cmpl = job.task(0).newCounter();
            MemorySegment uhdr = job.pattern(24, 40);
            for (long len : new long[] {100, 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ)}) {
                send(job.task(0), 1, job.task(1).address(atTarget), uhdr, job.pattern(len, 1), 0, null, cmpl);
            }
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr");
            job.gfenceAll();
            assertThat(atTarget.count()).isEqualTo(2);
            for (Recorder.Call call : atTarget.calls()) {
                assertThat(call.context()).as("the target's own context").isSameAs(job.task(1));
                assertThat(call.uhdr()).isEqualTo(uhdr.toArray(ValueLayout.JAVA_BYTE));
                assertThat(call.srcTask()).isZero();
            }
            assertThat(atTarget.calls()).extracting(Recorder.Call::msgLen)
                    .containsExactlyInAnyOrder(100L, 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ));
        }
    }

    @Test
    @SpecAssertion("L-027")
    void itRunsOnTheTargetsDispatcherThread() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            String thread = handler.last().thread();
            assertThat(thread).isNotEqualTo(Thread.currentThread().getName()).startsWith("lapi-dispatch-1");
        }
    }

    /** Two header handlers on one task never overlap, nor an inline completion handler with one. */
    @Test
    @SpecAssertion("L-028")
    void headerHandlersAndInlineCompletionsOfOneTaskNeverOverlap() {
        try (LapiJob job = LapiJob.start(3)) {
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            Runnable critical = () -> {
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                for (int i = 0; i < 200; i++) {
                    Thread.onSpinWait();
                }
                inside.decrementAndGet();
            };
            Recorder handler = new Recorder().during(critical).flags(RetFlag.SEND_REPLY)
                    .completion((c, info) -> critical.run(), null);
            long hh = job.task(2).address(handler);
            LapiCounter c0 = job.task(0).newCounter();
            LapiCounter c1 = job.task(1).newCounter();
            int n = 200;
            Thread t0 = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < n; i++) {
                    send(job.task(0), 2, hh, null, null, 0, null, c0);
                }
            });
            for (int i = 0; i < n; i++) {
                send(job.task(1), 2, hh, null, null, 0, null, c1);
            }
            LapiJob.awaitCondition("task 0's sender finished", () -> !t0.isAlive());
            LapiJob.awaitCounter(job.task(0), c0, n, "task 0's cmpl_cntr");
            LapiJob.awaitCounter(job.task(1), c1, n, "task 1's cmpl_cntr");
            assertThat(handler.count()).isEqualTo(2 * n);
            assertThat(overlaps.get()).as("handlers that found another one running").isZero();
        }
    }

    @Test
    @SpecAssertion("L-032")
    void anEmptyUhdrIsAnEmptySegmentNotNull() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(handler.last().uhdr()).isEmpty();
        }
    }

    @Test
    @SpecAssertion({"L-033", "L-034"})
    void aSinglePacketMessageIsHandedOverInThePacketAndMayBeConsumedThere() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            AtomicReference<String> completed = new AtomicReference<>();
            Recorder handler = new Recorder().completion((c, info) -> completed.set("yes"), null);
            MemorySegment data = job.pattern(200, 77);
            send(job.task(0), 1, job.task(1).address(handler), job.pattern(16, 0), data, tgt.address(), null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(Arrays.equals(handler.last().onePacket(), data.toArray(ValueLayout.JAVA_BYTE)))
                    .as("udata_one_pkt_ptr holds the data").isTrue();
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
            assertThat(completed.get()).isEqualTo("yes");
            assertThat(job.asyncErrors()).isEmpty();

            long big = job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ) * 2;
            Recorder multi = new Recorder().into(len -> job.allocate(len));
            send(job.task(0), 1, job.task(1).address(multi), null, job.pattern(big, 1), 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr");
            assertThat(multi.last().onePacket() == null).as("a multi-packet message has no packet view").isTrue();
        }
    }

    @Test
    @SpecAssertion("L-035")
    void theUhdrIsReadOnlyAndKeepsWhatWasSent() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder();
            LapiCounter org = job.task(0).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            MemorySegment uhdr = job.pattern(32, 3);
            byte[] sent = uhdr.toArray(ValueLayout.JAVA_BYTE);
            send(job.task(0), 1, job.task(1).address(handler), uhdr, null, 0, org, cmpl);
            LapiJob.awaitCounter(job.task(0), org, 1, "org_cntr");
            uhdr.fill((byte) 0x55);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(handler.last().uhdrReadOnly()).isTrue();
            assertThat(handler.last().uhdr()).isEqualTo(sent);
        }
    }

    /** On the rendezvous path the handler chooses the buffer before any byte of the data is written to it. */
    @Test
    @SpecAssertion("L-060")
    void aMultiPacketHandlerRunsBeforeAnyDataIsWritten() {
        try (LapiJob job = LapiJob.start(2)) {
            long len = job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ) * 4;
            MemorySegment dest = job.allocate(len);
            AtomicInteger untouched = new AtomicInteger(-1);
            Recorder handler = new Recorder().into(dest).during(() -> {
                long firstWritten = dest.mismatch(MemorySegment.ofArray(new byte[(int) len]));
                untouched.set(firstWritten == -1 ? 1 : 0);
                dest.fill((byte) 0xEE);
            });
            MemorySegment data = job.pattern(len, 1);
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, data, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(untouched.get()).as("the buffer was untouched when the handler ran").isEqualTo(1);
            assertThat(sameBytes(dest, data)).as("the sentinel is entirely replaced").isTrue();
        }
    }

    /** A multi-packet message whose handler gives no buffer: no write, an async error, counters still move (O-06). */
    @Test
    @SpecAssertion("L-061")
    void aMultiPacketHandlerReturningNullWritesNothingAndIsReported() {
        try (LapiJob job = LapiJob.start(2)) {
            long len = job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ) * 2;
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            AtomicInteger completions = new AtomicInteger();
            Recorder handler = new Recorder().completion((c, info) -> completions.incrementAndGet(), null);
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(len, 1), tgt.address(), null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
            assertThat(completions.get()).isEqualTo(1);
            LapiJob.awaitCondition("an asynchronous error at task 1", () -> !job.asyncErrors(1).isEmpty());
            assertThat(job.asyncErrors(1).get(0).srcTask()).isZero();
            assertThat(job.asyncErrors(1).get(0).type()).as("err_type").isEqualTo(AsyncErrorType.AM_ERR);
        }
    }

    /** Waitcntr from a header handler is refused with BLOCKING_IN_HANDLER, not deadlocked (O-14). */
    @Test
    @SpecAssertion("L-080")
    void aBlockingCallInAHeaderHandlerIsRejected() {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicReference<Object> outcome = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            LapiContext target = job.task(1);
            LapiCounter never = target.newCounter();
            Recorder handler = new Recorder().during(() -> {
                try {
                    outcome.set(target.waitcntr(never, 1));
                } catch (LapiException e) {
                    outcome.set(e.error());
                } finally {
                    done.countDown();
                }
            });
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, target.address(handler), null, null, 0, null, cmpl);
            LapiJob.await(done, "Waitcntr in the handler returned");
            assertThat(outcome.get()).isEqualTo(LapiError.BLOCKING_IN_HANDLER);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
        }
    }
}
