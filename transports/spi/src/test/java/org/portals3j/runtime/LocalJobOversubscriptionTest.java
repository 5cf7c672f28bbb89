package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Availability;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Oversubscription;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;

/** What a job tells its endpoints about oversubscription, from its ranks on the host, the cores and the override. */
class LocalJobOversubscriptionTest {
    private static final int TWO_CPU_MASK = 2;

    /** The recorded endpoints name their provider and take no other call (the tests make none). */
    private static final InvocationHandler NOTHING = (proxy, method, args) -> {
        if (method.getName().equals("provider")) {
            return "recording";
        }
        throw new UnsupportedOperationException(method.getName() + " on an endpoint that only records its config");
    };

    /** A provider that records each endpoint's configuration and opens an endpoint that does nothing. */
    private static final class Recording implements TransportProvider {
        final List<EndpointConfig> opened = new ArrayList<>();

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public String description() {
            return "records endpoint configurations";
        }

        @Override
        public Set<TransportCapability> capabilities() {
            return Set.of();
        }

        @Override
        public Availability availability() {
            return Availability.yes();
        }

        @Override
        public Transport open(EndpointConfig config) {
            opened.add(config);
            return (Transport) Proxy.newProxyInstance(Transport.class.getClassLoader(),
                    new Class<?>[] {Transport.class}, NOTHING);
        }

        List<Boolean> oversubscribed() {
            return opened.stream().map(EndpointConfig::oversubscribed).toList();
        }
    }

    @Test
    void fourRanksOnATwoCpuMaskAreOversubscribed() throws Exception {
        Recording provider = new Recording();

        LocalJob.openAll(provider, Job.builder(4).build(), IdleMode.BACKOFF, Map.of(), Oversubscription.AUTO,
                TWO_CPU_MASK);

        assertThat(provider.oversubscribed()).containsExactly(true, true, true, true);
    }

    @Test
    void twoRanksOnTwoCpusAreNot() throws Exception {
        Recording provider = new Recording();

        LocalJob.openAll(provider, Job.builder(2).build(), IdleMode.BACKOFF, Map.of(), Oversubscription.AUTO,
                TWO_CPU_MASK);

        assertThat(provider.oversubscribed()).containsExactly(false, false);
    }

    @Test
    void theOverrideDecidesWhateverTheCount() throws Exception {
        Recording off = new Recording();
        Recording on = new Recording();

        LocalJob.openAll(off, Job.builder(4).build(), IdleMode.BACKOFF, Map.of(), Oversubscription.FALSE,
                TWO_CPU_MASK);
        LocalJob.openAll(on, Job.builder(2).build(), IdleMode.BACKOFF, Map.of(), Oversubscription.TRUE,
                TWO_CPU_MASK);

        assertThat(off.oversubscribed()).containsExactly(false, false, false, false);
        assertThat(on.oversubscribed()).containsExactly(true, true);
    }

    @Test
    void aProcessCountsTheRanksItsLauncherPutOnTheHost() throws Exception {
        assertThat(JobRuntime.ranksOnHost(Map.of(JobRuntime.LOCAL_SIZE, "4"))).isEqualTo(4);
        assertThat(JobRuntime.ranksOnHost(Map.of("OMPI_COMM_WORLD_LOCAL_SIZE", "3"))).isEqualTo(3);
        assertThat(JobRuntime.ranksOnHost(Map.of("SLURM_NTASKS_PER_NODE", "2(x3)"))).as("not a count").isEqualTo(1);
        assertThat(JobRuntime.ranksOnHost(Map.of())).as("unknown: never oversubscribed by count").isEqualTo(1);
        assertThat(JobRuntime.oversubscribed(Map.of(), 4, TWO_CPU_MASK)).isTrue();
        assertThat(JobRuntime.oversubscribed(Map.of(), 2, TWO_CPU_MASK)).isFalse();
        assertThat(JobRuntime.oversubscribed(Map.of(Oversubscription.VARIABLE, "false"), 4, TWO_CPU_MASK)).isFalse();
    }

    @Test
    void badOversubscriptionVariablesSayWhatToWrite() {
        assertThatThrownBy(() -> JobRuntime.ranksOnHost(Map.of(JobRuntime.LOCAL_SIZE, "many")))
                .isInstanceOf(TransportException.class).hasMessageContaining("PORTALS_LOCAL_SIZE='many'");
        assertThatThrownBy(() -> JobRuntime.oversubscribed(Map.of(Oversubscription.VARIABLE, "sometimes"), 4, 2))
                .isInstanceOf(TransportException.class).hasMessageContaining("use auto");
    }

    @Test
    void theBootstrapOpensItsEndpointWithItsDecision() throws Exception {
        Job job = Job.builder(4).build();
        Recording provider = new Recording();
        Transport endpoint = provider.open(new EndpointConfig(job, 1));

        assertThat(JobBootstrap.inJvm(job, 1, endpoint, true).oversubscribed()).isTrue();
        assertThat(JobBootstrap.inJvm(job, 1, endpoint, false).oversubscribed()).isFalse();
    }
}
