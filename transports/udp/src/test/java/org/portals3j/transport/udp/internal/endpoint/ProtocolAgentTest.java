package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.udp.UdpOptions;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/** One round of the receive path: its work count, its timers, and liveness judged on the test's clock. */
class ProtocolAgentTest {
    private static final Map<String, String> QUICK = Map.of(UdpOptions.HEARTBEAT_MILLIS, "100",
            UdpOptions.PEER_TIMEOUT_MILLIS, "1000");

    @Test
    void doWorkReturnsTheDatagramsItReceivedUpToItsLimit() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        for (int i = 0; i < 3; i++) {
            rig.ranks[0].send(1, i, ProtocolRig.payload(10, i), i);
        }
        rig.transfer();
        ProtocolAgent agent = rig.ranks[1].agent;

        assertThat(agent.doWork(1)).isEqualTo(1);
        assertThat(agent.doWork()).isEqualTo(2);
        assertThat(agent.doWork()).as("nothing left: zero work").isZero();
        assertThat(rig.ranks[1].handler.messages).hasSize(3);
    }

    @Test
    void aStoppedEndpointReceivesNothing() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.transfer();
        rig.ranks[1].lifecycle.moveTo(EndpointLifecycle.State.CLOSED);

        assertThat(rig.ranks[1].agent.doWork()).isZero();
        assertThat(rig.ranks[1].io.inbound).hasSize(1);
    }

    @Test
    void aPeerSilentForTheTimeoutIsDeclaredDead() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, QUICK);
        ProtocolRig.Rank r1 = rig.ranks[1];
        for (int ms = 0; ms < 1000; ms += 50) { // the agent runs on time: no stall of its own
            rig.advanceMillis(50);
            r1.agent.doWork();
            assertThat(r1.handler.failedPeers).as("at %d ms", ms + 50).isEmpty();
        }
        rig.advanceMillis(1);
        r1.agent.doWork();

        assertThat(r1.handler.failedPeers).containsExactly(0);
        assertThat(r1.peers[0].isDead()).isTrue();
        assertThat(r1.io.sentOfType(DatagramType.HEARTBEAT)).as("it kept sending heartbeats meanwhile").isNotEmpty();
    }

    @Test
    void aPeerThatIsHeardFromStaysAlive() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, QUICK);
        for (int ms = 0; ms < 3000; ms += 50) {
            rig.advanceMillis(50);
            rig.ranks[0].agent.doWork();
            rig.ranks[1].agent.doWork();
            rig.transfer();
        }

        assertThat(rig.ranks[0].handler.failedPeers).isEmpty();
        assertThat(rig.ranks[1].handler.failedPeers).isEmpty();
    }

    @Test
    void timeTheReceivePathDidNotRunIsNotHeldAgainstThePeers() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, QUICK);
        ProtocolRig.Rank r1 = rig.ranks[1];

        rig.advanceMillis(10_000); // this process was stopped for ten timeouts
        r1.agent.doWork();

        assertThat(r1.handler.failedPeers).isEmpty();
        assertThat(r1.counter(Counters.STALLS)).isEqualTo(1);
        // but the time after it runs again is: the peer had been silent for one longest sleep (100 ms) when it stopped
        for (int i = 0; i < 18; i++) {
            rig.advanceMillis(50);
            r1.agent.doWork();
        }
        assertThat(r1.handler.failedPeers).as("silent for exactly the timeout").isEmpty();
        rig.advanceMillis(50);
        r1.agent.doWork();
        assertThat(r1.handler.failedPeers).containsExactly(0);
        assertThat(r1.counter(Counters.STALLS)).isEqualTo(1);
    }

    @Test
    void timersRunOnlyOnceTheirPeriodPassed() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, QUICK);
        ProtocolRig.Rank r0 = rig.ranks[0];
        rig.advanceMillis(100);
        r0.agent.doWork(); // the timers run, and the first heartbeat goes
        r0.io.sent.clear();
        r0.peers[1].lastSentNanos -= 100_000_000L; // another heartbeat is due

        rig.now += ProtocolAgent.TIMER_PERIOD_NANOS - 1;
        r0.agent.doWork();
        assertThat(r0.io.sent).as("within the timers' period").isEmpty();

        rig.now += 1;
        r0.agent.doWork();
        assertThat(r0.io.sent).extracting(FakeIo.Sent::type).containsExactly(DatagramType.HEARTBEAT);
    }

    @Test
    void theNextDeadlineIsTheEarliestTimerOfALivePeer() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, QUICK);
        ProtocolRig.Rank r0 = rig.ranks[0];
        assertThat(r0.agent.nextDeadline(rig.now)).as("the heartbeat").isEqualTo(rig.now + 100_000_000L);

        r0.send(1, 1, ProtocolRig.payload(10, 1), 1);

        assertThat(r0.agent.nextDeadline(rig.now)).as("the retransmission timeout")
                .isEqualTo(rig.now + r0.peers[1].rtt.rto());
        r0.receiver.failPeer(r0.peers[1]);
        assertThat(r0.agent.nextDeadline(rig.now)).as("a dead peer has no timers; the longest sleep")
                .isEqualTo(rig.now + ProtocolAgent.MAX_SLEEP_NANOS);
    }

    @Test
    void acknowledgementsStillOwedKeepTheAgentFromSleeping() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.transfer();

        rig.ranks[1].agent.doWork();

        assertThat(rig.ranks[1].agent.acksPending()).isTrue();
        rig.now += rig.settings.ackDelayMicros() * 1_000L;
        rig.ranks[1].agent.doWork();
        assertThat(rig.ranks[1].agent.acksPending()).isFalse();
    }
}
