package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.isotach.IsoTestSupport.assertNoIsoDelivery;
import static org.portals3j.tck.isotach.IsoTestSupport.awaitNotice;
import static org.portals3j.tck.isotach.IsoTestSupport.awaitPulse;
import static org.portals3j.tck.isotach.IsoTestSupport.isoSend;
import static org.portals3j.tck.isotach.IsoTestSupport.letTimePass;
import static org.portals3j.tck.isotach.IsoTestSupport.payload;
import static org.portals3j.tck.isotach.IsoTestSupport.seq;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Isotach barriers (Isotach report §6.5, pp. 50-54; App. A.8, pp. 100-104). Channel 1 is the application's, channel 0
 * the layer's shutdown barrier; the argument order is (channel, mode). A completion of channel 1 is notice bit
 * {@code 1 << 1}.
 *
 * <p>Every test registers the channel on its hosts straight after open_net, before anything else runs on them: a
 * host that has not registered takes part in every execution on its own (I-069), so registering later makes the
 * first application execution depend on how far those automatic executions got (the TRANSITION/READY states,
 * Isotach report §3.5.1, pp. 18-20, tested on purpose in {@link
 * #registeringWhileAnAutomaticExecutionIsOutstandingStillWorks}).
 *
 * <p>Covered inside the module: the barrier count a bs-marker carries (I-073, isotach-core {@code BarrierTableTest
 * .barrierCountsFollowTheNetworkDiameter_I073} and {@code barrierWhileHoldingEnqueuesTheMarker_I073}); every row of
 * the state table ({@code BarrierTableTest}, {@code BarrierTableGroupTest}).
 */
class IsoBarrierTest {
    static final int CHANNEL = 1;
    static final int BIT = 1 << CHANNEL;

    static IsotachJob open(int hosts) {
        return IsotachJob.builder(hosts).interfaces(EnumSet.of(Interface.ISO_MBM)).open();
    }

    static void registerAll(IsotachJob job, BarrierMode mode) {
        for (int h = 0; h < job.size(); h++) {
            assertThat(job.net(h).isoRegisterBarrier(CHANNEL, mode)).as("register on host %d", h)
                    .isEqualTo(IsotachNet.SUCCESS);
        }
    }

    @Test
    @SpecAssertion({"I-063", "I-074"})
    void channelOneRegistersOnceInEitherModeAndChannelZeroIsTheLayers() {
        try (IsotachJob job = open(2)) {
            IsotachNet net = job.net(0);
            assertThat(net.isoRegisterBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoRegisterBarrier(CHANNEL, BarrierMode.WEAK)).as("again").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterBarrier(CHANNEL, BarrierMode.STRONG)).as("again, other mode")
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterBarrier(0, BarrierMode.STRONG)).as("the layer's channel 0")
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterBarrier(2, BarrierMode.WEAK)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterBarrier(-1, BarrierMode.WEAK)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoClearBarrier(CHANNEL)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoRegisterBarrier(CHANNEL, BarrierMode.STRONG)).as("after clearing")
                    .isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoClearBarrier(2)).as("out of range").isEqualTo(IsotachNet.FAILURE);
            // I-074: channel 0 can be neither used nor released by the application
            assertThat(net.isoBarrier(0, BarrierMode.STRONG)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoBarrier(0, BarrierMode.WEAK)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoClearBarrier(0)).as("a no-op on a channel the application does not hold")
                    .isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoRegisterBarrier(0, BarrierMode.STRONG)).isEqualTo(IsotachNet.FAILURE);
            // and the layer's shutdown barrier on channel 0 still works
            job.closeNetAll();
        }
    }

    @Test
    @SpecAssertion({"I-064", "I-069", "I-130"})
    void barrierFailsUnregisteredInAnotherModeAndMidIsochron() {
        try (IsotachJob job = open(3)) {
            IsotachNet net = job.net(0);
            assertThat(net.isoBarrier(CHANNEL, BarrierMode.WEAK)).as("unregistered").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterBarrier(CHANNEL, BarrierMode.STRONG)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoBarrier(CHANNEL, BarrierMode.WEAK)).as("registered STRONG").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoSend(2, payload(0, 5, 8), false)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoBarrier(CHANNEL, BarrierMode.STRONG)).as("mid-isochron").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoEnd()).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoBarrier(CHANNEL, BarrierMode.STRONG)).isEqualTo(IsotachNet.SUCCESS);

            // hosts 1 and 2 never registered: they take part on their own and are told nothing
            Delivered n = awaitNotice(job, 0);
            assertThat(n.bits()).as("barrier channel 1 is bit 1").isEqualTo(BIT);
            Delivered m = job.awaitIso(2);
            assertThat(seq(m.data())).isEqualTo(5);
            assertThat(m.pulse()).as("STRONG: the message issued before the barrier").isLessThanOrEqualTo(n.pulse());
            awaitPulse(job, n.pulse() + 5);
            assertNoIsoDelivery(job, 0);
            assertNoIsoDelivery(job, 1);
            assertNoIsoDelivery(job, 2);
        }
    }

    @Test
    @SpecAssertion({"I-065", "I-066", "I-067", "I-070"})
    void aBarrierCompletesOnlyWhenEveryHostJoinedAndIsReportedInOnePulseEverywhere() {
        try (IsotachJob job = open(3)) {
            registerAll(job, BarrierMode.WEAK);
            long last = -1;
            for (int round = 0; round < 3; round++) {
                assertThat(job.net(0).isoBarrier(CHANNEL, BarrierMode.WEAK)).as("round %d", round)
                        .isEqualTo(IsotachNet.SUCCESS);
                assertThat(job.net(0).isoBarrier(CHANNEL, BarrierMode.WEAK)).as("before the notice (I-065)")
                        .isEqualTo(IsotachNet.FAILURE);
                assertThat(job.net(1).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
                // host 2 has not joined: no completion anywhere, however long time runs
                letTimePass(job, 30);
                for (int h = 0; h < 3; h++) {
                    assertNoIsoDelivery(job, h);
                }
                assertThat(job.net(2).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
                Delivered first = awaitNotice(job, 0);
                assertThat(first.bits()).isEqualTo(BIT);
                assertThat(first.pulse()).isGreaterThan(last);
                for (int h = 1; h < 3; h++) {
                    Delivered d = awaitNotice(job, h);
                    assertThat(d.bits()).isEqualTo(BIT);
                    assertThat(d.pulse()).as("host %d", h).isEqualTo(first.pulse());
                }
                last = first.pulse();
            }
        }
    }

    /** STRONG (G6): once the notice is out at h, no message issued before any participant's barrier reaches h. */
    @Test
    @SpecAssertion("I-068")
    void strongBarrierNoticeComesAfterEveryMessageIssuedBeforeTheBarrier() {
        // unequal distances: host 0 -> 2 is far, so its messages are delivered late in logical time
        IsotachConfig config = IsotachConfig.builder().distances(new int[][] {{0, 1, 6}, {1, 0, 2}, {6, 2, 0}}).build();
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            registerAll(job, BarrierMode.STRONG);
            int perPair = 4;
            for (int round = 0; round < 2; round++) {
                for (int s = 0; s < 3; s++) {
                    for (int k = 0; k < perPair; k++) {
                        for (int d = 0; d < 3; d++) {
                            if (d != s) {
                                isoSend(job, s, d, payload(s, round * 100 + k, 12), true);
                            }
                        }
                    }
                    assertThat(job.net(s).isoBarrier(CHANNEL, BarrierMode.STRONG)).isEqualTo(IsotachNet.SUCCESS);
                }
                long pulse = -1;
                for (int h = 0; h < 3; h++) {
                    Set<String> seen = new HashSet<>();
                    Delivered d;
                    while (!(d = job.awaitIso(h)).isNotice()) {
                        assertThat(seen.add(d.sender() + ":" + seq(d.data()))).isTrue();
                        assertThat(seq(d.data()) / 100).as("a message of this round").isEqualTo(round);
                    }
                    assertThat(seen).as("host %d: every message issued before the barrier precedes its notice", h)
                            .hasSize(2 * perPair);
                    assertThat(d.bits()).isEqualTo(BIT);
                    if (h == 0) {
                        pulse = d.pulse();
                    } else {
                        assertThat(d.pulse()).isEqualTo(pulse);
                    }
                }
                awaitPulse(job, pulse + 8);
                for (int h = 0; h < 3; h++) {
                    assertNoIsoDelivery(job, h);
                }
            }
        }
    }

    /**
     * Isotach report §3.5.1, pp. 18-20: a host registers while its automatic participation is still out (the execution
     * cannot complete: the other hosts have not run since open_net). Its iso_barrier still succeeds; its participation
     * goes out after the old execution, whose completion it is not told about; unregistered host 2 never blocks it.
     */
    @Test
    @SpecAssertion({"I-071", "I-069", "I-065"})
    void registeringWhileAnAutomaticExecutionIsOutstandingStillWorks() {
        try (IsotachJob job = open(3)) {
            assertThat(job.net(0).isoRegisterBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(0).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(0).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.FAILURE);
            assertThat(job.net(1).isoRegisterBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(1).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            for (int round = 0; round < 3; round++) {
                Delivered n0 = awaitNotice(job, 0);
                Delivered n1 = awaitNotice(job, 1);
                assertThat(n0.bits()).isEqualTo(BIT);
                assertThat(n1.bits()).isEqualTo(BIT);
                assertThat(n1.pulse()).isEqualTo(n0.pulse());
                // exactly one notice per execution of the application's: the old automatic one is masked
                awaitPulse(job, n0.pulse() + 10);
                assertNoIsoDelivery(job, 0);
                assertNoIsoDelivery(job, 1);
                assertNoIsoDelivery(job, 2);
                assertThat(job.net(0).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
                assertThat(job.net(1).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            }
        }
    }

    @Test
    @SpecAssertion({"I-072", "I-069"})
    void aClearedHostKeepsTakingPartAndIsNoLongerTold() {
        try (IsotachJob job = open(3)) {
            registerAll(job, BarrierMode.WEAK);
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            }
            long p = awaitNotice(job, 0).pulse();
            assertThat(awaitNotice(job, 1).pulse()).isEqualTo(p);
            assertThat(awaitNotice(job, 2).pulse()).isEqualTo(p);

            assertThat(job.net(2).isoClearBarrier(CHANNEL)).isEqualTo(IsotachNet.SUCCESS);
            for (int round = 0; round < 2; round++) {
                assertThat(job.net(0).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
                assertThat(job.net(1).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
                long q = awaitNotice(job, 0).pulse();
                assertThat(q).isGreaterThan(p);
                assertThat(awaitNotice(job, 1).pulse()).isEqualTo(q);
                awaitPulse(job, q + 5);
                assertNoIsoDelivery(job, 2);
                p = q;
            }
            // cleared: host 2 may not use the channel any more
            assertThat(job.net(2).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.FAILURE);
        }
    }

    @Test
    @SpecAssertion({"I-061", "I-066"})
    void aBarrierNeedsNoIsotachCredit() {
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).build();
        try (IsotachJob job = IsotachJob.builder(2).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            registerAll(job, BarrierMode.WEAK);
            // host 0's only credit towards host 1 is in use and host 1 does not receive until the end
            assertThat(job.net(0).isoSend(1, payload(0, 1, 8), true)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(0).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(1).isoBarrier(CHANNEL, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            Delivered n0 = awaitNotice(job, 0);
            Delivered m = job.awaitIso(1);
            assertThat(m.isNotice()).isFalse();
            assertThat(awaitNotice(job, 1).pulse()).isEqualTo(n0.pulse());
        }
    }
}
