package org.portals3j.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.RendezvousAddress;
import org.portals3j.runtime.RendezvousServer;
import org.portals3j.runtime.TcpRendezvous;
import org.portals3j.transport.JobKey;

/** The pid check behind a real rendezvous: this JVM plays the ranks, and is or is not the process started as one. */
class RankProcessCheckTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aRankIsAdmittedFromItsOwnProcessOnly() throws Exception {
        LinuxSockets sockets = LinuxSockets.system();
        assumeTrue(sockets.unavailableReason().isEmpty(), () -> "no usable /proc: " + sockets.unavailableReason());
        JobKey key = JobKey.random();
        List<String> log = new CopyOnWriteArrayList<>();
        RankProcessCheck check = new RankProcessCheck(sockets, 3, TIMEOUT);
        Process other = new ProcessBuilder("sleep", "30").start();
        try (RendezvousServer server = RendezvousServer.start(new RendezvousAddress("127.0.0.1", 0), "job", 3, key,
                log::add, check)) {
            check.started(0, ProcessHandle.current());
            check.started(1, other.toHandle());
            try (TcpRendezvous rank0 = TcpRendezvous.connect(server.address(), "job", 0, 3, key, TIMEOUT, null)) {
                assertThat(server.connectedRanks()).isEqualTo(1);
                assertThatThrownBy(() -> TcpRendezvous.connect(server.address(), "job", 1, 3, key, TIMEOUT, null))
                        .hasMessage("rank 1's connection does not come from the process portals run started as rank 1"
                                + " (nor from one of its child processes): only the ranks portals run starts may join"
                                + " its job (to let others in, run portals run with --pid-check off)");
                assertThat(log).anySatisfy(l -> assertThat(l).contains("is held by none of pid " + other.pid()));
                // the parent of the process started as rank 2 is not its child
                Process child = new ProcessBuilder("sleep", "30").start();
                try {
                    check.started(2, child.toHandle());
                    assertThatThrownBy(() -> TcpRendezvous.connect(server.address(), "job", 2, 3, key, TIMEOUT, null))
                            .hasMessageContaining("does not come from the process portals run started as rank 2");
                } finally {
                    child.destroyForcibly();
                    child.waitFor(10, TimeUnit.SECONDS);
                }
                assertThat(server.connectedRanks()).isEqualTo(1);
            }
        } finally {
            other.destroyForcibly();
            other.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRankNotStartedYetIsRefusedAfterTheWait() throws Exception {
        JobKey key = JobKey.random();
        RankProcessCheck check = new RankProcessCheck(LinuxSockets.system(), 1, Duration.ofMillis(200));
        try (RendezvousServer server = RendezvousServer.start(new RendezvousAddress("127.0.0.1", 0), "job", 1, key,
                line -> { }, check)) {
            assertThatThrownBy(() -> TcpRendezvous.connect(server.address(), "job", 0, 1, key, TIMEOUT, null))
                    .hasMessageContaining("does not come from the process portals run started as rank 0");
        }
    }
}
