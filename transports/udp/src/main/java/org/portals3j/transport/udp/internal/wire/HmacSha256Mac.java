package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 truncated to 16 bytes (RFC 2104; truncation as RFC 4868 allows). */
public final class HmacSha256Mac implements DatagramMac {
    public static final String NAME = "hmac-sha256";

    private final Mac mac;
    private final byte[] full = new byte[32];
    private final byte[] received = new byte[DatagramHeader.MAC_LENGTH];
    private final byte[] computed = new byte[DatagramHeader.MAC_LENGTH];

    public HmacSha256Mac(byte[] key) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java platform", e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    private void compute(ByteBuffer b, int length) {
        // Absolute slices through position/limit on a duplicate would allocate; instead move the
        // buffer's own window and restore it.
        int pos = b.position();
        int lim = b.limit();
        try {
            b.limit(DatagramHeader.MAC_OFFSET).position(0);
            mac.update(b);
            b.limit(length).position(DatagramHeader.LENGTH);
            mac.update(b);
            mac.doFinal(full, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e);
        } finally {
            b.limit(lim).position(pos);
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
        System.arraycopy(full, 0, computed, 0, DatagramHeader.MAC_LENGTH);
        b.get(DatagramHeader.MAC_OFFSET, received, 0, DatagramHeader.MAC_LENGTH);
        return MessageDigest.isEqual(computed, received); // constant time
    }
}
