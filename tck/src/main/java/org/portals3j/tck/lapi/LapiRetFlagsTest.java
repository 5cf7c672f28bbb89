package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.RetFlag;
import org.portals3j.tck.SpecAssertion;

/**
 * {@code ret_flags} (LAPI_Amsend man page, Role of the header handler; our choices where it is open: LAPI_SEND_REPLY
 * runs the completion handler inline and still replies, LAPI_LOCAL_STATE sends no reply): where the completion handler
 * runs, and the reply.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiRetFlagsTest {

    /** Sends one message whose header handler sets {@code flags}; returns the completion handler's thread. */
    private static String completionThread(LapiJob job, RetFlag flags, LapiCounter tgt, LapiCounter cmpl,
                                           Recorder handler) {
        AtomicReference<String> thread = new AtomicReference<>();
        handler.flags(flags).completion((c, info) -> thread.set(Thread.currentThread().getName()), null);
        send(job.task(0), 1, job.task(1).address(handler), null, job.pattern(64, 1), tgt.address(), null, cmpl);
        LapiJob.awaitCounter(job.task(1), tgt, 1, "tgt_cntr");
        return thread.get();
    }

    @Test
    @SpecAssertion({"L-043", "L-044"})
    void sendReplyRunsTheCompletionHandlerInlineAndStillReplies() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            String thread = completionThread(job, RetFlag.SEND_REPLY, tgt, cmpl, handler);
            assertThat(thread).as("the dispatcher thread, where the header handler ran")
                    .isEqualTo(handler.last().thread());
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
        }
    }

    @Test
    @SpecAssertion("L-045")
    void localStateSendsNoReply() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            String thread = completionThread(job, RetFlag.LOCAL_STATE, tgt, cmpl, handler);
            assertThat(thread).as("the completion handler ran").isNotNull();
            job.gfenceAll();
            LapiJob.holdsForQuietPeriod("cmpl_cntr stays 0", () -> job.task(0).getcntr(cmpl) == 0);
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("L-046")
    void byDefaultTheFlagsAreNormal() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            AtomicReference<RetFlag> seen = new AtomicReference<>();
            AtomicReference<String> thread = new AtomicReference<>();
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            handler.during(() -> { }).completion((c, info) -> thread.set(Thread.currentThread().getName()), null);
            HeaderHandler peek = (c, uhdr, info) -> {
                seen.set(info.retFlags());
                return handler.onHeader(c, uhdr, info);
            };
            send(job.task(0), 1, job.task(1).address(peek), null, job.pattern(64, 1), tgt.address(), null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr (the reply was sent)");
            assertThat(seen.get()).isEqualTo(RetFlag.NORMAL);
            assertThat(thread.get()).as("a completion thread").isNotEqualTo(handler.last().thread());
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(1);
        }
    }
}
