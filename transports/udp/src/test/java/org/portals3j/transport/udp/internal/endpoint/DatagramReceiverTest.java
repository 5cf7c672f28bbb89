package org.portals3j.transport.udp.internal.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * The receiving side on its own: what it authenticates, drops as a replay, acts on by type, deposits, and the
 * acknowledgements it leaves owed. Two ranks on fake sockets and a test clock.
 */
class DatagramReceiverTest {

    private static ProtocolRig rig() throws Exception {
        return new ProtocolRig(2, Map.of());
    }

    /** The one datagram rank 0 sent, carried to rank 1's socket. */
    private static byte[] sentByRank0(ProtocolRig rig) {
        assertThat(rig.ranks[0].io.sent).hasSize(1);
        byte[] d = rig.ranks[0].io.sent.getFirst().bytes();
        rig.ranks[0].io.sent.clear();
        return d;
    }

    @Test
    void depositsAMessageAndOwesItsAcknowledgement() throws Exception {
        ProtocolRig rig = rig();
        byte[] payload = ProtocolRig.payload(300, 1);
        rig.ranks[0].send(1, 7, payload, 70);
        rig.ranks[1].io.inbound.add(sentByRank0(rig));

        assertThat(rig.ranks[1].receiver.receiveOne()).isTrue();

        RecordingHandler h = rig.ranks[1].handler;
        assertThat(h.messages).hasSize(1);
        assertThat(h.messages.getFirst().source()).isZero();
        assertThat(h.messages.getFirst().id()).isEqualTo(7);
        assertThat(h.messages.getFirst().payload()).isEqualTo(payload);
        Peer from0 = rig.ranks[1].peers[0];
        assertThat(from0.unackedSince).as("an acknowledgement is owed since now").isEqualTo(rig.now);
        assertThat(from0.unackedCount).isEqualTo(1);
        assertThat(from0.ackCum).as("published for piggybacking").isEqualTo(1);
        assertThat(rig.ranks[1].counter(Counters.MESSAGES_RECEIVED)).isEqualTo(1);
        assertThat(rig.ranks[1].receiver.receiveOne()).as("the socket is empty").isFalse();
    }

    @Test
    void dropsADatagramWhoseMacDoesNotCheck() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[0].send(1, 7, ProtocolRig.payload(10, 1), 70);
        byte[] d = sentByRank0(rig);
        d[DatagramHeader.MAC_OFFSET + 3] ^= 1; // the CRC does not cover the MAC: only the MAC check catches it
        rig.ranks[1].io.inbound.add(d);

        assertThat(rig.ranks[1].receiver.receiveOne()).isTrue();

        assertThat(rig.ranks[1].counter(Counters.DROP_MAC)).isEqualTo(1);
        assertThat(rig.ranks[1].handler.messages).isEmpty();
        assertThat(rig.ranks[1].peers[0].unackedSince).as("nothing owed for a forgery").isEqualTo(-1);
    }

    @Test
    void dropsADatagramWhoseBodyChanged() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[0].send(1, 7, ProtocolRig.payload(10, 1), 70);
        byte[] d = sentByRank0(rig);
        d[d.length - 1] ^= 1;
        rig.ranks[1].io.inbound.add(d);

        rig.ranks[1].receiver.receiveOne();

        assertThat(rig.ranks[1].counter(Counters.DROP_CRC)).isEqualTo(1);
        assertThat(rig.ranks[1].handler.messages).isEmpty();
    }

    @Test
    void actsOnADatagramOnlyOnce() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[0].sender.sendControl(rig.ranks[0].peers[1], DatagramType.HEARTBEAT, rig.now);
        byte[] heartbeat = sentByRank0(rig);
        rig.ranks[1].io.inbound.add(heartbeat);
        rig.ranks[1].receiver.receiveOne();
        long heard = rig.ranks[1].peers[0].lastHeardNanos;

        rig.advanceMillis(5);
        rig.ranks[1].io.inbound.add(heartbeat.clone()); // captured and replayed
        rig.ranks[1].receiver.receiveOne();

        assertThat(rig.ranks[1].counter(Counters.DROP_REPLAY)).isEqualTo(1);
        assertThat(rig.ranks[1].peers[0].lastHeardNanos).as("a replay is no sign of life").isEqualTo(heard);
    }

    @Test
    void byeDeclaresTheSenderDeadOnce() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[1].send(0, 1, ProtocolRig.payload(10, 1), 11); // pending when the BYE comes
        rig.ranks[1].io.sent.clear();
        rig.ranks[0].sender.sendControl(rig.ranks[0].peers[1], DatagramType.BYE, rig.now);
        rig.ranks[0].sender.sendControl(rig.ranks[0].peers[1], DatagramType.BYE, rig.now);
        rig.transfer();

        rig.ranks[1].receiveAll();

        RecordingHandler h = rig.ranks[1].handler;
        assertThat(h.failedPeers).containsExactly(0);
        assertThat(h.completions).containsExactly(Map.entry(11L, false));
        assertThat(rig.ranks[1].peers[0].state()).isEqualTo(Peer.State.DEAD);
        assertThat(rig.ranks[1].counter(Counters.DROP_DEAD_PEER)).as("the second BYE").isEqualTo(1);
        assertThat(rig.ranks[1].counter(Counters.PEERS_FAILED)).isEqualTo(1);
    }

    @Test
    void aDeadPeerThatSendsAgainIsToldSoOnceAHeartbeatPeriod() throws Exception {
        ProtocolRig rig = rig();
        ProtocolRig.Rank r1 = rig.ranks[1];
        r1.receiver.failPeer(r1.peers[0]);
        for (int i = 0; i < 3; i++) {
            rig.ranks[0].sender.sendControl(rig.ranks[0].peers[1], DatagramType.HEARTBEAT, rig.now);
        }
        rig.transfer();

        r1.receiveAll();

        assertThat(r1.io.sentOfType(DatagramType.DEAD_NOTICE)).as("one notice within a period").hasSize(1);
        assertThat(r1.counter(Counters.DEAD_NOTICES_SENT)).isEqualTo(1);
        assertThat(r1.peers[0].state()).isEqualTo(Peer.State.TOLD_DEAD);
        assertThat(r1.counter(Counters.DROP_DEAD_PEER)).isEqualTo(3);

        rig.advanceMillis(rig.settings.heartbeatMillis());
        rig.ranks[0].sender.sendControl(rig.ranks[0].peers[1], DatagramType.HEARTBEAT, rig.now);
        rig.transfer();
        r1.receiveAll();

        assertThat(r1.counter(Counters.DEAD_NOTICES_SENT)).as("another after a period").isEqualTo(2);
    }

    @Test
    void aDeadNoticeFailsThePeerThatSentIt() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[0].sender.sendControl(rig.ranks[0].peers[1], DatagramType.DEAD_NOTICE, rig.now);
        rig.transfer();

        rig.ranks[1].receiveAll();

        assertThat(rig.ranks[1].handler.failedPeers).containsExactly(0);
        assertThat(rig.ranks[1].counter(Counters.DEAD_NOTICES_RECEIVED)).isEqualTo(1);
    }

    @Test
    void holdsAnEarlyFragmentAndDeliversInOrderOnceTheGapFills() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.ranks[0].send(1, 2, ProtocolRig.payload(20, 2), 2);
        byte[] first = rig.ranks[0].io.sent.get(0).bytes();
        byte[] second = rig.ranks[0].io.sent.get(1).bytes();
        ProtocolRig.Rank r1 = rig.ranks[1];

        r1.io.inbound.add(second);
        r1.receiver.receiveOne();

        assertThat(r1.handler.messages).isEmpty();
        assertThat(r1.peers[0].receive.heldCount()).isEqualTo(1);
        assertThat(r1.peers[0].ackNow).as("a gap: the sender hears at once").isTrue();

        r1.io.inbound.add(first);
        r1.receiver.receiveOne();

        assertThat(r1.handler.messages).extracting(RecordingHandler.Message::id).containsExactly(1, 2);
        assertThat(r1.peers[0].receive.heldCount()).isZero();
    }

    @Test
    void aDuplicateIsDroppedAndReportedInTheNextAcknowledgement() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        byte[] original = sentByRank0(rig);
        rig.advanceMillis(rig.settings.rtoMaxMillis()); // no acknowledgement: the RTO resends it
        rig.ranks[0].sender.onTimer(rig.ranks[0].peers[1], rig.now);
        byte[] retransmission = sentByRank0(rig);
        ProtocolRig.Rank r1 = rig.ranks[1];
        r1.io.inbound.add(original);
        r1.io.inbound.add(retransmission);

        r1.receiveAll();

        assertThat(r1.handler.messages).hasSize(1);
        assertThat(r1.counter(Counters.DROP_DUPLICATE)).isEqualTo(1);
        assertThat(r1.peers[0].ackNow).isTrue();
        r1.agent.doWork();
        FakeIo.Sent ack = r1.io.sentOfType(DatagramType.ACK).getFirst();
        long cum = DatagramHeader.cumAck(ack.buffer());
        assertThat(DatagramHeader.duplicateSeq(cum, DatagramHeader.duplicate(ack.buffer()))).isZero();
    }

    @Test
    void dropsADatagramOfAnotherIncarnation() throws Exception {
        ProtocolRig rig = rig();
        rig.ranks[1].peers[0].incarnation = ProtocolRig.incarnation(0) + 1; // rank 0 restarted, as far as 1 knows
        rig.ranks[0].send(1, 1, ProtocolRig.payload(10, 1), 1);
        rig.transfer();

        rig.ranks[1].receiveAll();

        assertThat(rig.ranks[1].counter(Counters.DROP_INCARNATION)).isEqualTo(1);
        assertThat(rig.ranks[1].handler.messages).isEmpty();
    }
}
