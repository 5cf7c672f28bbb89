package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;

/** The whole conformance kit, Portals and Isotach, on gm. */
class GmKitTest {

    @Test
    void theProviderIsFoundByNameAndSaysWhatItsEndpointsOffer() {
        assertThat(Transports.find(GmTransportProvider.NAME)).get().isInstanceOf(GmTransportProvider.class);
        assertThat(new GmTransportProvider().capabilities()).containsExactlyInAnyOrder(
                TransportCapability.MULTI_PROCESS, TransportCapability.SINGLE_COPY, TransportCapability.NATIVE,
                TransportCapability.REPORTS_POLLERS_GONE);
    }

    /**
     * Over tcp;ofi_rxm, shm and udp;ofi_rxd (net is left to hand runs of {@code portals tck}, to keep CI's time;
     * the package documentation says why libgm waits on it without its fd). On shm all ranks of the kit's jobs are
     * ports of this one JVM, which libfabric 1.17's shm connects through each other's regions; libgm's port registry
     * (gm_registry.c) takes a closing port out of the others' address vectors before its region goes away.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm", "udp"})
    void theWholeKitPasses(String provider) {
        GmTestSupport.assumeAvailable(provider);
        @Nullable String saved = System.getProperty(GmOptions.PROVIDER_PROPERTY);
        System.setProperty(GmOptions.PROVIDER_PROPERTY, provider); // the kit opens its jobs without options
        try {
            TckResult result = TckRunner.builder().transports(List.of(GmTransportProvider.NAME)).build().run();
            TransportRun run = result.runs().getFirst();
            assertThat(run.available()).as(run.unavailableReason()).isTrue();
            String failures = run.outcomes().stream().filter(o -> o.status() == TestStatus.FAILED)
                    .map(o -> o.test().displayName() + ": " + o.message()).collect(Collectors.joining("\n"));
            assertThat(run.count(TestStatus.FAILED)).as(failures).isZero();
            assertThat(run.count(TestStatus.PASSED)).as("the kit ran").isGreaterThan(100);
        } finally {
            restore(saved);
        }
    }

    @SuppressWarnings("clear.system.property") // our own property, never a predefined one
    private static void restore(@Nullable String saved) {
        if (saved == null) {
            System.clearProperty(GmOptions.PROVIDER_PROPERTY);
        } else {
            System.setProperty(GmOptions.PROVIDER_PROPERTY, saved);
        }
    }
}
