package org.portals3j.isotach.internal.noniso;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.NonisoMessage;

/** Protocol 2, the noniso n x n barrier (Isotach report §6.3, pp. 45-47). */
class NonisoBarrierTest {

    /**
     * I-076: barrier_completed returns non-zero until barrier frames from all n - 1 peers arrived, then 0 exactly
     * once, then non-zero (no barrier in progress).
     */
    @Test
    void i076_completesOnlyAfterEveryPeerThenExactlyOnce() {
        try (NonisoCluster c = new NonisoCluster(3, NonisoCluster.config().build())) {
            assertThat(c.host(0).initiateBarrier()).isZero();
            assertThat(c.host(1).initiateBarrier()).isZero();
            for (int i = 0; i < 3; i++) {
                c.settle();
                for (int h = 0; h < 2; h++) {
                    assertThat(c.host(h).barrierCompleted()).as("host %d without host 2", h).isEqualTo(1);
                }
            }
            assertThat(c.host(2).initiateBarrier()).isZero();
            c.settle();
            for (int h = 0; h < 3; h++) {
                assertThat(c.host(h).barrierCompleted()).as("host %d", h).isZero();
                assertThat(c.host(h).barrierCompleted()).as("host %d again", h).isEqualTo(1);
            }
            assertThat(c.counter(0, "barrier.sent")).isEqualTo(2);
            assertThat(c.counter(0, "barrier.received")).isEqualTo(2);
        }
    }

    /** I-075: initiate_barrier fails while this host's barrier is in progress; succeeds again after completion. */
    @Test
    void i075_initiateTwiceFails() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            assertThat(c.host(0).initiateBarrier()).isZero();
            assertThat(c.host(0).initiateBarrier()).isEqualTo(1);
            assertThat(c.counter(0, "barrier.sent")).as("the failed call sent nothing").isEqualTo(1);
            c.host(1).initiateBarrier();
            c.settle();
            assertThat(c.host(0).barrierCompleted()).isZero();
            assertThat(c.host(0).initiateBarrier()).isZero();
        }
    }

    /** I-077: barrier_completed without initiate_barrier fails, even when peers' frames have arrived. */
    @Test
    void i077_completedWithoutInitiateFails() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            assertThat(c.host(0).barrierCompleted()).isEqualTo(1);
            c.host(1).initiateBarrier();
            c.settle();
            assertThat(c.host(0).barrierCompleted()).isEqualTo(1);
            // The peer's frame was counted, not lost: initiating now completes at once.
            assertThat(c.host(0).initiateBarrier()).isZero();
            assertThat(c.host(0).barrierCompleted()).isZero();
        }
    }

    /**
     * I-078: barrier frames bypass flow control (Isotach report §3.2.1, pp. 9-10; §6.3.2, pp. 45-47): the barrier
     * completes while every data credit in both directions is in use and packets are waiting for credit.
     */
    @Test
    void i078_completesWithAllCreditsInUse() {
        IsotachConfig cfg = NonisoCluster.config().nonisoSlotsPerPeer(2).build();
        try (NonisoCluster c = new NonisoCluster(2, cfg)) {
            for (int i = 0; i < 3; i++) {
                c.host(0).send(1, c.payload(i, 8), 8);
                c.host(1).send(0, c.payload(i, 8), 8);
            }
            c.settle();
            assertThat(c.host(0).outstanding(1)).isEqualTo(1);
            assertThat(c.host(1).outstanding(0)).isEqualTo(1);
            assertThat(c.host(0).unapproved()).isEqualTo(2);
            c.host(0).initiateBarrier();
            c.host(1).initiateBarrier();
            c.settle();
            assertThat(c.host(0).barrierCompleted()).isZero();
            assertThat(c.host(1).barrierCompleted()).isZero();
            assertThat(c.host(0).unapproved()).as("data still waiting for credit").isEqualTo(2);
        }
    }

    /**
     * The race of Isotach report §6.3.4, pp. 45-47: host 0 completes barrier 1 and starts barrier 2 while host 1 has
     * not yet seen barrier 1 complete. Host 0's second frame must not be lost (the listing asserted barrier_recv[s] ==
     * FALSE and lost it): it is counted as host 0's generation 2, so host 1 completes both barriers.
     */
    @Test
    void l1529_frameOfTheNextBarrierIsNotLost() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            NonisoLayer a = c.host(0);
            NonisoLayer b = c.host(1);
            a.initiateBarrier();
            b.initiateBarrier();
            c.net.pump();
            assertThat(a.barrierCompleted()).isZero(); // host 1 has not polled yet
            assertThat(a.initiateBarrier()).isZero(); // barrier 2
            c.net.pump(); // host 0's generation-2 frame reaches host 1, still in barrier 1
            assertThat(b.barrierCompleted()).isZero();
            assertThat(b.initiateBarrier()).isZero();
            assertThat(b.barrierCompleted()).as("host 0 is already in barrier 2").isZero();
            assertThat(a.barrierCompleted()).isEqualTo(1);
            c.net.pump();
            assertThat(a.barrierCompleted()).isZero();
            assertThat(c.counter(1, "drop.barrier")).isZero();
            assertThat(c.counter(1, "barrier.received")).isEqualTo(2);
        }
    }

    /**
     * I-076 under every lag: hosts start their next barrier as soon as the previous one completed, with frames
     * delivered and barrier_completed polled in random order. A host never completes barrier k before every
     * other host has initiated barrier k, and everyone completes all of them.
     */
    @Test
    void i076_backToBackBarriersWithRandomLag() {
        int hosts = 4;
        int rounds = 60;
        try (NonisoCluster c = new NonisoCluster(hosts, NonisoCluster.config().build())) {
            Random rnd = new Random(7);
            int[] initiated = new int[hosts];
            int[] done = new int[hosts];
            boolean[] in = new boolean[hosts];
            int finished = 0;
            for (int step = 0; finished < hosts; step++) {
                assertThat(step).as("progress").isLessThan(1_000_000);
                int h = rnd.nextInt(hosts);
                switch (rnd.nextInt(3)) {
                    case 0 -> {
                        if (!in[h] && done[h] < rounds) {
                            assertThat(c.host(h).initiateBarrier()).isZero();
                            in[h] = true;
                            initiated[h]++;
                        }
                    }
                    case 1 -> c.net.pump(rnd.nextInt(hosts), 1);
                    default -> {
                        int r = c.host(h).barrierCompleted();
                        if (!in[h]) {
                            assertThat(r).as("no barrier in progress").isEqualTo(1);
                        } else if (r == 0) {
                            done[h]++;
                            in[h] = false;
                            for (int g = 0; g < hosts; g++) {
                                assertThat(initiated[g]).as("host %d completing %d", h, done[h])
                                        .isGreaterThanOrEqualTo(done[h]);
                            }
                            if (done[h] == rounds) {
                                finished++;
                            }
                        }
                    }
                }
            }
            for (int h = 0; h < hosts; h++) {
                assertThat(c.counter(h, "drop.malformed")).isZero();
                assertThat(c.counter(h, "barrier.received")).isEqualTo((long) rounds * (hosts - 1));
            }
        }
    }

    /**
     * A SUCCESS from barrier_completed means every message a peer sent before its barrier frame is already in
     * the delivery queue (the shutdown check of Isotach report App. J, hostman.c, pp. 181-197, I-127): the peers'
     * generations are read before the poll that drains the handoff queue.
     */
    @Test
    void messagesSentBeforeAPeersBarrierAreQueuedWhenItCompletes() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            c.host(0).initiateBarrier();
            c.host(1).send(0, c.payload(5, 8), 8);
            c.host(1).initiateBarrier();
            c.net.pump();
            assertThat(c.host(0).deliveryQueueEmpty()).isFalse();
            assertThat(c.host(0).barrierCompleted()).isZero();
            assertThat(c.host(0).hasMessage()).isTrue();
            NonisoMessage m = new NonisoMessage();
            assertThat(c.host(0).receive(m)).isZero();
            assertThat(NonisoCluster.tagOf(m)).isEqualTo(5);
        }
    }

    /**
     * The same guarantee when the peer's message and barrier frame arrive in the middle of the poll that
     * barrier_completed runs (a transport thread, or inmem's inline delivery, can do that): this call must not
     * report completion, because the message is not in the delivery queue yet; the next call does, with it.
     */
    @Test
    void barrierFramesArrivingDuringThePollCountOnlyFromTheNextCall() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            NonisoLayer a = c.host(0);
            a.initiateBarrier();
            // A credit request from host 1 makes host 0's poll send a credit packet after it drained arrivals;
            // inside that send, host 1's message and barrier frame arrive.
            HostileFrames f = new HostileFrames(8);
            a.onHeader(1, f.creditRequest(), NonisoFrame.CREDIT_REQUEST_LENGTH, 0, f.deposit());
            c.host(1).send(0, c.payload(5, 8), 8);
            c.host(1).initiateBarrier();
            c.net.afterNextSend(0, () -> c.net.pump(0, 10));
            assertThat(a.barrierCompleted()).as("frames arrived during this call's poll").isEqualTo(1);
            assertThat(c.counter(0, "credit.explicit")).isEqualTo(1);
            assertThat(c.counter(0, "barrier.received")).isEqualTo(1);
            assertThat(a.barrierCompleted()).isZero();
            assertThat(a.hasMessage()).isTrue();
        }
    }

    /** A barrier frame from a peer that runs more than one generation ahead, or repeats one, is hostile. */
    @Test
    void impossibleBarrierGenerationsAreDropped() {
        try (NonisoCluster c = new NonisoCluster(2, NonisoCluster.config().build())) {
            NonisoLayer l = c.host(0);
            HostileFrames f = new HostileFrames(8);
            l.onHeader(1, f.barrier(2), NonisoFrame.BARRIER_LENGTH, 0, f.deposit());
            assertThat(c.counter(0, "drop.barrier")).as("skips generation 1").isEqualTo(1);
            l.onHeader(1, f.barrier(1), NonisoFrame.BARRIER_LENGTH, 0, f.deposit());
            assertThat(c.counter(0, "barrier.received")).isEqualTo(1);
            l.onHeader(1, f.barrier(1), NonisoFrame.BARRIER_LENGTH, 0, f.deposit());
            assertThat(c.counter(0, "drop.barrier")).as("repeats generation 1").isEqualTo(2);
            l.onHeader(1, f.barrier(2), NonisoFrame.BARRIER_LENGTH, 0, f.deposit());
            assertThat(c.counter(0, "drop.barrier")).as("two ahead of our generation 0").isEqualTo(3);
            assertThat(c.counter(0, "drop.malformed")).isEqualTo(3);
            assertThat(l.initiateBarrier()).isZero();
            assertThat(l.barrierCompleted()).isZero();
        }
    }
}
