package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Action;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Iso;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/** The Isotach message-based model (Protocol 3, Isotach report §3.3, pp. 10-14; App. A.5, pp. 98-99). */
class IsoMbmTest {

    @Test
    @SpecAssertion({"I-044", "I-051"})
    void everyPayloadSizeArrivesIntactUnderConcurrentTraffic() {
        IsotachConfig config = IsotachConfig.builder().maxPayload(1024).build();
        Random rnd = new Random(44);
        List<List<Action>> plans = new ArrayList<>();
        for (int h = 0; h < 3; h++) {
            List<Action> plan = new ArrayList<>();
            for (int k = 0; k < 30; k++) {
                int[] dests = new int[1 + rnd.nextInt(3)];
                for (int i = 0; i < dests.length; i++) {
                    dests[i] = rnd.nextInt(3);
                }
                int size = switch (k % 4) {
                    case 0 -> IsoTraffic.TAG;
                    case 1 -> 1024;
                    default -> IsoTraffic.TAG + rnd.nextInt(1024 - IsoTraffic.TAG);
                };
                plan.add(new Iso(dests, size));
            }
            plans.add(plan);
        }
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            ConcurrentIsoTraffic traffic = new ConcurrentIsoTraffic(job, plans, new int[3], "seed 44");
            traffic.run(TckTransport.trafficPatience());
            for (int h = 0; h < 3; h++) {
                OrderChecks.exactlyOnce("", h, traffic.expected().get(h), traffic.all(h)); // checks every payload byte
            }
        }
    }

    @Test
    @SpecAssertion({"I-045", "I-104", "I-105", "I-103"})
    void aDeliveredPayloadStaysValidAndItsCreditHeldUntilTheNextIsoReceive() {
        // N = 2 credits per peer: one message may be outstanding from host 0 to host 1
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).build();
        try (IsotachJob job = IsotachJob.builder(2).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            IsotachNet sender = job.net(0);
            IsotachNet receiver = job.net(1);
            for (int k = 0; k < 4; k++) {
                assertThat(sender.isoSend(1, IsoTraffic.payload(0, k, k, 0, 1, 0x80, 64), true))
                        .isEqualTo(IsotachNet.SUCCESS);
            }
            IsoMessage m = new IsoMessage();
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (receiver.isoReceive(m) != IsotachNet.SUCCESS) {
                sender.poll();
                assertThat(System.nanoTime()).as("first message arrives").isLessThan(deadline);
            }
            MemorySegment view = m.data();
            byte[] first = view.toArray(ValueLayout.JAVA_BYTE);
            assertThat(first).isEqualTo(IsoTraffic.payload(0, 0, 0, 0, 1, 0x80, 64));
            // the receiver only polls: its slot and the sender's credit stay taken, nothing else arrives (I-103, I-105)
            long quiet = System.nanoTime() + TckTransport.quietPeriod().multipliedBy(2).toNanos();
            while (System.nanoTime() < quiet) {
                sender.poll();
                receiver.poll();
            }
            assertThat(IsoTraffic.counter(receiver, "siu.isoReceived")).as("messages in host 1 while it holds one")
                    .isEqualTo(1);
            assertThat(IsoTraffic.counter(sender, "siu.isoSent")).as("messages host 0 sent on one credit").isEqualTo(1);
            assertThat(view.toArray(ValueLayout.JAVA_BYTE)).as("the held payload (I-045, I-104)").isEqualTo(first);
            // the next iso_receive releases it: the credit goes back and the second message comes
            int got = 1;
            deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (got < 4) {
                if (receiver.isoReceive(m) == IsotachNet.SUCCESS) {
                    assertThat(m.toByteArray()).isEqualTo(IsoTraffic.payload(0, got, got, 0, 1, 0x80, 64));
                    got++;
                    // never more than N - 1 = 1 delivered to host 1 and not yet released
                    assertThat(IsoTraffic.counter(receiver, "siu.isoReceived")).isLessThanOrEqualTo(got);
                }
                sender.poll();
                assertThat(System.nanoTime()).as("all four messages arrive").isLessThan(deadline);
            }
        }
    }

    @Test
    @SpecAssertion({"I-046", "I-047"})
    void isoSendRejectsOversizedPayloadsAndInvalidTargetsAndAcceptsExactlyMaxPayload() {
        IsotachConfig config = IsotachConfig.builder().maxPayload(64).build();
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            IsotachNet net = job.net(0);
            assertThat(net.getMaxPayload()).isEqualTo(64);
            assertThat(net.isoSend(1, new byte[65], true)).as("65 bytes").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.isoSend(0, new byte[65], true)).as("65 bytes to itself").isEqualTo(IsotachNet.FAILURE);
            for (int target : new int[] {-1, 3, 4, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
                assertThat(net.isoSend(target, new byte[8], true)).as("target %d", target)
                        .isEqualTo(IsotachNet.FAILURE);
            }
            byte[] max = IsoTraffic.payload(0, 0, 0, 0, 2, 0x80, 64);
            assertThat(net.isoSend(1, max, false)).isEqualTo(IsotachNet.SUCCESS);
            byte[] max2 = IsoTraffic.payload(0, 1, 0, 1, 2, 0x80, 64);
            assertThat(net.isoSend(2, max2, true)).isEqualTo(IsotachNet.SUCCESS);
            IsoTraffic t = new IsoTraffic(job);
            t.awaitMessages(0, 1, 1);
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.all(0)).as("nothing from the refused sends").isEmpty();
            assertThat(t.all(1)).extracting(Delivered::data).containsExactly(max);
            assertThat(t.all(2)).extracting(Delivered::data).containsExactly(max2);
        }
    }

    @Test
    @SpecAssertion({"I-048", "I-110"})
    void aFullSendBufferFailsIsoSendWithoutSideEffectsUntilPollingDrainsIt() {
        // 8 send slots, 1 usable credit per peer: host 1 does not receive, so host 0's buffer fills up
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).isoSendBufSize(8).build();
        try (IsotachJob job = IsotachJob.builder(2).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            IsotachNet net = job.net(0);
            int accepted = 0;
            while (accepted < 50 && net.isoSend(1, IsoTraffic.payload(0, accepted, accepted, 0, 1, 0x80, 32), true)
                    == IsotachNet.SUCCESS) {
                accepted++;
                job.net(1).poll();
            }
            assertThat(accepted).as("messages accepted before the send buffer was full").isBetween(2, 8);
            byte[] refused = IsoTraffic.payload(0, 777, 777, 0, 1, 0x80, 32);
            for (int k = 0; k < 5; k++) {
                assertThat(net.isoSend(1, refused, true)).as("iso_send on a full buffer").isEqualTo(IsotachNet.FAILURE);
                job.net(1).poll();
            }
            IsoTraffic t = new IsoTraffic(job);
            t.awaitMessages(0, accepted);
            // drained: sends succeed again
            for (int k = 0; k < 3; k++) {
                t.send(0, 1, IsoTraffic.payload(0, accepted + k, accepted + k, 0, 1, 0x80, 32), true);
            }
            t.awaitMessages(0, accepted + 3);
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.messages(1)).extracting(Delivered::firstInt).as("exactly the accepted messages, in order")
                    .containsExactlyElementsOf(IntStream.range(0, accepted + 3).boxed().toList());
        }
    }

    @Test
    @SpecAssertion("I-049")
    void changingTheCallersBufferAfterIsoSendDoesNotChangeTheMessage() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            byte[] data = IsoTraffic.payload(0, 0, 0, 0, 2, 0x80, 100);
            byte[] original = data.clone();
            assertThat(job.net(0).isoSend(1, data, false)).isEqualTo(IsotachNet.SUCCESS);
            Arrays.fill(data, (byte) 1); // still undecided: the layer must have its own copy already
            byte[] self = IsoTraffic.payload(0, 1, 0, 1, 2, 0x80, 100);
            byte[] selfOriginal = self.clone();
            assertThat(job.net(0).isoSend(0, self, true)).isEqualTo(IsotachNet.SUCCESS);
            Arrays.fill(self, (byte) 2);
            IsoTraffic t = new IsoTraffic(job);
            t.awaitMessages(1, 1);
            assertThat(t.all(1).get(0).data()).isEqualTo(original);
            assertThat(t.all(0).get(0).data()).isEqualTo(selfOriginal);
        }
    }

    @Test
    @SpecAssertion({"I-051", "I-107", "I-109", "I-111"})
    void aLongOneWayRunOnTheSmallestCreditsDeliversEveryMessageExactlyOnce() {
        // N = 2: every credit count passes the value 0 (mod N) again and again (the C's NULL_CREDIT, App. J)
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(2).build();
        try (IsotachJob job = IsotachJob.builder(2).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            IsoTraffic t = new IsoTraffic(job);
            for (int k = 0; k < 400; k++) {
                t.isochron(0, 0, 16 + k % 50, 1);
            }
            t.awaitMessages(0, 400);
            // and both ways, credits coming back piggybacked
            for (int k = 0; k < 100; k++) {
                t.isochron(1, 0, 20, 0);
                t.isochron(0, 0, 20, 1);
            }
            t.awaitMessages(100, 500);
            t.receiveFor(TckTransport.quietPeriod());
            OrderChecks.exactlyOnce("", 1, keys(0, 0, 500), t.all(1));
            OrderChecks.exactlyOnce("", 0, keys(1, 0, 100), t.all(0));
            OrderChecks.perSenderIssueOrder("", 1, t.all(1));
            assertThat(t.counter(0, "siu.isoSent")).isEqualTo(500);
            assertThat(t.counter(1, "siu.isoReceived")).isEqualTo(500);
        }
    }

    static Set<String> keys(int sender, int from, int to) {
        Set<String> s = new HashSet<>();
        for (int k = from; k < to; k++) {
            s.add(sender + "#" + k);
        }
        return s;
    }
}
