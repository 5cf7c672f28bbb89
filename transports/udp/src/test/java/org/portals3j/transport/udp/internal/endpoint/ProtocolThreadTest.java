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
        NanoClock ticking = () -> {
            if (++reads > MAX_READS) {
                rank.lifecycle.moveTo(EndpointLifecycle.State.CLOSED);
            }
            return rig.now += 10_000L;
        };
        ProtocolIdle idle = new ProtocolIdle(rank.rank, IdleMode.BACKOFF, rank.sleep, rank.agent, rank.lifecycle,
                ticking, nanos -> {
                    parks.add(nanos);
                    rank.lifecycle.moveTo(EndpointLifecycle.State.CLOSED);
                });
        return new ProtocolThread(rank.agent, idle, handover, new ReentrantLock(), rank.upper, rank.lifecycle, ticking,
                failures::add);
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
}
