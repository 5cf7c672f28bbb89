package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.RendezvousAddress;
import org.portals3j.runtime.TcpRendezvous;
import org.portals3j.transport.JobKey;

/**
 * {@code portals run}'s pid check as a user meets it: a process the launcher did not start is refused as a rank
 * even when it holds the job key, its id and size; {@code --pid-check off} lets it in.
 */
class PidCheckRunTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void aProcessPortalsRunDidNotStartIsRefusedThoughItHoldsTheKeyUnlessTheCheckIsOff() throws Exception {
        assumeTrue(LinuxSockets.system().unavailableReason().isEmpty(), "the pid check needs Linux's /proc");
        for (String mode : new String[] {"auto", "off"}) {
            JobKey key = JobKey.random();
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            // rank 0 is a shell that never joins: the test takes its place, knowing all the launcher's ranks know
            LauncherProcess run = LauncherProcess.startWithEnv(Map.of("PORTALS_JOB_KEY", key.toHex()), "run", "-n", "1",
                    "--rendezvous-port", Integer.toString(port), "--pid-check", mode, "--",
                    "sh", "-c", "echo job=$PORTALS_JOB_ID; exec sleep 60");
            try {
                String line = run.awaitOut(l -> l.startsWith("[0] job="), 1).get(0);
                String jobId = line.substring("[0] job=".length());
                RendezvousAddress at = new RendezvousAddress("127.0.0.1", port);
                if (mode.equals("auto")) {
                    assertThatThrownBy(() -> TcpRendezvous.connect(at, jobId, 0, 1, key, TIMEOUT, null))
                            .hasMessage("rank 0's connection does not come from the process portals run started as"
                                    + " rank 0 (nor from one of its child processes): only the ranks portals run starts"
                                    + " may join its job (to let others in, run portals run with --pid-check off)");
                    assertThat(run.err).anySatisfy(l -> assertThat(l)
                            .startsWith("portals rendezvous: refused /127.0.0.1:")
                            .contains("is held by none of pid"));
                } else {
                    try (TcpRendezvous admitted = TcpRendezvous.connect(at, jobId, 0, 1, key, TIMEOUT, null)) {
                        assertThat(admitted.isConnected()).isTrue();
                    }
                }
            } finally {
                run.process.destroy();
                run.await();
            }
        }
    }

    @Test
    void anUnknownPidCheckModeIsAUsageError() throws Exception {
        LauncherProcess run = LauncherProcess.start("run", "-n", "1", "--pid-check", "maybe", "--", "sh", "-c", "true");
        assertThat(run.await()).isEqualTo(2);
        assertThat(run.err).singleElement().asString().startsWith("portals run: Invalid value for option '--pid-check'")
                .contains("AUTO, ON, OFF");
    }
}
