package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.transport.JobKey;

/**
 * The README's multi-host recipe on four "hosts": network namespaces on one bridge, each with its own address
 * and name and a 1500-byte MTU, a rank in each with the environment srun or mpirun gives it across nodes and
 * the recipe's settings (rank 0's port, one job key, fixed udp ports). Root only; skipped otherwise.
 */
class MultiHostRecipeIT {
    private static final int HOSTS = 4;
    private static final String SUFFIX = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xFFFF));
    private static final String HUB = "p3j-hub-" + SUFFIX;
    private static final int SUBNET = ThreadLocalRandom.current().nextInt(16, 250);
    /** The recipe's ports: the rendezvous on rank 0's host, and rank r's udp socket on UDP_BASE + r. */
    private static final int RENDEZVOUS_PORT = 7010;
    private static final int UDP_BASE = 7100;
    private static final long JOB_SECONDS = 180;
    private static final List<String> MADE = new ArrayList<>();

    @BeforeAll
    static void fourHostsOnABridge() throws Exception {
        assumeTrue(Commands.isRoot(), "network namespaces need root; run the test command as root to include this"
                + " test");
        Commands.Result ip = Commands.run("ip", "-V");
        assumeTrue(ip.status() == 0, "iproute2 ('ip') is not usable (the test command installs it as root): "
                + ip.output().strip());
        Commands.Result hub = Commands.run("ip", "netns", "add", HUB);
        assumeTrue(hub.status() == 0, "cannot create a network namespace here: " + hub.output().strip());
        MADE.add(HUB);
        Commands.Result bridge = Commands.run("ip", "-n", HUB, "link", "add", "br0", "type", "bridge");
        assumeTrue(bridge.status() == 0, "cannot create a bridge here: " + bridge.output().strip());
        must("ip", "-n", HUB, "link", "set", "br0", "up");
        for (int h = 0; h < HOSTS; h++) {
            String ns = host(h);
            must("ip", "netns", "add", ns);
            MADE.add(ns);
            String inHost = "p3jh" + h + SUFFIX;
            String inHub = "p3jb" + h + SUFFIX;
            must("ip", "link", "add", inHost, "type", "veth", "peer", "name", inHub);
            must("ip", "link", "set", inHost, "netns", ns);
            must("ip", "link", "set", inHub, "netns", HUB);
            must("ip", "-n", HUB, "link", "set", inHub, "master", "br0");
            must("ip", "-n", HUB, "link", "set", inHub, "up");
            must("ip", "-n", ns, "link", "set", inHost, "mtu", "1500");
            must("ip", "-n", ns, "addr", "add", address(h) + "/24", "dev", inHost);
            must("ip", "-n", ns, "link", "set", inHost, "up");
            must("ip", "-n", ns, "link", "set", "lo", "up");
        }
        // each host resolves the others' names as DNS would: ip netns exec puts /etc/netns/NS/hosts on /etc/hosts
        StringBuilder hosts = new StringBuilder("127.0.0.1 localhost\n");
        for (int h = 0; h < HOSTS; h++) {
            hosts.append(address(h)).append(' ').append(nodeName(h)).append('\n');
        }
        for (int h = 0; h < HOSTS; h++) {
            Path etc = Files.createDirectories(Path.of("/etc/netns", host(h)));
            Files.writeString(etc.resolve("hosts"), hosts.toString(), StandardCharsets.UTF_8);
        }
    }

    @AfterAll
    static void removeTheHosts() throws Exception {
        for (String ns : MADE) {
            Commands.run("ip", "netns", "del", ns); // takes its veth ends (and the hub its bridge) with it
            Commands.run("rm", "-rf", Path.of("/etc/netns", ns).toString());
        }
        MADE.clear();
    }

    @Test
    void javaRanksOnFourHostsUnderSrunPassATokenRoundTheRing() throws Exception {
        List<String> out = runOnEveryHost(MultiHostRecipeIT::slurmTask, List.of(StarterJobs.JAVA,
                "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp", StarterJobs.JAR.toString(),
                "org.portals3j.examples.Ring", "2"), Map.of());
        assertThat(out).contains("ring of 4 ranks: 2 laps, final token 8");
        for (int r = 1; r < HOSTS; r++) {
            assertThat(out).contains("rank " + r + " of 4: lap 2, token " + (HOSTS + r) + " from rank " + (r - 1));
        }
    }

    @Test
    void cRanksOnFourHostsUnderSrunRunRingToken(@TempDir Path dir) throws Exception {
        Path program = dir.resolve("ring_token33");
        Commands.Result cc = Commands.run(StarterJobs.NATIVE.resolve("bin/portalscc").toString(), "-DPTL_DIALECT_33",
                "-I" + StarterJobs.C_SOURCES, StarterJobs.C_SOURCES.resolve("ring_token33.c").toString(), "-o",
                program.toString());
        assertThat(cc.status()).as("portalscc ring_token33.c: %s", cc.output()).isZero();
        List<String> out = runOnEveryHost(MultiHostRecipeIT::slurmTask, List.of(program.toString(), "50"),
                Map.of("PORTALS3J_CLASSPATH", StarterJobs.JAR.toString(),
                        "PORTALS3J_JVM_OPTIONS", "-XX:TieredStopAtLevel=1"));
        for (int r = 0; r < HOSTS; r++) {
            assertThat(out).contains("ring_token33: rank " + r + " passed");
        }
    }

    @Test
    void mpiRanksOnFourHostsUnderMpirunAgreeOnAnAllReduce(@TempDir Path dir) throws Exception {
        Path app = MpiPrograms.appJar("AllReduceSum", StarterJobs.MPI_CLASSES, dir);
        List<String> out = runOnEveryHost(MultiHostRecipeIT::openMpiProcess, List.of(StarterJobs.JAVA,
                "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                StarterJobs.JAR + ":" + app, "AllReduceSum"), Map.of());
        for (int r = 0; r < HOSTS; r++) {
            assertThat(out).contains("rank " + r + " of 4: allReduce sum 10, max 3");
        }
    }

    /**
     * What srun puts in the environment of task {@code rank} of a 4-task step on 4 nodes, and the recipe's
     * {@code PORTALS_RENDEZVOUS=:PORT}: rank 0's node is the first of the step's node list.
     */
    private static Map<String, String> slurmTask(int rank) {
        return Map.of("SLURM_PROCID", Integer.toString(rank), "SLURM_NTASKS", Integer.toString(HOSTS),
                "SLURM_NODEID", Integer.toString(rank), "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0",
                "SLURM_STEP_NUM_NODES", Integer.toString(HOSTS), "SLURM_NNODES", Integer.toString(HOSTS),
                "SLURM_STEP_NODELIST", "p3j" + SUFFIX + "n[0-" + (HOSTS - 1) + "]",
                "PORTALS_RENDEZVOUS", ":" + RENDEZVOUS_PORT);
    }

    /**
     * What mpirun puts in the environment of process {@code rank} of a 4-process job, one per host, and the
     * recipe's {@code PORTALS_RENDEZVOUS=$(hostname):PORT} from the first host, where mpirun places rank 0.
     */
    private static Map<String, String> openMpiProcess(int rank) {
        return Map.of("OMPI_COMM_WORLD_RANK", Integer.toString(rank), "OMPI_COMM_WORLD_SIZE",
                Integer.toString(HOSTS), "OMPI_COMM_WORLD_LOCAL_SIZE", "1", "OMPI_MCA_ess_base_jobid", "31337",
                "PORTALS_RENDEZVOUS", nodeName(0) + ":" + RENDEZVOUS_PORT);
    }

    /**
     * Starts rank {@code h} in host {@code h} with the starter's variables and the recipe's, waits for every rank
     * to end with status 0, and returns all their output lines.
     */
    private static List<String> runOnEveryHost(IntFunction<Map<String, String>> starterEnv, List<String> program,
                                               Map<String, String> extraEnv) throws Exception {
        String key = JobKey.random().toHex(); // one key for the job, given to every rank (the recipe: a file)
        List<Process> ranks = new ArrayList<>();
        List<List<String>> outputs = new ArrayList<>();
        List<Thread> pumps = new ArrayList<>();
        try {
            for (int h = 0; h < HOSTS; h++) {
                List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", host(h)));
                cmd.addAll(program);
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                pb.environment().keySet().removeIf(k -> k.startsWith("PORTALS") || k.startsWith("SLURM_")
                        || k.startsWith("OMPI_"));
                pb.environment().putAll(starterEnv.apply(h));
                pb.environment().put("PORTALS_JOB_KEY", key);
                pb.environment().put("PORTALS_TRANSPORT_OPTIONS", "udp.port=" + UDP_BASE + ",udp.datagramSize=1472");
                pb.environment().put("PORTALS_RENDEZVOUS_TIMEOUT", "120");
                pb.environment().putAll(extraEnv);
                Process p = pb.start();
                List<String> out = new CopyOnWriteArrayList<>();
                ranks.add(p);
                outputs.add(out);
                pumps.add(Thread.ofPlatform().daemon().start(() -> {
                    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                            StandardCharsets.UTF_8))) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            out.add(line.strip());
                        }
                    } catch (IOException e) {
                        // the rank is gone
                    }
                }));
            }
            List<String> lines = new ArrayList<>();
            for (int h = 0; h < HOSTS; h++) {
                Process p = ranks.get(h);
                boolean ended = p.waitFor(JOB_SECONDS, TimeUnit.SECONDS);
                if (ended) {
                    pumps.get(h).join(30_000);
                }
                String out = String.join("\n", outputs.get(h));
                assertThat(ended).as("rank %d ended within %d s; output so far:%n%s", h, JOB_SECONDS, out).isTrue();
                assertThat(p.exitValue()).as("rank %d's exit status; output:%n%s", h, out).isZero();
                lines.addAll(outputs.get(h));
            }
            return lines;
        } finally {
            for (Process p : ranks) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    private static String host(int h) {
        return "p3j-host" + h + "-" + SUFFIX;
    }

    /** Host {@code h}'s name, which every host resolves to its address. */
    private static String nodeName(int h) {
        return "p3j" + SUFFIX + "n" + h;
    }

    private static String address(int h) {
        return "10.79." + SUBNET + "." + (h + 1);
    }

    private static void must(String... cmd) throws Exception {
        Commands.Result r = Commands.run(cmd);
        assertThat(r.status()).as("%s: %s", String.join(" ", cmd), r.output()).isZero();
    }
}
