package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.expectError;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.AsyncErrorType;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiError;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/**
 * Addr_set indices and Address_init (LAPI_Addr_set and LAPI_Address_init man pages): how an origin names the target's
 * handler.
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiAddressTest {

    @Test
    @SpecAssertion({"L-064", "L-065"})
    void anIndexRunsTheTargetsHandlerRegisteredThere() {
        try (LapiJob job = LapiJob.start(3)) {
            Recorder[] handlers = {new Recorder(), new Recorder(), new Recorder()};
            for (int t = 0; t < 3; t++) {
                job.task(t).addrSet(handlers[t], 5);
            }
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, 5, null, null, 0, null, cmpl);
            send(job.task(0), 2, 5, null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr");
            assertThat(handlers[0].count()).as("the origin's own handler at 5").isZero();
            assertThat(handlers[1].count()).isEqualTo(1);
            assertThat(handlers[2].count()).isEqualTo(1);
            assertThat(handlers[1].last().context()).isSameAs(job.task(1));
        }
    }

    @Test
    @SpecAssertion({"L-066", "L-067"})
    void indicesOutsideOneToTheTableSizeAreRefused() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext c = job.task(0);
            int size = (int) c.qenv(LapiQuery.LOC_ADDRTBL_SZ);
            Recorder handler = new Recorder();
            expectError(LapiError.ADDR_HNDL_RANGE, () -> c.addrSet(handler, 0));
            expectError(LapiError.ADDR_HNDL_RANGE, () -> c.addrSet(handler, size));
            expectError(LapiError.ADDR_HNDL_RANGE, () -> c.addrSet(handler, -1));
            expectError(LapiError.ADDR_HNDL_RANGE, () -> c.addrGet(0));
            expectError(LapiError.ADDR_HNDL_RANGE, () -> c.addrGet(size));
            c.addrSet(handler, size - 1);
            assertThat(c.addrGet(size - 1)).isSameAs(handler);
            c.addrSet(handler, 1);
            assertThat(c.addrGet(1)).isSameAs(handler);
        }
    }

    @Test
    @SpecAssertion("L-068")
    void reRegisteringAnIndexReplacesTheHandler() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder first = new Recorder();
            Recorder second = new Recorder();
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(1).addrSet(first, 9);
            send(job.task(0), 1, 9, null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            job.task(1).addrSet(second, 9);
            assertThat(job.task(1).addrGet(9)).isSameAs(second);
            send(job.task(0), 1, 9, null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 2, "cmpl_cntr");
            assertThat(first.count()).isEqualTo(1);
            assertThat(second.count()).isEqualTo(1);
        }
    }

    /** An index the target never registered: accepted at the origin, reported at the target (O-09). */
    @Test
    @SpecAssertion("L-069")
    void anUnregisteredIndexIsReportedAtTheTarget() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder atOrigin = new Recorder();
            job.task(0).addrSet(atOrigin, 17);
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, 17, null, job.pattern(32, 0), tgt.address(), null, cmpl);
            LapiJob.awaitCondition("an asynchronous error at task 1", () -> !job.asyncErrors(1).isEmpty());
            assertThat(job.asyncErrors(1).get(0).type()).as("err_type").isEqualTo(AsyncErrorType.AM_ERR);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr (the reply is still sent, O-09)");
            job.gfenceAll();
            assertThat(atOrigin.count()).isZero();
            assertThat(job.task(1).getcntr(tgt)).as("tgt_cntr is not touched (O-09)").isZero();
        }
    }

    @Test
    @SpecAssertion({"L-070", "L-071", "L-073"})
    void addressInitExchangesEveryTasksAddress() {
        try (LapiJob job = LapiJob.start(3)) {
            Recorder[] handlers = {new Recorder(), new Recorder(), new Recorder()};
            long[][] tables = new long[3][3];
            job.runOnAll("Address_init", c -> {
                int t = c.taskId();
                c.addressInit(t == 2 ? 0 : c.address(handlers[t]), tables[t]);
            });
            for (int t = 0; t < 3; t++) {
                assertThat(tables[t]).as("task %d's table", t)
                        .containsExactly(job.task(0).address(handlers[0]), job.task(1).address(handlers[1]), 0L);
            }
            LapiCounter cmpl = job.task(2).newCounter();
            send(job.task(2), 1, tables[2][1], null, null, 0, null, cmpl);
            send(job.task(2), 0, tables[2][0], null, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(2), cmpl, 2, "cmpl_cntr");
            assertThat(handlers[0].count()).isEqualTo(1);
            assertThat(handlers[1].count()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("L-072")
    void addressInitWithoutATableIsRefused() {
        try (LapiJob job = LapiJob.start(2)) {
            expectError(LapiError.RET_PTR_NULL, () -> job.task(0).addressInit(0, null));
        }
    }

    /** No task returns from Address_init before the last one has called it. */
    @Test
    @SpecAssertion("L-074")
    void addressInitIsCollective() {
        try (LapiJob job = LapiJob.start(3)) {
            CountDownLatch returned = new CountDownLatch(2);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < 2; t++) {
                LapiContext c = job.task(t);
                Thread.ofPlatform().start(() -> {
                    try {
                        c.addressInit(c.taskId() + 1, new long[3]);
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                    returned.countDown();
                });
            }
            LapiJob.holdsForQuietPeriod("tasks 0 and 1 wait for task 2", () -> returned.getCount() == 2);
            long[] table = new long[3];
            job.task(2).addressInit(3, table);
            LapiJob.await(returned, "tasks 0 and 1 return");
            assertThat(failure.get()).isNull();
            assertThat(table).containsExactly(1, 2, 3);
        }
    }
}
