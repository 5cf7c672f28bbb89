package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

/** Header and completion handlers, their threads, and ret_flags (LAPI_Amsend, Description; O-04..O-06, O-09, O-14). */
class HandlersTest {

    private static HeaderHandler withCompletion(RetFlag flag, CompletionHandler ch, @Nullable Object userInfo) {
        return (ctx, uhdr, info) -> {
            info.setCompletion(ch, userInfo);
            info.setRetFlags(flag);
            return null;
        };
    }

    @Test
    void aNormalCompletionHandlerRunsOnACompletionThreadWithTheUserInfo() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            Object info = new Object();
            AtomicReference<String> thread = new AtomicReference<>();
            AtomicReference<@Nullable Object> seen = new AtomicReference<>();
            AtomicReference<LapiContext> ctxSeen = new AtomicReference<>();
            job.task(1).addrSet(withCompletion(RetFlag.NORMAL, (ctx, ui) -> {
                thread.set(Thread.currentThread().getName());
                seen.set(ui);
                ctxSeen.set(ctx);
            }, info), 7);
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 7, null, 0, null, 0, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(thread.get()).isEqualTo("lapi-compl-1-0");
            assertThat(seen.get()).isSameAs(info);
            assertThat(ctxSeen.get()).isSameAs(job.task(1));
        }
    }

    @Test
    void sendReplyRunsInlineAndLocalStateSendsNoCompletion() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            AtomicReference<String> thread = new AtomicReference<>();
            job.task(1).addrSet(withCompletion(RetFlag.SEND_REPLY,
                    (ctx, ui) -> thread.set(Thread.currentThread().getName()), "x"), 1);
            CountDownLatch ran = new CountDownLatch(1);
            job.task(1).addrSet(withCompletion(RetFlag.LOCAL_STATE, (ctx, ui) -> ran.countDown(), "y"), 2);
            LapiCounter tgt = job.task(1).newCounter();
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            a.waitcntr(cmpl, 1);
            assertThat(thread.get()).isEqualTo("lapi-dispatch-1");
            long[] t = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? tgt.address() : 0, t));
            a.amsend(1, 2, null, 0, null, 0, t[1], null, cmpl);
            job.task(1).waitcntr(tgt, 1);
            assertThat(ran.await(20, TimeUnit.SECONDS)).isTrue();
            job.onAll(r -> job.task(r).gfence());
            assertThat(a.getcntr(cmpl)).isZero();
        }
    }

    @Test
    void aThrowingHeaderHandlerIsReportedAndTheDispatcherGoesOn() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            job.task(1).addrSet((ctx, uhdr, info) -> {
                throw new IllegalStateException("boom");
            }, 3);
            MemorySegment dst = job.allocate(16);
            job.task(1).addrSet((ctx, uhdr, info) -> dst, 4);
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            a.amsend(1, 3, null, 0, job.pattern(16, 1), 16, 0, null, cmpl);
            a.amsend(1, 4, null, 0, job.pattern(16, 2), 16, 0, null, cmpl);
            a.waitcntr(cmpl, 2);
            assertThat(dst.mismatch(job.pattern(16, 2))).isEqualTo(-1);
            assertThat(job.asyncErrors).anyMatch(e -> e.contains("header handler threw"));
        }
    }

    @Test
    void aThrowingCompletionHandlerIsReportedAndCountersStillMove() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            job.task(1).addrSet(withCompletion(RetFlag.NORMAL, (ctx, ui) -> {
                throw new IllegalStateException("boom");
            }, null), 3);
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 3, null, 0, null, 0, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(job.asyncErrors).anyMatch(e -> e.contains("completion handler threw"));
        }
    }

    @Test
    void anUnknownIndexAndANullRendezvousBufferAreReportedAndStillComplete() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            job.task(1).addrSet((ctx, uhdr, info) -> null, 9);
            LapiContext a = job.task(0);
            LapiCounter org = a.newCounter();
            LapiCounter cmpl = a.newCounter();
            long big = a.qenv(LapiQuery.PKT_PAYLOAD_SZ) * 3;
            a.amsend(1, 200, null, 0, job.pattern(8, 1), 8, 0, org, cmpl);
            a.amsend(1, 9, null, 0, job.pattern(big, 1), big, 0, org, cmpl);
            a.waitcntr(cmpl, 2);
            assertThat(a.getcntr(org)).isEqualTo(2);
            assertThat(job.asyncErrors).anyMatch(e -> e.startsWith("task 1 from 0 (AM_ERR)")
                    && e.contains("which this task does not have"));
            assertThat(job.asyncErrors).anyMatch(e -> e.startsWith("task 1 from 0 (AM_ERR)")
                    && e.contains("returned no buffer"));
        }
    }

    @Test
    void aBlockingCallInAHeaderHandlerIsRefused() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            List<LapiError> codes = new CopyOnWriteArrayList<>();
            job.task(1).addrSet((ctx, uhdr, info) -> {
                try {
                    ctx.waitcntr(ctx.newCounter(), 1);
                } catch (LapiException e) {
                    codes.add(e.error());
                }
                try {
                    ctx.fence();
                } catch (LapiException e) {
                    codes.add(e.error());
                }
                return null;
            }, 3);
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, 3, null, 0, null, 0, 0, null, cmpl);
            job.task(0).waitcntr(cmpl, 1);
            assertThat(codes).containsExactly(LapiError.BLOCKING_IN_HANDLER, LapiError.BLOCKING_IN_HANDLER);
        }
    }

    @Test
    void aCompletionHandlerMayBlockAndSendWhileHeadersKeepRunning() throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch headers = new CountDownLatch(3);
            job.task(0).addrSet((ctx, uhdr, info) -> null, 2);
            job.task(1).addrSet((ctx, uhdr, info) -> {
                headers.countDown();
                info.setCompletion((c, ui) -> {
                    try {
                        release.await();
                        LapiCounter back = c.newCounter();
                        c.amsend(0, 2, null, 0, null, 0, 0, null, back);
                        c.waitcntr(back, 1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, null);
                return null;
            }, 1);
            LapiContext a = job.task(0);
            LapiCounter cmpl = a.newCounter();
            for (int i = 0; i < 3; i++) {
                a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
            }
            assertThat(headers.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(a.getcntr(cmpl)).isZero();
            release.countDown();
            a.waitcntr(cmpl, 3);
        }
    }
}
