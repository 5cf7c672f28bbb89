package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.isotach.IsoTestSupport.assertNoNonisoMessage;
import static org.portals3j.tck.isotach.IsoTestSupport.counter;
import static org.portals3j.tck.isotach.IsoTestSupport.payload;
import static org.portals3j.tck.isotach.IsoTestSupport.pollFor;
import static org.portals3j.tck.isotach.IsoTestSupport.send;
import static org.portals3j.tck.isotach.IsoTestSupport.seq;

import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Specific sender-based flow control of noniso messages (Isotach report §7.1, pp. 59-62) as far as the API and the
 * counters show it. A host reserves {@code nonisoSlotsPerPeer} receive slots for each peer; a sender keeps at most one
 * fewer in flight. Counters used: {@code noniso.shipped} (data packets that left), {@code noniso.received},
 * {@code credit.explicit} / {@code credit.explicitReceived}, {@code credit.piggyback}, {@code credit.request} /
 * {@code credit.requestReceived}, {@code drop.*}.
 *
 * <p>Decided inside the module (isotach-core {@code NonisoFlowControlTest}): that a receiver never writes into an
 * occupied slot for any traffic pattern (I-094, {@code i093_i094_i095_slowReceiverIsNeverOverrun}), and the exact
 * NULL_CREDIT encoding of I-098 ({@code i098_creditPiggybackedOnlyWhenChanged}).
 */
class NonisoCreditTest {

    static IsotachJob open(int hosts, IsotachConfig config) {
        return IsotachJob.builder(hosts).config(config).interfaces(EnumSet.of(Interface.NONISO)).open();
    }

    @Test
    @SpecAssertion({"I-093", "I-094", "I-095", "I-115"})
    void aSenderKeepsAtMostRingMinusOneInFlightAndNothingIsDropped() {
        int ring = 4;
        try (IsotachJob job = open(2, IsotachConfig.builder().nonisoSlotsPerPeer(ring).build())) {
            int n = 10;
            for (int i = 0; i < n; i++) {
                assertThat(job.net(0).send(1, payload(0, i, 40))).isEqualTo(IsotachNet.SUCCESS);
            }
            pollFor(job, TckTransport.quietPeriod());
            assertThat(counter(job.net(0), "noniso.shipped")).as("ring - 1 in flight").isEqualTo(ring - 1);

            // hold message 0's slot: the sender may not reuse it, so the view keeps its bytes
            NonisoMessage held = new NonisoMessage();
            job.awaitCondition("first message", () -> job.net(1).receive(held) == IsotachNet.SUCCESS);
            byte[] expected = payload(0, 0, 40);
            pollFor(job, TckTransport.quietPeriod());
            assertThat(held.data().toArray(ValueLayout.JAVA_BYTE)).isEqualTo(expected);
            assertThat(counter(job.net(0), "noniso.shipped")).as("no credit came back while the slot is held")
                    .isEqualTo(ring - 1);

            for (int i = 1; i < n; i++) {
                Delivered d = job.awaitNoniso(1);
                assertThat(seq(d.data())).isEqualTo(i);
                assertThat(d.data()).isEqualTo(payload(0, i, 40));
            }
            assertNoNonisoMessage(job, 1);
            assertThat(counter(job.net(1), "noniso.received")).isEqualTo(n);
            for (String drop : new String[] {"drop.malformed", "drop.overrun", "drop.slot", "drop.handoffFull",
                "drop.deposit"}) {
                assertThat(counter(job.net(1), drop)).as(drop).isZero();
            }
        }
    }

    @Test
    @SpecAssertion("I-096")
    void aPacketBlockedForCreditHoldsBackLaterPacketsToOtherHosts() {
        int ring = 4;
        try (IsotachJob job = open(3, IsotachConfig.builder().nonisoSlotsPerPeer(ring).build())) {
            for (int i = 0; i < ring; i++) {
                assertThat(job.net(0).send(1, payload(0, i, 16))).isEqualTo(IsotachNet.SUCCESS);
            }
            assertThat(job.net(0).send(2, payload(0, 99, 16))).isEqualTo(IsotachNet.SUCCESS);
            long end = System.nanoTime() + TckTransport.quietPeriod().toNanos() * 2;
            while (System.nanoTime() < end) {
                assertNoNonisoMessage(job, 2);
                job.net(0).poll();
                job.net(1).poll();
            }
            for (int i = 0; i < ring; i++) {
                assertThat(seq(job.awaitNoniso(1).data())).isEqualTo(i);
            }
            Delivered d = job.awaitNoniso(2);
            assertThat(seq(d.data())).isEqualTo(99);
        }
    }

    @Test
    @SpecAssertion({"I-097", "I-101"})
    void aSlotIsFreedOnlyByTheNextReceive() {
        try (IsotachJob job = open(2, IsotachConfig.builder().nonisoSlotsPerPeer(2).build())) {
            assertThat(job.net(0).send(1, payload(0, 0, 8))).isEqualTo(IsotachNet.SUCCESS);
            assertThat(job.net(0).send(1, payload(0, 1, 8))).isEqualTo(IsotachNet.SUCCESS);
            NonisoMessage m = new NonisoMessage();
            job.awaitCondition("message 0", () -> job.net(1).receive(m) == IsotachNet.SUCCESS);
            assertThat(seq(m.toByteArray())).isEqualTo(0);
            // blocked long enough to ask for credit (I-101); the answer frees nothing: the slot is still held
            job.awaitCondition("a credit request answered",
                    () -> counter(job.net(0), "credit.explicitReceived") > 0);
            assertThat(counter(job.net(0), "credit.request")).isPositive();
            assertThat(counter(job.net(1), "credit.requestReceived")).isPositive();
            pollFor(job, TckTransport.quietPeriod());
            assertThat(counter(job.net(0), "noniso.shipped")).as("message 1 waits for the slot").isEqualTo(1);
            Delivered d = job.awaitNoniso(1); // its first receive frees message 0's slot
            assertThat(seq(d.data())).isEqualTo(1);
            assertThat(counter(job.net(0), "noniso.shipped")).isEqualTo(2);
        }
    }

    @Test
    @SpecAssertion({"I-099", "I-100"})
    void oneWayTrafficGetsExplicitCreditAndNeverStalls() {
        int ring = 8;
        IsotachConfig config = IsotachConfig.builder().nonisoSlotsPerPeer(ring).creditThreshold(0.5).build();
        try (IsotachJob job = open(2, config)) {
            int n = 200;
            int sent = 0;
            int got = 0;
            NonisoMessage m = new NonisoMessage();
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (got < n) {
                if (sent < n) {
                    if (job.net(0).send(1, payload(0, sent, 24)) == IsotachNet.SUCCESS) {
                        sent++;
                    }
                } else {
                    // Once everything is in send_buf, host 0 ships only when it gets control: a program that is
                    // not sending or receiving must call poll (Isotach report App. A.2, pp. 95-96). Without this the
                    // test stalled whenever all 200 sends were buffered before the credit came back.
                    job.net(0).poll();
                }
                if (job.net(1).receive(m) == IsotachNet.SUCCESS) {
                    assertThat(m.senderId()).isEqualTo(0);
                    assertThat(seq(m.toByteArray())).isEqualTo(got++);
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("stalled after " + got + " of " + n + " (sent " + sent + "); host 0 "
                            + job.net(0).counters() + "; host 1 " + job.net(1).counters());
                }
            }
            long explicit = counter(job.net(1), "credit.explicit");
            assertThat(explicit).as("host 1 sends no data, so credit goes back in credit packets").isPositive();
            // one packet per threshold (ring x 0.5 = 4) freed slots, give or take requests answered
            assertThat(explicit).isLessThanOrEqualTo(n / 4 + counter(job.net(1), "credit.requestReceived") + 1);
            assertThat(counter(job.net(1), "credit.piggyback")).isZero();
            job.awaitCondition("explicit credit arrives", () -> counter(job.net(0), "credit.explicitReceived") > 0);
        }
    }

    /**
     * Ping-pong: every reply of host 1 follows a receive that freed a slot, so each carries the new head (I-098);
     * messages sent without freeing anything carry none.
     */
    @Test
    @SpecAssertion("I-098")
    void creditIsPiggybackedWhenItChangedAndOnlyThen() {
        try (IsotachJob job = open(2, IsotachConfig.builder().nonisoSlotsPerPeer(8).build())) {
            int n = 20;
            for (int k = 0; k < n; k++) {
                send(job, 0, 1, payload(0, k, 8));
                assertThat(seq(job.awaitNoniso(1).data())).isEqualTo(k);
                send(job, 1, 0, payload(1, k, 8));
                assertThat(seq(job.awaitNoniso(0).data())).isEqualTo(k);
            }
            long piggy = counter(job.net(1), "credit.piggyback");
            assertThat(piggy).as("replies 1..n-1 each report one freed slot").isEqualTo(n - 1);
            assertThat(counter(job.net(1), "credit.explicit")).as("nothing left unreported").isZero();
            // five more from host 1 with no receive in between: the head did not move, no credit rides along
            for (int k = 0; k < 5; k++) {
                send(job, 1, 0, payload(1, n + k, 8));
            }
            for (int k = 0; k < 5; k++) {
                job.awaitNoniso(0);
            }
            assertThat(counter(job.net(1), "credit.piggyback")).isEqualTo(piggy);
        }
    }
}
