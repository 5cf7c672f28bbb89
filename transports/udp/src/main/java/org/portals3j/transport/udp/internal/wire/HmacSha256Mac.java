package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-SHA256 truncated to 16 bytes (RFC 2104; truncation as RFC 4868 allows).
 *
 * <p>Built on two {@link MessageDigest}s rather than {@code javax.crypto.Mac}: the JDK's HMAC
 * allocates two 32-byte digests on every {@code doFinal}, while {@link MessageDigest#digest(byte[], int, int)}
 * writes into a buffer we own. The
 * construction is RFC 2104's, {@code H((K ^ opad) || H((K ^ ipad) || m))}, with the SHA-256 engine
 * (and its SHA-NI intrinsic) doing all the work.
 */
public final class HmacSha256Mac implements DatagramMac {
    public static final String NAME = "hmac-sha256";
    private static final int BLOCK = 64;
    private static final int DIGEST = 32;

    private final MessageDigest inner;
    private final MessageDigest outer;
    private final byte[] innerPad = new byte[BLOCK];
    private final byte[] outerPad = new byte[BLOCK];
    private final byte[] innerDigest = new byte[DIGEST];
    private final byte[] full = new byte[DIGEST];
    private final byte[] received = new byte[DatagramHeader.MAC_LENGTH];

    public HmacSha256Mac(byte[] key) {
        try {
            inner = MessageDigest.getInstance("SHA-256");
            outer = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
        byte[] k = key.length > BLOCK ? inner.digest(key) : key; // RFC 2104: long keys are hashed first
        for (int i = 0; i < BLOCK; i++) {
            byte b = i < k.length ? k[i] : 0;
            innerPad[i] = (byte) (b ^ 0x36);
            outerPad[i] = (byte) (b ^ 0x5c);
        }
    }

    /** The full 32-byte HMAC-SHA256 of {@code message} (for key derivation and tests; allocates). */
    public static byte[] of(byte[] key, byte[] message) {
        HmacSha256Mac m = new HmacSha256Mac(key);
        m.inner.update(m.innerPad);
        m.inner.update(message);
        m.finish();
        return m.full.clone();
    }

    @Override
    public String name() {
        return NAME;
    }

    private void compute(ByteBuffer b, int length) {
        // Move the buffer's own window and restore it: slices and duplicates would allocate.
        int pos = b.position();
        int lim = b.limit();
        try {
            inner.update(innerPad);
            b.limit(DatagramHeader.CRC_OFFSET).position(0);
            inner.update(b);
            b.limit(length).position(DatagramHeader.LENGTH);
            inner.update(b);
            finish();
        } finally {
            b.limit(lim).position(pos);
        }
    }

    private void finish() {
        try {
            inner.digest(innerDigest, 0, DIGEST); // also resets the digest for the next datagram
            outer.update(outerPad);
            outer.update(innerDigest);
            outer.digest(full, 0, DIGEST);
        } catch (DigestException e) {
            throw new IllegalStateException("a 32-byte buffer holds a SHA-256 digest", e);
        }
    }

    @Override
    public void sign(ByteBuffer b, int length) {
        compute(b, length);
        b.put(DatagramHeader.MAC_OFFSET, full, 0, DatagramHeader.MAC_LENGTH);
    }

    @Override
    public boolean verify(ByteBuffer b, int length) {
        compute(b, length);
        b.get(DatagramHeader.MAC_OFFSET, received, 0, DatagramHeader.MAC_LENGTH);
        return DatagramMac.sameTag(full, received, DatagramHeader.MAC_LENGTH);
    }
}
