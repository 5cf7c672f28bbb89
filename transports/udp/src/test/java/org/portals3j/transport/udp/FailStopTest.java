package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Job;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;

/**
 * The fail-stop model: a rank its peers declared dead is told so as soon as it runs again, a rank's own stop is
 * not held against its peers, and a receive path stuck in a handler call does not get its rank declared dead.
 * A stopped process is emulated by a socket on which every call waits ({@link ControlledIo#freeze}).
 */
class FailStopTest {
    /**
     * The short peer timeout: a stop or a blocked handler lasts longer, while a rank that runs is heard from within
     * it whatever the scheduling delays of a loaded machine (heartbeats go every 50 ms).
     */
    private static final long TIMEOUT_MILLIS = 2_000;
    /** How long a stop or a blocked handler lasts where it must outlast the short timeout. */
    private static final long STOP_MILLIS = TIMEOUT_MILLIS * 5 / 2;
    /** 50 ms heartbeats; the short peer timeout, or one that never fires during a test. */
    private static final Map<String, String> SHORT = Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
            UdpOptions.PEER_TIMEOUT_MILLIS, Long.toString(TIMEOUT_MILLIS));
    private static final Map<String, String> PATIENT = Map.of(UdpOptions.HEARTBEAT_MILLIS, "50",
            UdpOptions.PEER_TIMEOUT_MILLIS, "120000");
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    private static long counter(UdpEndpoint t, String name) {
        return t.counters().getOrDefault(name, 0L);
    }

    /**
     * Rank 1 is stopped longer than rank 0's timeout; rank 0 declares it dead. When rank 1 runs again, rank 0
     * answers its first datagram with a notice and rank 1 fails rank 0 at once; its own timeout (two minutes)
     * would have taken far longer.
     */
    @Test
    void aRankDeclaredDeadIsToldSoAsSoonAsItRunsAgain() throws Exception {
        Job job = Job.local(2);
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, SHORT);
        UdpJobs.Controlled c1 = jobs.openControlled(job, 1, PATIENT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t0.start(a);
        c1.endpoint().start(b);
        t0.send(1, Recorder.header(1), 16, Recorder.payload(10, 1), 0, 10, 1L);
        Recorder.await("the first message", 10_000, () -> b.messages.size() == 1);
        c1.io().freeze();
        Recorder.await("rank 0 declares the stopped rank 1 dead", 20_000, () -> a.failedPeers.contains(1));
        c1.io().thaw(false);
        Recorder.await("rank 1 learns that rank 0 declared it dead", 30_000, () -> b.failedPeers.contains(0));
        assertThat(counter(c1.endpoint(), "deadNotices.received")).isEqualTo(1);
        // rank 0 counts a notice once its send returned, which may be after rank 1 acted on it
        Recorder.await("rank 0 counts the notice it sent", 60_000, () -> counter(t0, "deadNotices.sent") > 0);
        assertThat(c1.endpoint().isPeerAlive(0)).isFalse();
        c1.endpoint().send(0, Recorder.header(2), 16, MemorySegment.NULL, 0, 0, 2L);
        assertThat(b.completions).containsEntry(2L, false);
        a.assertClean();
        b.assertClean();
    }

    /**
     * While rank 1 is stopped, what rank 0 sends it is lost (a long stop overflows the socket buffer). Rank 0 is
     * patient; rank 1's timeout is shorter than its own stop. When rank 1 runs again it must not declare rank 0
     * dead: its own stop is not silence of rank 0's.
     */
    @Test
    void aRanksOwnStopIsNotHeldAgainstItsPeers() throws Exception {
        Job job = Job.local(2);
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, PATIENT);
        UdpJobs.Controlled c1 = jobs.openControlled(job, 1, SHORT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t0.start(a);
        c1.endpoint().start(b);
        t0.send(1, Recorder.header(1), 16, Recorder.payload(10, 1), 0, 10, 1L);
        Recorder.await("the first message", 10_000, () -> b.messages.size() == 1);
        c1.io().freeze();
        Thread.sleep(STOP_MILLIS); // longer than rank 1's timeout
        c1.io().thaw(true);
        long received = counter(c1.endpoint(), "datagrams.received");
        Recorder.await("rank 1 hears rank 0 again", 10_000,
                () -> counter(c1.endpoint(), "datagrams.received") >= received + 5 || !b.failedPeers.isEmpty());
        assertThat(b.failedPeers).as("peers rank 1 declared dead").isEmpty();
        assertThat(counter(c1.endpoint(), "stalls")).isPositive();
        c1.endpoint().send(0, Recorder.header(2), 16, Recorder.payload(10, 2), 0, 10, 2L);
        t0.send(1, Recorder.header(3), 16, Recorder.payload(10, 3), 0, 10, 3L);
        Recorder.await("both messages", 10_000, () -> a.messages.size() == 1 && b.messages.size() == 2
                && b.completions.size() == 1);
        assertThat(b.completions).containsEntry(2L, true);
        assertThat(a.failedPeers).isEmpty();
    }

    /**
     * Rank 1 is stopped until rank 0 declares it dead, then runs again but hears nothing, so it never learns it and
     * keeps sending heartbeats every 10 ms; rank 0 answers them with at most one notice per heartbeat period
     * (200 ms).
     */
    @Test
    void noticesAreSentAtMostOnceAHeartbeatPeriod() throws Exception {
        Job job = Job.local(2);
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, Map.of(UdpOptions.HEARTBEAT_MILLIS, "200",
                UdpOptions.PEER_TIMEOUT_MILLIS, "1000"));
        UdpJobs.Controlled c1 = jobs.openControlled(job, 1, Map.of(UdpOptions.HEARTBEAT_MILLIS, "10",
                UdpOptions.PEER_TIMEOUT_MILLIS, "120000"));
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t0.start(a);
        c1.endpoint().start(b);
        c1.io().freeze();
        Recorder.await("rank 0 declares rank 1 dead", 20_000, () -> a.failedPeers.contains(1));
        // the clock starts before rank 1 runs again, so every notice is sent within the time measured
        long start = System.nanoTime();
        c1.io().deafen();
        c1.io().thaw(true);
        long droppedBefore = counter(t0, "drop.deadPeer");
        Recorder.await("rank 0 drops 100 more of rank 1's datagrams", 30_000,
                () -> counter(t0, "drop.deadPeer") >= droppedBefore + 100);
        long notices = counter(t0, "deadNotices.sent");
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(notices).isPositive()
                .isLessThanOrEqualTo(2 + elapsedMillis / 200); // one a period begun, and one spare
    }

    /**
     * Rank 1's handler blocks for longer than the peer timeout (as when it waits for the upper layer's lock held
     * by a long call); the heartbeat timer keeps rank 1 alive for rank 0, rank 1 does not hold the time against
     * rank 0, and the job goes on afterwards.
     */
    @Test
    void aHandlerBlockedForSeveralTimeoutsDoesNotGetItsRankDeclaredDead() throws Exception {
        Job job = Job.local(2);
        UdpEndpoint t0 = (UdpEndpoint) jobs.openRank(job, 0, SHORT);
        UdpEndpoint t1 = (UdpEndpoint) jobs.openRank(job, 1, SHORT);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        t0.start(a);
        t1.start(b);
        b.stallMillis = STOP_MILLIS;
        t0.send(1, Recorder.header(1), 16, Recorder.payload(10, 1), 0, 10, 1L);
        Recorder.await("the message whose delivery blocks", 10_000, () -> b.messages.size() == 1);
        Recorder.await("the handler returns", 60_000, () -> b.stallMillis == 0 && counter(t1, "stalls") > 0);
        t0.send(1, Recorder.header(2), 16, Recorder.payload(10, 2), 0, 10, 2L);
        t1.send(0, Recorder.header(3), 16, Recorder.payload(10, 3), 0, 10, 3L);
        Recorder.await("the job goes on", 10_000, () -> b.messages.size() == 2 && a.messages.size() == 1
                && a.completions.size() == 2 && b.completions.size() == 1);
        assertThat(a.failedPeers).as("peers rank 0 declared dead").isEmpty();
        assertThat(b.failedPeers).as("peers rank 1 declared dead").isEmpty();
        assertThat(a.completions.values()).containsOnly(true);
        assertThat(b.completions.values()).containsOnly(true);
        assertThat(counter(t1, "heartbeats.whileStuck")).isPositive();
    }
}
