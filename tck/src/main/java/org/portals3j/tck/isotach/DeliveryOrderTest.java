package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Action;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Barrier;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Iso;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Signal;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * The isotach delivery order (Isotach report §3.3, pp. 10-14): pulse, then sender id, then issue order; notices at the
 * end of a pulse.
 */
class DeliveryOrderTest {

    private static List<List<Action>> randomPlans(long seed, int hosts, int isochrons, int maxMessages) {
        Random rnd = new Random(seed);
        List<List<Action>> plans = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            List<Action> plan = new ArrayList<>();
            for (int k = 0; k < isochrons; k++) {
                int[] dests = new int[1 + rnd.nextInt(maxMessages)];
                for (int i = 0; i < dests.length; i++) {
                    dests[i] = rnd.nextInt(hosts);
                }
                plan.add(new Iso(dests, IsoTraffic.TAG + rnd.nextInt(48)));
            }
            plans.add(plan);
        }
        return plans;
    }

    @Test
    @SpecAssertion({"I-010", "I-011", "I-040"})
    void withinAPulseMessagesComeBySenderIdThenIssueOrderAtEveryHost() {
        try (IsotachJob job = IsotachJob.open(4, Interface.ISO_MBM)) {
            // Whether two senders' isochrons meet in one pulse depends on thread timing; every run is checked, and
            // runs repeat until one had such a pulse, so that the order among senders was tested. On a loaded
            // 2-core machine the sender threads can run one after another for several runs, so the runs go on
            // for up to 20 seconds (a run takes well under a second) before the test gives up.
            int mixed = 0;
            long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            for (int attempt = 0; mixed == 0 && (attempt < 5 || System.nanoTime() < giveUp); attempt++) {
                ConcurrentIsoTraffic traffic =
                        new ConcurrentIsoTraffic(job, randomPlans(10 + attempt, 4, 50, 3), new int[4],
                        "seed " + (10 + attempt));
                traffic.run(TckTransport.trafficPatience());
                for (int h = 0; h < 4; h++) {
                    OrderChecks.perSenderIssueOrder("", h, traffic.all(h));
                    mixed += OrderChecks.senderOrderWithinPulses("", h, traffic.all(h));
                }
                OrderChecks.pairwiseSameOrder("", traffic.allHosts());
            }
            assertThat(mixed).as("pulses that held messages of several senders (else nothing was tested)").isPositive();
        }
    }

    @Test
    @SpecAssertion({"I-012", "I-010", "I-018"})
    void aPulseWithMoreThan32EntriesIsStillDeliveredBySenderThenIssueOrder() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            int[] toTwo = new int[40];
            Arrays.fill(toTwo, 2);
            t.isochron(1, 0, 16, toTwo); // 40 iso-pointers + nothing else: beyond the 32-entry sort vector
            int[] mixed = new int[36];
            for (int i = 0; i < mixed.length; i++) {
                mixed[i] = i % 3; // to 0, 1 (itself), 2
            }
            t.isochron(1, 0, 16, mixed);
            t.awaitMessages(12, 12, 52);
            for (int h = 0; h < 3; h++) {
                OrderChecks.perSenderIssueOrder("", h, t.all(h));
                OrderChecks.isochronsContiguous("", h, t.all(h));
            }
            OrderChecks.onePulsePerIsochron("", List.of(t.all(0), t.all(1), t.all(2)));
            List<Delivered> atTwo = t.messages(2);
            assertThat(atTwo.subList(0, 40)).as("the 40-message isochron, in one pulse").allMatch(
                    d -> d.pulse() == atTwo.get(0).pulse());
        }
        // Several senders in one pulse of more than 32 entries: isochrons of 12 from three hosts to host 3. On a
        // loaded machine time may stand still while all 30 isochrons are stamped, so one pulse can hold all 360
        // messages: more than the report's 256, within what the credits allow (IsotachConfig.bucketCapacity).
        try (IsotachJob job = IsotachJob.open(4, Interface.ISO_MBM)) {
            List<List<Action>> plans = new ArrayList<>();
            for (int h = 0; h < 4; h++) {
                List<Action> plan = new ArrayList<>();
                if (h < 3) {
                    int[] dests = new int[12];
                    Arrays.fill(dests, 3);
                    for (int k = 0; k < 10; k++) {
                        plan.add(new Iso(dests, IsoTraffic.TAG));
                    }
                }
                plans.add(plan);
            }
            ConcurrentIsoTraffic traffic = new ConcurrentIsoTraffic(job, plans, new int[4], "");
            traffic.run(TckTransport.trafficPatience());
            List<Delivered> at3 = traffic.all(3);
            OrderChecks.senderOrderWithinPulses("", 3, at3);
            OrderChecks.perSenderIssueOrder("", 3, at3);
            OrderChecks.isochronsContiguous("", 3, at3);
        }
    }

    @Test
    @SpecAssertion({"I-015", "I-010"})
    void noticesComeAfterEveryMessageOfTheirPulseAndBeforeAnyOfTheNext() {
        // A far pair (1 <-> 2, distance 4) makes the network diameter 4: a signal or barrier takes effect 4 pulses
        // after the token that carries it, so isochrons stamped meanwhile over distance-1 pairs share its pulse.
        int[][] d = {{0, 1, 1}, {1, 0, 4}, {1, 4, 0}};
        IsotachConfig config = IsotachConfig.builder().distances(d).build();
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            int[] registered = new int[3];
            for (int h = 0; h < 3; h++) {
                for (int c = 1; c <= 2; c++) {
                    assertThat(job.net(h).isoRegisterSignal(c)).isEqualTo(IsotachNet.SUCCESS);
                    registered[h] |= 1 << c;
                }
            }
            BarrierSetup.alignChannel1(job, BarrierMode.WEAK);
            List<List<Action>> plans = randomPlans(15, 3, 30, 3);
            // signals interleaved with the isochrons, and one barrier per host in the middle
            for (int k = 2; k < 30; k += 3) {
                plans.get(0).add(k, new Signal(1));
                plans.get(1).add(k + 1, new Signal(2));
            }
            for (int h = 0; h < 3; h++) {
                plans.get(h).add(plans.get(h).size() / 2, new Barrier(1, BarrierMode.WEAK));
            }
            ConcurrentIsoTraffic traffic = new ConcurrentIsoTraffic(job, plans, registered, "seed 15");
            traffic.run(TckTransport.trafficPatience());
            for (int h = 0; h < 3; h++) {
                assertThat(traffic.notices(h)).as("host %d's notices", h).isNotEmpty();
                OrderChecks.noticesBetweenPulses("", h, traffic.all(h));
                OrderChecks.pulsesNonDecreasing("", h, traffic.all(h));
            }
        }
    }

    @Test
    @SpecAssertion("I-015")
    void messagesStampedIntoASignalsPulseAreDeliveredBeforeItsNotice() {
        // Distance 4 between hosts 1 and 2 makes the diameter 4: a signal takes effect at T' + 4, T' the token that
        // carries it, and an isochron host 1 issues to host 2 while its token is T' is stamped T' + 4 as well. So host
        // 1 signals and then keeps issuing one-message isochrons to host 2 until the notice comes back.
        int[][] d = {{0, 1, 1}, {1, 0, 4}, {1, 4, 0}};
        IsotachConfig config = IsotachConfig.builder().distances(d).tokenWindow(1).build(); // one token at a time
        try (IsotachJob job = IsotachJob.builder(3).config(config).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            }
            IsoTraffic t = new IsoTraffic(job);
            int shared = 0;
            int total = 0;
            // Whether an isochron is issued while host 1 holds the signal's token depends on scheduling; so rounds
            // go on (up to 30) until one shared its pulse with a notice, on a transport where one can.
            boolean canShare = !TckTransport.deliversInline();
            int rounds = 0;
            for (; rounds < 3 || (canShare && rounds < 30 && sharedSoFar(t) == 0); rounds++) {
                assertThat(job.net(1).isoSendSignal(1)).isEqualTo(IsotachNet.SUCCESS);
                int noticesBefore = t.notices(1).size();
                int sent = 0;
                while (t.notices(1).size() == noticesBefore && sent < 5000) {
                    t.isochron(1, 0, 16, 2);
                    sent++;
                    t.receiveAll();
                }
                total += sent;
                t.awaitMessagesAt(2, total);
            }
            t.receiveFor(TckTransport.quietPeriod());
            for (int h = 0; h < 3; h++) {
                shared += OrderChecks.noticesBetweenPulses("", h, t.all(h));
                OrderChecks.pulsesNonDecreasing("", h, t.all(h));
            }
            if (canShare) {
                // A transport that delivers inline runs the signal's whole token chain inside iso_send_signal, so
                // there no later isochron can share its pulse. Elsewhere whether one does is the scheduler's choice
                // (host 1 must issue while it still holds the signal's token): a run where none did checked the order
                // of what came, but not this case, and says so as a skip rather than a pass or a failure.
                Assumptions.assumeTrue(shared > 0, "no isochron shared a signal's pulse in " + rounds
                        + " rounds (the scheduler moved the token on first each time): the order was checked, this"
                        + " case was not; run again on a less loaded machine");
            }
        }
    }

    /** Notices that shared their pulse with messages so far, on every host, after taking what has arrived. */
    private static int sharedSoFar(IsoTraffic t) {
        t.receiveAll();
        int shared = 0;
        for (int h = 0; h < 3; h++) {
            shared += OrderChecks.noticesBetweenPulses("", h, t.all(h));
        }
        return shared;
    }

    @Test
    @SpecAssertion("I-014")
    void withMbmVersion1MessagesArriveInArrivalOrderAndNoNoticesAreQueued() {
        IsotachConfig v1 = IsotachConfig.builder().mbmVersion(1).build();
        try (IsotachJob job = IsotachJob.builder(3).config(v1).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            assertThat(job.net(0).getMbmVer()).isEqualTo(1);
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            }
            IsoTraffic t = new IsoTraffic(job);
            for (int k = 0; k < 10; k++) {
                t.isochron(0, 0, 32, 1, 2);
                t.isochron(2, 0, 32, 1);
            }
            assertThat(job.net(0).isoSendSignal(1)).isEqualTo(IsotachNet.SUCCESS);
            t.awaitMessages(0, 20, 10);
            t.receiveFor(TckTransport.quietPeriod().multipliedBy(2));
            for (int h = 0; h < 3; h++) {
                OrderChecks.exactlyOnce("", h, expected(h), t.all(h));
                // arrival order = per-sender FIFO (Isotach report §3.6.2, pp. 20-23)
                OrderChecks.perSenderIssueOrder("", h, t.all(h));
                assertThat(t.notices(h))
                        .as("bs-notices at host %d with MBM_VER=1 (Isotach report §7.3.5, pp. 66-69)", h).isEmpty();
            }
        }
    }

    /**
     * With MBM version 1 the ordering module is bypassed: a message is handed out as it arrives, without waiting for
     * the end-of-pulse marker of the pulse it is stamped with (Isotach report §7.3.5, pp. 66-69), which version 2 never
     * does (I-001). A logical distance of 64 stamps each isochron 64 pulses after the pulse it was issued at, and the
     * kit looks for a delivery at which the receiver's logical time is still below the message's pulse. Whether the
     * receiver takes the message before time has run 64 pulses depends on scheduling, so rounds go on until one did,
     * for up to 20 seconds.
     */
    @Test
    @SpecAssertion("I-014")
    void withMbmVersion1AMessageIsHandedOutBeforeItsPulseHasClosed() {
        IsotachConfig v1 = IsotachConfig.builder().mbmVersion(1).distance(64).build();
        try (IsotachJob job = IsotachJob.builder(2).config(v1).interfaces(EnumSet.of(Interface.ISO_MBM)).open()) {
            IsotachNet sender = job.net(0);
            IsotachNet receiver = job.net(1);
            IsoMessage m = new IsoMessage();
            List<String> seen = new ArrayList<>();
            boolean early = false;
            long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            for (int round = 0; !early && (round < 5 || System.nanoTime() < giveUp); round++) {
                assertThat(sender.isoSend(1, new byte[] {(byte) round}, true)).isEqualTo(IsotachNet.SUCCESS);
                long deadline = System.nanoTime() + TckTransport.patience().toNanos();
                while (receiver.isoReceive(m) != IsotachNet.SUCCESS) {
                    assertThat(System.nanoTime()).as("round %d: the message did not arrive", round)
                            .isLessThan(deadline);
                    sender.poll();
                }
                long now = receiver.logicalTime();
                if (seen.size() < 10) {
                    seen.add("pulse " + m.pulse() + " at time " + now);
                }
                early = now < m.pulse();
            }
            assertThat(early).as("a message handed out while the receiver's logical time was below its pulse;"
                    + " the first deliveries: %s", seen).isTrue();
        }
    }

    private static Set<String> expected(int host) {
        Set<String> s = new HashSet<>();
        for (int k = 0; k < 10; k++) {
            if (host == 1) {
                s.add("0#" + (2 * k));
                s.add("2#" + k);
            } else if (host == 2) {
                s.add("0#" + (2 * k + 1));
            }
        }
        return s;
    }
}
