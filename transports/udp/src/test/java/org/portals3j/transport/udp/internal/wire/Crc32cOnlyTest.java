package org.portals3j.transport.udp.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The integrity-only codec: a flipped byte anywhere is refused (by the CRC32C, or in the MAC field by its zero
 * check), and an authenticated datagram is refused.
 */
class Crc32cOnlyTest {
    private static final int BODY = 65000 - DatagramHeader.LENGTH;

    private static ByteBuffer datagram(int length) {
        ByteBuffer b = ByteBuffer.allocateDirect(length + DatagramHeader.TRAILER_ROOM).order(ByteOrder.LITTLE_ENDIAN);
        DatagramHeader.write(b, DatagramType.DATA, DatagramHeader.FLAG_FIRST, 1, 0, 1, 64, 11L, 22L, 33L, 0, 0, 0, 0,
                length - DatagramHeader.LENGTH, 0, 0, length - DatagramHeader.LENGTH);
        for (int i = DatagramHeader.LENGTH; i < length; i++) {
            b.put(i, (byte) (i * 31));
        }
        b.putLong(DatagramHeader.MAC_OFFSET, -1L); // a stale tag in a reused buffer
        return b;
    }

    @Test
    void sealedDatagramsPassAndCarryAZeroMac() {
        DatagramCodec codec = new DatagramCodec(new Crc32cOnly());
        for (int length : new int[] {DatagramHeader.LENGTH, DatagramHeader.LENGTH + 8, DatagramHeader.LENGTH + BODY}) {
            ByteBuffer b = datagram(length);
            codec.seal(b, length);
            assertThat(codec.check(b, length)).as("length %d", length).isEqualTo(DatagramCodec.Verdict.OK);
            assertThat(b.getLong(DatagramHeader.MAC_OFFSET) | b.getLong(DatagramHeader.MAC_OFFSET + 8)).isZero();
        }
    }

    @Test
    void aCorruptedByteAnywhereFailsTheCrc() {
        DatagramCodec codec = new DatagramCodec(new Crc32cOnly());
        int length = DatagramHeader.LENGTH + 3000;
        ByteBuffer b = datagram(length);
        codec.seal(b, length);
        for (int i = 8; i < length; i += 7) { // past magic and version, which are checked before the CRC
            // the CRC does not cover the MAC field, whose zero is checked instead
            boolean macField = i >= DatagramHeader.MAC_OFFSET && i < DatagramHeader.LENGTH;
            b.put(i, (byte) (b.get(i) ^ 0x10));
            assertThat(codec.check(b, length)).as("byte %d flipped", i)
                    .isEqualTo(macField ? DatagramCodec.Verdict.MAC : DatagramCodec.Verdict.CRC);
            b.put(i, (byte) (b.get(i) ^ 0x10));
            assertThat(codec.check(b, length)).isEqualTo(DatagramCodec.Verdict.OK);
        }
    }

    @Test
    void aDatagramWithANonZeroMacIsRefused() {
        int length = DatagramHeader.LENGTH + 100;
        ByteBuffer b = datagram(length);
        new DatagramCodec(new AesPmacMac(new byte[16])).seal(b, length);
        assertThat(new DatagramCodec(new Crc32cOnly()).check(b, length)).isEqualTo(DatagramCodec.Verdict.MAC);
        assertThat(new Crc32cOnly().verify(b, DatagramHeader.LENGTH - 1)).isFalse();
    }
}
