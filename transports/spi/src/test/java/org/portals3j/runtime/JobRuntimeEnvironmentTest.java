package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.internal.OsUser;

class JobRuntimeEnvironmentTest {
    private static final String KEY = JobKey.random().toHex();

    @Test
    void withoutAnyJobEnvironmentARankIsASingletonJobOnInmem() throws Exception {
        try (JobBootstrap b = JobRuntime.bootstrap(Map.of("PATH", "/bin"))) {
            assertThat(b.source()).isEqualTo(JobSource.SINGLETON);
            assertThat(b.rank()).isZero();
            assertThat(b.size()).isEqualTo(1);
            assertThat(b.transportName()).isEqualTo("inmem");
            assertThat(b.job().peers().member(0)).isEqualTo(new JobMember(0, 0, Job.DEFAULT_PID, OsUser.uid()));
        }
    }

    @Test
    void badPortalsRunVariablesAreNamedWithWhatTheyShouldBe() {
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "0")))
                .isInstanceOf(TransportException.class)
                .hasMessageStartingWith("PORTALS_SIZE is not set: portals run sets it");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "3", "PORTALS_SIZE", "3")))
                .hasMessage("PORTALS_RANK='3' is not a rank of the job: it must be 0..2 (PORTALS_SIZE=3)");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "0", "PORTALS_SIZE", "zero")))
                .hasMessage("PORTALS_SIZE='zero' is not a number of ranks (1 or more)");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "0", "PORTALS_SIZE", "2",
                "PORTALS_RENDEZVOUS", "nohostport", "PORTALS_JOB_KEY", KEY)))
                .hasMessageStartingWith("PORTALS_RENDEZVOUS must be host:port");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "0", "PORTALS_SIZE", "2",
                "PORTALS_RENDEZVOUS", "127.0.0.1:9")))
                .hasMessageStartingWith("PORTALS_JOB_KEY is not set: portals run sets it");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "0", "PORTALS_SIZE", "2",
                "PORTALS_RENDEZVOUS", "127.0.0.1:9", "PORTALS_JOB_KEY", "abc")))
                .hasMessageStartingWith("PORTALS_JOB_KEY is not a valid key: a job key is 64 hex digits");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "0", "PORTALS_SIZE", "2",
                "PORTALS_RENDEZVOUS", "127.0.0.1:9", "PORTALS_JOB_KEY", KEY, "PORTALS_RENDEZVOUS_TIMEOUT", "soon")))
                .hasMessage("PORTALS_RENDEZVOUS_TIMEOUT='soon' is not a number of seconds (e.g. 60 or 0.5)");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("PORTALS_RANK", "0", "PORTALS_SIZE", "2",
                "PORTALS_RENDEZVOUS", "127.0.0.1:9", "PORTALS_JOB_KEY", KEY, "PORTALS_TRANSPORT_OPTIONS", "mtu")))
                .hasMessage("PORTALS_TRANSPORT_OPTIONS entry 'mtu' is not key=value (write k=v,k=v)");
    }

    @Test
    void aPortOnlyRendezvousUnderSlurmIsServedOnTheFirstNodeOfTheStep() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (JobBootstrap b = JobRuntime.bootstrap(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1",
                "SLURM_STEP_NODELIST", "localhost,node[02-04]", "SLURM_JOB_NODELIST", "elsewhere",
                "PORTALS_RENDEZVOUS", ":" + port, "PORTALS_JOB_KEY", KEY));
             Socket rendezvous = new Socket(InetAddress.getByName("localhost"), port)) {
            assertThat(b.source()).isEqualTo(JobSource.SLURM);
            assertThat(rendezvous.isConnected()).isTrue();
        }
    }

    @Test
    void aPortOnlyRendezvousWithoutANodeListSaysToGiveTheHost() {
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2",
                "PORTALS_RENDEZVOUS", ":7010", "PORTALS_JOB_KEY", KEY)))
                .isInstanceOf(TransportException.class)
                .hasMessage("PORTALS_RENDEZVOUS=':7010' gives only a port, and Open MPI does not say where rank 0 runs:"
                        + " give its host too (PORTALS_RENDEZVOUS=<host of rank 0>:7010, passed to every rank by"
                        + " mpirun)");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2",
                "SLURM_STEP_NODELIST", "node[01-02", "PORTALS_RENDEZVOUS", ":7010", "PORTALS_JOB_KEY", KEY)))
                .hasMessage("PORTALS_RENDEZVOUS=':7010' gives only a port, and the host of rank 0 cannot be taken from"
                        + " the node list: 'node[01-02' is not a Slurm host list: '[' is not closed; give it"
                        + " (PORTALS_RENDEZVOUS=<host of rank 0>:7010)");
    }

    @Test
    void rankZeroOfAJobAcrossHostsRefusesToServeOnALoopbackAddress() {
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "8",
                "SLURM_STEP_NUM_NODES", "4", "PORTALS_RENDEZVOUS", "127.0.0.1:7010", "PORTALS_JOB_KEY", KEY)))
                .isInstanceOf(TransportException.class)
                .hasMessage("the rendezvous 127.0.0.1:7010 is a loopback address on rank 0's host (127.0.0.1 is"
                        + " 127.0.0.1), but the job spans 4 nodes (SLURM_STEP_NUM_NODES): the ranks on the other hosts"
                        + " cannot reach it; name rank 0's host by an address they reach (its DNS name or IP address;"
                        + " /etc/hosts may map the host name to 127.0.1.1)");
        assertThatThrownBy(() -> JobRuntime.bootstrap(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "PORTALS_RENDEZVOUS", "localhost:7010", "PORTALS_JOB_KEY", KEY)))
                .hasMessageContaining("but only 2 of its 4 processes run on this host (OMPI_COMM_WORLD_LOCAL_SIZE)");
    }

    @Test
    void transportOptionsAreKeyValuePairsSeparatedByCommas() throws Exception {
        assertThat(JobRuntime.options("mtu=1400, window = 64,,")).containsExactly(
                Map.entry("mtu", "1400"), Map.entry("window", "64"));
        assertThat(JobRuntime.options("")).isEmpty();
    }

    @Test
    void aOneRankJobServedByRankZeroBootstrapsAndLeavesCleanly() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (JobBootstrap b = JobRuntime.bootstrap(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1",
                "SLURM_JOB_ID", "5", "PORTALS_RENDEZVOUS", "127.0.0.1:" + port, "PORTALS_JOB_KEY", KEY))) {
            assertThat(b.source()).isEqualTo(JobSource.SLURM);
            assertThat(b.job().id()).isEqualTo("slurm-5");
            assertThat(b.job().key().toHex()).isEqualTo(KEY);
            assertThat(b.server()).isNotNull();
            assertThat(b.rendezvous().lookup(0, JobRuntime.UID_KEY, Duration.ofSeconds(5)))
                    .isEqualTo(Integer.toString(OsUser.uid()));
        }
        // The port is free again once rank 0 left.
        try (ServerSocket again = new ServerSocket(port)) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }
}
