package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.launcher.ranks.AllowedCpus;

/** portals run --bind-to: each rank process (all its threads) on its own CPU, or on the launcher's whole mask. */
class RunBindingTest {
    private static final List<Integer> ALLOWED = RankBinding.allowedCpus();

    /** This JVM's mask as the kernel writes it; the launcher and so unbound ranks inherit it. */
    private static String wholeMask() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElseThrow();
    }

    private static void assumeLinuxWithCpus(int cpus) {
        assumeTrue(!ALLOWED.isEmpty(), "the CPUs this process may use are unknown (no /proc/self/status)");
        assumeTrue(ALLOWED.size() >= cpus, "needs " + cpus + " allowed CPUs; this process may use " + ALLOWED);
    }

    private static List<String> expectedLines(int ranks, List<String> masks) {
        List<String> lines = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            lines.add("[" + r + "] rank " + r + " main=" + masks.get(r) + " thread=" + masks.get(r));
        }
        return lines;
    }

    @Test
    void bindToCorePutsEveryThreadOfRankROnTheRthAllowedCpu() throws Exception {
        assumeLinuxWithCpus(2);
        assumeTrue(NativePrograms.onPath(RankBinding.TASKSET, System.getenv("PATH")) != null, "taskset not on PATH");
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--bind-to", "core", "--",
                AllowedCpus.class.getName());
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrderElementsOf(expectedLines(2,
                List.of(ALLOWED.get(0).toString(), ALLOWED.get(1).toString())));
    }

    @Test
    void byDefaultRanksThatFitTheCpusAreBound() throws Exception {
        assumeLinuxWithCpus(2);
        assumeTrue(NativePrograms.onPath(RankBinding.TASKSET, System.getenv("PATH")) != null, "taskset not on PATH");
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", AllowedCpus.class.getName());
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrderElementsOf(expectedLines(2,
                List.of(ALLOWED.get(0).toString(), ALLOWED.get(1).toString())));
    }

    @Test
    void bindToNoneLeavesEveryRankTheWholeMask() throws Exception {
        assumeLinuxWithCpus(1);
        String whole = wholeMask();
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--bind-to", "none",
                AllowedCpus.class.getName());
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrderElementsOf(expectedLines(2, List.of(whole, whole)));
    }

    @Test
    void byDefaultMoreRanksThanCpusAreNotBound() throws Exception {
        assumeLinuxWithCpus(1);
        String whole = wholeMask();
        int ranks = ALLOWED.size() + 1;
        LauncherProcess run = LauncherProcess.start("run", "-n", Integer.toString(ranks),
                AllowedCpus.class.getName());
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactlyInAnyOrderElementsOf(expectedLines(ranks,
                Collections.nCopies(ranks, whole)));
    }

    @Test
    void bindToCoreWithMoreRanksThanCpusIsAUsageError() throws Exception {
        assumeLinuxWithCpus(1);
        assumeTrue(NativePrograms.onPath(RankBinding.TASKSET, System.getenv("PATH")) != null, "taskset not on PATH");
        int ranks = ALLOWED.size() + 1;
        LauncherProcess run = LauncherProcess.start("run", "-n", Integer.toString(ranks), "--bind-to", "core",
                AllowedCpus.class.getName());
        assertThat(run.await()).isEqualTo(2);
        assertThat(run.err).hasSize(1).first().asString().startsWith("portals run: --bind-to core: " + ranks
                + " ranks but this process may use only " + ALLOWED.size() + " CPU")
                .endsWith("; run fewer ranks, or with --bind-to none");
        assertThat(run.out).isEmpty();
    }

    @Test
    void aBadBindToValueIsAUsageErrorNamingTheValues() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--bind-to", "socket",
                AllowedCpus.class.getName());
        assertThat(run.await()).isEqualTo(2);
        assertThat(run.err).containsExactly("portals run: --bind-to must be core or none, not 'socket' (see: portals"
                + " run --help)");
        assertThat(run.out).isEmpty();
    }

    @Test
    void bindToCoreWithoutTasksetOnPathSaysToInstallUtilLinux(@TempDir Path emptyDir) throws Exception {
        LauncherProcess run = LauncherProcess.startWithEnv(Map.of("PATH", emptyDir.toString()), "run", "-n", "1",
                "--bind-to", "core", AllowedCpus.class.getName());
        assertThat(run.await()).isEqualTo(2);
        assertThat(run.err).containsExactly("portals run: --bind-to core starts each rank through taskset"
                + " (util-linux), which is not on PATH: install util-linux, or run with --bind-to none");
    }

    @Test
    void withoutTasksetTheDefaultRunsTheRanksUnbound(@TempDir Path emptyDir) throws Exception {
        assumeLinuxWithCpus(1);
        String whole = wholeMask();
        LauncherProcess run = LauncherProcess.startWithEnv(Map.of("PATH", emptyDir.toString()), "run", "-n", "1",
                AllowedCpus.class.getName());
        assertThat(run.await()).as("stderr %s", run.err).isZero();
        assertThat(run.out).containsExactlyElementsOf(expectedLines(1, List.of(whole)));
    }

    @Test
    void bindToCoreOnInmemSaysItBindsProcesses() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "2", "--transport", "inmem", "--bind-to", "core",
                AllowedCpus.class.getName());
        assertThat(run.await()).isEqualTo(2);
        assertThat(run.err).containsExactly("portals run: --bind-to core binds rank processes, but --transport inmem"
                + " runs the ranks as threads of one JVM: use a transport between processes (e.g. udp, the default),"
                + " or leave --bind-to out");
    }

    @Test
    void cpuListsAreReadAsTheKernelWritesThem() {
        assertThat(RankBinding.parseList("0-3,8,10-11\n")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(RankBinding.parseList("5")).containsExactly(5);
    }
}
