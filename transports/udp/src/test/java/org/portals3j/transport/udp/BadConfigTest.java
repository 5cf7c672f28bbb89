package org.portals3j.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.LocalRendezvous;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.udp.internal.endpoint.UdpEndpoint;

/** Bad configuration fails with a one-line message that says what to do. */
class BadConfigTest {
    private final UdpJobs jobs = new UdpJobs();

    @AfterEach
    void close() {
        jobs.close();
    }

    @Test
    void aPortInUseSaysHowToChooseAnother() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            assertThatThrownBy(() -> jobs.openRank(Job.local(1), 0, Map.of(UdpOptions.PORT, Integer.toString(port))))
                    .isInstanceOf(TransportException.class)
                    .hasMessage("UDP port " + port + " on 127.0.0.1 (rank 0) is already in use; choose another base"
                            + " port with udp.port=... or 0 for any free port");
        }
    }

    @Test
    void udpPortIsABasePortRankRBindsPortPlusR() throws Exception {
        int base;
        try (DatagramChannel probe = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            base = ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
        Job job = Job.local(3);
        List<Transport> t = jobs.open(job, Map.of(UdpOptions.PORT, Integer.toString(base)));
        for (int r = 0; r < 3; r++) {
            assertThat(((UdpEndpoint) t.get(r)).localAddress().getPort())
                    .isEqualTo(base + r);
        }
        assertThatThrownBy(() -> jobs.openRank(Job.local(2), 1, Map.of(UdpOptions.PORT, "65535")))
                .isInstanceOf(TransportException.class).hasMessageContaining("beyond 65535");
    }

    @Test
    void unknownKeysAndBadValuesListTheValidKeys() throws Exception {
        assertThatThrownBy(() -> jobs.openRank(Job.local(1), 0, Map.of("udp.windw", "4")))
                .isInstanceOf(TransportException.class).hasMessageContaining("udp.windw")
                .hasMessageContaining(UdpOptions.WINDOW).hasMessageContaining(UdpOptions.FAULT_SEED);
        for (Map.Entry<String, String> bad : Map.of(UdpOptions.WINDOW, "x", UdpOptions.DATAGRAM_SIZE, "100000",
                UdpOptions.MAC, "md5", UdpOptions.FAULT_LOSS, "1.5", UdpOptions.PORT, "-1",
                UdpOptions.PEER_TIMEOUT_MILLIS, "10").entrySet()) {
            assertThatThrownBy(() -> jobs.openRank(Job.local(1), 0, Map.of(bad.getKey(), bad.getValue())))
                    .as(bad.toString()).isInstanceOf(TransportException.class)
                    .hasMessageContaining(bad.getKey()).hasMessageContaining("valid keys");
        }
        assertThatThrownBy(() -> jobs.openRank(Job.local(1), 0, Map.of(UdpOptions.FAULT_DELAY_MICROS, "1000",
                UdpOptions.FAULT_JITTER_MICROS, "2000")))
                .as("jitter beyond the delay").isInstanceOf(TransportException.class)
                .hasMessageContaining(UdpOptions.FAULT_JITTER_MICROS).hasMessageContaining("valid keys");
        for (Map.Entry<String, String> bad : Map.of(UdpOptions.FAULT_DELAY_QUEUE, "0", UdpOptions.FAULT_LATE, "-0.1",
                UdpOptions.FAULT_LATE_MICROS, "x").entrySet()) {
            assertThatThrownBy(() -> jobs.openRank(Job.local(1), 0, Map.of(bad.getKey(), bad.getValue())))
                    .as(bad.toString()).isInstanceOf(TransportException.class)
                    .hasMessageContaining(bad.getKey()).hasMessageContaining("valid keys");
        }
        // keys of other transports are not ours to judge
        assertThat(catchNothing(() -> jobs.openRank(Job.local(1), 0, Map.of("tcp.nodelay", "1")))).isTrue();
    }

    private static boolean catchNothing(ThrowingRunnable r) throws Exception {
        r.run();
        return true;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void anUnresolvableHostIsReported() {
        assertThatThrownBy(() -> jobs.openRank(Job.local(1), 0, Map.of(UdpOptions.HOST, "no-such-host.invalid")))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("cannot resolve udp.host=no-such-host.invalid");
    }

    @Test
    void aPeerWithAnotherJobKeyIsRefusedAtStart() throws Exception {
        Job job = Job.builder(2).key(JobKey.random()).build();
        Job impostor = new Job(job.id(), job.peers(), JobKey.random());
        LocalRendezvous shared = LocalRendezvous.of(job);
        Transport t0 = new UdpTransportProvider().open(new EndpointConfig(job, 0, IdleMode.BACKOFF, Map.of(), shared));
        jobs.opened.add(t0);
        Transport t1 = new UdpTransportProvider()
                .open(new EndpointConfig(impostor, 1, IdleMode.BACKOFF, Map.of(), shared));
        jobs.opened.add(t1);
        assertThatThrownBy(() -> t0.start(new Recorder())).isInstanceOf(IllegalStateException.class)
                .hasMessage("rank 1 uses job key " + impostor.key().fingerprint() + " but this rank uses "
                        + job.key().fingerprint() + "; give every rank the same PORTALS_JOB_KEY")
                .hasCauseInstanceOf(TransportException.class);
    }
}
