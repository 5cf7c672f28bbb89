package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Job;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;
import org.portals3j.transport.udp.internal.wire.DatagramType;

/**
 * Anti-replay: every authenticated datagram is acted on at most once, whatever its type, and a peer that is gone
 * is declared dead within the timeout although an attacker replays its captured datagrams.
 */
class ReplayTest {
    private static final Map<String, String> SHORT = Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
            UdpOptions.PEER_TIMEOUT_MILLIS, "1000");
    /** A peer timeout that never fires during a test: a peer is declared dead only by its BYE. */
    private static final Map<String, String> PATIENT = Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
            UdpOptions.PEER_TIMEOUT_MILLIS, "600000");
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    private static long counter(UdpEndpoint t, String name) {
        return t.counters().getOrDefault(name, 0L);
    }

    @Test
    void aReplayOfEachDatagramTypeIsDroppedAndCounted() throws Exception {
        Job job = Job.local(2);
        UdpJobs.Controlled c0 = jobs.openControlled(job, 0, PATIENT);
        UdpEndpoint t1 = (UdpEndpoint) jobs.openRank(job, 1, PATIENT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        c0.endpoint().start(a);
        t1.start(b);
        InetSocketAddress to1 = t1.localAddress();
        c0.endpoint().send(1, Recorder.header(1), 16, Recorder.payload(100, 1), 0, 100, 1L);
        t1.send(0, Recorder.header(2), 16, Recorder.payload(100, 2), 0, 100, 2L); // rank 0 acknowledges it
        Recorder.await("both messages", 10_000, () -> a.messages.size() == 1 && b.messages.size() == 1
                && a.completions.size() == 1 && b.completions.size() == 1);
        Recorder.await("an ACK and a HEARTBEAT from rank 0", 10_000, () -> c0.io().sentTo(to1).stream()
                .map(ControlledIo.Sent::type).toList().containsAll(List.of(DatagramType.ACK, DatagramType.HEARTBEAT)));
        List<ControlledIo.Sent> captured = c0.io().sentTo(to1);
        // one message more, sent after every captured datagram: once it arrived, so had they (loopback keeps order)
        c0.endpoint().send(1, Recorder.header(3), 16, Recorder.payload(10, 3), 0, 10, 3L);
        Recorder.await("the third message", 10_000, () -> b.messages.size() == 2);
        try (DatagramChannel attacker = DatagramChannel.open()) {
            for (int type : List.of(DatagramType.DATA, DatagramType.ACK, DatagramType.HEARTBEAT)) {
                ControlledIo.Sent replayed = captured.stream().filter(s -> s.type() == type).findFirst().orElseThrow();
                long before = counter(t1, "drop.replay");
                attacker.send(ByteBuffer.wrap(replayed.bytes()), to1);
                Recorder.await("the replayed " + DatagramType.name(type) + " counted", 10_000,
                        () -> counter(t1, "drop.replay") == before + 1);
            }
            assertThat(b.messages).hasSize(2);
            // a duplicate at rank 1 is one of rank 0's retransmissions (under load an ACK can come late), never a
            // replayed DATA: retransmissions only grow, so reading them second keeps the bound honest
            long duplicates = counter(t1, "drop.duplicate");
            assertThat(duplicates).as("a replayed DATA never reaches the sequence numbers")
                    .isLessThanOrEqualTo(c0.endpoint().counters().getOrDefault("retransmits", 0L));

            // BYE: rank 0 closes, rank 1 learns at once; a replay of one of its BYEs is a replay too
            c0.endpoint().close();
            Recorder.await("rank 1 learns of the BYE", 10_000, () -> b.failedPeers.contains(0));
            ControlledIo.Sent bye = c0.io().sentTo(to1).stream().filter(s -> s.type() == DatagramType.BYE)
                    .findFirst().orElseThrow();
            Recorder.await("all three BYEs arrived", 10_000, () -> counter(t1, "drop.deadPeer") == 2);
            long before = counter(t1, "drop.replay");
            attacker.send(ByteBuffer.wrap(bye.bytes()), to1);
            Recorder.await("the replayed BYE counted", 10_000, () -> counter(t1, "drop.replay") == before + 1);
        }
        assertThat(b.failedPeers).containsExactly(0);
        b.assertClean();
    }

    /**
     * Rank 0 crashes (nothing leaves it any more, and no BYE); an attacker who captured its datagrams to rank 1
     * replays them all every 100 ms. Before every datagram was checked against a replay window, each replay made
     * rank 0 look alive and rank 1 never declared it dead.
     */
    @Test
    void aCrashedPeerIsDeclaredDeadWithinTheTimeoutThoughAnAttackerReplaysItsDatagrams() throws Exception {
        Job job = Job.local(2);
        UdpJobs.Controlled c0 = jobs.openControlled(job, 0, SHORT);
        UdpEndpoint t1 = (UdpEndpoint) jobs.openRank(job, 1, SHORT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        c0.endpoint().start(a);
        t1.start(b);
        InetSocketAddress to1 = t1.localAddress();
        c0.endpoint().send(1, Recorder.header(1), 16, Recorder.payload(100, 1), 0, 100, 1L);
        t1.send(0, Recorder.header(2), 16, Recorder.payload(100, 2), 0, 100, 2L);
        Recorder.await("both messages", 10_000, () -> a.messages.size() == 1 && b.messages.size() == 1);
        Recorder.await("a HEARTBEAT from rank 0", 10_000, () -> c0.io().sentTo(to1).stream()
                .anyMatch(s -> s.type() == DatagramType.HEARTBEAT));
        c0.io().die();
        List<ControlledIo.Sent> captured = c0.io().sentTo(to1);
        AtomicBoolean attacking = new AtomicBoolean(true);
        Thread attacker = Thread.ofPlatform().daemon().start(() -> {
            try (DatagramChannel out = DatagramChannel.open()) {
                while (attacking.get()) {
                    for (ControlledIo.Sent s : captured) {
                        out.send(ByteBuffer.wrap(s.bytes()), to1);
                    }
                    Thread.sleep(100);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            Recorder.await("rank 1 declares the crashed rank 0 dead (timeout 1 s)", 60_000,
                    () -> b.failedPeers.contains(0));
        } finally {
            attacking.set(false);
            attacker.join();
        }
        assertThat(counter(t1, "drop.replay")).as("replays seen and dropped").isPositive();
        assertThat(t1.isPeerAlive(0)).isFalse();
        b.assertClean();
    }
}
