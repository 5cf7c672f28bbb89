package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.launcher.ranks.PeerDeath;
import org.portals3j.launcher.ranks.PutStream;
import org.portals3j.runtime.JobKey;

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
        Rank rank1 = Rank.start(1, port, key);
        Rank rank0 = Rank.start(0, port, key);
        String ready = rank1.await(l -> l.startsWith("ready pid="));
        rank0.await(l -> l.equals("get pending"));
        signal("KILL", ready.substring(ready.indexOf('=') + 1));
        assertThat(rank0.process.waitFor(60, TimeUnit.SECONDS)).as("rank 0 ended; stdout %s", rank0.out).isTrue();
        assertThat(rank0.process.exitValue()).as("rank 0 status; stdout %s", rank0.out).isZero();
        assertThat(rank0.out).containsSubsequence("get pending", "REPLY_FAIL PEER_DEAD alive=false",
                "SEND_FAIL PEER_DEAD");
        rank1.process.waitFor(10, TimeUnit.SECONDS);
    }

    private static void signal(String name, String pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + name, pid).start().waitFor()).as("kill -%s %s", name, pid).isZero();
    }

    /** One rank JVM started the way Slurm would start it. */
    private record Rank(Process process, List<String> out) {
        static Rank start(int rank, int port, String key) throws Exception {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                    System.getProperty("java.class.path"), PeerDeath.class.getName());
            pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS_") || k.startsWith("SLURM_")
                    || k.startsWith("OMPI_"));
            pb.environment().put("SLURM_PROCID", Integer.toString(rank));
            pb.environment().put("SLURM_NTASKS", "2");
            pb.environment().put("SLURM_JOB_ID", "failure-" + port);
            pb.environment().put("PORTALS_RENDEZVOUS", "127.0.0.1:" + port);
            pb.environment().put("PORTALS_JOB_KEY", key);
            pb.environment().put("PORTALS_TRANSPORT", "udp");
            // a short peer timeout: a SIGKILLed process sends no BYE, only silence tells
            pb.environment().put("PORTALS_TRANSPORT_OPTIONS", "udp.peerTimeoutMillis=1500,udp.heartbeatMillis=200");
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            Process p = pb.start();
            List<String> out = new CopyOnWriteArrayList<>();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        out.add(line);
                    }
                } catch (java.io.IOException e) {
                    // the rank is gone
                }
            });
            return new Rank(p, out);
        }

        String await(java.util.function.Predicate<String> match) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                for (String l : out) {
                    if (match.test(l)) {
                        return l;
                    }
                }
                if (!process.isAlive()) {
                    break;
                }
                Thread.sleep(20);
            }
            process.destroyForcibly();
            throw new AssertionError("no such line; stdout " + out);
        }
    }
}
