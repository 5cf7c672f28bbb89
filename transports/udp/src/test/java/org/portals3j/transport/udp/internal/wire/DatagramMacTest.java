package org.portals3j.transport.udp.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The tag comparison every MAC's verify ends with. */
class DatagramMacTest {

    @Test
    void tagsAreEqualOnlyWhenEveryComparedByteIs() {
        byte[] computed = new byte[32];
        byte[] received = new byte[16];
        for (int i = 0; i < 16; i++) {
            computed[i] = (byte) (i * 37 + 1);
            received[i] = computed[i];
        }
        computed[20] = 99; // beyond the compared prefix (HMAC's digest is longer than its tag)
        assertThat(DatagramMac.sameTag(computed, received, 16)).isTrue();
        for (int i = 0; i < 16; i++) {
            for (int bit = 0; bit < 8; bit++) {
                received[i] ^= (byte) (1 << bit);
                assertThat(DatagramMac.sameTag(computed, received, 16)).as("byte %d bit %d flipped", i, bit).isFalse();
                received[i] ^= (byte) (1 << bit);
            }
        }
    }
}
