package org.portals3j.transport.udp.internal.wire;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * What the AES-based datagram MACs share: the bytes a MAC covers ({@code [0, CRC_OFFSET)} of the header, then
 * the body) gathered into one scratch array with room for a padded last block, the tag written into or compared
 * with the MAC field. Subclasses compute {@link #tag} from the scratch; nothing here allocates after the scratch
 * has grown to the largest datagram.
 */
abstract sealed class AesBlockMac implements DatagramMac permits AesCmacMac, AesPmacMac {
    static final int BLOCK = 16;

    /** The message, with room for one block more than it needs (padding is written in place). */
    byte[] in = new byte[512];
    /** {@link #in} as a segment: loops over it that C2 vectorises. */
    MemorySegment inSegment = MemorySegment.ofArray(in);
    /** Ciphertext scratch, as large as {@link #in}. */
    byte[] out = new byte[512];
    /** The tag {@link #macOfScratch} computes. */
    final byte[] tag = new byte[BLOCK];
    private final byte[] received = new byte[BLOCK];

    /**
     * The MAC of the first {@code length} bytes of {@link #in} (which has room for their last block), into
     * {@link #tag}.
     */
    abstract void macOfScratch(int length);

    /** Test access: the MAC of {@code message}, checked against published test vectors. */
    final byte[] macOf(byte[] message) {
        ensureScratch(message.length);
        System.arraycopy(message, 0, in, 0, message.length);
        macOfScratch(message.length);
        return tag.clone();
    }

    private void ensureScratch(int length) {
        int need = (Math.max(1, (length + BLOCK - 1) / BLOCK) + 1) * BLOCK;
        if (in.length < need) {
            in = new byte[need]; // grows once to the largest datagram, then never again
            inSegment = MemorySegment.ofArray(in);
            out = new byte[need];
        }
    }

    private void compute(ByteBuffer b, int length) {
        int body = length - DatagramHeader.LENGTH;
        int covered = DatagramHeader.CRC_OFFSET + body;
        ensureScratch(covered);
        int lim = b.limit();
        try {
            b.limit(b.capacity());
            b.get(0, in, 0, DatagramHeader.CRC_OFFSET);
            b.get(DatagramHeader.LENGTH, in, DatagramHeader.CRC_OFFSET, body);
        } finally {
            b.limit(lim);
        }
        macOfScratch(covered);
    }

    @Override
    public final void sign(ByteBuffer b, int length) {
        compute(b, length);
        b.put(DatagramHeader.MAC_OFFSET, tag, 0, BLOCK);
    }

    @Override
    public final boolean verify(ByteBuffer b, int length) {
        if (length < DatagramHeader.LENGTH || length > b.capacity()) {
            return false;
        }
        compute(b, length);
        b.get(DatagramHeader.MAC_OFFSET, received, 0, BLOCK);
        return DatagramMac.sameTag(tag, received, BLOCK);
    }
}
