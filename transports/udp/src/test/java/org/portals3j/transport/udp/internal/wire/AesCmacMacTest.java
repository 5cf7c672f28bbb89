package org.portals3j.transport.udp.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The CMAC construction against the test vectors of RFC 4493, section 4 (AES-128). */
class AesCmacMacTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] KEY = HEX.parseHex("2b7e151628aed2a6abf7158809cf4f3c");
    private static final String M = "6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef" + "f69f2445df4f9b17ad2b417be66c3710";

    @ParameterizedTest(name = "length {0}")
    @CsvSource({
        "0, bb1d6929e95937287fa37d129b756746",
        "16, 070a16b46b4d4144f79bdd9dd04a287c",
        "40, dfa66747de9ae63030ca32611497c827",
        "64, 51f0bebf7e3b9d92fc49741779363cfe",
    })
    void matchesRfc4493(int length, String expected) {
        AesCmacMac mac = new AesCmacMac(KEY);
        byte[] message = HEX.parseHex(M.substring(0, 2 * length));
        assertThat(HEX.formatHex(mac.macOf(message))).isEqualTo(expected);
        // the cipher is back at its zero IV after each tag: the same message gives the same tag again
        assertThat(HEX.formatHex(mac.macOf(message))).isEqualTo(expected);
    }
}
