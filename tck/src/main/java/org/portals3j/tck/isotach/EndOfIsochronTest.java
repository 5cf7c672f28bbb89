package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Where an isochron ends (Isotach report §6.2, pp. 41-45): a net packet leaves only when it is known whether it is its
 * isochron's last. Seen from outside through the sender's {@code siu.isoSent} counter (packets its switch
 * interface unit put on the network) and through what is delivered.
 */
class EndOfIsochronTest {

    private static byte[] msg(int sender, int seq) {
        return IsoTraffic.payload(sender, seq, seq, 0, 1, 0x80, 24);
    }

    private static void ok(int rc, String call) {
        assertThat(rc).as(call).isEqualTo(IsotachNet.SUCCESS);
    }

    @Test
    @SpecAssertion("I-023")
    void aNetSendWithLastInIsochronIsTransmittedInTheSameCall() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            long sent = t.counter(0, "siu.isoSent");
            ok(job.net(0).isoSend(1, msg(0, 0), true), "iso_send(1, last)");
            assertThat(t.counter(0, "siu.isoSent")).as("packets on the network when iso_send returned")
                    .isEqualTo(sent + 1);
            t.awaitMessages(0, 1);
        }
    }

    @Test
    @SpecAssertion({"I-024", "I-027", "I-026"})
    void anUndecidedNetPacketStaysHomeWhileSelfSendsDoNotEndTheIsochronUntilIsoEnd() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            IsotachNet net = job.net(0);
            long sent = t.counter(0, "siu.isoSent");
            ok(net.isoSend(1, msg(0, 0), false), "iso_send(1, not last)");
            ok(net.isoSend(0, msg(0, 1), false), "iso_send(self, not last)");
            ok(net.isoSend(0, msg(0, 2), false), "iso_send(self, not last)");
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.counter(0, "siu.isoSent")).as("packets sent while the isochron is open").isEqualTo(sent);
            assertThat(t.all(0)).as("delivered at the sender while the isochron is open").isEmpty();
            assertThat(t.all(1)).as("delivered at the destination while the isochron is open").isEmpty();
            ok(net.isoEnd(), "iso_end");
            assertThat(t.counter(0, "siu.isoSent")).as("packets sent by iso_end").isEqualTo(sent + 1);
            t.awaitMessages(2, 1);
            assertThat(t.all(0).get(0).pulse()).isEqualTo(t.all(1).get(0).pulse());
            assertThat(t.all(0).get(1).pulse()).isEqualTo(t.all(1).get(0).pulse());
        }
    }

    @Test
    @SpecAssertion({"I-026", "I-043"})
    void aSelfSendWithLastInIsochronDecidesThePendingNetPacketAsEoi() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            long sent = t.counter(0, "siu.isoSent");
            ok(job.net(0).isoSend(1, msg(0, 0), false), "iso_send(1, not last)");
            ok(job.net(0).isoSend(0, msg(0, 1), true), "iso_send(self, last)");
            assertThat(t.counter(0, "siu.isoSent")).as("packets sent once the self-send ended the isochron")
                    .isEqualTo(sent + 1);
            t.awaitMessages(1, 1);
            assertThat(t.all(0).get(0).pulse()).as("self-message pulse").isEqualTo(t.all(1).get(0).pulse());
        }
    }

    @Test
    @SpecAssertion({"I-025", "I-018"})
    void aFollowingNetSendReleasesThePreviousPacketAndTheIsochronLeavesWhole() {
        // One application thread drives every host: while host 0's isochron is open, each call must return to it
        // (the undecided and released packets wait, logical time may advance) so that it can end the isochron.
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsoTraffic.withinTime(job, Duration.ofSeconds(15), "an isochron left open while every host polls", () -> {
                IsoTraffic t = new IsoTraffic(job);
                IsotachNet net = job.net(0);
                long sent = t.counter(0, "siu.isoSent");
                ok(net.isoSend(1, msg(0, 0), false), "iso_send(1, not last)");
                ok(net.isoSend(2, msg(0, 1), false), "iso_send(2, not last)");
                ok(net.isoSend(1, msg(0, 2), false), "iso_send(1, not last)");
                t.receiveFor(TckTransport.quietPeriod());
                assertThat(t.all(1)).as("delivered while the isochron is open").isEmpty();
                assertThat(t.all(2)).as("delivered while the isochron is open").isEmpty();
                ok(net.isoSend(2, msg(0, 3), true), "iso_send(2, last)");
                assertThat(t.counter(0, "siu.isoSent")).as("packets of the isochron sent").isEqualTo(sent + 4);
                t.awaitMessages(0, 2, 2);
                List<Delivered> at1 = t.messages(1);
                List<Delivered> at2 = t.messages(2);
                assertThat(at1).extracting(Delivered::firstInt).containsExactly(0, 2);
                assertThat(at2).extracting(Delivered::firstInt).containsExactly(1, 3);
                assertThat(List.of(at1.get(0).pulse(), at1.get(1).pulse(), at2.get(0).pulse(), at2.get(1).pulse()))
                        .as("one pulse for the whole isochron").containsOnly(at1.get(0).pulse());
            });
        }
    }

    @Test
    @SpecAssertion({"I-028", "I-019"})
    void isoEndWithNoIsochronInProgressSucceedsAndDoesNothing() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            long sent = t.counter(0, "siu.isoSent");
            long stamped = t.counter(0, "siu.isochronsStamped");
            ok(job.net(0).isoEnd(), "iso_end with nothing issued");
            ok(job.net(0).isoEnd(), "iso_end again");
            t.isochron(0, 0, 16, 1);
            ok(job.net(0).isoEnd(), "iso_end right after an ended isochron");
            t.isochron(0, 0, 16, 0);
            ok(job.net(0).isoEnd(), "iso_end right after an ended self-isochron");
            t.awaitMessages(1, 1);
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.all(0)).as("host 0's deliveries").hasSize(1);
            assertThat(t.all(1)).as("host 1's deliveries").hasSize(1);
            assertThat(t.counter(0, "siu.isoSent")).isEqualTo(sent + 1);
            assertThat(t.counter(0, "siu.isochronsStamped")).isEqualTo(stamped + 1);
        }
    }

    @Test
    @SpecAssertion("I-141")
    void noSignalOrBarrierMarkerCanBeSentWhileANetIsochronIsOpen() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsotachNet net = job.net(0);
            ok(net.isoRegisterSignal(1), "register signal 1");
            ok(net.isoRegisterBarrier(1, BarrierMode.WEAK), "register barrier 1");
            ok(net.isoSend(1, msg(0, 0), false), "iso_send(1, not last)");
            assertThat(net.isoSendSignal(1)).as("signal between SOI and EOI (Isotach report §6.4.5, pp. 47-50)")
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoBarrier(1, BarrierMode.WEAK))
                    .as("barrier between SOI and EOI (Isotach report §6.5.5, pp. 50-54)")
                    .isEqualTo(IsotachNet.FAILURE);
            ok(net.isoSend(0, msg(0, 1), true), "iso_send(self, last)");
            ok(net.isoSendSignal(1), "signal after the EOI");
            IsoTraffic t = new IsoTraffic(job);
            t.awaitMessages(1, 1);
        }
    }
}
