package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.Availability;

/** What portals info says about each libfabric provider under gm. */
class ProviderNotesTest {

    @Test
    void everyProviderHasALineSayingWhetherItWorksAndItsKnownLimits() {
        List<String> lines = ProviderNotes.lines(p -> Availability.yes());
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("gm.provider=tcp (tcp;ofi_rxm, the default): yes");
        assertThat(lines.get(1)).startsWith("gm.provider=shm (shm): yes; ").contains("FI_SHM_DISABLE_CMA=1");
        assertThat(lines.get(2)).startsWith("gm.provider=udp (udp;ofi_rxd): yes; ").contains("gm.keepaliveMillis");
        assertThat(lines.get(3)).startsWith("gm.provider=net (net): yes; gm waits on it by a bounded back-off")
                .contains("fi_trywait").contains("#8947");
    }

    @Test
    void aProviderThatDoesNotWorkHereSaysWhyInsteadOfItsLimits() {
        Availability noUdp = Availability.no("libfabric has no RDM endpoint for udp;ofi_rxd");
        List<String> lines = ProviderNotes.lines(p -> p.equals("udp") ? noUdp : Availability.yes());
        assertThat(lines.get(2)).isEqualTo("gm.provider=udp (udp;ofi_rxd): no: libfabric has no RDM endpoint for"
                + " udp;ofi_rxd");
    }

    @Test
    void theProvidersNotesAskLibgmAboutEachProvider() {
        assertThat(new GmTransportProvider().notes()).hasSize(4)
                .allMatch(l -> l.startsWith("gm.provider="))
                .allMatch(l -> l.contains(": yes") || l.contains(": no: "));
    }
}
