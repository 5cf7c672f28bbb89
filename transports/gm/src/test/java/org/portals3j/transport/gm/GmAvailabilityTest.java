package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.portals3j.transport.Availability;

/** What {@code portals info} shows for gm: available, or one line saying what to install or set. */
class GmAvailabilityTest {

    @Test
    void theProviderSaysWhetherItRunsAndIfNotWhatToDo() {
        Availability a = new GmTransportProvider().availability();
        if (!a.available()) {
            assertThat(a.reason()).doesNotContain("\n").containsAnyOf("libfabric1", "native-gm jar",
                    "portals3j.gm.library", "PORTALS3J_GM_LIBRARY", "--enable-native-access");
        } else {
            assertThat(a.reason()).isEqualTo("available");
        }
        assertThat(new GmTransportProvider().availability()).isEqualTo(a); // stable, and cheap to ask again
    }
}
