package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.udp.UdpOptions;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * The sending side on its own: the send queue and its bound, the windows that pace fragments, retransmission, and
 * acknowledgements and heartbeats out. Two ranks on fake sockets and a test clock.
 */
class DatagramSenderTest {

    @Test
    void aMessageGoesOutAndCompletesWhenAcknowledged() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r0 = rig.ranks[0];
        ProtocolRig.Rank r1 = rig.ranks[1];
        r0.send(1, 9, ProtocolRig.payload(100, 9), 90);

        assertThat(r0.io.sentOfType(DatagramType.DATA)).hasSize(1);
        rig.transfer();
        r1.agent.doWork();
        assertThat(r1.io.sent).as("the acknowledgement waits udp.ackDelayMicros for data going back").isEmpty();
        rig.now += rig.settings.ackDelayMicros() * 1_000L;
        r1.agent.doWork();
        assertThat(r1.io.sentOfType(DatagramType.ACK)).hasSize(1);
        rig.transfer();
        r0.agent.doWork();

        assertThat(r0.handler.completions).containsExactly(Map.entry(90L, true));
        assertThat(r0.peers[1].send.inFlight()).isZero();
        assertThat(r0.peers[1].bound.messages()).isZero();
    }

    @Test
    void theReceiversAdvertisedWindowPacesNewFragments() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r0 = rig.ranks[0];
        int body = rig.settings.datagramSize() - DatagramHeader.LENGTH;
        r0.send(1, 1, ProtocolRig.payload(body * 40, 1), 1);

        assertThat(r0.io.sentOfType(DatagramType.DATA)).as("the window assumed before the peer advertised one")
                .hasSize(16);

        rig.settle();

        assertThat(r0.handler.completions).containsExactly(Map.entry(1L, true));
        assertThat(rig.ranks[1].handler.messages.getFirst().payload()).isEqualTo(ProtocolRig.payload(body * 40, 1));
    }

    @Test
    void aFragmentUnacknowledgedForAnRtoIsSentAgain() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r0 = rig.ranks[0];
        r0.send(1, 1, ProtocolRig.payload(10, 1), 1);
        long rto = r0.peers[1].rtt.rto();
        r0.io.sent.clear();

        rig.now += rto - 1;
        r0.sender.onTimer(r0.peers[1], rig.now);
        assertThat(r0.io.sent).as("not before the RTO").isEmpty();

        rig.now += 1;
        r0.sender.onTimer(r0.peers[1], rig.now);

        assertThat(r0.io.sentOfType(DatagramType.DATA)).hasSize(1);
        assertThat(DatagramHeader.seq(r0.io.sent.getFirst().buffer())).isZero();
        assertThat(r0.counter(Counters.TIMEOUTS)).isEqualTo(1);
        assertThat(r0.counter(Counters.RETRANSMITS)).isEqualTo(1);
        assertThat(r0.peers[1].rtt.rto()).as("backed off").isEqualTo(2 * rto);
    }

    @Test
    void aStandaloneAcknowledgementGoesAfterSixteenDataDatagramsEvenMidBurst() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        for (int i = 0; i < DatagramSender.ACK_EVERY; i++) {
            rig.ranks[0].send(1, i, ProtocolRig.payload(10, i), i);
        }
        rig.transfer();
        ProtocolRig.Rank r1 = rig.ranks[1];

        r1.agent.doWork(DatagramSender.ACK_EVERY - 1);
        assertThat(r1.io.sent).isEmpty();
        r1.agent.doWork(1);

        assertThat(r1.io.sentOfType(DatagramType.ACK)).hasSize(1);
        assertThat(DatagramHeader.cumAck(r1.io.sent.getFirst().buffer())).isEqualTo(DatagramSender.ACK_EVERY);
        assertThat(r1.peers[0].unackedSince).as("nothing owed any more").isEqualTo(-1);
    }

    @Test
    void dataGoingBackCarriesTheAcknowledgement() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.transfer();
        ProtocolRig.Rank r1 = rig.ranks[1];
        r1.receiveAll();

        r1.send(0, 2, ProtocolRig.payload(10, 2), 2); // a reply
        rig.now += rig.settings.ackDelayMicros() * 1_000L;
        r1.agent.doWork();

        assertThat(r1.io.sent).hasSize(1);
        assertThat(r1.io.sent.getFirst().type()).isEqualTo(DatagramType.DATA);
        assertThat(DatagramHeader.cumAck(r1.io.sent.getFirst().buffer())).isEqualTo(1);
    }

    @Test
    void aHeartbeatGoesToAPeerNothingWasSentToForAPeriod() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of(UdpOptions.HEARTBEAT_MILLIS, "100"));
        ProtocolRig.Rank r0 = rig.ranks[0];

        rig.advanceMillis(99);
        r0.agent.doWork();
        assertThat(r0.io.sent).isEmpty();
        rig.advanceMillis(1);
        r0.agent.doWork();

        assertThat(r0.io.sent).extracting(FakeIo.Sent::type).containsExactly(DatagramType.HEARTBEAT);
        assertThat(r0.io.sent.getFirst().target()).as("to the other rank, not itself")
                .isEqualTo(rig.ranks[1].io.address);
        assertThat(r0.counter(Counters.HEARTBEATS_SENT)).isEqualTo(1);
    }

    @Test
    void theTimerThreadSendsHeartbeatsOnlyWhenOneIsHalfAPeriodLate() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of(UdpOptions.HEARTBEAT_MILLIS, "100"));
        ProtocolRig.Rank r0 = rig.ranks[0];

        rig.advanceMillis(149);
        r0.sender.heartbeatsWhileStuck(rig.now);
        assertThat(r0.io.sent).as("the receive path is merely late").isEmpty();
        rig.advanceMillis(1);
        r0.sender.heartbeatsWhileStuck(rig.now);

        assertThat(r0.io.sent).extracting(FakeIo.Sent::type).containsExactly(DatagramType.HEARTBEAT);
        assertThat(r0.counter(Counters.HEARTBEATS_WHILE_STUCK)).isEqualTo(1);
    }

    @Test
    void anApplicationSenderFindingTheQueueFullWaitsForAcknowledgements() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of(UdpOptions.SEND_QUEUE_MESSAGES, "2"));
        ProtocolRig.Rank r0 = rig.ranks[0];
        r0.send(1, 1, ProtocolRig.payload(10, 1), 1);
        r0.send(1, 2, ProtocolRig.payload(10, 2), 2);
        // while it waits, the acknowledgements come (the test's stand-in for the receive path running meanwhile)
        rig.onSenderWaits = () -> {
            rig.ranks[0].peers[1].lock.unlock();
            try {
                rig.settle();
            } finally {
                rig.ranks[0].peers[1].lock.lock();
            }
        };

        r0.send(1, 3, ProtocolRig.payload(10, 3), 3);

        assertThat(r0.counter(Counters.SENDS_WAITED)).isEqualTo(1);
        assertThat(r0.senderWaits).isEqualTo(1);
        assertThat(r0.handler.completions).containsEntry(1L, true).containsEntry(2L, true).doesNotContainKey(3L);
        assertThat(r0.peers[1].bound.messages()).as("the third is queued").isEqualTo(1);
        assertThat(r0.peers[1].bound.highWater()).isEqualTo(2);
    }

    @Test
    void aSenderWaitingForADeadPeerCompletesFalse() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of(UdpOptions.SEND_QUEUE_MESSAGES, "1"));
        ProtocolRig.Rank r0 = rig.ranks[0];
        r0.send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.onSenderWaits = () -> {
            r0.peers[1].lock.unlock();
            try {
                r0.receiver.failPeer(r0.peers[1]);
            } finally {
                r0.peers[1].lock.lock();
            }
        };

        r0.send(1, 2, ProtocolRig.payload(10, 2), 2);

        assertThat(r0.handler.completions).containsExactly(Map.entry(1L, false), Map.entry(2L, false));
        assertThat(r0.handler.failedPeers).containsExactly(1);
    }

    @Test
    void theReceivePathNeverWaitsButGoesNoFurtherThanFourTimesTheBound() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of(UdpOptions.SEND_QUEUE_MESSAGES, "2"));
        ProtocolRig.Rank r0 = rig.ranks[0];
        int limit = 2 * SendBound.RECEIVE_PATH_FACTOR;
        for (int i = 0; i < limit; i++) {
            r0.sendFromReceivePath(1, i, ProtocolRig.payload(10, i), i);
        }
        assertThat(r0.senderWaits).isZero();
        assertThat(r0.handler.completions).isEmpty();

        r0.sendFromReceivePath(1, limit, ProtocolRig.payload(10, limit), limit);

        assertThat(r0.handler.completions).containsExactly(Map.entry((long) limit, false));
        assertThat(r0.peers[1].state()).isEqualTo(Peer.State.OVERRUN);
        r0.send(1, 99, ProtocolRig.payload(10, 99), 99);
        assertThat(r0.handler.completions).as("every later send fails").containsEntry(99L, false);

        rig.now += ProtocolAgent.TIMER_PERIOD_NANOS;
        r0.agent.doWork();

        assertThat(r0.peers[1].state()).as("declared dead at the next timers").isEqualTo(Peer.State.DEAD);
        assertThat(r0.handler.failedPeers).containsExactly(1);
        assertThat(r0.handler.completions).hasSize(limit + 2).containsValue(false).doesNotContainValue(true);
    }

    @Test
    void aSendToAnIdlePeerWakesASleepingProtocolThread() throws Exception {
        ProtocolRig rig = new ProtocolRig(2, Map.of());
        ProtocolRig.Rank r0 = rig.ranks[0];
        r0.send(1, 1, ProtocolRig.payload(10, 1), 1);
        assertThat(r0.io.wakeups).as("not sleeping").isZero();

        r0.sleep.begin();
        r0.send(1, 2, ProtocolRig.payload(10, 2), 2);
        assertThat(r0.io.wakeups).as("a timer was running already").isZero();
        rig.settle();
        r0.send(1, 3, ProtocolRig.payload(10, 3), 3);
        r0.sleep.end();

        assertThat(r0.io.wakeups).isEqualTo(1);
    }
}
