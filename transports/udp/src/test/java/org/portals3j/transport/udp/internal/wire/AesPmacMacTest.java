package org.portals3j.transport.udp.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PMAC construction against the PMAC-AES test vectors of Rogaway's reference page
 * (web.cs.ucdavis.edu/~rogaway/ocb/pmac-test.htm, as republished by the Miscreant project): messages are
 * the bytes 00 01 02 ... of the given length, except the 1000-byte one, which is all zeros.
 */
class AesPmacMacTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String KEY_128 = "000102030405060708090a0b0c0d0e0f";
    private static final String KEY_256 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    @ParameterizedTest(name = "key {0}, length {1}")
    @CsvSource({
        "128, 0, 4399572cd6ea5341b8d35876a7098af7",
        "128, 3, 256ba5193c1b991b4df0c51f388a9e27",
        "128, 16, ebbd822fa458daf6dfdad7c27da76338",
        "128, 20, 0412ca150bbf79058d8c75a58c993f55",
        "128, 32, e97ac04e9e5e3399ce5355cd7407bc75",
        "128, 34, 5cba7d5eb24f7c86ccc54604e53d5512",
        "128, 1000, c2c9fa1d9985f6f0d2aff915a0e8d910",
        "256, 0, e620f52fe75bbe87ab758c0624943d8b",
        "256, 3, ffe124cc152cfb2bf1ef5409333c1c9a",
        "256, 16, 853fdbf3f91dcd36380d698a64770bab",
        "256, 20, 7711395fbe9dec19861aeb96e052cd1b",
        "256, 32, 08fa25c28678c84d383130653e77f4c0",
        "256, 34, edd8a05f4b66761f9eee4feb4ed0c3a1",
        "256, 1000, 69aa77f231eb0cdff960f5561d29a96e",
    })
    void matchesTheReferenceVectors(int keyBits, int length, String expected) throws Exception {
        byte[] key = HEX.parseHex(keyBits == 128 ? KEY_128 : KEY_256);
        AesPmacMac mac = new AesPmacMac(key);
        byte[] message = new byte[length];
        if (length != 1000) {
            for (int i = 0; i < length; i++) {
                message[i] = (byte) i;
            }
        }
        assertThat(HEX.formatHex(mac.macOf(message))).isEqualTo(expected);
        // no state carries over: the same message gives the same tag again
        assertThat(HEX.formatHex(mac.macOf(message))).isEqualTo(expected);
        // and the plain definition below, which checks the long messages, agrees with the vectors too
        assertThat(HEX.formatHex(plainPmac(key, message))).isEqualTo(expected);
    }

    /**
     * The MAC alone (no CRC in front of it) rejects every single-bit change of what it covers, header up
     * to the CRC and body, and of the tag itself; bodies end on a whole block, mid-block, and span many.
     */
    @ParameterizedTest(name = "body {0}")
    @ValueSource(ints = {0, 8, 24, 40, 1024, 1029})
    void everyFlippedBitOfTheCoveredBytesOrTheTagFailsVerification(int body) {
        AesPmacMac mac = new AesPmacMac(HEX.parseHex(KEY_128));
        int length = DatagramHeader.LENGTH + body;
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            b.put(i, (byte) (i * 31 + 7));
        }
        mac.sign(b, length);
        assertThat(mac.verify(b, length)).isTrue();
        for (int bit = 0; bit < length * 8; bit++) {
            int at = bit >>> 3;
            if (at >= DatagramHeader.CRC_OFFSET && at < DatagramHeader.MAC_OFFSET) {
                continue; // the CRC field: outside the MAC, the codec checks it
            }
            b.put(at, (byte) (b.get(at) ^ (1 << (bit & 7))));
            assertThat(mac.verify(b, length)).as("bit %d", bit).isFalse();
            b.put(at, (byte) (b.get(at) ^ (1 << (bit & 7))));
        }
        assertThat(mac.verify(b, length)).isTrue();
    }

    /**
     * Beyond the reference vectors' 1000 bytes, and beyond the {@link AesPmacMac#TABLED} blocks whose
     * offsets are tabled: the same tag as a plain block-by-block PMAC written from the definition.
     */
    @ParameterizedTest(name = "length {0}")
    @ValueSource(ints = {8175, 8176, 8177, 8192, 8208, 20000, 65000})
    void longMessagesMatchAPlainBlockByBlockPmac(int length) throws Exception {
        byte[] key = HEX.parseHex(KEY_128);
        byte[] message = new byte[length];
        for (int i = 0; i < length; i++) {
            message[i] = (byte) (i * 131 + (i >>> 8));
        }
        assertThat(HEX.formatHex(new AesPmacMac(key).macOf(message))).isEqualTo(HEX.formatHex(plainPmac(key, message)));
    }

    /** The offset table grows with the longest message seen; shorter and longer ones after it still match. */
    @Test
    void oneInstanceMatchesAcrossGrowingAndShrinkingLengths() throws Exception {
        byte[] key = HEX.parseHex(KEY_128);
        AesPmacMac mac = new AesPmacMac(key);
        for (int length : new int[] {100, 65000, 8192, 30000, 70001, 16}) {
            byte[] message = new byte[length];
            for (int i = 0; i < length; i++) {
                message[i] = (byte) (i * 7 + length);
            }
            assertThat(HEX.formatHex(mac.macOf(message))).as("length %d", length)
                    .isEqualTo(HEX.formatHex(plainPmac(key, message)));
        }
    }

    /** PMAC as defined, one AES call per block, offsets by doubling, no tables. */
    private static byte[] plainPmac(byte[] key, byte[] m) throws Exception {
        Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        byte[][] l = new byte[40][];
        l[0] = aes.doFinal(new byte[16]);
        for (int i = 1; i < l.length; i++) {
            l[i] = times2(l[i - 1]);
        }
        int blocks = Math.max(1, (m.length + 15) / 16);
        byte[] offset = new byte[16];
        byte[] sigma = new byte[16];
        for (int i = 1; i < blocks; i++) {
            xor(offset, l[Integer.numberOfTrailingZeros(i)]);
            byte[] x = Arrays.copyOfRange(m, (i - 1) * 16, i * 16);
            xor(x, offset);
            xor(sigma, aes.doFinal(x));
        }
        int last = (blocks - 1) * 16;
        byte[] tail = new byte[16];
        System.arraycopy(m, last, tail, 0, m.length - last);
        if (m.length - last == 16) {
            xor(tail, timesXInverse(l[0]));
        } else {
            tail[m.length - last] = (byte) 0x80;
        }
        xor(sigma, tail);
        return aes.doFinal(sigma);
    }

    private static byte[] times2(byte[] a) {
        byte[] r = new byte[16];
        for (int i = 0; i < 16; i++) {
            r[i] = (byte) ((a[i] << 1) | (i < 15 ? (a[i + 1] & 0xff) >>> 7 : 0));
        }
        if ((a[0] & 0x80) != 0) {
            r[15] ^= (byte) 0x87;
        }
        return r;
    }

    private static byte[] timesXInverse(byte[] a) {
        byte[] r = new byte[16];
        for (int i = 0; i < 16; i++) {
            r[i] = (byte) (((a[i] & 0xff) >>> 1) | (i > 0 ? (a[i - 1] & 1) << 7 : 0));
        }
        if ((a[15] & 1) != 0) {
            r[0] ^= (byte) 0x80;
            r[15] ^= (byte) 0x43;
        }
        return r;
    }

    private static void xor(byte[] into, byte[] from) {
        for (int i = 0; i < 16; i++) {
            into[i] ^= from[i];
        }
    }
}
