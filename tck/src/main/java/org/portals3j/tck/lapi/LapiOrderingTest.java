package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.sameBytes;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/** The time order the man page fixes (LAPI_Amsend man page, Description): data, completion handler, tgt_cntr, reply. */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiOrderingTest {

    @Test
    @SpecAssertion({"L-052", "L-053", "L-054"})
    void whatTheOriginSeesImpliesWhatHappenedAtTheTarget() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext target = job.task(1);
            int n = 50;
            int[] sideEffects = new int[n];
            Recorder handler = new Recorder().into(len -> job.allocate(len));
            long big = 2 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ);
            for (int i = 0; i < n; i++) {
                LapiCounter tgt = target.newCounter();
                LapiCounter org = job.task(0).newCounter();
                LapiCounter cmpl = job.task(0).newCounter();
                handler.completion((c, info) -> {
                    if (info instanceof Integer k) {
                        sideEffects[k] = 1;
                    }
                }, i);
                send(job.task(0), 1, target.address(handler), null, job.pattern(i % 2 == 0 ? 100 : big, i),
                        tgt.address(), org, cmpl);
                LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr of message " + i);
                assertThat(target.getcntr(tgt)).as("tgt_cntr when cmpl_cntr moved (L-052)").isEqualTo(1);
                assertThat(job.task(0).getcntr(org)).as("org_cntr when cmpl_cntr moved (L-054)").isEqualTo(1);
                assertThat(sideEffects[i]).as("the completion handler's write, seen after tgt_cntr (L-053)")
                        .isEqualTo(1);
            }
        }
    }

    /** The events of one message at the target, in order (an instrumented trace). */
    @Test
    @SpecAssertion("L-103")
    void theTargetsEventsComeInTheFixedOrder() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext target = job.task(1);
            long len = 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ);
            MemorySegment dest = job.allocate(len);
            MemorySegment data = job.pattern(len, 8);
            LapiCounter tgt = target.newCounter();
            List<String> trace = new CopyOnWriteArrayList<>();
            AtomicInteger tgtAtStart = new AtomicInteger(-1);
            Recorder handler = new Recorder().into(dest).during(() -> trace.add("header"))
                    .completion((c, info) -> {
                        tgtAtStart.set(c.getcntr(tgt));
                        trace.add(sameBytes(dest, data) ? "completion start, data in place" : "completion start");
                        trace.add("completion return");
                    }, null);
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, target.address(handler), null, data, tgt.address(), null, cmpl);
            LapiJob.awaitCounter(target, tgt, 1, "tgt_cntr");
            trace.add("tgt_cntr");
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(trace).containsExactly("header", "completion start, data in place", "completion return",
                    "tgt_cntr");
            assertThat(tgtAtStart.get()).as("tgt_cntr while the completion handler ran").isZero();
        }
    }
}
