package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.transport.JobKey;

/**
 * The same three 4-rank jobs started by an existing starter (srun, mpirun) with no Portals launcher, as the
 * README's recipe says: Java Portals ranks from the launcher jar, a C Portals program built with portalscc,
 * and an MPI-layer program; each rank's output is asserted.
 */
abstract class StarterJobs {
    static final int RANKS = 4;
    static final Path JAR = Path.of(System.getProperty("portals3j.launcher.jar", "portals-launcher.jar"));
    static final Path NATIVE = Path.of(System.getProperty("portals3j.native", "native"));
    static final Path C_SOURCES = Path.of(System.getProperty("portals3j.c.sources", "c"));
    static final Path MPI_CLASSES = Path.of(System.getProperty("portals3j.mpi.classes", "mpi-classes"));
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /** A bound on a whole job, for a loaded machine: a job that takes longer has hung. */
    private static final long JOB_SECONDS = 180;

    /** The words that start {@code RANKS} copies of a program: {@code srun -n 4 ...}, {@code mpirun -np 4 ...}. */
    abstract List<String> starter();

    /** What the starter itself needs in its environment (the cluster's configuration, root permission). */
    abstract Map<String, String> starterEnvironment();

    /** {@code PORTALS_RENDEZVOUS} as the recipe writes it for this starter, with a free port of this host. */
    abstract String rendezvous(int port);

    @Test
    void javaRanksFromTheLauncherJarPassATokenRoundTheRing() throws Exception {
        Outcome job = run(List.of(JAVA, "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                JAR.toString(), "org.portals3j.examples.Ring", "2"), Map.of());
        assertThat(job.status()).as(job.describe()).isZero();
        for (int r = 0; r < RANKS; r++) {
            int from = (r + RANKS - 1) % RANKS;
            assertThat(job.lines()).as(job.describe()).contains("rank " + r + " of " + RANKS + ": lap 2, token "
                    + (RANKS + (r == 0 ? RANKS : r)) + " from rank " + from);
        }
        assertThat(job.lines()).as(job.describe()).contains("ring of 4 ranks: 2 laps, final token 8");
    }

    @Test
    void cProgramBuiltWithPortalsccRunsAsFourRanks(@TempDir Path dir) throws Exception {
        Path program = dir.resolve("ring_token33");
        Commands.Result cc = Commands.run(NATIVE.resolve("bin/portalscc").toString(), "-DPTL_DIALECT_33", "-Wall",
                "-Werror", "-I" + C_SOURCES, C_SOURCES.resolve("ring_token33.c").toString(), "-o", program.toString());
        assertThat(cc.status()).as("portalscc ring_token33.c (is native-shim built?): %s", cc.output()).isZero();
        // the engine inside each C process runs from the launcher jar, as portals run would set it
        Outcome job = run(List.of(program.toString(), "50"), Map.of("PORTALS3J_CLASSPATH", JAR.toString(),
                "PORTALS3J_JVM_OPTIONS", "-XX:TieredStopAtLevel=1"));
        assertThat(job.status()).as(job.describe()).isZero();
        for (int r = 0; r < RANKS; r++) {
            assertThat(job.lines()).as(job.describe()).contains("ring_token33: rank " + r + " passed");
        }
    }

    @Test
    void mpiLayerRanksAgreeOnAnAllReduce(@TempDir Path dir) throws Exception {
        Path app = MpiPrograms.appJar("AllReduceSum", MPI_CLASSES, dir);
        Outcome job = run(List.of(JAVA, "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                JAR + ":" + app, "AllReduceSum"), Map.of());
        assertThat(job.status()).as(job.describe()).isZero();
        for (int r = 0; r < RANKS; r++) {
            assertThat(job.lines()).as(job.describe()).contains("rank " + r + " of 4: allReduce sum 10, max 3");
        }
    }

    /** The job's exit status and its output lines (stdout and stderr of every rank and of the starter). */
    record Outcome(int status, List<String> lines) {
        String describe() {
            return "exit status " + status + ", output:\n" + String.join("\n", lines);
        }
    }

    /**
     * Runs {@code program} under the starter with the recipe's environment: {@code PORTALS_RENDEZVOUS} (rank 0
     * serves it) and a random {@code PORTALS_JOB_KEY}.
     */
    Outcome run(List<String> program, Map<String, String> extraEnv) throws Exception {
        List<String> cmd = new ArrayList<>(starter());
        cmd.addAll(program);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS") || k.startsWith("SLURM_")
                || k.startsWith("OMPI_"));
        Map<String, String> env = new HashMap<>(starterEnvironment());
        env.put("PORTALS_RENDEZVOUS", rendezvous(freePort()));
        env.put("PORTALS_JOB_KEY", JobKey.random().toHex());
        env.put("PORTALS_RENDEZVOUS_TIMEOUT", "120");
        env.putAll(extraEnv);
        pb.environment().putAll(env);
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        Thread pump = Thread.ofPlatform().daemon().start(() -> {
            try (InputStream in = p.getInputStream()) {
                out.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the starter is gone
            }
        });
        if (!p.waitFor(JOB_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            pump.join(10_000);
            throw new AssertionError(String.join(" ", cmd) + " did not end within " + JOB_SECONDS + " s; output:\n"
                    + out);
        }
        pump.join(30_000);
        return new Outcome(p.exitValue(), out.toString().lines().map(String::strip).toList());
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }
}
