package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.portals3j.launcher.ranks.Transfer;
import org.portals3j.transport.JobKey;

/**
 * Two ranks in two network namespaces joined by a veth pair: a real IP path, with {@code tc netem} loss,
 * delay and reordering on it where the kernel has netem. Needs root and iproute2 (the test command installs
 * it); otherwise skipped, saying why.
 */
class NetworkNamespaceTest {
    private final String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xFFFF));
    private final String nsA = "p3j-a-" + suffix;
    private final String nsB = "p3j-b-" + suffix;
    private final String vethA = "p3ja" + suffix;
    private final String vethB = "p3jb" + suffix;
    private final int subnet = ThreadLocalRandom.current().nextInt(16, 250);
    private final String ipA = "10.77." + subnet + ".1";
    private final String ipB = "10.77." + subnet + ".2";

    @BeforeEach
    void twoNamespacesJoinedByAVethPair() throws Exception {
        assumeTrue(isRoot(), "network namespaces need root; run the test command as root to include this test");
        assumeTrue(run("ip", "-V").status == 0,
                "iproute2 ('ip') is not installed; the test command installs it as root");
        Result made = run("ip", "netns", "add", nsA);
        assumeTrue(made.status == 0, "cannot create a network namespace here: " + made.output);
        must("ip", "netns", "add", nsB);
        must("ip", "link", "add", vethA, "type", "veth", "peer", "name", vethB);
        must("ip", "link", "set", vethA, "netns", nsA);
        must("ip", "link", "set", vethB, "netns", nsB);
        must("ip", "-n", nsA, "addr", "add", ipA + "/24", "dev", vethA);
        must("ip", "-n", nsB, "addr", "add", ipB + "/24", "dev", vethB);
        for (String[] nsDev : new String[][] {{nsA, vethA}, {nsB, vethB}}) {
            must("ip", "-n", nsDev[0], "link", "set", nsDev[1], "up");
            must("ip", "-n", nsDev[0], "link", "set", "lo", "up");
        }
    }

    @AfterEach
    void removeTheNamespaces() throws Exception {
        run("ip", "netns", "del", nsA); // deleting a namespace deletes the veth pair with it
        run("ip", "netns", "del", nsB);
    }

    @Test
    void aJobAcrossTwoNetworkNamespacesMovesEveryByte() throws Exception {
        transfer(20, 200_000);
    }

    @Test
    void aJobAcrossNamespacesSurvivesNetemLossDelayAndReordering() throws Exception {
        for (String[] nsDev : new String[][] {{nsA, vethA}, {nsB, vethB}}) {
            Result tc = run("ip", "netns", "exec", nsDev[0], "tc", "qdisc", "add", "dev", nsDev[1], "root", "netem",
                    "delay", "2ms", "1ms", "loss", "3%", "reorder", "20%", "50%");
            assumeTrue(tc.status == 0, "tc netem is not usable on this machine (the kernel needs sch_netem): "
                    + tc.output.strip());
        }
        transfer(10, 200_000);
    }

    /** Rank 0 in namespace A puts {@code count} messages to rank 1 in namespace B, which checks every byte. */
    private void transfer(int count, int bytes) throws Exception {
        int port = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
        String key = JobKey.random().toHex();
        // datagrams that fit the veth's 1500-byte MTU (no IP fragmentation); no udp.host: each rank binds
        // and publishes the address it reached the rendezvous from, its namespace's address
        String options = "udp.datagramSize=1472";
        String rendezvous = ipA + ":" + port; // rank 0, in namespace A, serves it
        List<SlurmRank> ranks = new ArrayList<>();
        ranks.add(SlurmRank.start(List.of("ip", "netns", "exec", nsA), 0, 2, rendezvous, key, options, true,
                Transfer.class.getName(), Integer.toString(count), Integer.toString(bytes)));
        ranks.add(SlurmRank.start(List.of("ip", "netns", "exec", nsB), 1, 2, rendezvous, key, options, true,
                Transfer.class.getName(), Integer.toString(count), Integer.toString(bytes)));
        try {
            for (SlurmRank r : ranks) {
                assertThat(r.process().waitFor(120, TimeUnit.SECONDS)).as("rank ended; output %s", r.output())
                        .isTrue();
                assertThat(r.process().exitValue()).as("exit status; output %s", r.output()).isZero();
            }
            assertThat(ranks.get(0).output()).contains("sent " + count + " x " + bytes);
            assertThat(ranks.get(1).output()).contains("verified " + count + " x " + bytes);
        } finally {
            ranks.forEach(r -> r.process().destroyForcibly());
        }
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private record Result(int status, String output) {
    }

    private static Result run(String... cmd) throws Exception {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.waitFor(), out);
        } catch (IOException e) {
            return new Result(127, String.valueOf(e.getMessage()));
        }
    }

    private static void must(String... cmd) throws Exception {
        Result r = run(cmd);
        assertThat(r.status).as("%s: %s", String.join(" ", cmd), r.output).isZero();
    }
}
