package org.portals3j.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Provider listing against {@code fi_info -l}, and the attributes of the providers the GM transport uses. */
class DiscoveryTest {
    @Test
    void providersMatchFiInfoList() throws IOException, InterruptedException {
        assumeTrue(Fabric.isAvailable(), () -> "libfabric binding unavailable: " + Fabric.unavailableReason());
        Map<String, String> expected = fiInfoList();
        Map<String, String> actual = new LinkedHashMap<>();
        for (Provider p : Fabric.providers()) {
            actual.put(p.name(), p.version());
        }
        assertThat(actual).containsExactlyEntriesOf(expected);
        assertThat(types("tcp")).contains(EndpointType.MSG);
        assertThat(types("ofi_rxm")).containsExactly(EndpointType.RDM);
        assertThat(types("shm")).containsExactly(EndpointType.RDM);
    }

    private static Set<EndpointType> types(String provider) {
        return Fabric.providers().stream().filter(p -> p.name().equals(provider)).findFirst()
                .orElseThrow(() -> new AssertionError(provider + " not listed")).endpointTypes();
    }

    /** {@code fi_info -l} as name to version, in its order: lines {@code name:} then {@code version: x.y}. */
    private static Map<String, String> fiInfoList() throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("fi_info", "-l").redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "fi_info is not installed (Debian: apt-get install libfabric-bin)");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        Map<String, String> m = new LinkedHashMap<>();
        String name = null;
        for (String line : out.lines().toList()) {
            if (line.endsWith(":") && !line.startsWith(" ")) {
                name = line.substring(0, line.length() - 1);
            } else if (name != null && line.strip().startsWith("version:")) {
                m.put(name, line.strip().substring("version:".length()).strip());
            }
        }
        assertThat(m).as(out).isNotEmpty();
        return m;
    }

    @Test
    void rxmAttributes() {
        FabricInfo info = Peer.assumeProvider("tcp;ofi_rxm");
        assertThat(info.provider()).isEqualTo("tcp;ofi_rxm");
        assertThat(info.endpointType()).isEqualTo(EndpointType.RDM);
        assertThat(info.addressFormat()).isEqualTo(AddressFormat.SOCKADDR_IN);
        assertThat(info.dataProgress()).isEqualTo(Progress.MANUAL);
        assertThat(info.mrMode() & (MrMode.PROV_KEY | MrMode.VIRT_ADDR)).isZero();
        assertThat(info.injectSize()).isPositive();
        assertThat(info.maxMessageSize()).isNotZero();
        assertThat(info.cqDataSize()).isEqualTo(8);
        assertThat(info.mode()).isZero();
        assertThat(info.caps() & FabricInfo.Hints.TAGGED_RMA).isEqualTo(FabricInfo.Hints.TAGGED_RMA);
        assertThat(info.toString()).contains("tcp;ofi_rxm", "RDM");
    }

    @Test
    void shmAttributes() {
        FabricInfo info = Peer.assumeProvider("shm");
        assertThat(info.provider()).isEqualTo("shm");
        assertThat(info.addressFormat()).isEqualTo(AddressFormat.ADDR_STR);
        assertThat(info.mrMode() & MrMode.VIRT_ADDR).isEqualTo(MrMode.VIRT_ADDR);
        assertThat(info.injectSize()).isGreaterThan(FabricInfo.query(FabricInfo.Hints.rdm("tcp;ofi_rxm")).get(0)
                .injectSize());
        assertThat(info.dataProgress()).isEqualTo(Progress.MANUAL);
    }

    @Test
    void unknownProviderMatchesNothing() {
        assumeTrue(Fabric.isAvailable(), () -> "libfabric binding unavailable: " + Fabric.unavailableReason());
        List<FabricInfo> none = FabricInfo.query(FabricInfo.Hints.rdm("no-such-provider"));
        assertThat(none).isEmpty();
    }
}
