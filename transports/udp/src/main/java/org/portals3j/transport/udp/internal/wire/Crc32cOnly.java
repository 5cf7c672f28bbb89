package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;

/**
 * No authentication ({@code udp.mac=crc32c}, opt-in for private networks): datagrams are checked by the codec's
 * CRC32C alone and the MAC field is zero, so that a peer configured with a real MAC and one without refuse each
 * other's datagrams ({@code drop.mac}) instead of one of them trusting the other. Allocates nothing.
 */
public final class Crc32cOnly implements DatagramMac {
    public static final String NAME = "crc32c";
    private static final long ZERO = 0L;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void sign(ByteBuffer b, int length) {
        b.putLong(DatagramHeader.MAC_OFFSET, ZERO);
        b.putLong(DatagramHeader.MAC_OFFSET + Long.BYTES, ZERO);
    }

    @Override
    public boolean verify(ByteBuffer b, int length) {
        if (length < DatagramHeader.LENGTH || length > b.capacity()) {
            return false;
        }
        return (b.getLong(DatagramHeader.MAC_OFFSET) | b.getLong(DatagramHeader.MAC_OFFSET + Long.BYTES)) == ZERO;
    }
}
