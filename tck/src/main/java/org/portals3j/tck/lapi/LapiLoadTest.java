package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.sameBytes;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.lapi.ReturnInfo;
import org.portals3j.tck.SpecAssertion;

/** Many Amsends at once (LAPI_Amsend man page, Parameters): exact counts, nothing lost, every buffer intact. */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiLoadTest {

    @Test
    @SpecAssertion("L-075")
    void tenThousandOutstandingAmsendsShareOneCmplCntr() {
        try (LapiJob job = LapiJob.start(2)) {
            int n = 10_000;
            Recorder handler = new Recorder();
            long hh = job.task(1).address(handler);
            LapiCounter cmpl = job.task(0).newCounter();
            MemorySegment uhdr = job.pattern(8, 0);
            for (int i = 0; i < n; i++) {
                send(job.task(0), 1, hh, uhdr, null, 0, null, cmpl);
            }
            LapiJob.awaitCounter(job.task(0), cmpl, n, "cmpl_cntr");
            assertThat(job.task(0).waitcntr(cmpl, n)).isZero();
            assertThat(handler.count()).isEqualTo(n);
        }
    }

    /** Every task sends to every task, itself included; each pair's count is exact. */
    @Test
    @SpecAssertion("L-076")
    void allToAllCompletesWithExactPerPairCounts() {
        int tasks = 4;
        int perPair = 50;
        try (LapiJob job = LapiJob.start(tasks)) {
            AtomicIntegerArray counts = new AtomicIntegerArray(tasks * tasks);
            long[] hh = new long[tasks];
            LapiCounter[] tgt = new LapiCounter[tasks];
            for (int t = 0; t < tasks; t++) {
                int me = t;
                hh[t] = job.task(t).address((c, uhdr, info) -> {
                    counts.incrementAndGet(info.srcTask() * tasks + me);
                    return null;
                });
                tgt[t] = job.task(t).newCounter();
            }
            job.runOnAll("all-to-all Amsends", c -> {
                LapiCounter cmpl = c.newCounter();
                for (int i = 0; i < perPair; i++) {
                    for (int to = 0; to < tasks; to++) {
                        send(c, to, hh[to], null, null, tgt[to].address(), null, cmpl);
                    }
                }
                LapiJob.awaitCounter(c, cmpl, perPair * tasks, "task " + c.taskId() + "'s cmpl_cntr");
            });
            for (int i = 0; i < tasks * tasks; i++) {
                assertThat(counts.get(i)).as("messages from %d to %d", i / tasks, i % tasks).isEqualTo(perPair);
            }
            for (int t = 0; t < tasks; t++) {
                assertThat(job.task(t).getcntr(tgt[t])).isEqualTo(perPair * tasks);
            }
        }
    }

    @Test
    @SpecAssertion("L-077")
    void interleavedEagerAndRendezvousMessagesAllArriveIntact() {
        try (LapiJob job = LapiJob.start(2)) {
            long big = 3 * job.task(0).qenv(LapiQuery.PKT_PAYLOAD_SZ) + 1;
            int n = 40;
            List<MemorySegment> sent = new ArrayList<>();
            MemorySegment[] dest = new MemorySegment[n];
            for (int i = 0; i < n; i++) {
                sent.add(job.pattern(i % 2 == 0 ? 100 + i : big + i, i));
                dest[i] = job.allocate(sent.get(i).byteSize());
            }
            HeaderHandlerByIndex handler = new HeaderHandlerByIndex(dest);
            long hh = job.task(1).address(handler);
            LapiCounter cmpl = job.task(0).newCounter();
            MemorySegment uhdr = job.allocate(8);
            for (int i = 0; i < n; i++) {
                uhdr.set(ValueLayout.JAVA_LONG, 0, i);
                LapiCounter org = job.task(0).newCounter();
                send(job.task(0), 1, hh, uhdr, sent.get(i), 0, org, cmpl);
                LapiJob.awaitCounter(job.task(0), org, 1, "org_cntr of message " + i);
            }
            LapiJob.awaitCounter(job.task(0), cmpl, n, "cmpl_cntr");
            for (int i = 0; i < n; i++) {
                assertThat(sameBytes(dest[i], sent.get(i))).as("message %d", i).isTrue();
            }
        }
    }

    /** Several threads of one origin share counters: no increment is lost. */
    @Test
    @SpecAssertion("L-078")
    void countersSharedByConcurrentSendersReachExactTotals() {
        int threads = 4;
        int each = 250;
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder().completion((c, i) -> { }, null);
            long hh = job.task(1).address(handler);
            LapiContext origin = job.task(0);
            LapiCounter tgt = job.task(1).newCounter();
            LapiCounter org = origin.newCounter();
            LapiCounter cmpl = origin.newCounter();
            List<Thread> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                senders.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < each; i++) {
                        send(origin, 1, hh, null, null, tgt.address(), org, cmpl);
                    }
                }));
            }
            LapiJob.awaitCondition("the senders finished", () -> senders.stream().noneMatch(Thread::isAlive));
            int total = threads * each;
            LapiJob.awaitCounter(origin, cmpl, total, "cmpl_cntr");
            LapiJob.awaitCounter(origin, org, total, "org_cntr");
            job.gfenceAll();
            assertThat(origin.getcntr(cmpl)).isEqualTo(total);
            assertThat(origin.getcntr(org)).isEqualTo(total);
            assertThat(job.task(1).getcntr(tgt)).isEqualTo(total);
            assertThat(handler.count()).isEqualTo(total);
        }
    }

    /** Puts message i (its number in the first 8 bytes of uhdr) into {@code dest[i]}. */
    private record HeaderHandlerByIndex(MemorySegment[] dest) implements HeaderHandler {
        @Override
        public MemorySegment onHeader(LapiContext context, MemorySegment uhdr, ReturnInfo info) {
            return dest[(int) uhdr.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)];
        }
    }
}
