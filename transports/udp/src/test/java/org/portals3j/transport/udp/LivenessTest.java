package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;

/** Heartbeats, the peer timeout, BYE, and what a dead peer does to pending work. */
class LivenessTest {
    private static final Map<String, String> SHORT = Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
            UdpOptions.PEER_TIMEOUT_MILLIS, "600");
    /** A peer timeout no test here outlasts (ten minutes): with it, a peer is declared dead only by its BYE. */
    private static final String NEVER = "600000";
    /** How long a test waits for what must happen: far beyond any scheduling delay of a loaded machine. */
    private static final long WAIT = 60_000;
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    @Test
    void aClosedPeerIsReportedAtOnceThroughBye() throws Exception {
        // a timeout longer than the test may run: only BYE can tell rank 0, whatever the schedule
        List<Transport> t = jobs.open(Job.local(2), Map.of(UdpOptions.PEER_TIMEOUT_MILLIS, NEVER));
        Recorder a = new Recorder();
        t.get(0).start(a);
        t.get(1).start(new Recorder());
        t.get(1).close();
        Recorder.await("peer failure", WAIT, () -> a.failedPeers.contains(1));
        assertThat(t.get(0).isPeerAlive(1)).isFalse();
        Thread.sleep(20);
        assertThat(a.failedPeers).containsExactly(1); // once
        t.get(0).send(1, Recorder.header(1), 16, MemorySegment.NULL, 0, 0, 77L);
        assertThat(a.completions).containsEntry(77L, false); // later sends complete false
    }

    @Test
    void aSilentPeerIsDeclaredDeadAfterTheTimeoutAndItsPendingSendsFail() throws Exception {
        Job job = Job.local(2);
        // rank 0 hears nothing: everything arriving at it is lost, so its sends are never acknowledged
        HashMap<String, String> deaf = new HashMap<>(SHORT);
        deaf.put(UdpOptions.FAULT_LOSS, "1");
        Transport t0 = jobs.openRank(job, 0, deaf);
        Transport t1 = jobs.openRank(job, 1, SHORT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        long start = System.nanoTime(); // rank 0's silence clock starts with it (the sends below take a while)
        t0.start(a);
        t1.start(b);
        MemorySegment big = Recorder.payload(3 << 20, 3);
        for (int i = 0; i < 20; i++) {
            t0.send(1, Recorder.header(i), 16, big, 0, big.byteSize(), i);
        }
        Recorder.await("rank 0 declares rank 1 dead", WAIT, () -> a.failedPeers.contains(1));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(ms).isGreaterThanOrEqualTo(400);
        Recorder.await("all sends completed", WAIT, () -> a.completions.size() == 20);
        assertThat(a.completions.values()).containsOnly(false);
        assertThat(t0.isPeerAlive(1)).isFalse();
        assertThat(t0.counters().getOrDefault("peers.failed", 0L)).isEqualTo(1);
        // rank 1 heard rank 0's data and heartbeats but its acks never got through; rank 1 received the
        // first message partially (the window) at most, and when rank 0 stops talking, it too times out
        // and fails the message in progress with deposit.fail()
        t0.close();
        Recorder.await("rank 1 learns", WAIT, () -> b.failedPeers.contains(0));
        for (Recorder.Message m : b.messages) {
            assertThat(m.failed() || m.deposited() == m.payloadLength()).isTrue();
        }
        a.assertClean();
        b.assertClean();
    }

    @Test
    void aPartlyReceivedMessageFailsWhenItsSenderDies() throws Exception {
        Job job = Job.local(2);
        Transport t0 = jobs.openRank(job, 0, SHORT);
        Transport t1 = jobs.openRank(job, 1, SHORT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t0.start(a);
        t1.start(b);
        MemorySegment huge = Recorder.payload(200 << 20, 1);
        t0.send(1, Recorder.header(5), 16, huge, 0, huge.byteSize(), 5L);
        Recorder.await("transfer under way", WAIT, () -> t1.counters().getOrDefault("datagrams.received", 0L) > 10);
        t0.close();
        Recorder.await("message ends", WAIT, () -> b.messages.size() == 1);
        Recorder.Message m = b.messages.element();
        assertThat(m.failed()).isTrue();
        assertThat(m.deposited()).isLessThan(huge.byteSize());
        assertThat(a.completions).containsEntry(5L, false);
        assertThat(b.failedPeers).containsExactly(0);
        b.assertClean();
    }

    @Test
    void aStallShorterThanTheTimeoutIsNotAFailure() throws Exception {
        Job job = Job.local(2);
        Map<String, String> options = Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
                UdpOptions.PEER_TIMEOUT_MILLIS, "10000");
        List<Transport> t = jobs.open(job, options);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t.get(0).start(a);
        t.get(1).start(b);
        b.stallMillis = 1_000; // rank 1's protocol thread stops (as in a GC pause), for less than the timeout
        t.get(0).send(1, Recorder.header(1), 16, MemorySegment.NULL, 0, 0, 1L);
        Recorder.await("first", WAIT, () -> b.messages.size() == 1);
        Thread.sleep(1_200);
        t.get(0).send(1, Recorder.header(2), 16, MemorySegment.NULL, 0, 0, 2L);
        Recorder.await("second", WAIT, () -> b.messages.size() == 2 && a.completions.size() == 2);
        assertThat(a.failedPeers).isEmpty();
        assertThat(b.failedPeers).isEmpty();
        assertThat(a.completions.values()).containsOnly(true);
        assertThat(t.get(0).counters().getOrDefault("heartbeats.sent", 0L)).isPositive();
    }
}
