package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The default authenticator: AES-PMAC (AES-128) on every datagram, keyed with a key derived from the job key
 * (HMAC-SHA256(job key, label)), never the job key itself. Allocates nothing and leaves the body as it is.
 * Why this one: docs/udp-notes.md.
 */
public final class AutoMac implements DatagramMac {
    public static final String NAME = "auto";

    private final AesPmacMac pmac;

    public AutoMac(byte[] jobKey) {
        pmac = new AesPmacMac(Arrays.copyOf(derive(jobKey, "portals3j udp aes-pmac"), 16));
    }

    /** A subkey for one purpose: HKDF-Expand's first block (RFC 5869) with the job key as the PRK. */
    static byte[] derive(byte[] jobKey, String label) {
        return HmacSha256Mac.of(jobKey, (label + "\u0001").getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void sign(ByteBuffer b, int length) {
        pmac.sign(b, length);
    }

    @Override
    public boolean verify(ByteBuffer b, int length) {
        return pmac.verify(b, length);
    }
}
