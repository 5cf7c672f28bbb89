package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.AsyncErrorType;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.tck.SpecAssertion;

/**
 * What the Java binding adds (our choices, open point: the C man page has no exceptions nor arrays): handler
 * exceptions, short segments.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiJavaMappingTest {

    @Test
    @SpecAssertion("L-062")
    void aThrowingHeaderHandlerIsReportedAndTheNextMessageIsHandled() {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicBoolean first = new AtomicBoolean(true);
            IllegalStateException thrown = new IllegalStateException("the kit's header handler throws");
            Recorder handler = new Recorder().into(len -> job.allocate(len)).during(() -> {
                if (first.getAndSet(false)) {
                    throw thrown;
                }
            });
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(32, 0), 0, null, cmpl);
            LapiJob.awaitCondition("an asynchronous error at task 1", () -> !job.asyncErrors(1).isEmpty());
            assertThat(job.asyncErrors(1).get(0).cause() == thrown).as("the report carries the exception").isTrue();
            assertThat(job.asyncErrors(1).get(0).type()).as("err_type").isEqualTo(AsyncErrorType.AM_ERR);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr of the failed message (O-06)");
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(32, 0), 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr of the next message");
            assertThat(handler.count()).as("handler calls that returned").isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("L-063")
    void aThrowingCompletionHandlerIsReportedAndTheCountersStillMove() {
        try (LapiJob job = LapiJob.start(2)) {
            IllegalStateException thrown = new IllegalStateException("the kit's completion handler throws");
            Recorder handler = new Recorder().into(len -> job.allocate(len)).completion((c, i) -> {
                throw thrown;
            }, null);
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(32, 0), tgt.address(), null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
            LapiJob.awaitCondition("an asynchronous error at task 1", () -> !job.asyncErrors(1).isEmpty());
            assertThat(job.asyncErrors(1).get(0).cause() == thrown).as("the report carries the exception").isTrue();
            assertThat(job.asyncErrors(1).get(0).type()).as("err_type").isEqualTo(AsyncErrorType.AM_ERR);
            send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(32, 0), tgt.address(), null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr after the completion thread's exception");
        }
    }

    /** A segment shorter than its length is refused before anything is sent (O-12). */
    @Test
    @SpecAssertion("L-102")
    void aSegmentShorterThanItsLengthThrowsBeforeAnythingIsSent() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            long hh = job.task(1).address(handler);
            LapiCounter org = job.task(0).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            MemorySegment data = job.pattern(10, 0);
            assertThatThrownBy(() -> job.task(0).amsend(1, hh, null, 0, data, 11, 0, org, cmpl))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> job.task(0).amsend(1, hh, job.pattern(8, 0), 16, null, 0, 0, org, cmpl))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            job.gfenceAll();
            assertThat(handler.count()).isZero();
            assertThat(job.task(0).getcntr(org)).isZero();
            assertThat(job.task(0).getcntr(cmpl)).isZero();
        }
    }
}
