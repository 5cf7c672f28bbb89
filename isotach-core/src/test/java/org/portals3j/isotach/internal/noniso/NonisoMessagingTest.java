package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.NonisoMessage;

/** Protocol 1, noniso message passing (Isotach report §6.1, pp. 40-41; App. A.3, pp. 96-97). */
class NonisoMessagingTest {

    /**
     * I-113, I-118: every sender's messages arrive at every receiver in send order, each exactly once, with the
     * right sender id, size and payload; receives, polls and network progress interleave at random.
     */
    @Test
    void i113_i118_perSenderFifoExactlyOnceWithRandomInterleaving() {
        int hosts = 3;
        int perPair = 300;
        try (NonisoCluster c = new NonisoCluster(hosts, NonisoCluster.config().nonisoSlotsPerPeer(4).build())) {
            Random rnd = new Random(42);
            int[][] nextToSend = new int[hosts][hosts];
            int[][] nextExpected = new int[hosts][hosts];
            NonisoMessage m = new NonisoMessage();
            int delivered = 0;
            int total = hosts * (hosts - 1) * perPair;
            for (int step = 0; delivered < total; step++) {
                assertThat(step).as("progress").isLessThan(1_000_000);
                int h = rnd.nextInt(hosts);
                switch (rnd.nextInt(4)) {
                    case 0 -> {
                        int t = rnd.nextInt(hosts);
                        if (t != h && nextToSend[h][t] < perPair) {
                            int seq = nextToSend[h][t];
                            int size = 8 + (seq % 57);
                            if (c.host(h).send(t, c.payload(tag(h, t, seq), size), size) == NonisoLayer.SUCCESS) {
                                nextToSend[h][t]++;
                            }
                        }
                    }
                    case 1 -> {
                        if (c.host(h).receive(m) == NonisoLayer.SUCCESS) {
                            long tag = NonisoCluster.tagOf(m);
                            int s = (int) (tag >>> 40);
                            int t = (int) ((tag >>> 20) & 0xFFFFF);
                            int seq = (int) (tag & 0xFFFFF);
                            assertThat(m.senderId()).isEqualTo(s);
                            assertThat(t).isEqualTo(h);
                            assertThat(seq).as("next message from %d to %d", s, h).isEqualTo(nextExpected[s][h]);
                            assertThat(m.size()).isEqualTo(8 + (seq % 57));
                            nextExpected[s][h]++;
                            delivered++;
                        }
                    }
                    case 2 -> c.net.pump(rnd.nextInt(hosts), 1 + rnd.nextInt(3));
                    default -> c.host(h).poll();
                }
            }
            for (int s = 0; s < hosts; s++) {
                for (int r = 0; r < hosts; r++) {
                    assertThat(nextExpected[s][r]).isEqualTo(s == r ? 0 : perPair);
                }
            }
            c.settle();
            for (int h = 0; h < hosts; h++) {
                assertThat(c.host(h).receive(m)).as("no duplicate at %d", h).isEqualTo(NonisoLayer.NO_MESSAGE);
                assertThat(c.counter(h, "noniso.delivered")).isEqualTo((long) (hosts - 1) * perPair);
                assertThat(c.counter(h, "drop.malformed")).isZero();
            }
        }
    }

    private static long tag(int s, int t, int seq) {
        return ((long) s << 40) | ((long) t << 20) | seq;
    }

    /** I-114: receive() does not block and returns NO_MESSAGE (-1, as App. A has it) with the holder cleared. */
    @Test
    void i114_receiveWithNothingWaitingReturnsNoMessageAndClearsTheHolder() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            NonisoMessage m = new NonisoMessage();
            c.host(0).send(1, c.payload(7, 16), 16);
            c.net.pump();
            assertThat(c.host(1).receive(m)).isEqualTo(NonisoLayer.SUCCESS);
            assertThat(m.senderId()).isZero();
            assertThat(c.host(1).receive(m)).isEqualTo(NonisoLayer.NO_MESSAGE);
            assertThat(m.senderId()).isEqualTo(-1);
            assertThat(m.size()).isZero();
            assertThat(m.data()).isEqualTo(MemorySegment.NULL);
        }
    }

    /**
     * I-115, I-097, I-094: the payload view stays valid (its slot is not written) until the next receive(); that
     * call frees the slot, and only then does its credit go back, so only then can the sender reuse the slot.
     */
    @Test
    void i115_i097_payloadValidUntilNextReceiveWhichFreesTheSlot() {
        // Ring of 2: one usable credit (ring - 1, Isotach report §7.1.3, pp. 59-62), slots used 0, 1, 0, ...
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(2).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoMessage m = new NonisoMessage();
            for (int i = 1; i <= 3; i++) {
                assertThat(c.host(0).send(1, c.payload(i, 32), 32)).isZero();
            }
            c.settle();
            assertThat(c.host(1).receive(m)).isZero();
            MemorySegment first = m.data();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(1);
            // However long we wait, nothing more arrives while the application holds the message.
            for (int i = 0; i < 5; i++) {
                c.settle();
            }
            assertThat(c.host(0).outstanding(1)).isEqualTo(1);
            assertThat(c.host(0).unapproved()).isEqualTo(2);
            assertThat(c.counter(1, "credit.explicit")).as("no credit before the next receive").isZero();
            assertThat(first.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(1);
            // The next receive frees the slot; its credit goes back (threshold clamps to ring - 1 = 1).
            assertThat(c.host(1).receive(m)).isEqualTo(NonisoLayer.NO_MESSAGE);
            assertThat(c.counter(1, "credit.explicit")).isEqualTo(1);
            c.settle();
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(2);
            assertThat(m.data().address()).isNotEqualTo(first.address());
            c.settle();
            assertThat(c.host(1).receive(m)).isEqualTo(NonisoLayer.NO_MESSAGE);
            c.settle();
            // The third message reuses the first slot, now that it is free.
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(3);
            assertThat(m.data().address()).isEqualTo(first.address());
        }
    }

    /** I-116: send() fails for target == me, target < 0, target >= hosts, size > max payload (and a bad size). */
    @Test
    void i116_sendArgumentErrorsFailAndShipNothing() {
        try (NonisoCluster c = new NonisoCluster(3, NonisoCluster.config().maxPayload(64).build())) {
            NonisoLayer l = c.host(1);
            MemorySegment big = c.payload(1, 65);
            assertThat(l.send(1, big, 8)).as("self").isEqualTo(NonisoLayer.FAILURE);
            assertThat(l.send(-1, big, 8)).as("negative target").isEqualTo(NonisoLayer.FAILURE);
            assertThat(l.send(3, big, 8)).as("target = hosts").isEqualTo(NonisoLayer.FAILURE);
            assertThat(l.send(0, big, 65)).as("size > max payload").isEqualTo(NonisoLayer.FAILURE);
            assertThat(l.send(0, c.payload(1, 8), 9)).as("size > data").isEqualTo(NonisoLayer.FAILURE);
            assertThat(l.send(0, big, -1)).as("negative size").isEqualTo(NonisoLayer.FAILURE);
            assertThat(c.counter(1, "noniso.sendRejected")).isEqualTo(6);
            assertThat(c.counter(1, "noniso.sent")).isZero();
            assertThat(c.net.headersSentBy(1)).isEmpty();
            assertThat(l.sendBufferEmpty()).isTrue();
        }
    }

    /** Misuse C could not detect (a null buffer or holder) throws NullPointerException (IsotachNet's contract). */
    @Test
    @SuppressWarnings("nullness") // passes null on purpose
    void nullBufferOrHolderThrows() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            assertThatThrownBy(() -> c.host(0).send(1, null, 0)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> c.host(0).receive(null)).isInstanceOf(NullPointerException.class);
            assertThat(c.counter(0, "noniso.sent")).isZero();
        }
    }

    /** I-046-like bounds for noniso: exactly max payload and an empty message are delivered intact. */
    @Test
    void maxPayloadAndEmptyMessagesAreDelivered() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().maxPayload(64).build())) {
            NonisoMessage m = new NonisoMessage();
            assertThat(c.host(0).send(1, c.payload(9, 64), 64)).isZero();
            assertThat(c.host(0).send(1, MemorySegment.NULL, 0)).isZero();
            c.settle();
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(m.size()).isEqualTo(64);
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(9);
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(m.size()).isZero();
            assertThat(m.senderId()).isZero();
        }
    }

    /**
     * I-117, A1: send() on a full send_buf fails, and the packets already queued are delivered unchanged (the
     * listing's commented-out {@code return FAILURE} overwrote the tail, Isotach report App. J, send.c, pp. 199-201).
     * The loopback reads payloads only at delivery time, so a reused cell would show up as a corrupted payload.
     */
    @Test
    void i117_fullSendBufFailsWithoutCorruptingQueuedPackets() {
        IsotachConfig cfg = NonisoCluster.config().sendBufSize(4).nonisoSlotsPerPeer(3).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoLayer l = c.host(0);
            // Two go out (ring of 3 = two credits) and wait for completion, two wait for credit.
            for (int i = 0; i < 4; i++) {
                assertThat(l.send(1, c.payload(100 + i, 40), 40)).isZero();
            }
            assertThat(l.unapproved()).isEqualTo(2);
            assertThat(l.send(1, c.payload(666, 40), 40)).isEqualTo(NonisoLayer.FAILURE);
            assertThat(l.send(1, c.payload(667, 40), 40)).isEqualTo(NonisoLayer.FAILURE);
            assertThat(c.counter(0, "noniso.sendRejected")).isEqualTo(2);
            NonisoMessage m = new NonisoMessage();
            List<Long> got = new ArrayList<>();
            for (int round = 0; round < 20 && got.size() < 4; round++) {
                c.settle();
                while (c.host(1).receive(m) == NonisoLayer.SUCCESS) {
                    got.add(NonisoCluster.tagOf(m));
                }
            }
            assertThat(got).containsExactly(100L, 101L, 102L, 103L);
            c.settle();
            assertThat(l.sendBufferEmpty()).isTrue();
            // The buffer is usable again.
            assertThat(l.send(1, c.payload(104, 8), 8)).isZero();
        }
    }

    /** A send_buf cell is not reused while the transport still reads its payload (before onSendComplete). */
    @Test
    void sendBufCellsComeBackOnlyAfterTheTransportCompletes() {
        IsotachConfig cfg = NonisoCluster.config().sendBufSize(2).nonisoSlotsPerPeer(16).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoLayer l = c.host(0);
            assertThat(l.send(1, c.payload(1, 16), 16)).isZero();
            assertThat(l.send(1, c.payload(2, 16), 16)).isZero();
            assertThat(l.unapproved()).as("both shipped").isZero();
            l.poll();
            assertThat(l.sendBufferEmpty()).isFalse();
            assertThat(l.send(1, c.payload(3, 16), 16)).as("both cells lent to the transport").isEqualTo(1);
            c.net.pump(1, 1);
            assertThat(l.send(1, c.payload(3, 16), 16)).as("first completion frees one cell").isZero();
            c.settle();
            NonisoMessage m = new NonisoMessage();
            for (long expected = 1; expected <= 3; expected++) {
                assertThat(c.host(1).receive(m)).isZero();
                assertThat(NonisoCluster.tagOf(m)).isEqualTo(expected);
            }
            assertThat(l.sendBufferEmpty()).isTrue();
        }
    }

    /** I-119: credit, credit-request and barrier frames and read responses never come out of receive(). */
    @Test
    void i119_controlFramesAndReadResponsesAreNeverReceived() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(3).maxSendAttempts(3).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            NonisoMessage m = new NonisoMessage();
            assertThat(c.host(0).sendReadResponse(1, 5, 6, 7)).isZero();
            assertThat(c.host(0).initiateBarrier()).isZero();
            for (int i = 0; i < 3; i++) {
                assertThat(c.host(1).send(0, c.payload(i, 8), 8)).isZero(); // the third waits for credit
            }
            c.host(1).poll();
            assertThat(c.counter(1, "credit.request")).as("two blocked attempts").isZero();
            c.host(1).poll(); // third blocked attempt (the first was inside send): credit request
            assertThat(c.counter(1, "credit.request")).isEqualTo(1);
            c.net.pump();
            c.host(0).poll(); // answers with a credit packet
            assertThat(c.counter(0, "credit.explicit")).isEqualTo(1);
            c.net.pump();
            assertThat(c.host(1).receive(m)).as("read response, barrier, credit").isEqualTo(NonisoLayer.NO_MESSAGE);
            assertThat(c.readResponses).hasSize(1);
            assertThat(c.counter(1, "barrier.received")).isEqualTo(1);
            assertThat(c.counter(1, "credit.explicitReceived")).isEqualTo(1);
            assertThat(c.host(1).deliveryQueueEmpty()).isTrue();
            assertThat(c.host(0).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(0);
            assertThat(c.host(0).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(1);
            assertThat(c.host(0).receive(m)).as("only data, never the credit request")
                    .isEqualTo(NonisoLayer.NO_MESSAGE);
        }
    }

    /** hasMessage / deliveryQueueEmpty reflect what receive() would return (and what is still in handoff). */
    @Test
    void hasMessageAndDeliveryQueueEmptyTrackArrivals() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            NonisoLayer r = c.host(1);
            assertThat(r.deliveryQueueEmpty()).isTrue();
            c.host(0).send(1, c.payload(1, 8), 8);
            c.net.pump();
            assertThat(r.deliveryQueueEmpty()).as("arrived, not yet polled").isFalse();
            assertThat(r.hasMessage()).isFalse();
            r.poll();
            assertThat(r.hasMessage()).isTrue();
            assertThat(r.deliveryQueueEmpty()).isFalse();
            assertThat(r.receive(new NonisoMessage())).isZero();
            assertThat(r.hasMessage()).isFalse();
            assertThat(r.deliveryQueueEmpty()).isTrue();
        }
    }

    /**
     * A payload transfer that fails (Deposit#failed) is not delivered, is counted, and its slot is freed, so
     * the sender's credit and the slot sequence stay consistent for the messages after it.
     */
    @Test
    void failedDepositIsCountedAndItsSlotFreed() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(2).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            c.net.failNextDeposit(1);
            c.host(0).send(1, c.payload(1, 32), 32);
            c.host(0).send(1, c.payload(2, 32), 32);
            c.settle();
            c.settle();
            NonisoMessage m = new NonisoMessage();
            assertThat(c.host(1).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(2);
            assertThat(c.counter(1, "drop.deposit")).isEqualTo(1);
            assertThat(c.counter(0, "send.undelivered")).isEqualTo(1);
            assertThat(c.counter(1, "drop.malformed")).isZero();
        }
    }

    /**
     * A failed peer: send() to it fails, and packets already queued for it are discarded instead of holding back
     * the packets behind them forever (head-of-line blocking, Isotach report §7.1, pp. 59-62).
     */
    @Test
    void failedPeerNeitherAcceptsSendsNorBlocksOthers() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(2).build();
        try (NonisoCluster c = new NonisoCluster(3, cfg)) {
            NonisoLayer l = c.host(0);
            assertThat(l.send(1, c.payload(1, 8), 8)).isZero(); // uses the only credit
            assertThat(l.send(1, c.payload(2, 8), 8)).isZero(); // blocked on credit
            assertThat(l.send(2, c.payload(3, 8), 8)).isZero(); // behind it
            c.settle();
            assertThat(c.host(2).receive(new NonisoMessage())).isEqualTo(NonisoLayer.NO_MESSAGE);
            c.net.fail(1);
            assertThat(l.send(1, c.payload(4, 8), 8)).isEqualTo(NonisoLayer.FAILURE);
            c.settle();
            NonisoMessage m = new NonisoMessage();
            assertThat(c.host(2).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(3);
            assertThat(c.counter(0, "drop.peerFailed")).isEqualTo(1);
            assertThat(c.counter(0, "peer.failure")).isEqualTo(1);
            assertThat(l.sendBufferEmpty()).isTrue();
        }
    }

    /** The constructor refuses a transport that cannot carry the frames or the ids. */
    @Test
    void constructorChecksTheTransport() {
        LoopbackNetwork net = new LoopbackNetwork(2);
        IsotachConfig cfg = NonisoCluster.config().build();
        NonisoLayer.Upcalls none = (s, v, l, p) -> { };
        assertThatThrownBy(() -> new NonisoLayer(2, 2, cfg, net.endpoint(0), none))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NonisoLayer(0, 3, cfg, net.endpoint(0), none))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NonisoLayer(1, 2, cfg, net.endpoint(0), none))
                .as("host id is not the endpoint's rank").isInstanceOf(IllegalArgumentException.class);
        NonisoLayer ok = new NonisoLayer(0, 2, cfg, net.endpoint(0), none);
        assertThatThrownBy(() -> ok.peerRegion(0, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ok.peerRegion(1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** owns(): kinds 0x20..0x2F are this module's, nothing else. */
    @Test
    void ownsExactlyKinds0x20To0x2F() {
        for (int k = 0; k < 256; k++) {
            assertThat(NonisoLayer.owns((byte) k)).as("kind 0x%02x", k).isEqualTo(k >= 0x20 && k <= 0x2F);
        }
    }

    /** Hosts = 1: no peer can be a target, and a barrier completes at once. */
    @Test
    void aSingleHostHasNoNonisoPeers() {
        try (NonisoCluster c = new NonisoCluster(1, NonisoCluster.config().build())) {
            assertThat(c.host(0).send(0, c.payload(1, 8), 8)).isEqualTo(NonisoLayer.FAILURE);
            assertThat(c.host(0).initiateBarrier()).isZero();
            assertThat(c.host(0).barrierCompleted()).isZero();
        }
    }
}
