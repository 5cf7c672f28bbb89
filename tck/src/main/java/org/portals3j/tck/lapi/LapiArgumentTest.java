package org.portals3j.tck.lapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.lapi.LapiSupport.sameBytes;
import static org.portals3j.tck.lapi.LapiSupport.send;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.LapiQuery;
import org.portals3j.tck.SpecAssertion;

/**
 * Arguments Amsend accepts at their bounds (LAPI_Amsend man page, Parameters), and sends to itself (our choice, open
 * point: the man page does not mention tgt == TASK_ID).
 */
@Timeout(value = LapiJob.TEST_TIMEOUT_SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
class LapiArgumentTest {

    @Test
    @SpecAssertion("L-005")
    void theFirstAndTheLastTaskAreTargets() {
        try (LapiJob job = LapiJob.start(3)) {
            for (int tgt : new int[] {0, 2}) {
                MemorySegment dest = job.allocate(32);
                Recorder handler = new Recorder().into(dest);
                LapiCounter cmpl = job.task(1).newCounter();
                MemorySegment data = job.pattern(32, tgt + 7);
                send(job.task(1), tgt, job.task(tgt).address(handler), null, data, 0, null, cmpl);
                LapiJob.awaitCounter(job.task(1), cmpl, 1, "cmpl_cntr of the message to task " + tgt);
                assertThat(handler.count()).isEqualTo(1);
                assertThat(sameBytes(dest, data)).as("the data at task %d", tgt).isTrue();
            }
        }
    }

    @Test
    @SpecAssertion({"L-008", "L-015"})
    void nullUhdrAndNullDataOfLengthZeroAreAccepted() {
        try (LapiJob job = LapiJob.start(2)) {
            Recorder handler = new Recorder();
            LapiCounter cmpl = job.task(0).newCounter();
            job.task(0).amsend(1, job.task(1).address(handler), null, 0, null, 0, 0, null, cmpl);
            job.task(0).amsend(1, job.task(1).address(handler), null, 0, job.pattern(8, 0), 8, 0, null, cmpl);
            MemorySegment uhdr = job.pattern(16, 1);
            job.task(0).amsend(1, job.task(1).address(handler), uhdr, 16, null, 0, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 3, "cmpl_cntr");
            assertThat(handler.calls()).extracting(Recorder.Call::msgLen).containsExactlyInAnyOrder(0L, 8L, 0L);
        }
    }

    @Test
    @SpecAssertion("L-010")
    void aUhdrOfExactlyTheMaximumIsAcceptedAndSeenWhole() {
        try (LapiJob job = LapiJob.start(2)) {
            int max = (int) job.task(0).qenv(LapiQuery.MAX_UHDR_SZ);
            MemorySegment uhdr = job.pattern(max, 11);
            Recorder handler = new Recorder();
            LapiCounter cmpl = job.task(0).newCounter();
            send(job.task(0), 1, job.task(1).address(handler), uhdr, null, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(handler.last().uhdr()).isEqualTo(uhdr.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    @SpecAssertion("L-017")
    void dataOfExactlyTheConfiguredMaximumIsDeliveredWhole() {
        int max = 10_000;
        try (LapiJob job = LapiJob.start(2, c -> c.withMaxData(max))) {
            MemorySegment dest = job.allocate(max);
            Recorder handler = new Recorder().into(dest);
            LapiCounter cmpl = job.task(0).newCounter();
            MemorySegment data = job.pattern(max, 5);
            send(job.task(0), 1, job.task(1).address(handler), null, data, 0, null, cmpl);
            LapiJob.awaitCounter(job.task(0), cmpl, 1, "cmpl_cntr");
            assertThat(sameBytes(dest, data)).isTrue();
        }
    }

    @Test
    @SpecAssertion("L-022")
    void noCountersAtAllStillDelivers() {
        try (LapiJob job = LapiJob.start(2)) {
            MemorySegment dest = job.allocate(100);
            MemorySegment data = job.pattern(100, 9);
            Recorder handler = new Recorder().into(dest).completion((c, info) -> { }, null);
            send(job.task(0), 1, job.task(1).address(handler), null, data, 0, null, null);
            LapiJob.awaitCondition("the header handler ran", () -> handler.count() == 1);
            job.task(0).fence();
            LapiJob.awaitCondition("the data arrived", () -> sameBytes(dest, data));
        }
    }

    /**
     * Amsend to itself runs both handlers locally and moves all three counters (our choice, open point: the LAPI_Amsend
     * man page does not mention sending to oneself).
     */
    @Test
    @SpecAssertion("L-079")
    void anAmsendToItselfRunsLocallyAndMovesEveryCounter() {
        try (LapiJob job = LapiJob.start(2)) {
            LapiContext self = job.task(1);
            MemorySegment dest = job.allocate(5000);
            MemorySegment data = job.pattern(5000, 2);
            AtomicReference<String> ranOn = new AtomicReference<>();
            Recorder handler = new Recorder().into(dest)
                    .completion((c, info) -> ranOn.set(c == self ? "self" : "other"), null);
            LapiCounter tgt = self.newCounter();
            LapiCounter org = self.newCounter();
            LapiCounter cmpl = self.newCounter();
            send(self, 1, self.address(handler), job.pattern(8, 0), data, tgt.address(), org, cmpl);
            LapiJob.awaitCounter(self, cmpl, 1, "cmpl_cntr");
            assertThat(self.getcntr(tgt)).isEqualTo(1);
            LapiJob.awaitCounter(self, org, 1, "org_cntr");
            assertThat(handler.last().context()).isSameAs(self);
            assertThat(ranOn.get()).isEqualTo("self");
            assertThat(sameBytes(dest, data)).isTrue();
        }
    }
}
