package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.launcher.ranks.PeerDeath;
import org.portals3j.launcher.ranks.PutStream;
import org.portals3j.launcher.ranks.StopResume;
import org.portals3j.transport.JobKey;

/**
 * Failure handling on the udp transport with real processes and real signals: a stalled process (a long
 * GC pause, a debugger, SIGSTOP) is not a dead one; a killed one is, and every operation towards it ends.
 */
class FailureHandlingTest {

    @Test
    void aRankStoppedForFiveSecondsIsNotDeclaredDeadUnderTheDefaults() throws Exception {
        // 30 acknowledged puts, one every 200 ms: the stop falls in the middle of the stream
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--transport", "udp", "--",
                PutStream.class.getName(), "30", "200");
        String ready = run.awaitOut(l -> l.startsWith("[1] ready pid="), 1).get(0);
        String pid = ready.substring(ready.indexOf('=') + 1);
        Thread.sleep(500);
        signal("STOP", pid);
        Thread.sleep(5_000);
        signal("CONT", pid);
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] sent 30 acked 30", "[1] received 30");
        assertThat(run.err).noneMatch(l -> l.contains("dead") || l.contains("FAIL"));
    }

    @Test
    void aKilledRankFailsThePendingGetAndLaterPutsWithPeerDead() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String key = JobKey.random().toHex();
        // placed as srun would place them (no launcher, which would end the job when a rank dies)
        // a short peer timeout: a SIGKILLed process sends no BYE, only silence tells
        String options = "udp.peerTimeoutMillis=1500,udp.heartbeatMillis=200";
        SlurmRank rank1 = SlurmRank.start(List.of(), 1, 2, "127.0.0.1:" + port, key, options, false,
                PeerDeath.class.getName());
        SlurmRank rank0 = SlurmRank.start(List.of(), 0, 2, "127.0.0.1:" + port, key, options, false,
                PeerDeath.class.getName());
        String ready = rank1.await(l -> l.startsWith("ready pid="));
        rank0.await(l -> l.equals("get pending"));
        signal("KILL", ready.substring(ready.indexOf('=') + 1));
        assertThat(rank0.process().waitFor(60, TimeUnit.SECONDS)).as("rank 0 ended; stdout %s", rank0.output())
                .isTrue();
        assertThat(rank0.process().exitValue()).as("rank 0 status; stdout %s", rank0.output()).isZero();
        assertThat(rank0.output()).containsSubsequence("get pending", "REPLY_FAIL PEER_DEAD alive=false",
                "SEND_FAIL PEER_DEAD");
        rank1.process().waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * The fail-stop model (issue 17, defect 8): a rank stopped longer than the peer timeout has been declared dead
     * by its peers, and when it resumes it is told so by the first of them it sends to, at once, rather than
     * finding out by its own timeout a whole period later. Rank 0's timeout is 10 s; rank 1's is ten minutes, longer
     * than the test may wait, so only the notice can tell it, whatever the schedule. Placed as srun places ranks,
     * so that no launcher ends the job when rank 0 sees rank 1 die.
     */
    @Test
    void aRankStoppedLongerThanThePeerTimeoutIsToldAtOnceWhenItResumes() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String key = JobKey.random().toHex();
        SlurmRank rank1 = SlurmRank.start(List.of(), 1, 2, "127.0.0.1:" + port, key,
                "udp.peerTimeoutMillis=600000,udp.heartbeatMillis=200", true, StopResume.class.getName());
        SlurmRank rank0 = SlurmRank.start(List.of(), 0, 2, "127.0.0.1:" + port, key,
                "udp.peerTimeoutMillis=10000,udp.heartbeatMillis=200", true, StopResume.class.getName());
        try {
            String ready = rank1.await(l -> l.startsWith("ready pid="));
            String pid = ready.substring(ready.indexOf('=') + 1);
            signal("STOP", pid);
            try {
                rank0.await(l -> l.equals("rank 1 is gone")); // after the 10 s timeout
            } finally {
                signal("CONT", pid);
            }
            // within the await's minute, far less than rank 1's own timeout: the notice told it
            rank1.await(l -> l.equals("rank 0 is gone"));
            assertThat(rank1.output()).as("what rank 1 logged").anyMatch(l -> l.contains("declared this rank dead"));
        } finally {
            rank0.process().getOutputStream().close();
            rank0.process().waitFor(10, TimeUnit.SECONDS);
            rank0.process().destroyForcibly();
            rank1.process().destroyForcibly();
        }
    }

    private static void signal(String name, String pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + name, pid).start().waitFor()).as("kill -%s %s", name, pid).isZero();
    }
}
