package org.portals3j.transport.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.portals3j.tck.runner.TckResult;
import org.portals3j.tck.runner.TckRunner;
import org.portals3j.tck.runner.TestStatus;
import org.portals3j.tck.runner.TransportRun;
import org.portals3j.transport.Polling;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.Transports;

/** The whole conformance kit, Portals and Isotach, on the loopback transport: what a transport author runs. */
class LoopbackKitTest {

    @Test
    void theProviderIsFoundByNameAndSaysWhatItsEndpointsOffer() throws Exception {
        assertThat(Transports.require(LoopbackTransportProvider.NAME).capabilities())
                .containsExactly(TransportCapability.SINGLE_PROCESS);
        assertThat(Polling.class.isAssignableFrom(LoopbackEndpoint.class)).as("it has no polling hand-over").isFalse();
    }

    @Test
    void theWholeKitPasses() {
        TckResult result = TckRunner.builder().transports(List.of(LoopbackTransportProvider.NAME)).build().run();
        TransportRun run = result.runs().getFirst();
        assertThat(run.available()).as(run.unavailableReason()).isTrue();
        String failures = run.outcomes().stream().filter(o -> o.status() == TestStatus.FAILED)
                .map(o -> o.test().displayName() + ": " + o.message()).collect(Collectors.joining("\n"));
        assertThat(run.count(TestStatus.FAILED)).as(failures).isZero();
        assertThat(run.count(TestStatus.PASSED)).as("the kit ran").isGreaterThan(100);
    }
}
