package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.internal.PollHandover;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * The protocol thread's duty cycle, run on the test's thread: every clock read moves the clock on, and the fake
 * socket's wait or the parker stops the endpoint, which ends the cycle (as does a million clock reads).
 */
class ProtocolThreadTest {
    private final List<Long> parks = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();

    /** Clock reads in one cycle; past {@link #MAX_READS} the endpoint stops, so a broken cycle ends (and fails). */
    private int reads;
    private static final int MAX_READS = 1_000_000;

    private ProtocolThread thread(ProtocolRig rig, ProtocolRig.Rank rank, PollHandover handover) {
        return thread(rig, rank, handover, () -> { });
    }

    /** As {@link #thread(ProtocolRig, ProtocolRig.Rank, PollHandover)}; its first park runs {@code whileAway}. */
    private ProtocolThread thread(ProtocolRig rig, ProtocolRig.Rank rank, PollHandover handover, Runnable whileAway) {
        NanoClock ticking = () -> {
            if (++reads > MAX_READS) {
                rank.lifecycle.moveTo(EndpointLifecycle.State.CLOSED);
            }
            return rig.now += 10_000L;
        };
        ProtocolIdle idle = new ProtocolIdle(rank.rank, IdleMode.BACKOFF, rank.sleep, handover, rank.agent,
                rank.lifecycle, ticking, nanos -> {
                    parks.add(nanos);
                    whileAway.run();
                    rank.lifecycle.moveTo(EndpointLifecycle.State.CLOSED);
                });
        return new ProtocolThread(rank.agent, idle, handover, rank.sleep, new ReentrantLock(), rank.upper,
                rank.lifecycle, ticking, failures::add);
    }

    @Test
    void itRunsTheAgentUntilThereIsNoWorkThenSleeps() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        for (int i = 0; i < 3; i++) {
            rig.ranks[0].send(1, i, ProtocolRig.payload(10, i), i);
        }
        rig.transfer();
        ProtocolRig.Rank r1 = rig.ranks[1];
        r1.io.duringAwait = () -> r1.lifecycle.moveTo(EndpointLifecycle.State.CLOSED);

        thread(rig, r1, new PollHandover(0, 10_000_000L)).run();

        assertThat(r1.handler.messages).hasSize(3);
        assertThat(r1.io.sentOfType(DatagramType.ACK))
                .as("acknowledged before it slept").hasSize(1);
        assertThat(r1.io.awaits).hasSize(1);
        assertThat(failures).isEmpty();
        assertThat(reads).isLessThan(MAX_READS);
    }

    @Test
    void itLeavesTheReceivePathToAPollingThread() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.transfer();
        ProtocolRig.Rank r1 = rig.ranks[1];
        PollHandover handover = new PollHandover(rig.now, 10_000_000L);
        handover.polled(rig.now);

        thread(rig, r1, handover).run();

        assertThat(parks).hasSize(1);
        assertThat(parks.getFirst()).isPositive().isLessThanOrEqualTo(PollHandover.MIN_GRACE_NANOS);
        assertThat(r1.io.inbound).as("left for the poller").hasSize(1);
        assertThat(r1.handler.pollersGone).isZero();
    }

    @Test
    void itTellsTheUpperLayerWhenPollingEnded() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r1 = rig.ranks[1];
        PollHandover handover = new PollHandover(rig.now - 1_000_000_000L, 10_000_000L);
        handover.polled(rig.now);
        handover.stopped(rig.now);
        r1.io.duringAwait = () -> r1.lifecycle.moveTo(EndpointLifecycle.State.CLOSED);

        thread(rig, r1, handover).run();

        assertThat(r1.handler.pollersGone).isEqualTo(1);
    }

    @Test
    void anErrorInTheReceivePathFailsTheEndpoint() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.transfer();
        ProtocolRig.Rank r1 = rig.ranks[1];
        r1.handler.throwOnDeposited = new StackOverflowError("from the handler");

        thread(rig, r1, new PollHandover(0, 10_000_000L)).run();

        assertThat(failures).hasSize(1);
        assertThat(failures.getFirst()).hasMessage("from the handler");
    }

    @Test
    void whileAThreadPollsInsideAWaitTheProtocolThreadStaysAwayForTheWaitLookAndThePollerRunsTheTimers()
            throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r0 = rig.ranks[0];
        r0.send(1, 1, ProtocolRig.payload(10, 1), 1); // lost: never transferred
        PollHandover handover = new PollHandover(rig.now, 10_000_000L);
        handover.waitBegins();
        handover.polled(rig.now);
        long[] retransmitsWhileAway = {-1};

        thread(rig, r0, handover, () -> {
            rig.now += UdpEndpoint.INITIAL_RTO_NANOS + 1_000_000L; // the retransmission timer is due
            r0.agent.doWork(1); // the waiting thread's poll
            retransmitsWhileAway[0] = r0.counter(Counters.RETRANSMITS);
        }).run();

        assertThat(parks).as("one look, after the wait look, not the grace").hasSize(1);
        assertThat(parks.getFirst()).isGreaterThan(PollHandover.MAX_GRACE_NANOS)
                .isLessThanOrEqualTo(handover.waitLookNanos());
        assertThat(retransmitsWhileAway[0]).as("the due timer ran on the poller").isEqualTo(1);
        assertThat(r0.io.awaits).as("the protocol thread never took the receive path").isEmpty();
    }

    @Test
    void aPollWhileTheProtocolThreadSleepsInTheSocketWakesItAndItLeavesTheDatagramToThePoller() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r1 = rig.ranks[1];
        PollHandover handover = new PollHandover(rig.now, 10_000_000L);
        ProtocolThread[] loop = new ProtocolThread[1];
        r1.io.duringAwait = () -> { // a thread starts waiting, and its reply arrives
            handover.waitBegins();
            loop[0].polled(rig.now);
            rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
            rig.transfer();
        };
        loop[0] = thread(rig, r1, handover);

        loop[0].run();

        assertThat(r1.io.awaits).as("it slept in the socket once").hasSize(1);
        assertThat(r1.io.wakeups).as("the poll woke it").isEqualTo(1);
        assertThat(parks).as("then it stepped aside for the wait look").hasSize(1);
        assertThat(parks.getFirst()).isGreaterThan(PollHandover.MAX_GRACE_NANOS);
        assertThat(r1.io.inbound).as("left for the poller").hasSize(1);
        assertThat(r1.handler.messages).isEmpty();
    }

    @Test
    void aPollWhileTheProtocolThreadIsAwakeWakesNothing() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r1 = rig.ranks[1];
        ProtocolThread loop = thread(rig, r1, new PollHandover(rig.now, 10_000_000L));

        loop.polled(rig.now);

        assertThat(r1.io.wakeups).isZero();
    }
}
