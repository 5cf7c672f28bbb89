package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.isotach.IsoTestSupport.assertNoNonisoMessage;
import static org.portals3j.tck.isotach.IsoTestSupport.counter;
import static org.portals3j.tck.isotach.IsoTestSupport.exactPayload;
import static org.portals3j.tck.isotach.IsoTestSupport.isoSend;
import static org.portals3j.tck.isotach.IsoTestSupport.payload;
import static org.portals3j.tck.isotach.IsoTestSupport.pollFor;
import static org.portals3j.tck.isotach.IsoTestSupport.send;
import static org.portals3j.tck.isotach.IsoTestSupport.seq;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.isotach.NonisoMessage;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/** Non-Isotach message passing (Protocol 1, Isotach report §3.1, pp. 8-9; App. A.3, pp. 96-97). */
class NonisoMbmTest {

    static IsotachJob open(int hosts, IsotachConfig config) {
        return IsotachJob.builder(hosts).config(config).interfaces(EnumSet.of(Interface.NONISO)).open();
    }

    @Test
    @SpecAssertion({"I-113", "I-118"})
    void everySendersMessagesArriveInOrderOnceWithSenderSizeAndPayload() {
        IsotachConfig config = IsotachConfig.builder().nonisoSlotsPerPeer(8).build();
        try (IsotachJob job = open(3, config)) {
            int per = 30;
            int max = job.net(0).getMaxPayload();
            Random rnd = new Random(4711);
            int[][] sizes = new int[3][per];
            for (int[] row : sizes) {
                for (int k = 0; k < per; k++) {
                    row[k] = k == 0 ? 0 : k == 1 ? max : rnd.nextInt(max + 1);
                }
            }
            // interleaved: every host sends its k-th message to both others before its (k+1)-th
            for (int k = 0; k < per; k++) {
                for (int s = 0; s < 3; s++) {
                    for (int d = 0; d < 3; d++) {
                        if (d != s) {
                            send(job, s, d, exactPayload(s, k, sizes[s][k]));
                        }
                    }
                }
            }
            // all three receive at once: a receiver that waits would hold back, through head-of-line blocking at
            // each sender (I-096), the messages the others wait for
            NonisoMessage m = new NonisoMessage();
            int[][] next = new int[3][3];
            int[] got = new int[3];
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (got[0] + got[1] + got[2] < 6 * per) {
                for (int h = 0; h < 3; h++) {
                    if (job.net(h).receive(m) != IsotachNet.SUCCESS) {
                        continue;
                    }
                    got[h]++;
                    int s = m.senderId();
                    assertThat(s).isNotEqualTo(h).isBetween(0, 2);
                    int k = next[h][s]++;
                    assertThat(m.size()).as("size of message %d from %d at %d", k, s, h).isEqualTo(sizes[s][k]);
                    assertThat(m.data().byteSize()).isEqualTo(sizes[s][k]);
                    assertThat(m.toByteArray()).as("payload of message %d from %d at %d", k, s, h)
                            .isEqualTo(exactPayload(s, k, sizes[s][k]));
                }
                assertThat(System.nanoTime()).as("received %s of %d each", Arrays.toString(got), 2 * per)
                        .isLessThan(deadline);
            }
            pollFor(job, TckTransport.quietPeriod());
            for (int h = 0; h < 3; h++) {
                assertNoNonisoMessage(job, h);
            }
        }
    }

    @Test
    @SpecAssertion("I-114")
    void receiveWithNothingWaitingReturnsNoMessageAtOnce() {
        try (IsotachJob job = open(2, IsotachConfig.defaults())) {
            NonisoMessage m = new NonisoMessage();
            for (int i = 0; i < 100; i++) {
                assertThat(job.net(1).receive(m)).isEqualTo(IsotachNet.NO_MESSAGE);
            }
            assertThat(m.senderId()).isEqualTo(-1);
            assertThat(m.size()).isZero();
            send(job, 0, 1, payload(0, 3, 8));
            assertThat(seq(job.awaitNoniso(1).data())).isEqualTo(3);
            assertThat(job.net(1).receive(m)).isEqualTo(IsotachNet.NO_MESSAGE);
        }
    }

    /** The view stays as it was while more traffic arrives, until the next receive. */
    @Test
    @SpecAssertion("I-115")
    void theReceivedPayloadStaysValidUntilTheNextReceive() {
        try (IsotachJob job = open(3, IsotachConfig.builder().nonisoSlotsPerPeer(4).build())) {
            byte[] data = payload(1, 0, 64);
            assertThat(job.net(1).send(0, data)).isEqualTo(IsotachNet.SUCCESS);
            Arrays.fill(data, (byte) 0x55); // the sender's buffer is reusable at once
            NonisoMessage m = new NonisoMessage();
            job.awaitCondition("message", () -> job.net(0).receive(m) == IsotachNet.SUCCESS);
            MemorySegment view = m.data();
            for (int k = 1; k < 20; k++) {
                send(job, 1, 0, payload(1, k, 64));
                send(job, 2, 0, payload(2, k, 64));
            }
            pollFor(job, TckTransport.quietPeriod());
            assertThat(view.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(payload(1, 0, 64));
            int[] next = {0, 1, 1};
            for (int i = 0; i < 38; i++) {
                Delivered d = job.awaitNoniso(0);
                assertThat(seq(d.data())).isEqualTo(next[d.sender()]++);
            }
        }
    }

    @Test
    @SpecAssertion("I-116")
    void sendFailsForItselfOutOfRangeTargetsAndOversizePayloads() {
        try (IsotachJob job = open(3, IsotachConfig.builder().maxPayload(100).build())) {
            IsotachNet net = job.net(1);
            byte[] ok = exactPayload(1, 0, 100);
            assertThat(net.send(1, ok)).as("to itself").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.send(-1, ok)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.send(3, ok)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.send(Integer.MIN_VALUE, ok)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.send(0, new byte[101])).as("over max payload").isEqualTo(IsotachNet.FAILURE);
            assertThat(net.send(0, MemorySegment.ofArray(new byte[8]), -1)).isEqualTo(IsotachNet.FAILURE);
            assertThat(net.send(0, ok)).as("exactly max payload").isEqualTo(IsotachNet.SUCCESS);
            assertThat(net.send(2, new byte[0])).as("empty").isEqualTo(IsotachNet.SUCCESS);
            Delivered d = job.awaitNoniso(0);
            assertThat(d.sender()).isEqualTo(1);
            assertThat(d.data()).isEqualTo(ok);
            assertThat(job.awaitNoniso(2).data()).isEmpty();
            pollFor(job, TckTransport.quietPeriod());
            assertNoNonisoMessage(job, 0);
            assertNoNonisoMessage(job, 1);
            assertNoNonisoMessage(job, 2);
        }
    }

    @Test
    @SpecAssertion("I-117")
    void sendOnAFullSendBufferFailsAndLeavesTheQueuedPacketsIntact() {
        IsotachConfig config = IsotachConfig.builder().sendBufSize(4).nonisoSlotsPerPeer(2).build();
        try (IsotachJob job = open(2, config)) {
            List<byte[]> accepted = new ArrayList<>();
            int refused = 0;
            // host 1 does not receive: one packet in flight, the rest wait in send_buf until it is full
            for (int i = 0; i < 16; i++) {
                byte[] p = payload(0, i, 48);
                if (job.net(0).send(1, p) == IsotachNet.SUCCESS) {
                    accepted.add(p); // on an asynchronous transport a completed send frees a cell again
                } else {
                    refused++;
                }
            }
            assertThat(refused).as("a send buffer of 4 must fill up").isPositive();
            assertThat(accepted.size()).isGreaterThanOrEqualTo(2);
            // exactly the accepted packets arrive, unchanged and in order; no refused one
            for (int i = 0; i < accepted.size(); i++) {
                Delivered d = job.awaitNoniso(1);
                assertThat(d.data()).as("queued packet %d", i).isEqualTo(accepted.get(i));
            }
            pollFor(job, TckTransport.quietPeriod());
            assertNoNonisoMessage(job, 1);
            send(job, 0, 1, payload(0, 99, 48));
            assertThat(job.awaitNoniso(1).data()).isEqualTo(payload(0, 99, 48));
        }
    }

    /** With Isotach traffic, explicit credits and a barrier going on, receive() returns only application messages. */
    @Test
    @SpecAssertion({"I-119", "I-102"})
    void receiveReturnsOnlyApplicationMessages() {
        IsotachConfig config = IsotachConfig.builder().nonisoSlotsPerPeer(2).isoCreditsPerPeer(2).build();
        try (IsotachJob job = IsotachJob.builder(2).config(config)
                .interfaces(EnumSet.of(Interface.NONISO, Interface.ISO_MBM)).open()) {
            int n = 12;
            for (int k = 0; k < n; k++) {
                isoSend(job, 0, 1, payload(0, 1000 + k, 32), true);
                send(job, 0, 1, payload(0, k, 32));
            }
            for (int h = 0; h < 2; h++) {
                assertThat(job.net(h).initiateBarrier()).isEqualTo(IsotachNet.SUCCESS);
            }
            int gotIso = 0;
            int gotNoniso = 0;
            IsoMessage im = new IsoMessage();
            NonisoMessage nm = new NonisoMessage();
            boolean[] done = new boolean[2];
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (gotIso < n || gotNoniso < n || !done[0] || !done[1]) {
                if (job.net(1).isoReceive(im) == IsotachNet.SUCCESS && !im.isNotice()) {
                    assertThat(seq(im.toByteArray())).isEqualTo(1000 + gotIso++);
                }
                if (job.net(1).receive(nm) == IsotachNet.SUCCESS) {
                    assertThat(nm.senderId()).isEqualTo(0);
                    assertThat(seq(nm.toByteArray())).as("only application messages").isEqualTo(gotNoniso++);
                }
                for (int h = 0; h < 2; h++) {
                    if (!done[h] && job.net(h).barrierCompleted() == IsotachNet.SUCCESS) {
                        done[h] = true;
                    }
                }
                job.net(0).poll();
                assertThat(System.nanoTime()).isLessThan(deadline);
            }
            assertThat(counter(job.net(1), "credit.explicit")).as("credit packets were sent").isPositive();
            pollFor(job, TckTransport.quietPeriod());
            assertNoNonisoMessage(job, 1);
            assertNoNonisoMessage(job, 0);
        }
    }

    @Test
    @SpecAssertion("I-120")
    void nonisoMessagingRunsWithoutTheTokenManager() {
        try (IsotachJob job = open(2, IsotachConfig.defaults())) {
            send(job, 0, 1, payload(0, 1, 8));
            send(job, 1, 0, payload(1, 2, 8));
            assertThat(seq(job.awaitNoniso(1).data())).isEqualTo(1);
            assertThat(seq(job.awaitNoniso(0).data())).isEqualTo(2);
            pollFor(job, TckTransport.quietPeriod());
            for (int h = 0; h < 2; h++) {
                assertThat(job.net(h).logicalTime()).as("no logical time without Isotach").isEqualTo(-1);
                Long pulses = job.net(h).counters().get("tm.pulsesIssued");
                assertThat(pulses == null ? 0L : pulses).as("no token issued").isZero();
            }
            assertThat(job.net(0).isoSend(1, payload(0, 3, 8), true)).as("Isotach calls are not open")
                    .isEqualTo(IsotachNet.FAILURE);
            assertThat(job.net(0).isoReceive(new IsoMessage())).isEqualTo(IsotachNet.FAILURE);
        }
    }
}
