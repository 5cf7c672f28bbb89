package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.isotach.IsoTraffic.Tag;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/** Sequential consistency of one host's Isotach messages (Isotach report §3.3.3, pp. 10-14). */
class SequentialConsistencyTest {

    @Test
    @SpecAssertion({"I-032", "I-033"})
    void aHostsIsochronsAreDeliveredInIssueOrderEverywhere() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            int[][] shapes = {{1}, {2, 1}, {1, 2, 1}, {2}, {0, 1}, {1, 0, 2}};
            int[] expect = new int[3];
            for (int k = 0; k < 30; k++) {
                int[] dests = shapes[k % shapes.length];
                t.isochron(0, 0, 24, dests);
                for (int d : dests) {
                    expect[d]++;
                }
            }
            t.awaitMessages(expect);
            for (int h = 0; h < 3; h++) {
                OrderChecks.perSenderIssueOrder("", h, t.all(h));
                // I-033: all of isochron k before any of isochron k+1
                int lastIso = -1;
                for (Delivered d : t.messages(h)) {
                    int iso = Tag.of(d).iso();
                    assertThat(iso).as("host %d: isochron of %s", h, d).isGreaterThanOrEqualTo(lastIso);
                    lastIso = iso;
                }
            }
        }
    }

    @Test
    @SpecAssertion({"I-034", "I-035", "I-043"})
    void selfMessagesIssuedWhileANetIsochronIsOutstandingExecuteWithItsMarker() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            IsotachNet net = job.net(0);
            for (int round = 0; round < 10; round++) {
                int base = t.messages(1).size();
                List<Integer> netIso = t.isochron(0, 0, 16, 1); // net-isochron I, its marker outstanding
                List<Integer> self1 = t.isochron(0, 0, 16, 0); // self-isochrons issued right after I
                List<Integer> self2 = t.isochron(0, 0, 16, 0, 0);
                t.awaitMessages(3 * (round + 1), base + 1);
                long pulseOfI = t.messages(1).get(base).pulse();
                List<Delivered> mine = t.messages(0).subList(3 * round, 3 * round + 3);
                assertThat(mine).extracting(Delivered::firstInt).as("self-messages in issue order (I-037)")
                        .containsExactly(self1.get(0), self2.get(0), self2.get(1));
                // self1 ended while I's marker was certainly outstanding (the layer takes markers in at its next poll):
                // it executes with that marker, at I's pulse (I-035)
                assertThat(mine.get(0).pulse())
                        .as("pulse of self-message %s issued right after isochron %s", mine.get(0),
                        netIso).isEqualTo(pulseOfI);
                for (Delivered d : mine) {
                    assertThat(d.pulse()).as("pulse of self-message %s issued after isochron %s (I-034)", d, netIso)
                            .isGreaterThanOrEqualTo(pulseOfI);
                }
                assertThat(net.logicalTime()).as("the sender's logical time when they were delivered")
                        .isGreaterThanOrEqualTo(pulseOfI);
            }
        }
    }

    @Test
    @SpecAssertion({"I-036", "I-037"})
    void selfMessagesIssuedWithNothingOutstandingComeNextAfterWhatIsAlreadyQueued() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            IsotachNet host0 = job.net(0);
            // nothing queued: a self-isochron is delivered by the very next iso_receive
            List<Integer> alone = t.isochron(0, 0, 16, 0, 0);
            assertThat(t.receiveAll()).isPositive();
            assertThat(t.messages(0)).extracting(Delivered::firstInt).containsExactly(alone.get(0));
            t.awaitMessages(2, 0);
            // host 1 sends three messages to host 0; once they are queued at host 0, host 0 issues self-messages
            List<Integer> remote = t.isochron(1, 0, 16, 0, 0, 0);
            job.awaitCondition("host 1's isochron queued at host 0", () -> {
                job.net(1).poll();
                return host0.poll() == IsotachNet.SUCCESS;
            });
            List<Integer> self = t.isochron(0, 0, 16, 0, 0);
            t.awaitMessages(7, 0);
            List<Delivered> got = t.messages(0).subList(2, 7);
            assertThat(got).extracting(d -> Tag.of(d).sender() + "#" + Tag.of(d).seq()).containsExactly(
                    "1#" + remote.get(0), "1#" + remote.get(1), "1#" + remote.get(2),
                    "0#" + self.get(0), "0#" + self.get(1));
            assertThat(got.get(3).pulse()).as("a self-message executes no earlier than what came before it")
                    .isGreaterThanOrEqualTo(got.get(2).pulse());
        }
    }

    @Test
    @SpecAssertion({"I-037", "I-041"})
    void selfMessagesOfEveryKindOfIsochronAreDeliveredInIssueOrder() {
        try (IsotachJob job = IsotachJob.open(2, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            int self = 0;
            int net = 0;
            for (int k = 0; k < 40; k++) {
                switch (k % 4) {
                    case 0 -> {
                        t.isochron(0, 0, 16 + k, 0, 1, 0);
                        self += 2;
                        net++;
                    }
                    case 1 -> {
                        t.isochron(0, 0, 16 + k, 0);
                        self++;
                    }
                    case 2 -> {
                        t.isochron(0, 0, 16 + k, 1);
                        net++;
                    }
                    default -> {
                        t.isochron(0, 0, 16 + k, 0, 0, 0);
                        self += 3;
                    }
                }
                if (k % 5 == 0) {
                    t.awaitMessages(self, net); // sometimes nothing is outstanding
                }
            }
            t.awaitMessages(self, net);
            OrderChecks.perSenderIssueOrder("", 0, t.all(0));
            for (Delivered d : t.messages(0)) {
                assertThat(d.sender()).isZero();
                assertThat(IsoTraffic.intact(d)).as("payload of %s", d).isTrue();
            }
        }
    }
}
