package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.portals3j.examples.IsotachReplicas;
import org.portals3j.examples.Ring;
import org.portals3j.transport.Availability;
import org.portals3j.transport.gm.GmTransportProvider;

/** The shipped example programs run under the launcher on both transports. */
class ExamplesTest {

    @Test
    void theRingExampleGoesRoundThreeProcessesOverGm() throws Exception {
        Availability gm = new GmTransportProvider().availability();
        Assumptions.assumeTrue(gm.available(), "gm is not available here: " + gm.reason());
        LauncherProcess run = LauncherProcess.start("run", "-n", "3", "--transport", "gm", "--",
                Ring.class.getName(), "2");
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] ring of 3 ranks: 2 laps, final token 6",
                "[1] rank 1 of 3: lap 2, token 4 from rank 0",
                "[2] rank 2 of 3: lap 1, token 2 from rank 1");
    }

    @Test
    void theRingExampleGoesRoundThreeProcessesOverUdp() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "3", "--transport", "udp", "--",
                Ring.class.getName(), "2");
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] ring of 3 ranks: 2 laps, final token 6",
                "[1] rank 1 of 3: lap 2, token 4 from rank 0",
                "[2] rank 2 of 3: lap 1, token 2 from rank 1");
    }

    @Test
    void theRingExampleGoesRoundFourThreadsOverInmem() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "4", "--transport", "inmem", "--",
                Ring.class.getName(), "3");
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] ring of 4 ranks: 3 laps, final token 12",
                "[3] rank 3 of 4: lap 3, token 11 from rank 2");
    }

    @Test
    void isotachReplicasAgreeAcrossFourProcessesOverUdp() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "4", "--transport", "udp", "--",
                IsotachReplicas.class.getName(), "40");
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] all 4 replicas applied 160 updates in the same order");
    }

    @Test
    void isotachReplicasAgreeWithTheTokenManagerAsItsOwnProcess(@TempDir Path dir) throws Exception {
        Path cfg = dir.resolve("network.cfg");
        Files.writeString(cfg, "# three hosts, the token manager in a fourth process\nhosts=3\nbugs 0\ndaffy 1\n"
                + "porky 2\nset tm=own-process\n");
        LauncherProcess run = LauncherProcess.startWithEnv(Map.of("PORTALS_ISOTACH_CONFIG", cfg.toString()),
                "run", "-n", "4", "--transport", "udp", "--", IsotachReplicas.class.getName(), "30");
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] all 3 replicas applied 90 updates in the same order");
        assertThat(run.out).anyMatch(line -> line.matches("\\[3] token manager: \\d+ pulses issued"));
    }

    @Test
    void isotachReplicasAgreeAcrossFourThreadsOverInmem() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "4", "--transport", "inmem", "--",
                IsotachReplicas.class.getName(), "40");
        assertThat(run.await()).as("stdout %s stderr %s", run.out, run.err).isZero();
        assertThat(run.out).contains("[0] all 4 replicas applied 160 updates in the same order");
    }
}
