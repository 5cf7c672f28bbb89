package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
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
