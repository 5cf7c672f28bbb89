package org.portals3j.lapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code ctl_flags} of {@code lapi_return_info_t} (LAPI_Amsend, Description: Role of the header handler):
 * LAPI_BURY_MSG discards a message's data, eager or rendezvous, with or without a buffer, silently, while its
 * completion handler and every counter proceed; a bit the layer does not know is reported (AM_ERR) and the data
 * discarded the same way.
 */
class CtlFlagsTest {
    private static final byte UNTOUCHED = 0x55;

    @Test
    void buryMsgDiscardsTheDataAndEverythingElseProceeds() throws Exception {
        assertFlagDiscards(ReturnInfo.BURY_MSG, 0);
    }

    @Test
    void anUnknownCtlFlagIsReportedAsAnActiveMessageErrorAndTheDataDiscarded() throws Exception {
        assertFlagDiscards(0x4 | ReturnInfo.BURY_MSG, 4);
    }

    /** Four messages (eager and rendezvous, a buffer and none) whose handler sets {@code flags}. */
    private static void assertFlagDiscards(int flags, int reports) throws Exception {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext a = job.task(0);
            LapiContext b = job.task(1);
            long big = a.qenv(LapiQuery.PKT_PAYLOAD_SZ) * 3;
            MemorySegment sink = job.allocate(big);
            sink.fill(UNTOUCHED);
            AtomicInteger completions = new AtomicInteger();
            b.addrSet((ctx, uhdr, info) -> {
                info.setCtlFlags(flags);
                info.setCompletion((c, ui) -> completions.incrementAndGet(), null);
                return uhdr.get(ValueLayout.JAVA_LONG_UNALIGNED, 0) == 1 ? sink : null;
            }, 1);
            LapiCounter tgt = b.newCounter();
            long[] t = new long[2];
            job.onAll(r -> job.task(r).addressInit(r == 1 ? tgt.address() : 0, t));
            LapiCounter org = a.newCounter();
            LapiCounter cmpl = a.newCounter();
            MemorySegment withBuffer = job.allocate(8);
            withBuffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 1);
            MemorySegment without = job.allocate(8);
            for (long len : new long[] {100, big}) {
                a.amsend(1, 1, withBuffer, 8, job.pattern(len, 3), len, t[1], org, cmpl);
                a.amsend(1, 1, without, 8, job.pattern(len, 4), len, t[1], org, cmpl);
            }
            a.waitcntr(cmpl, 4);
            a.waitcntr(org, 4);
            b.waitcntr(tgt, 4);
            assertThat(completions).hasValue(4);
            MemorySegment expected = job.allocate(big);
            expected.fill(UNTOUCHED);
            assertThat(sink.mismatch(expected)).isEqualTo(-1);
            assertThat(job.asyncErrors).hasSize(reports).allMatch(e -> e.startsWith("task 1 from 0 (AM_ERR)")
                    && e.contains("ctl_flags 0x5"));
        }
    }
}
