package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LAPI_Amsend's return codes, in parameter order, decided before anything is sent (LAPI_Amsend, Return Values; O-07).
 */
@SuppressWarnings("nullness") // nulls are the point (C NULL arguments); the fields are set in @BeforeAll
class AmsendArgumentsTest {
    private static LapiJob job;
    private static final AtomicInteger HANDLED = new AtomicInteger();
    private static LapiContext a;
    private static LapiCounter org;
    private static LapiCounter cmpl;
    private static MemorySegment eight;

    @BeforeAll
    static void start() throws Exception {
        job = LapiJob.start(2, LapiConfig.DEFAULT.withMaxData(100));
        HeaderHandler h = (ctx, uhdr, info) -> {
            HANDLED.incrementAndGet();
            return null;
        };
        job.onAll(r -> job.task(r).addrSet(h, 1));
        a = job.task(0);
        org = a.newCounter();
        cmpl = a.newCounter();
        eight = job.allocate(200);
    }

    @AfterAll
    static void stop() throws Exception {
        job.close();
    }

    private static void assertCode(LapiError code, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(LapiException.class, e -> {
            assertThat(e.error()).isEqualTo(code);
            assertThat(e.code()).isEqualTo(code.code());
            assertThat(e.getMessage()).startsWith(code.cName());
        });
    }

    private static void amsend(int tgt, long hdl, MemorySegment uhdr, int uhdrLen, MemorySegment udata, long len) {
        a.amsend(tgt, hdl, uhdr, uhdrLen, udata, len, 0, org, cmpl);
    }

    @Test
    void eachFaultGetsItsCodeAndNothingIsSent() throws Exception {
        int before = HANDLED.get();
        assertCode(LapiError.TGT, () -> amsend(2, 1, eight, 8, eight, 8));
        assertCode(LapiError.TGT, () -> amsend(-1, 1, eight, 8, eight, 8));
        assertCode(LapiError.HDR_HNDLR_NULL, () -> amsend(1, 0, eight, 8, eight, 8));
        assertCode(LapiError.UHDR_NULL, () -> amsend(1, 1, null, 8, eight, 8));
        assertCode(LapiError.UHDR_LEN, () -> amsend(1, 1, eight, 4, eight, 8));
        assertCode(LapiError.UHDR_LEN, () -> amsend(1, 1, eight, 3, eight, 8));
        assertCode(LapiError.UHDR_LEN, () -> amsend(1, 1, eight, -8, eight, 8));
        assertCode(LapiError.UHDR_LEN, () -> amsend(1, 1, job.allocate(2048), 1024 + 8, eight, 8));
        assertCode(LapiError.ORG_ADDR_NULL, () -> amsend(1, 1, eight, 8, null, 1));
        assertCode(LapiError.DATA_LEN, () -> amsend(1, 1, eight, 8, eight, 101));
        assertCode(LapiError.DATA_LEN, () -> amsend(1, 1, eight, 8, eight, -1));
        assertThatThrownBy(() -> amsend(1, 1, eight, 8, job.allocate(4), 8))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> amsend(1, 1, job.allocate(4), 8, eight, 8))
                .isInstanceOf(IndexOutOfBoundsException.class);
        a.fence();
        job.onAll(r -> job.task(r).gfence());
        assertThat(HANDLED.get()).isEqualTo(before);
        assertThat(a.getcntr(org)).isZero();
        assertThat(a.getcntr(cmpl)).isZero();
    }

    @Test
    void severalFaultsGiveTheFirstInParameterOrder() {
        assertCode(LapiError.TGT, () -> amsend(5, 0, null, 3, null, -1));
        assertCode(LapiError.HDR_HNDLR_NULL, () -> amsend(1, 0, null, 3, null, -1));
        assertCode(LapiError.UHDR_NULL, () -> amsend(1, 1, null, 3, null, 5));
        assertCode(LapiError.UHDR_LEN, () -> amsend(1, 1, eight, 3, null, 5));
        assertCode(LapiError.ORG_ADDR_NULL, () -> amsend(1, 1, eight, 8, null, 500));
    }

    @Test
    void theLimitsThemselvesAreAccepted() throws Exception {
        long maxUhdr = a.qenv(LapiQuery.MAX_UHDR_SZ);
        MemorySegment big = job.allocate(maxUhdr);
        int before = HANDLED.get();
        a.amsend(1, 1, big, (int) maxUhdr, eight, 100, 0, null, cmpl);
        a.amsend(1, 1, null, 0, null, 0, 0, null, cmpl);
        a.amsend(0, 1, null, 0, null, 0, 0, null, cmpl);
        assertThat(a.waitcntr(cmpl, 3)).isZero();
        assertThat(HANDLED.get() - before).isEqualTo(3);
    }

    @Test
    void aTerminatedOrUnknownHandleIsInvalid() throws Exception {
        try (LapiJob other = LapiJob.start(1)) {
            LapiContext c = other.task(0);
            int handle = c.handle();
            assertThat(LapiContext.ofHandle(handle)).isSameAs(c);
            c.term();
            assertCode(LapiError.HNDL_INVALID, () -> c.amsend(0, 1, null, 0, null, 0, 0, null, null));
            assertCode(LapiError.HNDL_INVALID, () -> LapiContext.ofHandle(handle));
            assertCode(LapiError.HNDL_INVALID, () -> c.getcntr(null));
            assertCode(LapiError.HNDL_INVALID, c::fence);
            assertCode(LapiError.HNDL_INVALID, c::gfence);
            assertCode(LapiError.HNDL_INVALID, () -> c.qenv(LapiQuery.TASK_ID));
            c.close();
        }
        assertCode(LapiError.HNDL_INVALID, () -> LapiContext.ofHandle(-1));
        assertCode(LapiError.HNDL_INVALID, () -> LapiContext.ofHandle(63));
    }
}
