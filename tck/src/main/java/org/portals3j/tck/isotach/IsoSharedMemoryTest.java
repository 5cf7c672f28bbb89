package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.isotach.SharedMemoryObserver.ASSIGN;
import static org.portals3j.isotach.SharedMemoryObserver.READ;
import static org.portals3j.isotach.SharedMemoryObserver.SCHED;
import static org.portals3j.isotach.SharedMemoryObserver.WRITE;
import static org.portals3j.tck.isotach.IsoTestSupport.counter;
import static org.portals3j.tck.isotach.IsoTestSupport.letTimePass;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoVar;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.SharedRegion;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.SmmRecorder.Read;

/**
 * Isotach shared memory (Isotach report §3.4, pp. 14-18; App. A.6, p. 99), scenario by scenario, through the API and
 * the shared-memory observer. Three hosts; words [0, 16) on every host, [100, 104) on hosts 0 and 1, [200, 204) on host
 * 2 only. Logical distances make host 1 the copy of [100, 104) nearest to host 2. Every test ends with
 * {@link SmmRecorder#verify()}: the whole history against the model.
 *
 * <p>Decided inside the module (isotach-core smm tests): the pending-read table's structure and capacity
 * ({@code PendingReadTableTest}), the read-response encoding (I-140: {@code ReadResponseCodecTest
 * .theBodyIsValueThenLvarThenPulseBigEndian_I140} — here only that 64-bit values survive the trip).
 */
class IsoSharedMemoryTest {
    static final Set<Interface> SMM = EnumSet.of(Interface.NONISO, Interface.ISO_SMM);
    static final long ALL = 0;
    static final long R01 = 100;
    static final long R2 = 200;

    static IsotachConfig config() {
        return IsotachConfig.builder()
                .sharedRegions(List.of(new SharedRegion(ALL, 16, new int[] {0, 1, 2}),
                        new SharedRegion(R01, 4, new int[] {0, 1}), new SharedRegion(R2, 4, new int[] {2})))
                .distances(new int[][] {{0, 1, 2}, {1, 0, 1}, {2, 1, 0}}).build();
    }

    interface Body {
        void run(IsotachJob job, SmmRecorder smm);
    }

    static void withJob(IsotachConfig config, Body body) {
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(SMM).unopened().open()) {
            SmmRecorder smm = SmmRecorder.open(job, config, SMM);
            body.run(job, smm);
            smm.verify();
        }
    }

    static long smmCounter(IsotachNet net, String name) {
        Long v = net.counters().get(name);
        if (v == null) {
            v = net.counters().get("smm." + name);
        }
        if (v == null) {
            throw new AssertionError("no counter '" + name + "' (nor smm." + name + ") in " + net.counters().keySet());
        }
        return v;
    }

    @Test
    @SpecAssertion({"I-079", "I-083", "I-085", "I-086"})
    void aReadReturnsTheLastWriteBeforeItAndALocalReadUsesNoNetwork() {
        withJob(config(), (job, smm) -> {
            assertThat(smm.write(0, 5, 42, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 0, WRITE, 5, 0, 1, 2);
            long sentBefore = counter(job.net(0), "siu.isoSent");
            long responsesBefore = counter(job.net(0), "readResponse.sent");
            Read own = smm.mustRead(0, 5, true);
            assertThat(job.net(0).isoRetrieve(own.var())).as("host 0 reads its own write").isEqualTo(42);
            assertThat(job.net(0).isoRetrieve(own.var())).as("valid: returns at once, the same").isEqualTo(42);
            assertThat(counter(job.net(0), "siu.isoSent")).as("a local read sends no Isotach packet")
                    .isEqualTo(sentBefore);
            assertThat(counter(job.net(0), "readResponse.sent")).as("nor a read response").isEqualTo(responsesBefore);
            assertThat(smm.await(smm.mustRead(1, 5, true))).isEqualTo(42);
            assertThat(smm.await(smm.mustRead(2, 5, true))).isEqualTo(42);

            assertThat(smm.write(2, 5, 43, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 2, WRITE, 5, 0, 1, 2);
            Read r = smm.mustRead(0, 5, true);
            assertThat(smm.await(r)).isEqualTo(43);
            assertThat(r.var().readPulse()).isGreaterThanOrEqualTo(0);
            assertThat(smm.await(smm.mustRead(1, 6, true))).as("a word never written is 0").isZero();
        });
    }

    /**
     * A read whose corresponding post is a sched waits for that sched's assign and returns its value
     * (Isotach report §3.4, pp. 14-18).
     */
    @Test
    @SpecAssertion({"I-080", "I-081", "I-084", "I-082"})
    void aReadAfterASchedWaitsForItsAssignEvenPastALaterWrite() {
        withJob(config(), (job, smm) -> {
            long a = 6;
            assertThat(smm.sched(0, a, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 0, SCHED, a, 0, 1, 2);
            Read pending = smm.mustRead(2, a, true);
            job.awaitCondition("the read pends at host 2", () -> smmCounter(job.net(2), "read.pendingNow") == 1);
            letTimePass(job, 20);
            assertThat(pending.var().isValid()).as("not before the assign").isFalse();

            assertThat(smm.write(1, a, 5, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 1, WRITE, a, 0, 1, 2);
            assertThat(smm.await(smm.mustRead(2, a, true))).as("a read after the write").isEqualTo(5);
            assertThat(pending.var().isValid()).isFalse();

            assertThat(smm.assign(0, a, 7, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 0, ASSIGN, a, 0, 1, 2);
            assertThat(smm.await(pending)).as("the sched's assign, not the later write").isEqualTo(7);
            assertThat(smmCounter(job.net(2), "read.pendingNow")).isZero();
            // the assign no longer matched the variable (the write came after its sched): it stays 5
            assertThat(smm.await(smm.mustRead(1, a, true))).isEqualTo(5);
            assertThat(smm.await(smm.mustRead(0, a, true))).isEqualTo(5);
        });
    }

    /** An assign whose sched is no longer the variable's last post answers its reads but leaves the variable. */
    @Test
    @SpecAssertion({"I-082", "I-080", "I-081"})
    void aNonMatchingAssignAnswersItsReadsAndLeavesTheVariable() {
        withJob(config(), (job, smm) -> {
            long b = 7;
            assertThat(smm.sched(0, b, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 0, SCHED, b, 0, 1, 2);
            Read onZero = smm.mustRead(2, b, true);
            job.awaitCondition("read pends", () -> smmCounter(job.net(2), "read.pendingNow") == 1);
            assertThat(smm.sched(1, b, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 1, SCHED, b, 0, 1, 2);
            assertThat(smm.assign(0, b, 70, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 0, ASSIGN, b, 0, 1, 2);
            assertThat(smm.await(onZero)).isEqualTo(70);

            Read onOne = smm.mustRead(2, b, true);
            job.awaitCondition("second read pends", () -> smmCounter(job.net(2), "read.pendingNow") == 1);
            letTimePass(job, 20);
            assertThat(onOne.var().isValid()).as("host 1's sched is still unsubstantiated").isFalse();
            assertThat(smm.assign(1, b, 90, true)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(smm.await(onOne)).isEqualTo(90);
            assertThat(smm.await(smm.mustRead(0, b, true))).isEqualTo(90);
        });
    }

    @Test
    @SpecAssertion({"I-087", "I-086", "I-091", "I-119"})
    void changesGoToEveryCopyAndAReadToTheNearestOneAnsweredByANonisoResponse() {
        withJob(config(), (job, smm) -> {
            long isoSent = counter(job.net(2), "siu.isoSent");
            assertThat(smm.write(2, R01, 11, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 2, WRITE, R01, 0, 1);
            assertThat(counter(job.net(2), "siu.isoSent")).as("one sRef per copy").isEqualTo(isoSent + 2);

            long responses1 = counter(job.net(1), "readResponse.sent");
            long received2 = counter(job.net(2), "readResponse.received");
            Read r = smm.mustRead(2, R01, true);
            assertThat(smm.await(r)).isEqualTo(11);
            assertThat(smm.count(1, 2, READ, R01)).as("read at the nearest copy, host 1").isEqualTo(1);
            assertThat(smm.count(0, 2, READ, R01)).as("not at host 0").isZero();
            assertThat(counter(job.net(2), "siu.isoSent")).as("one sRef for the read").isEqualTo(isoSent + 3);
            assertThat(counter(job.net(1), "readResponse.sent")).isEqualTo(responses1 + 1);
            assertThat(counter(job.net(2), "readResponse.received")).isEqualTo(received2 + 1);
            IsoTestSupport.assertNoNonisoMessage(job, 2); // the response is not an application message

            long isoSent0 = counter(job.net(0), "siu.isoSent");
            long responses0 = counter(job.net(0), "readResponse.sent");
            assertThat(smm.await(smm.mustRead(0, R01, true))).isEqualTo(11);
            assertThat(counter(job.net(0), "siu.isoSent")).isEqualTo(isoSent0);
            assertThat(counter(job.net(0), "readResponse.sent")).isEqualTo(responses0);
            assertThat(smm.count(0, 2, WRITE, R01) + smm.count(1, 2, WRITE, R01)).isEqualTo(2);
        });
    }

    @Test
    @SpecAssertion("I-088")
    void accessesOutsideSharedMemoryOrWithoutRoomFailAllOrNothing() {
        IsotachConfig config = config().toBuilder().isoSendBufSize(4).isoCreditsPerPeer(2).build();
        withJob(config, (job, smm) -> {
            IsotachNet net = job.net(0);
            IsoVar v = new IsoVar();
            assertThat(net.isoRead(50, v, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoWrite(50, 1, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoSched(16, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoAssign(-1, 1, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoWrite(104, 1, true)).isEqualTo(IsotachNet.FAILURE);
            assertThat(v.isValid()).isFalse();
            // host 1 and 2 do not run: one credit each is used by write 1, write 2 waits in iso_send_buf
            assertThat(smm.write(0, 3, 1, true)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(smm.write(0, 3, 2, true)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(smm.write(0, 3, 3, true)).as("no room for two more net sRefs").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoWrite(3, 3, false)).isEqualTo(IsotachNet.FAILURE);
            // the refused write left no part of itself anywhere, including host 0's own copy
            smm.awaitQuiet();
            for (int h = 0; h < 3; h++) {
                assertThat(smm.count(h, 0, WRITE, 3)).as("writes executed at host %d", h).isEqualTo(2);
            }
            assertThat(smm.size()).isEqualTo(6);
            assertThat(smm.await(smm.mustRead(1, 3, true))).isEqualTo(2);
        });
    }

    @Test
    @SpecAssertion("I-089")
    void aReadFailsWhenReadCapReadsAreOutstanding() {
        IsotachConfig config = config().toBuilder().readCap(2).build();
        withJob(config, (job, smm) -> {
            // the copy of [200, 204) is on host 2, which does not run: the reads stay outstanding
            Read a = smm.mustRead(0, R2, true);
            Read b = smm.mustRead(0, R2 + 1, true);
            IsoVar c = new IsoVar();
            assertThat(job.net(0).isoRead(R2 + 2, c, true)).as("a third outstanding read")
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(c.isValid()).isFalse();
            assertThat(c.readPulse()).isEqualTo(-1);
            assertThat(smm.await(a)).isZero();
            assertThat(smm.await(b)).isZero();
            assertThat(smm.await(smm.mustRead(0, R2 + 2, true))).isZero();
        });
    }

    @Test
    @SpecAssertion({"I-090", "I-079"})
    void allCopiesApplyConcurrentWritesInOneOrder() {
        withJob(config(), (job, smm) -> {
            for (int k = 0; k < 10; k++) {
                for (int h = 0; h < 3; h++) {
                    long deadline = System.nanoTime() + TckTransport.patience().toNanos();
                    while (smm.write(h, 9, h * 1000 + k, true) != IsotachNet.SUCCESS) {
                        assertThat(System.nanoTime()).isLessThan(deadline);
                        job.pollAll();
                    }
                    while (smm.write(h, R01 + 1, h * 1000 + k, true) != IsotachNet.SUCCESS) {
                        assertThat(System.nanoTime()).isLessThan(deadline);
                        job.pollAll();
                    }
                }
            }
            smm.awaitQuiet();
            long v0 = smm.await(smm.mustRead(0, 9, true));
            assertThat(smm.await(smm.mustRead(1, 9, true))).isEqualTo(v0);
            assertThat(smm.await(smm.mustRead(2, 9, true))).isEqualTo(v0);
            assertThat(v0 % 1000).as("the last write of some host").isEqualTo(9);
            assertThat(smm.await(smm.mustRead(0, R01 + 1, true))).isEqualTo(smm.await(smm.mustRead(1, R01 + 1, true)));
        });
    }

    @Test
    @SpecAssertion("I-092")
    void aSecondSchedBeforeItsAssignAndAnAssignWithoutSchedAreRefused() {
        withJob(config(), (job, smm) -> {
            // each change is waited for everywhere, so the isotach order is the order of the calls
            assertThat(smm.sched(0, 2, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 0, SCHED, 2, 0, 1, 2);
            assertThat(job.net(0).isoSched(2, true)).as("second sched").isEqualTo(IsotachNet.FAILURE);
            assertThat(job.net(0).isoAssign(4, 1, true)).as("assign without sched").isEqualTo(IsotachNet.FAILURE);
            assertThat(smm.sched(1, 2, true)).as("another host's sched").isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 1, SCHED, 2, 0, 1, 2);
            assertThat(smm.assign(0, 2, 20, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 0, ASSIGN, 2, 0, 1, 2);
            assertThat(job.net(0).isoAssign(2, 21, true)).as("a second assign").isEqualTo(IsotachNet.FAILURE);
            assertThat(smm.sched(0, 2, true)).as("sched again after the assign").isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(2, 0, SCHED, 2, 0, 1, 2);
            assertThat(smm.assign(0, 2, 22, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(2, 0, ASSIGN, 2, 0, 1, 2);
            // host 1's assign no longer matches (host 0's second sched is the last post): the variable keeps 22
            assertThat(smm.assign(1, 2, 23, true)).isEqualTo(IsotachNet.SUCCESS);
            smm.awaitExecuted(1, 1, ASSIGN, 2, 0, 1, 2);
            assertThat(smm.await(smm.mustRead(2, 2, true))).isEqualTo(22);
        });
    }

    /** iso_retrieve waits, polling, for a read another host answers; 64-bit values come back intact. */
    @Test
    @SpecAssertion({"I-085", "I-091"})
    void isoRetrieveWaitsForTheRemoteAnswerAndValuesSurviveIntact() {
        withJob(config(), (job, smm) -> {
            long[] values = {Long.MIN_VALUE, -1L, Long.MAX_VALUE, 0x0123456789ABCDEFL};
            for (int i = 0; i < values.length; i++) {
                assertThat(smm.write(2, R2 + i, values[i], true)).isEqualTo(IsotachNet.SUCCESS);
            }
            smm.awaitExecuted(1, 2, WRITE, R2 + 3, 2);
            // host 2 runs on its own thread; the test thread blocks in iso_retrieve on host 0
            AtomicBoolean stop = new AtomicBoolean();
            Future<Boolean> host2 = job.submit(() -> {
                while (!stop.get()) {
                    job.net(2).poll();
                    job.net(1).poll();
                }
                return Boolean.TRUE;
            });
            try {
                for (int i = 0; i < values.length; i++) {
                    Read r = smm.mustRead(0, R2 + i, true);
                    assertThat(job.net(0).isoRetrieve(r.var())).isEqualTo(values[i]);
                    assertThat(r.var().isValid()).isTrue();
                }
            } finally {
                stop.set(true);
                IsoTestSupport.get(host2);
            }
        });
    }
}
