package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Action;
import org.portals3j.tck.isotach.ConcurrentIsoTraffic.Iso;
import org.portals3j.tck.isotach.IsoTraffic.Tag;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Isochrons (Isotach report §3.3, pp. 10-14): one logical time for all their messages, atomic with respect to each
 * other.
 */
class IsochronTest {

    @Test
    @SpecAssertion({"I-016", "I-003", "I-043"})
    void everyMessageOfAnIsochronIsDeliveredAtOnePulseAtEveryDestinationItsSenderIncluded() {
        try (IsotachJob job = IsotachJob.open(4, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            int[][] shapes = {{1, 2, 3}, {0, 1, 0, 2}, {3, 3, 0}, {2, 1, 2, 3, 0, 1}, {2}, {0, 2}};
            int[] expect = new int[4];
            for (int k = 0; k < 24; k++) {
                int[] dests = shapes[k % shapes.length];
                t.isochron(k % 3, 0, 20, dests);
                for (int d : dests) {
                    expect[d]++;
                }
            }
            t.awaitMessages(expect);
            List<List<Delivered>> all = List.of(t.all(0), t.all(1), t.all(2), t.all(3));
            var pulses = OrderChecks.onePulsePerIsochron("", all);
            assertThat(pulses).hasSize(24);
            for (int h = 0; h < 4; h++) {
                OrderChecks.isochronsContiguous("", h, t.all(h));
            }
        }
    }

    @Test
    @SpecAssertion({"I-017", "I-011", "I-018", "I-022"})
    void concurrentMulticastIsochronsAreAtomicAndKeepReplicasIdentical() {
        // Every host multicasts updates to all hosts (itself included), several messages per replica per isochron;
        // each host folds what it receives into a replica. Isotach order alone keeps the replicas identical
        // (Isotach report §1.1.1, pp. 1-2).
        int hosts = 4;
        Random rnd = new Random(22);
        List<List<Action>> plans = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            List<Action> plan = new ArrayList<>();
            for (int k = 0; k < 25; k++) {
                int copies = 1 + rnd.nextInt(2);
                int[] dests = new int[hosts * copies];
                for (int i = 0; i < dests.length; i++) {
                    dests[i] = i % hosts;
                }
                plan.add(new Iso(dests, IsoTraffic.TAG + 8));
            }
            plans.add(plan);
        }
        try (IsotachJob job = IsotachJob.open(hosts, Interface.ISO_MBM)) {
            ConcurrentIsoTraffic traffic = new ConcurrentIsoTraffic(job, plans, new int[hosts], "seed 22");
            traffic.run(TckTransport.trafficPatience());
            List<Long> replicas = new ArrayList<>();
            for (int h = 0; h < hosts; h++) {
                OrderChecks.isochronsContiguous("", h, traffic.all(h));
                OrderChecks.exactlyOnce("", h, traffic.expected().get(h), traffic.all(h));
                long replica = 17;
                for (Delivered d : traffic.messages(h)) {
                    Tag tag = Tag.of(d);
                    replica = replica * 1_000_003L + tag.sender() * 131L + tag.iso(); // the update; order-sensitive
                }
                replicas.add(replica);
            }
            OrderChecks.pairwiseSameOrder("", traffic.allHosts());
            assertThat(replicas).as("replica state at every host (I-022)").containsOnly(replicas.get(0));
        }
    }

    @Test
    @SpecAssertion({"I-019", "I-028"})
    void everyNetIsochronIsStampedOnceAndASelfIsochronNever() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            long stamped = t.counter(1, "siu.isochronsStamped");
            long sent = t.counter(1, "siu.isoSent");
            t.isochron(1, 0, 16, 1, 1, 1); // self-isochron
            assertThat(t.counter(1, "siu.isochronsStamped")).as("after a self-isochron").isEqualTo(stamped);
            assertThat(t.counter(1, "siu.isoSent")).as("packets after a self-isochron").isEqualTo(sent);
            t.isochron(1, 0, 16, 0, 1, 2, 0); // net-isochron of three net packets and a self-message
            assertThat(t.counter(1, "siu.isochronsStamped")).as("after a net-isochron").isEqualTo(stamped + 1);
            assertThat(t.counter(1, "siu.isoSent")).as("packets after a net-isochron").isEqualTo(sent + 3);
            t.isochron(1, 0, 16, 2);
            t.isochron(1, 0, 16, 1); // self again
            t.isochron(1, 0, 16, 0, 2);
            assertThat(t.counter(1, "siu.isochronsStamped")).as("after two more net-isochrons").isEqualTo(stamped + 3);
            assertThat(job.net(1).isoEnd()).isZero(); // nothing in progress: no isochron
            assertThat(t.counter(1, "siu.isochronsStamped")).as("after iso_end with nothing pending")
                    .isEqualTo(stamped + 3);
            t.awaitMessages(3, 5, 3);
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.messages(1)).as("host 1's deliveries").hasSize(5);
        }
    }

    @Test
    @SpecAssertion({"I-021", "I-020", "I-037", "I-043"})
    void isochronMarkersMatchTheirIsochronsPastTheWrapOfTheIsochronId() {
        // 300 net-isochrons from one host, each with a self-message, some followed by self-isochrons: every marker
        // must match the oldest outstanding isochron (a mismatch is fatal, Isotach report §7.3.5, pp. 66-69) across the
        // 8-bit id's wrap.
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            int self = 0;
            for (int k = 0; k < 300; k++) {
                t.isochron(0, 0, 16, 1, 0);
                self++;
                if (k % 7 == 0) {
                    t.isochron(0, 0, 16, 0);
                    self++;
                }
                t.receiveAll();
            }
            t.awaitMessages(self, 300);
            var pulses = OrderChecks.onePulsePerIsochron("", List.of(t.all(0), t.all(1)));
            OrderChecks.perSenderIssueOrder("", 0, t.all(0)); // self-messages in issue order
            for (int k = 0; k < 300 + 43; k++) {
                assertThat(pulses).containsKey("0/" + k);
            }
        }
    }
}
