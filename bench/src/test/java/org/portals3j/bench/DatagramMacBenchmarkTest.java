package org.portals3j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;

/** The MAC benchmark times datagrams its receiver accepts (a refused one would be cheaper and fake the figure). */
class DatagramMacBenchmarkTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "aes-gcm", "gmac", "aes-pmac", "hmac-sha256", "crc32c"})
    void everyTimedDatagramIsAccepted(String mac) {
        DatagramMacBenchmark b = new DatagramMacBenchmark();
        b.mac = mac;
        b.length = 65000;
        b.setUp();
        for (int i = 0; i < 3; i++) {
            assertThat(b.sealAndCheck()).isEqualTo(DatagramCodec.Verdict.OK);
        }
    }
}
