package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Seals outgoing datagrams (MAC, then CRC32C) and checks incoming ones in the order that matters for
 * hostile input: length, magic and version first (cheap, no trust needed), then the CRC (catches
 * corruption cheaply), then the MAC (only then is anything in the datagram trusted). Field checks come
 * after, in the endpoint. One instance per thread.
 */
public final class DatagramCodec {

    /** What {@link #check} found. */
    public enum Verdict {
        OK, SHORT, MAGIC, VERSION, CRC, MAC
    }

    private final CRC32C crc = new CRC32C();
    private final DatagramMac mac;

    public DatagramCodec(DatagramMac mac) {
        this.mac = mac;
    }

    public DatagramMac mac() {
        return mac;
    }

    private int crcOf(ByteBuffer b, int length) {
        int pos = b.position();
        int lim = b.limit();
        try {
            crc.reset();
            b.limit(DatagramHeader.CRC_OFFSET).position(0);
            crc.update(b);
            b.limit(length).position(DatagramHeader.LENGTH);
            crc.update(b);
            return (int) crc.getValue();
        } finally {
            b.limit(lim).position(pos);
        }
    }

    /**
     * Adds MAC (which may encrypt the body in place) and then the CRC of the final bytes to the datagram
     * {@code [0, length)} whose header and body are written.
     */
    public void seal(ByteBuffer b, int length) {
        mac.sign(b, length);
        b.putInt(DatagramHeader.CRC_OFFSET, crcOf(b, length));
    }

    /** Checks the datagram {@code [0, length)} (and decrypts its body in place if it was encrypted); never throws. */
    public Verdict check(ByteBuffer b, int length) {
        if (length < DatagramHeader.LENGTH || length > b.capacity()) {
            return Verdict.SHORT;
        }
        if (DatagramHeader.magic(b) != DatagramHeader.MAGIC) {
            return Verdict.MAGIC;
        }
        if (DatagramHeader.version(b) != DatagramHeader.VERSION) {
            return Verdict.VERSION;
        }
        if (b.getInt(DatagramHeader.CRC_OFFSET) != crcOf(b, length)) {
            return Verdict.CRC;
        }
        if (!mac.verify(b, length)) {
            return Verdict.MAC;
        }
        return Verdict.OK;
    }
}
