package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.runtime.JobBootstrap;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;

/**
 * A peer that goes silent without a word (its process killed, or its receive path stuck so that it answers no
 * keep-alive) is reported through {@code onPeerFailure} within a bounded time, and sends to it complete not
 * delivered, while the other peers go on.
 */
class GmPeerFailureTest {
    private static final String OPTIONS = "gm.provider=tcp,gm.keepaliveMillis=200,gm.ackTimeoutMillis=2000";

    private final Arena arena = Arena.ofShared();
    private final List<Recorder> recorders = new ArrayList<>();
    private List<Transport> endpoints = List.of();

    @AfterEach
    void closeAll() {
        endpoints.forEach(Transport::close);
    }

    /** Rank 1 of {@link #aKilledRankIsReportedFailedAndSendsToItFail}: joins, says hello to rank 0, then waits. */
    public static void main(String[] args) throws Exception {
        JobContext job = JobRuntime.join();
        job.transport().start(new MessageHandler() {
            @Override
            public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength,
                                 Deposit deposit) {
            }

            @Override
            public void onDeposited(int source, Deposit deposit) {
            }

            @Override
            public void onSendComplete(long token, boolean delivered) {
            }

            @Override
            public void onPeerFailure(int peer) {
            }
        });
        try (Arena arena = Arena.ofConfined()) {
            job.transport().send(0, arena.allocate(8), 8, MemorySegment.NULL, 0, 0, 1);
        }
        new CountDownLatch(1).await(); // until killed
    }

    @Test
    void aKilledRankIsReportedFailedAndSendsToItFail(@TempDir Path dir) throws Exception {
        GmTestSupport.assumeAvailable("tcp");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> env = new HashMap<>(Map.of("PORTALS_RENDEZVOUS", "127.0.0.1:" + port,
                "PORTALS_JOB_KEY", JobKey.random().toHex(), "SLURM_PROCID", "1", "SLURM_NTASKS", "2",
                "SLURM_JOB_ID", "19", JobRuntime.TRANSPORT, GmTransportProvider.NAME,
                JobRuntime.TRANSPORT_OPTIONS, OPTIONS, JobRuntime.RENDEZVOUS_TIMEOUT, "60"));
        Path log = dir.resolve("rank1.log");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                GmPeerFailureTest.class.getName())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process child = pb.start();
        env.put("SLURM_PROCID", "0");
        try (JobBootstrap rank0 = JobRuntime.bootstrap(env)) {
            Transport t = rank0.open().transport();
            Recorder rec = new Recorder();
            t.start(rec);
            assertThat(rec.next(GmTestSupport.PATIENCE).source()).as("rank 1's hello; its log: %s", text(log))
                    .isEqualTo(1);
            assertThat(t.isPeerAlive(1)).isTrue();

            child.destroyForcibly(); // SIGKILL: no BYE, no close of its port
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("rank 1 died").isTrue();
            GmTestSupport.await("rank 0 hears that the killed rank 1 failed", () -> rec.failedPeers.contains(1));
            assertThat(t.isPeerAlive(1)).isFalse();
            t.send(1, arena.allocate(8), 8, GmTestSupport.pattern(arena, 100_000, 1), 0, 100_000, 7);
            GmTestSupport.await("the send to the killed rank completes", () -> rec.completions.containsKey(7L));
            assertThat(rec.completions).containsEntry(7L, false);
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aRankWhoseReceivePathIsStuckIsReportedFailedByTheOthers() throws Exception {
        GmTestSupport.assumeAvailable("tcp");
        Map<String, String> options = Map.of(GmOptions.PROVIDER, "tcp", GmOptions.KEEPALIVE_MILLIS, "200",
                GmOptions.ACK_TIMEOUT_MILLIS, "2000");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch stuck = new CountDownLatch(1);
        endpoints = GmTestSupport.start(3, options, recorders);
        // libgm watches a peer (keep-alives) once the two have spoken: every pair speaks first
        for (int from = 0; from < 3; from++) {
            for (int to = 0; to < 3; to++) {
                if (from != to) {
                    endpoints.get(from).send(to, arena.allocate(8), 8, MemorySegment.NULL, 0, 0, 100 + to);
                }
            }
        }
        for (int rank = 0; rank < 3; rank++) {
            Recorder rec = recorders.get(rank);
            GmTestSupport.await("rank " + rank + "'s hellos delivered", () -> rec.completions.size() == 2);
            assertThat(rec.completions.values()).containsOnly(true);
            rec.next(GmTestSupport.PATIENCE);
            rec.next(GmTestSupport.PATIENCE);
        }
        recorders.get(1).onHeaderHook = () -> { // rank 1's receive path stops: it polls and answers nothing
            stuck.countDown();
            awaitQuietly(release);
        };
        try {
            endpoints.get(0).send(1, arena.allocate(8), 8, MemorySegment.NULL, 0, 0, 1);
            assertThat(stuck.await(GmTestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            for (int rank : new int[] {0, 2}) {
                Recorder rec = recorders.get(rank);
                GmTestSupport.await("rank " + rank + " hears that the silent rank 1 failed",
                        () -> rec.failedPeers.contains(1));
                assertThat(endpoints.get(rank).isPeerAlive(1)).isFalse();
            }
            endpoints.get(2).send(1, arena.allocate(8), 8, GmTestSupport.pattern(arena, 64, 1), 0, 64, 5);
            GmTestSupport.await("the send to the silent rank completes", () -> recorders.get(2).completions
                    .containsKey(5L));
            assertThat(recorders.get(2).completions).containsEntry(5L, false);
            endpoints.get(0).send(2, arena.allocate(8), 8, GmTestSupport.pattern(arena, 64, 2), 0, 64, 6);
            assertThat(recorders.get(2).next(GmTestSupport.PATIENCE).source()).as("the others go on").isZero();
        } finally {
            release.countDown();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String text(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
