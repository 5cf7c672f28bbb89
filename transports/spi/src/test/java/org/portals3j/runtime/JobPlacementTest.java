package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.internal.OsUser;

/** Ranks started without a launcher, as srun or mpirun would start them: they form the job themselves. */
class JobPlacementTest {

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static List<ChildJvm> startRanks(int n, Map<String, String> common, String rankVar, String sizeVar)
            throws Exception {
        List<ChildJvm> ranks = new ArrayList<>();
        // Highest rank first: the others must wait for rank 0's rendezvous to come up.
        for (int r = n - 1; r >= 0; r--) {
            Map<String, String> env = new HashMap<>(common);
            env.put(rankVar, Integer.toString(r));
            env.put(sizeVar, Integer.toString(n));
            ranks.add(0, ChildJvm.start(BootstrapProbe.class, env));
        }
        return ranks;
    }

    private static void assertFormedTheJob(List<ChildJvm> ranks, String source, String jobId) throws Exception {
        int n = ranks.size();
        String uid = Integer.toString(OsUser.uid());
        StringBuilder peers = new StringBuilder();
        for (int r = 0; r < n; r++) {
            peers.append(r == 0 ? "" : ",").append(r).append(":0:").append(uid);
        }
        for (int r = 0; r < n; r++) {
            ChildJvm rank = ranks.get(r);
            assertThat(rank.await()).as("rank %d exit status; stderr: %s", r, rank.err.getNow("")).isZero();
            assertThat(rank.stdout().strip()).isEqualTo("rank=" + r + " size=" + n + " source=" + source + " job="
                    + jobId + " transport=udp options={mtu=1400} peers=" + peers);
        }
    }

    @Test
    void slurmTasksWithARendezvousAndAKeyFormTheJobRankZeroServing() throws Exception {
        Map<String, String> env = Map.of("PORTALS_RENDEZVOUS", "127.0.0.1:" + freePort(),
                "PORTALS_JOB_KEY", JobKey.random().toHex(), "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0",
                "PORTALS_TRANSPORT_OPTIONS", "mtu=1400");
        assertFormedTheJob(startRanks(3, env, "SLURM_PROCID", "SLURM_NTASKS"), "SLURM", "slurm-4242.0");
    }

    @Test
    void openMpiRanksWithARendezvousAndAKeyFormTheJob() throws Exception {
        Map<String, String> env = Map.of("PORTALS_RENDEZVOUS", "127.0.0.1:" + freePort(),
                "PORTALS_JOB_KEY", JobKey.random().toHex(), "OMPI_MCA_ess_base_jobid", "99",
                "PORTALS_TRANSPORT_OPTIONS", "mtu=1400",
                // mpirun inside a Slurm allocation: every process inherits the batch step's SLURM_PROCID=0.
                "SLURM_PROCID", "0", "SLURM_NTASKS", "1");
        assertFormedTheJob(startRanks(3, env, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"), "OPEN_MPI", "ompi-99");
    }

    @Test
    void aSlurmTaskWithAnotherJobKeyIsRefusedWithOneLineSayingWhatToDo() throws Exception {
        int port = freePort();
        JobKey key = JobKey.random();
        JobKey other = JobKey.random();
        Map<String, String> env = new HashMap<>(Map.of("PORTALS_RENDEZVOUS", "127.0.0.1:" + port,
                "PORTALS_JOB_KEY", key.toHex(), "SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "7"));
        ChildJvm rank0 = ChildJvm.start(BootstrapProbe.class, env);
        env.put("SLURM_PROCID", "1");
        env.put("PORTALS_JOB_KEY", other.toHex());
        ChildJvm rank1 = ChildJvm.start(BootstrapProbe.class, env);
        assertThat(rank1.await()).isEqualTo(1);
        assertThat(rank1.stderr()).isEqualTo("error: rank 1 cannot join the job at 127.0.0.1:" + port + ": that"
                + " rendezvous does not hold this rank's job key (the ranks were given different PORTALS_JOB_KEYs, or"
                + " PORTALS_RENDEZVOUS names another job's rendezvous); give every rank the same PORTALS_JOB_KEY\n");
        assertThat(rank1.stderr()).doesNotContain(key.fingerprint()).doesNotContain(other.fingerprint());
        rank0.process.destroyForcibly();
        rank0.await();
    }

    @Test
    void aSlurmTaskWithoutAKeyOrRendezvousIsToldWhatToExport() throws Exception {
        ChildJvm noKey = ChildJvm.start(BootstrapProbe.class, Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2",
                "PORTALS_RENDEZVOUS", "127.0.0.1:1"));
        ChildJvm noRendezvous = ChildJvm.start(BootstrapProbe.class, Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2"));
        assertThat(noKey.await()).isEqualTo(1);
        assertThat(noKey.stderr()).isEqualTo("error: PORTALS_JOB_KEY is not set: under Slurm every rank needs the"
                + " same key: export PORTALS_JOB_KEY=$(openssl rand -hex 32) before srun\n");
        assertThat(noRendezvous.await()).isEqualTo(1);
        assertThat(noRendezvous.stderr()).isEqualTo("error: running as rank 1 of 2 under Slurm (SLURM_PROCID), but"
                + " PORTALS_RENDEZVOUS is not set: export PORTALS_RENDEZVOUS=<host of rank 0>:<free port> and"
                + " PORTALS_JOB_KEY=$(openssl rand -hex 32) before srun\n");
    }

    @Test
    void anUnreachableRendezvousEndsTheRankWithOneLineAfterTheTimeout() throws Exception {
        int port = freePort();
        ChildJvm rank = ChildJvm.start(BootstrapProbe.class, Map.of("PORTALS_RANK", "1", "PORTALS_SIZE", "2",
                "PORTALS_RENDEZVOUS", "127.0.0.1:" + port, "PORTALS_JOB_KEY", JobKey.random().toHex(),
                "PORTALS_RENDEZVOUS_TIMEOUT", "1"));
        assertThat(rank.await()).isEqualTo(1);
        assertThat(rank.stderr()).isEqualTo("error: cannot reach the rendezvous at 127.0.0.1:" + port
                + " within 1 s: is rank 0 (or portals run) running, and is PORTALS_RENDEZVOUS right?\n");
    }

    @Test
    void rankZeroFindingTheRendezvousPortInUseSaysSo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ChildJvm rank0 = ChildJvm.start(BootstrapProbe.class, Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                    "PORTALS_RENDEZVOUS", "127.0.0.1:" + taken.getLocalPort(),
                    "PORTALS_JOB_KEY", JobKey.random().toHex()));
            assertThat(rank0.await()).isEqualTo(1);
            assertThat(rank0.stderr()).isEqualTo("error: cannot serve the rendezvous on 127.0.0.1:"
                    + taken.getLocalPort() + ": the port is in use (another job or program has it); "
                    + "choose another port\n");
        }
    }

    @Test
    void aRankWhoseRendezvousServerDiesEndsItself() throws Exception {
        JobKey key = JobKey.random();
        try (RendezvousServer server = RendezvousServer.start(new RendezvousAddress("127.0.0.1", 0), "portals", 2,
                key, line -> { })) {
            ChildJvm rank = ChildJvm.start(BootstrapProbe.class, Map.of("PORTALS_RANK", "1", "PORTALS_SIZE", "2",
                    "PORTALS_RENDEZVOUS", server.address().toString(), "PORTALS_JOB_KEY", key.toHex()), "hold");
            try (TcpRendezvous rank0 = TcpRendezvous.connect(server.address(), "portals", 0, 2, key,
                    JobRuntime.DEFAULT_TIMEOUT, null)) {
                rank0.publish(0, "uid", Integer.toString(OsUser.uid()));
                assertThat(rank0.lookup(1, "uid", JobRuntime.DEFAULT_TIMEOUT))
                        .isEqualTo(Integer.toString(OsUser.uid()));
                assertThat(rank0.lookup(1, "ready", JobRuntime.DEFAULT_TIMEOUT)).isEqualTo("yes");
                server.close();
                assertThat(rank.await()).isEqualTo(JobRuntime.LOST_RENDEZVOUS_STATUS);
                assertThat(rank.stderr()).isEqualTo("portals: rank 1 lost its rendezvous connection (portals run or"
                        + " rank 0 is gone); ending this rank\n");
            }
        }
    }
}
