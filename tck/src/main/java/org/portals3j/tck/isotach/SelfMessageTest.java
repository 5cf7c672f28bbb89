package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Self-messages (Isotach report §6.2, pp. 41-45; §7.3, pp. 66-69): kept at home in hit_buf and executed with an
 * isochron marker.
 */
class SelfMessageTest {

    @Test
    @SpecAssertion("I-038")
    void anIsotachSendToItselfIsAcceptedButANonisoSendToItselfFails() {
        try (IsotachJob job = IsotachJob.open(2, Interface.NONISO, Interface.ISO_MBM)) {
            IsotachNet net = job.net(1);
            assertThat(net.isoSend(1, IsoTraffic.payload(1, 0, 0, 0, 1, 0, 16), true)).isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.send(1, new byte[8])).as("noniso send to itself (Isotach report App. A.3, pp. 96-97)")
                    .isEqualTo(IsotachNet.FAILURE);
            IsoTraffic t = new IsoTraffic(job);
            t.awaitMessages(0, 1);
            assertThat(t.messages(1).get(0).sender()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion({"I-039", "I-108"})
    void selfMessagesSendNoPacketAndUseNoIsotachCredit() {
        // One credit usable per peer (N = 2): were self-messages or markers charged to a peer's credits, the net
        // messages below would stall behind them.
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).build();
        try (IsotachJob job = IsotachJob.builder(2).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            IsoTraffic t = new IsoTraffic(job);
            long sent = t.counter(0, "siu.isoSent");
            for (int k = 0; k < 100; k++) {
                t.isochron(0, 0, 16, 0, 0);
            }
            assertThat(t.counter(0, "siu.isoSent")).as("packets sent for 200 self-messages").isEqualTo(sent);
            t.awaitMessages(200, 0);
            for (int k = 0; k < 50; k++) {
                t.isochron(0, 0, 16, 1, 0, 0); // a net message with two self-messages: one marker each
            }
            t.awaitMessages(300, 50);
            assertThat(t.counter(0, "siu.isoSent")).as("packets sent: the 50 net messages only").isEqualTo(sent + 50);
            assertThat(t.counter(1, "siu.isoReceived")).as("packets host 1 received").isEqualTo(50);
        }
    }

    @Test
    @SpecAssertion({"I-041", "I-049"})
    void aSelfMessageReportsItsOwnSenderAndExactlyThePayloadPassed() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsotachNet net = job.net(0);
            int max = net.getMaxPayload();
            int[] sizes = {0, 1, 3, 4, 5, 17, 255, max - 1, max};
            for (int size : sizes) {
                byte[] data = new byte[size];
                for (int i = 0; i < size; i++) {
                    data[i] = (byte) (i * 7 + size);
                }
                byte[] copy = data.clone();
                assertThat(net.isoSend(0, data, true)).as("self-send of %d bytes", size).isEqualTo(IsotachNet.SUCCESS);
                // the caller's buffer is reusable at once (Isotach report App. A.5, pp. 98-99)
                Arrays.fill(data, (byte) 0x55);
                Delivered d = job.awaitIso(0);
                assertThat(d.sender()).as("sender of a self-message").isZero();
                assertThat(d.data()).as("payload of %d bytes", size).isEqualTo(copy);
            }
        }
    }

    @Test
    @SpecAssertion("I-042")
    void aFullHitBufferFailsTheSelfSendAndTheLayerKeepsRunning() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsotachNet net = job.net(0);
            int accepted = 0;
            while (accepted < 600 && net.isoSend(0, IsoTraffic.payload(0, accepted, accepted, 0, 1, 0, 16), true)
                    == IsotachNet.SUCCESS) {
                accepted++;
            }
            assertThat(accepted)
                    .as("self-messages accepted before hit_buf was full"
                            + " (HIT_BUF_SIZE, Isotach report §6.2.4, pp. 41-45)")
                    .isEqualTo(512);
            assertThat(net.isoSend(0, IsoTraffic.payload(0, 999, 999, 0, 1, 0, 16), true)).as("again")
                    .isEqualTo(IsotachNet.FAILURE);
            // still running: net traffic flows, and receiving frees hit_buf (at the next iso_receive,
            // Isotach report §6.8.5, pp. 56-59)
            IsoTraffic t = new IsoTraffic(job);
            t.isochron(1, 0, 16, 0);
            t.awaitMessages(513, 0);
            assertThat(net.isoSend(0, IsoTraffic.payload(0, 512, 512, 0, 1, 0, 16), true)).as("after receiving")
                    .isEqualTo(IsotachNet.SUCCESS);
            t.awaitMessages(514, 0);
            OrderChecks.perSenderIssueOrder("", 0, t.all(0));
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.messages(0)).hasSize(514);
        }
    }

    @Test
    @SpecAssertion({"I-043", "I-040", "I-016"})
    void selfMessagesOfANetIsochronAreDeliveredAtThePulseOfItsNetMessages() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            for (int k = 0; k < 10; k++) {
                t.isochron(1, 0, 16, 0, 1, 2, 1);
                t.isochron(2, 0, 16, 1, 2);
            }
            t.awaitMessages(10, 30, 20);
            OrderChecks.onePulsePerIsochron("", List.of(t.all(0), t.all(1), t.all(2)));
            for (int h = 0; h < 3; h++) {
                OrderChecks.senderOrderWithinPulses("", h, t.all(h));
            }
        }
    }
}
