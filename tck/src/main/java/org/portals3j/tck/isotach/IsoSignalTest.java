package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.isotach.IsoTestSupport.assertNoIsoDelivery;
import static org.portals3j.tck.isotach.IsoTestSupport.awaitNotice;
import static org.portals3j.tck.isotach.IsoTestSupport.awaitPulse;
import static org.portals3j.tck.isotach.IsoTestSupport.letTimePass;
import static org.portals3j.tck.isotach.IsoTestSupport.payload;
import static org.portals3j.tck.isotach.IsoTestSupport.seq;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Isotach signals (Isotach report §6.4, pp. 47-50; App. A.8, pp. 100-104): channel ownership, the bs-notice a signal
 * becomes at every registered host, and the order of signals relative to the Isotach messages around them. Application
 * channels are 1..4; 0 and the reset channel 5 belong to the layer. Signal channel c is notice bit
 * {@code 1 << (c + 2)}.
 *
 * <p>Covered inside the module (not observable through the API): the reset bit after initialisation shutting the
 * layer down (I-062: isotach-core {@code SignalTableTest.resetBitsAreCountedAndNeverReported_I062} and the engine's
 * poll) and the merging of two channel bits in the accumulator ({@code SignalTableTest
 * .signalsOfOnePulseMakeOneNoticeWithSeveralBits_I058_I059}).
 */
class IsoSignalTest {

    static int bit(int channel) {
        return 1 << (channel + 2);
    }

    @Test
    @SpecAssertion({"I-052", "I-062"})
    void onlyUnclaimedApplicationChannelsOneToFourCanBeRegisteredAndOnlyOnce() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsotachNet net = job.net(0);
            for (int c = 1; c <= 4; c++) {
                assertThat(net.isoRegisterSignal(c)).as("register channel %d", c).isEqualTo(IsotachNet.SUCCESS);
            }
            for (int c = 1; c <= 4; c++) {
                assertThat(net.isoRegisterSignal(c)).as("register channel %d again", c).isEqualTo(IsotachNet.FAILURE);
            }
            assertThat(net.isoRegisterSignal(0)).as("channel 0 is the layer's").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterSignal(5)).as("channel 5 is the reset channel").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterSignal(-1)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterSignal(6)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterSignal(Integer.MAX_VALUE)).isEqualTo(IsotachNet.FAILURE);
            // the reset channel can be neither sent nor registered after clearing it (I-062)
            assertThat(net.isoSendSignal(5)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoSendSignal(0)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoClearSignal(5)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoRegisterSignal(5)).isEqualTo(IsotachNet.FAILURE);
            // registrations are per host
            assertThat(job.net(1).isoRegisterSignal(1)).isEqualTo(IsotachNet.SUCCESS);
        }
    }

    @Test
    @SpecAssertion("I-053")
    void clearingAChannelNotHeldIsASuccessfulNoOpAndOutOfRangeFails() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsotachNet net = job.net(0);
            assertThat(net.isoClearSignal(2)).as("clear an unclaimed channel").isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoRegisterSignal(2)).as("still unclaimed after the no-op clear")
                    .isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoClearSignal(0)).as("clear the layer's channel 0").isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoRegisterSignal(0)).as("channel 0 still the layer's").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoClearSignal(-1)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoClearSignal(6)).isEqualTo(IsotachNet.FAILURE);
            // clearing a registered channel releases it
            assertThat(net.isoClearSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoSendSignal(2)).as("send on a cleared channel").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterSignal(2)).isEqualTo(IsotachNet.SUCCESS);
        }
    }

    @Test
    @SpecAssertion("I-054")
    void sendingFailsOnAnUnregisteredChannelAndBetweenSoiAndEoi() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsotachNet net = job.net(0);
            assertThat(net.isoSendSignal(1)).as("unregistered").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoRegisterSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoSend(1, payload(0, 7, 8), false)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoSendSignal(1)).as("mid-isochron").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoEnd()).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoSendSignal(1)).as("after iso_end").isEqualTo(IsotachNet.SUCCESS);

            Delivered notice = awaitNotice(job, 0);
            assertThat(notice.bits()).isEqualTo(bit(1));
            Delivered msg = job.awaitIso(1);
            assertThat(msg.isNotice()).isFalse();
            assertThat(seq(msg.data())).isEqualTo(7);
            // the refused sends left nothing behind: one notice only
            letTimePass(job, 20);
            assertNoIsoDelivery(job, 0);
            assertNoIsoDelivery(job, 1);
        }
    }

    @Test
    @SpecAssertion({"I-055", "I-130"})
    void aSignalIsOneNoticeAtEveryRegisteredHostInOnePulse() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            }
            assertThat(job.net(1).isoSendSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            long pulse = -1;
            for (int h = 0; h < 3; h++) {
                Delivered d = awaitNotice(job, h);
                assertThat(d.tag()).isEqualTo(IsoMessage.BS_NOTICE);
                assertThat(d.sender()).isEqualTo(-1);
                assertThat(d.data()).isEmpty();
                assertThat(d.bits()).as("signal 2 is bit 4 (c + 2)").isEqualTo(0x10);
                if (h == 0) {
                    pulse = d.pulse();
                } else {
                    assertThat(d.pulse()).as("pulse of the notice at host %d", h).isEqualTo(pulse);
                }
            }
            // a second signal: a later pulse, again everywhere
            assertThat(job.net(2).isoSendSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            long second = awaitNotice(job, 0).pulse();
            assertThat(second).isGreaterThan(pulse);
            assertThat(awaitNotice(job, 1).pulse()).isEqualTo(second);
            assertThat(awaitNotice(job, 2).pulse()).isEqualTo(second);
        }
    }

    @Test
    @SpecAssertion({"I-056", "I-053"})
    void hostsThatDidNotRegisterTheChannelGetNoNotice() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            assertThat(job.net(0).isoRegisterSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(1).isoRegisterSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(2).isoRegisterSignal(4)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(0).isoSendSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            long p3 = awaitNotice(job, 0).pulse();
            assertThat(awaitNotice(job, 1).bits()).isEqualTo(bit(3));
            awaitPulse(job, p3);
            assertNoIsoDelivery(job, 2);

            assertThat(job.net(2).isoSendSignal(4)).isEqualTo(IsotachNet.SUCCESS);
            Delivered d4 = awaitNotice(job, 2);
            assertThat(d4.bits()).isEqualTo(bit(4));
            awaitPulse(job, d4.pulse());
            assertNoIsoDelivery(job, 0);
            assertNoIsoDelivery(job, 1);

            // after clearing, host 1 no longer hears channel 3
            assertThat(job.net(1).isoClearSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(0).isoSendSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            long again = awaitNotice(job, 0).pulse();
            awaitPulse(job, again);
            assertNoIsoDelivery(job, 1);
            assertNoIsoDelivery(job, 2);
        }
    }

    /**
     * Messages issued before a signal are delivered before its notice everywhere, also when they are held back by
     * the lack of Isotach credits at the sender: the bs-marker waits behind them (Isotach report §3.5.3, pp. 18-20).
     */
    @Test
    @SpecAssertion({"I-057", "I-060"})
    void messagesIssuedBeforeASignalPrecedeItsNoticeEvenWhenBlockedOnCredits() {
        // two credits per peer: one Isotach packet may be outstanding; a far host 2 (distance 4)
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2)
                .distances(new int[][] {{0, 1, 4}, {1, 0, 2}, {4, 2, 0}}).build();
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM))
                .open()) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            }
            IsotachNet net = job.net(0);
            assertThat(net.isoSend(1, payload(0, 0, 16), true)).isEqualTo(IsotachNet.SUCCESS); // takes the credit
            assertThat(net.isoSend(1, payload(0, 1, 16), true)).isEqualTo(IsotachNet.SUCCESS); // blocked
            assertThat(net.isoSend(2, payload(0, 2, 16), true)).isEqualTo(IsotachNet.SUCCESS); // behind it
            assertThat(net.isoSendSignal(1)).isEqualTo(IsotachNet.SUCCESS);                   // behind both

            // host 1 does not receive, so nothing behind message 0 may leave: no notice anywhere, no message at 2
            letTimePass(job, 30);
            IsoTestSupport.pollFor(job, TckTransport.quietPeriod());
            assertNoIsoDelivery(job, 0);
            assertNoIsoDelivery(job, 2);

            List<Delivered> at1 = receiveUntilNotice(job, 1);
            List<Delivered> at2 = receiveUntilNotice(job, 2);
            List<Delivered> at0 = receiveUntilNotice(job, 0);
            assertThat(at1).hasSize(3);
            assertThat(seq(at1.get(0).data())).isEqualTo(0);
            assertThat(seq(at1.get(1).data())).isEqualTo(1);
            assertThat(at2).hasSize(2);
            assertThat(seq(at2.get(0).data())).isEqualTo(2);
            assertThat(at0).hasSize(1);
            long pulse = at0.get(0).pulse();
            for (List<Delivered> l : List.of(at1, at2)) {
                Delivered notice = l.get(l.size() - 1);
                assertThat(notice.bits()).isEqualTo(bit(1));
                assertThat(notice.pulse()).as("same pulse everywhere").isEqualTo(pulse);
                for (Delivered m : l.subList(0, l.size() - 1)) {
                    assertThat(m.pulse()).as("message %s before notice %s", m, notice).isLessThanOrEqualTo(pulse);
                }
            }
        }
    }

    @Test
    @SpecAssertion({"I-061", "I-057"})
    void aSignalNeedsNoIsotachCreditAndOvertakesNothing() {
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).build();
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM))
                .open()) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(4)).isEqualTo(IsotachNet.SUCCESS);
            }
            // host 0 uses its only credit towards host 1 and host 1 never frees it (it does not receive)
            assertThat(job.net(0).isoSend(1, payload(0, 0, 8), true)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(0).isoSendSignal(4)).isEqualTo(IsotachNet.SUCCESS);
            Delivered at2 = awaitNotice(job, 2);
            Delivered at0 = awaitNotice(job, 0);
            assertThat(at2.bits()).isEqualTo(bit(4));
            assertThat(at0.pulse()).isEqualTo(at2.pulse());
            // host 1: the message first, then the notice of the same signal
            Delivered m = job.awaitIso(1);
            assertThat(m.isNotice()).isFalse();
            Delivered n = awaitNotice(job, 1);
            assertThat(n.pulse()).isEqualTo(at2.pulse());
            assertThat(m.pulse()).isLessThanOrEqualTo(n.pulse());
        }
    }

    /**
     * Signals that wait together for room in the Isotach send buffer leave in one bs-marker: one notice per host
     * with both channels' bits (I-059) and one bit for two sends on a channel (I-058).
     */
    @Test
    @SpecAssertion({"I-058", "I-059"})
    void signalsTakingEffectInOnePulseMakeOneNoticeWithOneBitPerChannel() {
        // iso_send_buf of 4 slots (3 usable) and 2 credits per peer
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).isoSendBufSize(4).build();
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM))
                .open()) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(1)).isEqualTo(IsotachNet.SUCCESS);
                assertThat(job.net(h).isoRegisterSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            }
            IsotachNet net = job.net(0);
            int sent = 0;
            while (net.isoSend(1, payload(0, sent, 8), true) == IsotachNet.SUCCESS) {
                sent++;
                assertThat(sent).as("iso_send_buf of 4 slots must fill up").isLessThanOrEqualTo(8);
            }
            assertThat(sent).as("one in flight plus the buffer's usable slots").isGreaterThanOrEqualTo(2);
            assertThat(net.isoSendSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoSendSignal(2)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.isoSendSignal(1)).isEqualTo(IsotachNet.SUCCESS);

            List<Delivered> at1 = new ArrayList<>();
            for (int i = 0; i < sent; i++) {
                Delivered m = job.awaitIso(1);
                assertThat(m.isNotice()).as("message %d before the notice", i).isFalse();
                assertThat(seq(m.data())).isEqualTo(i);
                at1.add(m);
            }
            Delivered n1 = awaitNotice(job, 1);
            assertThat(n1.bits()).as("one notice, both channels, each once").isEqualTo(bit(1) | bit(2));
            for (int h : new int[] {0, 2}) {
                Delivered n = awaitNotice(job, h);
                assertThat(n.bits()).isEqualTo(bit(1) | bit(2));
                assertThat(n.pulse()).isEqualTo(n1.pulse());
            }
            letTimePass(job, 20);
            for (int h = 0; h < 3; h++) {
                assertNoIsoDelivery(job, h);
            }
        }
    }

    /** Two hosts signal one channel at once: per host at most one notice per pulse, the same pulses everywhere. */
    @Test
    @SpecAssertion({"I-058", "I-055"})
    void concurrentSignalsOnOneChannelNeverMakeTwoNoticesForOnePulse() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            }
            for (int round = 0; round < 3; round++) {
                assertThat(job.net(1).isoSendSignal(3)).isEqualTo(IsotachNet.SUCCESS);
                assertThat(job.net(2).isoSendSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            }
            // every notice is due within a few pulses of the last send; collect for well past that
            letTimePass(job, 40);
            List<List<Long>> pulses = new ArrayList<>();
            for (int h = 0; h < 3; h++) {
                List<Long> ps = new ArrayList<>();
                for (Delivered d : job.drainIso(h, TckTransport.quietPeriod())) {
                    assertThat(d.isNotice()).isTrue();
                    assertThat(d.bits()).isEqualTo(bit(3));
                    if (!ps.isEmpty()) {
                        assertThat(d.pulse()).as("host %d: two notices for one pulse", h)
                                .isGreaterThan(ps.get(ps.size() - 1));
                    }
                    ps.add(d.pulse());
                }
                assertThat(ps.size()).as("host %d notices", h).isBetween(1, 6);
                pulses.add(ps);
            }
            assertThat(pulses.get(1)).isEqualTo(pulses.get(0));
            assertThat(pulses.get(2)).isEqualTo(pulses.get(0));
        }
    }

    /** Receives at {@code host} up to and including the first notice. */
    static List<Delivered> receiveUntilNotice(IsotachJob job, int host) {
        List<Delivered> out = new ArrayList<>();
        while (true) {
            Delivered d = job.awaitIso(host);
            out.add(d);
            if (d.isNotice()) {
                return out;
            }
        }
    }
}
