package org.portals3j.transport.gm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.transport.TransportException;

class GmOptionsTest {

    @Test
    void defaultsAreTcpAndTheDocumentedValues() throws TransportException {
        GmOptions.Settings s = GmOptions.parse(Map.of());
        assertThat(s.provider()).isEqualTo("tcp");
        assertThat(s.port()).isEqualTo(2);
        assertThat(s.eagerThreshold()).isEqualTo(8192);
        assertThat(s.credits()).isEqualTo(8);
        assertThat(s.registrationCache()).isEqualTo(64);
        assertThat(s.ackTimeoutMillis()).isEqualTo(10_000);
        assertThat(s.keepaliveMillis()).isEqualTo(1000);
        assertThat(s.strict()).isFalse();
    }

    @Test
    void everyOptionIsRead() throws TransportException {
        GmOptions.Settings s = GmOptions.parse(Map.of(GmOptions.PROVIDER, "SHM", GmOptions.ADDRESS, "10.0.0.1",
                GmOptions.PORT, "5", GmOptions.EAGER_THRESHOLD, "0", GmOptions.CREDITS, "1",
                GmOptions.REGISTRATION_CACHE, "3", GmOptions.ACK_TIMEOUT_MILLIS, "50", GmOptions.KEEPALIVE_MILLIS, "0",
                GmOptions.RENDEZVOUS_TIMEOUT_MILLIS, "10", GmOptions.STRICT, "true"));
        assertThat(s).isEqualTo(new GmOptions.Settings("shm", "10.0.0.1", 5, 0, 1, 3, 50, 0, 10, true));
    }

    @Test
    void badValuesNameTheOptionAndWhatItTakes() {
        assertThatThrownBy(() -> GmOptions.parse(Map.of(GmOptions.PROVIDER, "verbs")))
                .isInstanceOf(TransportException.class).hasMessageContaining("choose tcp, shm, udp or net");
        assertThatThrownBy(() -> GmOptions.parse(Map.of(GmOptions.CREDITS, "0")))
                .hasMessageContaining("gm.credits=0").hasMessageContaining("[1, 256]");
        assertThatThrownBy(() -> GmOptions.parse(Map.of(GmOptions.PORT, "x"))).hasMessageContaining("gm.port=x");
        assertThatThrownBy(() -> GmOptions.parse(Map.of(GmOptions.STRICT, "yes")))
                .hasMessageContaining("true or false");
        assertThatThrownBy(() -> GmOptions.parse(Map.of("gm.credit", "4"))).hasMessageContaining("unknown option");
    }

    @Test
    void otherTransportsOptionsAreLeftAlone() throws TransportException {
        assertThat(GmOptions.parse(Map.of("udp.port", "9")).provider()).isEqualTo("tcp");
    }
}
