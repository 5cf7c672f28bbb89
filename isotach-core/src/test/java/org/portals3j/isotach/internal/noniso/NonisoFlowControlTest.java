package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.NonisoMessage;

/** Specific sender-based flow control (Isotach report §3.6.1, pp. 20-23; §7.1, pp. 59-62). */
class NonisoFlowControlTest {

    /** The frames of {@code kind} that {@code rank} sent, in order. */
    static List<MemorySegment> framesSent(NonisoCluster c, int rank, byte kind) {
        List<MemorySegment> out = new ArrayList<>();
        for (byte[] h : c.net.headersSentBy(rank)) {
            if (h[0] == kind) {
                out.add(MemorySegment.ofArray(h));
            }
        }
        return out;
    }

    static boolean creditPresent(MemorySegment frame) {
        return (NonisoFrame.flags(frame) & NonisoFrame.FLAG_CREDIT) != 0;
    }

    /**
     * I-093, I-094, I-095: with a receiver that does not receive, a sender never has more than ring - 1 packets
     * outstanding, the receiver never drops one or writes into a slot still holding an undelivered message, and
     * every message is delivered intact once the receiver catches up.
     */
    @Test
    void i093_i094_i095_slowReceiverIsNeverOverrun() {
        int ring = 4;
        int count = 40;
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(ring).sendBufSize(count).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            for (int i = 0; i < count; i++) {
                assertThat(c.host(0).send(1, c.payload(i, 48), 48)).isZero();
            }
            NonisoMessage m = new NonisoMessage();
            int next = 0;
            while (next < count) {
                for (int i = 0; i < 200; i++) { // a long wait: includes credit requests and their answers
                    c.settle();
                    assertThat(c.host(0).outstanding(1)).isLessThanOrEqualTo(ring - 1);
                }
                assertThat(c.counter(1, "noniso.received") - next).as("arrived, not received")
                        .isLessThanOrEqualTo(ring - 1);
                // Drain what arrived; the payload pattern check (tagOf) catches any overwritten slot.
                while (c.host(1).receive(m) == NonisoLayer.SUCCESS) {
                    assertThat(NonisoCluster.tagOf(m)).isEqualTo(next);
                    next++;
                }
            }
            assertThat(c.counter(1, "drop.malformed")).isZero();
            assertThat(c.counter(1, "drop.overrun")).isZero();
            assertThat(c.counter(0, "credit.request")).as("the sender had to ask").isPositive();
        }
    }

    /**
     * I-096: a packet blocked for credit holds back all later packets of the sender, including those to other
     * destinations (Isotach report §7.1, pp. 59-62), until credit comes back.
     */
    @Test
    void i096_headOfLineBlockingAcrossDestinations() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(3).maxSendAttempts(1000).build();
        try (NonisoCluster c = new NonisoCluster(3, cfg)) {
            NonisoLayer s = c.host(0);
            for (int i = 0; i < 3; i++) {
                assertThat(s.send(1, c.payload(i, 8), 8)).isZero(); // two fill host 1's ring, the third waits
            }
            assertThat(s.send(2, c.payload(100, 8), 8)).isZero();
            for (int i = 0; i < 20; i++) {
                c.settle();
            }
            NonisoMessage m = new NonisoMessage();
            assertThat(c.host(2).receive(m)).as("held back behind the packet to host 1")
                    .isEqualTo(NonisoLayer.NO_MESSAGE);
            assertThat(c.counter(2, "noniso.received")).isZero();
            assertThat(s.unapproved()).isEqualTo(2);
            assertThat(c.counter(0, "flow.blocked")).isPositive();
            // Host 1 frees two slots (threshold 2 -> explicit credit): the head goes, then the packet to host 2.
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(c.host(1).receive(m)).isEqualTo(NonisoLayer.NO_MESSAGE);
            c.settle();
            assertThat(c.host(2).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(100);
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(2);
        }
    }

    /**
     * I-098: a data frame carries the receiver's head only when it changed since the last report to that peer
     * (Isotach report §7.1.3, pp. 59-62), flagged explicitly rather than with NULL_CREDIT.
     */
    @Test
    void i098_creditPiggybackedOnlyWhenChanged() {
        // Threshold 1.0 of a ring of 8 clamps to 7: no explicit credit packet interferes below that.
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(8).creditThreshold(1.0).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoMessage m = new NonisoMessage();
            c.host(1).send(0, c.payload(1, 8), 8);
            c.settle();
            c.host(0).send(1, c.payload(2, 8), 8);
            c.host(0).send(1, c.payload(3, 8), 8);
            c.settle();
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(c.host(1).receive(m)).isZero(); // frees the first: head 1
            c.host(1).send(0, c.payload(4, 8), 8); // carries head 1
            c.host(1).send(0, c.payload(5, 8), 8); // nothing changed: no credit
            assertThat(c.host(1).receive(m)).isEqualTo(NonisoLayer.NO_MESSAGE); // frees the second: head 2
            c.host(1).send(0, c.payload(6, 8), 8); // carries head 2
            c.settle();
            List<MemorySegment> data = framesSent(c, 1, NonisoFrame.KIND_DATA);
            assertThat(data).hasSize(4);
            assertThat(creditPresent(data.get(0))).as("nothing freed yet").isFalse();
            assertThat(NonisoFrame.credit(data.get(0))).isZero();
            assertThat(creditPresent(data.get(1))).isTrue();
            assertThat(NonisoFrame.credit(data.get(1))).isEqualTo(1);
            assertThat(creditPresent(data.get(2))).as("unchanged").isFalse();
            assertThat(creditPresent(data.get(3))).isTrue();
            assertThat(NonisoFrame.credit(data.get(3))).isEqualTo(2);
            assertThat(c.counter(1, "credit.piggyback")).isEqualTo(2);
            assertThat(c.counter(1, "credit.explicit")).isZero();
            assertThat(c.host(0).outstanding(1)).as("the sender learned both").isZero();
        }
    }

    /**
     * I-099: once the freed-but-unreported slots reach the threshold (ring x CREDIT_PACKET_THRESHOLD_PERCENTAGE,
     * Isotach report §7.1.2, pp. 59-62; compared with >=, A14), an explicit credit packet goes to the credit control
     * slot.
     */
    @Test
    void i099_explicitCreditAtThreshold() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(8).creditThreshold(0.5).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoLayer r = c.host(1);
            assertThat(r.creditThresholdSlots()).isEqualTo(4);
            for (int i = 0; i < 5; i++) {
                c.host(0).send(1, c.payload(i, 8), 8);
            }
            c.settle();
            NonisoMessage m = new NonisoMessage();
            for (int freed = 0; freed < 4; freed++) {
                assertThat(c.counter(1, "credit.explicit")).as("after %d freed", freed).isZero();
                assertThat(r.receive(m)).isZero(); // frees the previous one
            }
            assertThat(r.receive(m)).isZero(); // frees the fourth
            assertThat(c.counter(1, "credit.explicit")).isEqualTo(1);
            List<MemorySegment> credits = framesSent(c, 1, NonisoFrame.KIND_CREDIT);
            assertThat(credits).hasSize(1);
            assertThat(creditPresent(credits.get(0))).isTrue();
            assertThat(NonisoFrame.credit(credits.get(0))).isEqualTo(4);
            assertThat(NonisoFrame.slot(credits.get(0))).isEqualTo(8 + NonisoFrame.CONTROL_CREDIT);
            assertThat(c.host(0).outstanding(1)).isEqualTo(5);
            c.net.pump();
            c.host(0).poll();
            assertThat(c.host(0).outstanding(1)).isEqualTo(1);
        }
    }

    /** A threshold above what can be outstanding is clamped to ring - 1 (else one-way traffic never gets credit). */
    @Test
    void a14_thresholdIsClampedToWhatCanBeOutstanding() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().nonisoSlotsPerPeer(4).creditThreshold(1.0)
                .build())) {
            assertThat(c.host(0).creditThresholdSlots()).isEqualTo(3);
        }
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().nonisoSlotsPerPeer(4).creditThreshold(0.01)
                .build())) {
            assertThat(c.host(0).creditThresholdSlots()).isEqualTo(1);
        }
    }

    /**
     * I-100, I-101: a sender blocked for maxSendAttempts approval passes (the prose's MAX_SEND_ATTEMPTS,
     * Isotach report §7.1.2, pp. 59-62; A14) sends a credit request to the credit-request control slot; the receiver
     * answers with an explicit credit packet carrying its current head (Isotach report §8.3.4, pp. 73-76), which
     * unblocks the sender.
     */
    @Test
    void i100_i101_creditRequestAfterBlockedAttemptsIsAnsweredWithCredit() {
        int attempts = 5;
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(4).creditThreshold(1.0)
                .maxSendAttempts(attempts).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoLayer s = c.host(0);
            NonisoLayer r = c.host(1);
            for (int i = 0; i < 4; i++) {
                s.send(1, c.payload(i, 8), 8); // three fill the ring; the fourth's send() is blocked attempt 1
            }
            c.net.pump();
            NonisoMessage m = new NonisoMessage();
            assertThat(r.receive(m)).isZero();
            assertThat(r.receive(m)).isZero();
            assertThat(r.receive(m)).isZero(); // two freed: below the threshold of 3, no credit packet
            assertThat(c.counter(1, "credit.explicit")).isZero();
            for (int i = 2; i < attempts; i++) {
                s.poll();
            }
            assertThat(c.counter(0, "credit.request")).as("after %d attempts", attempts - 1).isZero();
            s.poll();
            assertThat(c.counter(0, "credit.request")).isEqualTo(1);
            MemorySegment request = framesSent(c, 0, NonisoFrame.KIND_CREDIT_REQUEST).get(0);
            assertThat(creditPresent(request)).isFalse();
            assertThat(NonisoFrame.slot(request)).isEqualTo(4 + NonisoFrame.CONTROL_CREDIT_REQUEST);
            c.net.pump();
            r.poll();
            assertThat(c.counter(1, "credit.requestReceived")).isEqualTo(1);
            assertThat(c.counter(1, "credit.explicit")).isEqualTo(1);
            MemorySegment credit = framesSent(c, 1, NonisoFrame.KIND_CREDIT).get(0);
            assertThat(NonisoFrame.credit(credit)).isEqualTo(2);
            c.net.pump();
            s.poll();
            assertThat(s.unapproved()).as("unblocked").isZero();
            c.net.pump();
            assertThat(r.receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(3);
        }
    }

    /**
     * I-100: strictly one-way traffic through a small ring never blocks forever, with the default threshold and
     * with the largest one (1.0, which without the clamp of A14 could never fire: explicit credit would then
     * depend on credit requests alone).
     */
    @Test
    void i100_oneWayStreamAlwaysMakesProgress() {
        for (double threshold : new double[] {0.9, 1.0}) {
            IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(4).creditThreshold(threshold).build();
            try (NonisoCluster c = new NonisoCluster(2, cfg)) {
                int count = 2000;
                int sent = 0;
                int next = 0;
                NonisoMessage m = new NonisoMessage();
                for (int step = 0; next < count; step++) {
                    assertThat(step).as("progress at threshold %s: sent %d, received %d", threshold, sent, next)
                            .isLessThan(100_000);
                    if (sent == count) {
                        // an application that has nothing left to send still polls (Isotach report App. A.2, pp. 95-96)
                        c.host(0).poll();
                    } else if (c.host(0).send(1, c.payload(sent, 16), 16) == NonisoLayer.SUCCESS) {
                        sent++;
                    }
                    c.net.pump();
                    if (c.host(1).receive(m) == NonisoLayer.SUCCESS) {
                        assertThat(NonisoCluster.tagOf(m)).isEqualTo(next);
                        next++;
                    }
                    c.net.pump();
                }
                assertThat(c.counter(0, "noniso.sent")).isEqualTo(count);
            }
        }
    }

    /**
     * I-102: credit, credit-request and barrier frames go to control slots and never take a data-ring credit:
     * with the ring full, they still flow, and the sender's outstanding count is unchanged.
     */
    @Test
    void i102_controlFramesNeverConsumeRingCredits() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(3).maxSendAttempts(2).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            for (int i = 0; i < 2; i++) {
                c.host(0).send(1, c.payload(i, 8), 8);
                c.host(1).send(0, c.payload(i, 8), 8);
            }
            c.net.pump();
            assertThat(c.host(0).outstanding(1)).isEqualTo(2);
            c.host(0).send(1, c.payload(2, 8), 8);
            c.host(0).poll(); // second blocked attempt: credit request
            assertThat(c.host(0).initiateBarrier()).isZero();
            assertThat(c.host(1).initiateBarrier()).isZero();
            c.net.pump();
            c.host(1).poll(); // answers the request
            c.net.pump();
            assertThat(c.host(0).barrierCompleted()).isZero();
            assertThat(c.host(1).barrierCompleted()).isZero();
            assertThat(c.host(0).outstanding(1)).isEqualTo(2);
            assertThat(c.host(1).outstanding(0)).isEqualTo(2);
            for (byte kind : new byte[] {NonisoFrame.KIND_CREDIT, NonisoFrame.KIND_CREDIT_REQUEST,
                                         NonisoFrame.KIND_BARRIER}) {
                for (int h = 0; h < 2; h++) {
                    for (MemorySegment f : framesSent(c, h, kind)) {
                        assertThat(NonisoFrame.slot(f)).as("kind 0x%02x", kind).isGreaterThanOrEqualTo(3);
                    }
                }
            }
            assertThat(framesSent(c, 0, NonisoFrame.KIND_CREDIT_REQUEST)).hasSize(1);
            assertThat(framesSent(c, 1, NonisoFrame.KIND_CREDIT)).hasSize(1);
            assertThat(c.counter(0, "drop.malformed") + c.counter(1, "drop.malformed")).isZero();
        }
    }

    /**
     * A read response freed before an older, still undelivered message of the same sender: the head (and so the
     * credit) advances only when the older message is freed too, then over both.
     */
    @Test
    void slotsFreedOutOfOrderAdvanceTheHeadInRingOrder() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(8).creditThreshold(0.25).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            assertThat(c.host(1).creditThresholdSlots()).isEqualTo(2);
            c.host(0).send(1, c.payload(1, 8), 8);
            c.host(0).sendReadResponse(1, 11, 12, 13);
            c.net.pump();
            c.host(1).poll(); // the read response is handled and freed; the message waits
            assertThat(c.readResponses).hasSize(1);
            assertThat(c.counter(1, "credit.explicit")).as("head still at the message").isZero();
            NonisoMessage m = new NonisoMessage();
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(c.host(1).receive(m)).isEqualTo(NonisoLayer.NO_MESSAGE); // frees the message: head 2
            assertThat(c.counter(1, "credit.explicit")).isEqualTo(1);
            assertThat(NonisoFrame.credit(framesSent(c, 1, NonisoFrame.KIND_CREDIT).get(0))).isEqualTo(2);
        }
    }

    /** peerRegion: the ring size a peer reserved decides how many packets may be outstanding to it. */
    @Test
    void peerRegionSetsTheRemoteRingSize() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(8).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            // Host 1 reserved a ring of 8 for us; pretend sync reported 3: only 2 may be outstanding.
            c.host(0).peerRegion(1, 3);
            for (int i = 0; i < 4; i++) {
                c.host(0).send(1, c.payload(i, 8), 8);
            }
            assertThat(c.host(0).outstanding(1)).isEqualTo(2);
            assertThat(c.host(0).unapproved()).isEqualTo(2);
            Assertions.assertThatThrownBy(() -> c.host(0).peerRegion(1, 8))
                    .isInstanceOf(IllegalStateException.class);
        }
    }
}
