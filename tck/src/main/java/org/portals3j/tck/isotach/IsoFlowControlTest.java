package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * Isotach flow control (Isotach report §7.2, pp. 62-66): non-specific sender-based credits, explicit credit packets,
 * buckets.
 */
class IsoFlowControlTest {

    private static IsotachJob job(int hosts, IsotachConfig config) {
        return IsotachJob.builder(hosts).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open();
    }

    @Test
    @SpecAssertion({"I-103", "I-109"})
    void aSenderNeverHasMoreThanNMinusOnePacketsOutstandingToAReceiver() {
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(4).build();
        try (IsotachJob job = job(2, config)) {
            IsotachNet sender = job.net(0);
            IsotachNet receiver = job.net(1);
            // An unclaimed barrier channel re-joins each execution with a bs-marker (Isotach report §3.5.1,
            // pp. 18-20), which would wait behind the blocked packets in the send buffer: host 0 claims channel 1.
            BarrierSetup.quietClock(job, BarrierMode.WEAK);
            for (int k = 0; k < 10; k++) {
                assertThat(sender.isoSend(1, IsoTraffic.payload(0, k, k, 0, 1, 0x80, 32), true))
                        .isEqualTo(IsotachNet.SUCCESS);
            }
            // every poll approves queued packets while credits last: after one, the rest wait for a credit
            sender.poll();
            assertThat(IsoTraffic.counter(sender, "host.isoSendQueue")).as("packets left waiting for a credit")
                    .isEqualTo(7);
            // the receiver polls, never receives: nothing is consumed, so no credit can come back
            job.awaitCondition("the 3 approved packets at the receiver", () -> IsoTraffic.counter(sender, "siu.isoSent")
                    == 3 && IsoTraffic.counter(receiver, "siu.isoReceived") == 3);
            assertThat(IsoTraffic.counter(receiver, "host.isoCreditExplicit")).as("credits the receiver returned")
                    .isZero();
            assertThat(IsoTraffic.counter(sender, "host.isoSendQueue")).as("packets still waiting for a credit")
                    .isEqualTo(7);
            IsoTraffic t = new IsoTraffic(job);
            t.awaitMessages(0, 10); // consuming brings the credits back: everything flows (I-109)
        }
    }

    @Test
    @SpecAssertion({"I-106", "I-105"})
    void anExplicitCreditGoesBackEachTimeTheFreedButUnreportedCreditsReachTheThreshold() {
        for (double threshold : new double[] {0.5, 0.75}) {
            IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(8).isoCreditThreshold(threshold).build();
            try (IsotachJob job = job(2, config)) {
                IsoTraffic t = new IsoTraffic(job);
                long before = t.counter(1, "host.isoCreditExplicit");
                for (int k = 0; k < 40; k++) {
                    t.isochron(0, 0, 16, 1); // one way: no packet from host 1 could carry a credit back
                }
                t.awaitMessages(0, 40);
                t.receiveAll(); // releases the 40th message
                int every = (int) (8 * threshold); // 4, 6
                assertThat(t.counter(1, "host.isoCreditExplicit") - before)
                        .as("explicit credits for 40 consumed messages, one per %d (threshold %s)", every, threshold)
                        .isEqualTo(40 / every);
            }
        }
    }

    @Test
    @SpecAssertion("I-109")
    void oneWayTrafficProgressesWhateverTheExplicitCreditThreshold() {
        // With N credits at most N - 1 packets are outstanding, so at most N - 1 can be freed before one is reported:
        // a threshold of N (fraction 1.0, which the configuration accepts) must not leave the sender waiting for
        // ever - the report's answer to one-way traffic is the credit request (Isotach report §7.1.3, pp. 59-62;
        // App. B.1.1, pp. 104-107).
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(8).isoCreditThreshold(1.0).build();
        try (IsotachJob job = job(2, config)) {
            IsoTraffic t = new IsoTraffic(job);
            for (int k = 0; k < 40; k++) {
                t.isochron(0, 0, 16, 1);
            }
            t.awaitMessages(0, 40);
        }
    }

    @Test
    @SpecAssertion("I-110")
    void aPacketBlockedOnCreditsHoldsBackTheSendersLaterPacketsAndSignalsToEveryone() {
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).build();
        try (IsotachJob job = job(3, config)) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            }
            IsotachNet sender = job.net(0);
            assertThat(sender.isoSend(1, IsoTraffic.payload(0, 0, 0, 0, 1, 0x80, 16), true))
                    .isEqualTo(IsotachNet.SUCCESS);
            assertThat(sender.isoSend(1, IsoTraffic.payload(0, 1, 1, 0, 1, 0x80, 16), true))
                    .isEqualTo(IsotachNet.SUCCESS);
            assertThat(sender.isoSend(2, IsoTraffic.payload(0, 2, 2, 0, 1, 0x80, 16), true))
                    .isEqualTo(IsotachNet.SUCCESS);
            assertThat(sender.isoSendSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            // host 1 holds its one message without consuming it; host 2 must get nothing: its message and the
            // signal wait behind the packet blocked for host 1's credit
            IsoMessage m = new IsoMessage();
            long quiet = System.nanoTime() + TckTransport.quietPeriod().multipliedBy(2).toNanos();
            while (System.nanoTime() < quiet) {
                sender.poll();
                job.net(1).poll();
                assertThat(job.net(2).isoReceive(m)).as("host 2 receives while host 0 is blocked on host 1")
                        .isEqualTo(IsotachNet.NO_MESSAGE);
            }
            IsoTraffic t = new IsoTraffic(job);
            t.awaitMessages(0, 2, 1);
            job.awaitCondition("the signal at host 2", () -> {
                t.receiveAll();
                return !t.notices(2).isEmpty();
            });
            assertThat(t.all(2).get(0).isNotice()).as("host 2: the message before the signal").isFalse();
            assertThat(t.all(2).get(1).isNotice()).isTrue();
        }
    }

    @Test
    @SpecAssertion("I-112")
    void aBucketOverflowIsReportedAsAFatalErrorNeverDroppedSilently() {
        IsotachConfig config = IsotachConfig.builder().bucketSize(4).build();
        try (IsotachJob job = job(3, config)) {
            IsoTraffic t = new IsoTraffic(job);
            t.isochron(0, 0, 16, 1, 1, 1, 1, 1, 1); // six entries for one pulse at host 1
            IsoMessage m = new IsoMessage();
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            IsotachFatalError fatal = null;
            int delivered = 0;
            while (fatal == null) {
                try {
                    if (job.net(1).isoReceive(m) == IsotachNet.SUCCESS) {
                        delivered++;
                    }
                } catch (IsotachFatalError e) {
                    fatal = e;
                }
                job.net(0).poll();
                job.net(2).poll();
                assertThat(System.nanoTime()).as("host 1 reports the overflow").isLessThan(deadline);
            }
            assertThat(fatal).hasMessageContaining("bucket");
            assertThat(delivered).as("messages of the overflowing pulse delivered").isZero();
            assertThat(job.net(1).isoReceive(m)).as("the layer is closed after a fatal error")
                    .isEqualTo(IsotachNet.FAILURE);
        }
    }
}
