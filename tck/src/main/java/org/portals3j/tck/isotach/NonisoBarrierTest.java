package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.isotach.IsoTestSupport.counter;
import static org.portals3j.tck.isotach.IsoTestSupport.payload;
import static org.portals3j.tck.isotach.IsoTestSupport.pollFor;
import static org.portals3j.tck.isotach.IsoTestSupport.seq;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/** The non-Isotach n x n barrier (Protocol 2, Isotach report §6.3, pp. 45-47; App. A.4, p. 97). */
class NonisoBarrierTest {

    static IsotachJob open(int hosts, IsotachConfig config) {
        return IsotachJob.builder(hosts).config(config).interfaces(EnumSet.of(Interface.NONISO)).open();
    }

    /** Calls barrier_completed on {@code host} until it succeeds (polling every host), then checks it was once. */
    static void awaitCompletion(IsotachJob job, int host) {
        job.awaitCondition("barrier_completed on host " + host,
                () -> job.net(host).barrierCompleted() == IsotachNet.SUCCESS);
        assertThat(job.net(host).barrierCompleted()).as("host %d: success is reported once", host)
                .isEqualTo(IsotachNet.FAILURE);
    }

    @Test
    @SpecAssertion("I-077")
    void barrierCompletedWithoutABarrierFails() {
        try (IsotachJob job = open(2, IsotachConfig.defaults())) {
            assertThat(job.net(0).barrierCompleted()).isEqualTo(IsotachNet.FAILURE);
            pollFor(job, TckTransport.quietPeriod());
            assertThat(job.net(0).barrierCompleted()).isEqualTo(IsotachNet.FAILURE);
            assertThat(job.net(1).barrierCompleted()).isEqualTo(IsotachNet.FAILURE);
        }
    }

    @Test
    @SpecAssertion({"I-075", "I-076"})
    void theBarrierCompletesOnceEveryHostJoinedAndIsReportedOnce() {
        try (IsotachJob job = open(3, IsotachConfig.defaults())) {
            for (int round = 0; round < 2; round++) {
                assertThat(job.net(0).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
                assertThat(job.net(0).initiateBarrier()).as("while in progress").isEqualTo(IsotachNet.FAILURE);
                assertThat(job.net(1).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
                long end = System.nanoTime() + TckTransport.quietPeriod().toNanos();
                do {
                    assertThat(job.net(0).barrierCompleted()).as("host 2 has not joined").isEqualTo(IsotachNet.FAILURE);
                    assertThat(job.net(1).barrierCompleted()).as("host 2 has not joined").isEqualTo(IsotachNet.FAILURE);
                    job.net(2).poll();
                } while (System.nanoTime() < end);
                assertThat(job.net(2).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
                for (int h = 0; h < 3; h++) {
                    awaitCompletion(job, h);
                }
            }
        }
    }

    /**
     * The race of Isotach report §6.3.4, pp. 45-47: a host that finished early starts the next barrier; its packet must
     * not be lost.
     */
    @Test
    @SpecAssertion("I-076")
    void anEarlyFinishersNextBarrierIsNotLost() {
        try (IsotachJob job = open(3, IsotachConfig.defaults())) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
            }
            job.awaitCondition("host 0 completes", () -> job.net(0).barrierCompleted() == IsotachNet.SUCCESS);
            assertThat(job.net(0).initiateBarrier()).as("host 0 starts the next barrier at once")
                    .isEqualTo(IsotachNet.SUCCESS);
            job.awaitCondition("host 1 completes the first", () -> job.net(1).barrierCompleted() == IsotachNet.SUCCESS);
            job.awaitCondition("host 2 completes the first", () -> job.net(2).barrierCompleted() == IsotachNet.SUCCESS);
            // host 0's second barrier cannot complete before 1 and 2 join it
            pollFor(job, TckTransport.quietPeriod());
            assertThat(job.net(0).barrierCompleted()).isEqualTo(IsotachNet.FAILURE);
            assertThat(job.net(1).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(2).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
            for (int h = 0; h < 3; h++) {
                awaitCompletion(job, h);
            }
        }
    }

    /** With every data slot towards host 1 taken (host 1 does not receive), the barrier still completes. */
    @Test
    @SpecAssertion({"I-078", "I-102", "I-093"})
    void theBarrierCompletesWhileEveryNonisoCreditIsInUse() {
        // a ring of 2 slots: one packet may be outstanding per peer
        try (IsotachJob job = open(3, IsotachConfig.builder().nonisoSlotsPerPeer(2).build())) {
            for (int i = 0; i < 3; i++) {
                assertThat(job.net(0).send(1, payload(0, i, 32))).isEqualTo(IsotachNet.SUCCESS);
            }
            pollFor(job, TckTransport.quietPeriod());
            assertThat(counter(job.net(0), "noniso.shipped")).as("one data packet in flight").isEqualTo(1);
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
            }
            for (int h = 0; h < 3; h++) {
                awaitCompletion(job, h);
            }
            // the barrier took no data slot: still one in flight, nothing dropped, and all three arrive in order
            pollFor(job, TckTransport.quietPeriod());
            assertThat(counter(job.net(0), "noniso.shipped")).isEqualTo(1);
            for (int i = 0; i < 3; i++) {
                Delivered d = job.awaitNoniso(1);
                assertThat(d.sender()).isEqualTo(0);
                assertThat(seq(d.data())).isEqualTo(i);
            }
            assertThat(counter(job.net(1), "drop.malformed")).isZero();
        }
    }
}
