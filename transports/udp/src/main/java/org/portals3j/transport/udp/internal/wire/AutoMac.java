package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The default authenticator: AES-PMAC (AES-128) for datagrams up to {@value #GCM_ABOVE} bytes, AES-GCM
 * (body encrypted in place) above. Both ends choose by the datagram's length, so they always agree; each
 * algorithm has its own key derived from the job key (HMAC-SHA256(job key, label)), never the job key
 * itself.
 * Why two: docs/udp-notes.md.
 */
public final class AutoMac implements DatagramMac {
    public static final String NAME = "auto";
    /** Datagrams longer than this are sealed with AES-GCM. */
    public static final int GCM_ABOVE = 8192;

    private final AesPmacMac small;
    private final AesGcmMac large;

    public AutoMac(byte[] jobKey) {
        small = new AesPmacMac(Arrays.copyOf(derive(jobKey, "portals3j udp aes-pmac"), 16));
        large = new AesGcmMac(derive(jobKey, "portals3j udp aes-gcm"));
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
    public boolean sealsFasterOnArrays() {
        return true;
    }

    @Override
    public void sign(ByteBuffer b, int length) {
        (length > GCM_ABOVE ? large : small).sign(b, length);
    }

    @Override
    public boolean verify(ByteBuffer b, int length) {
        return (length > GCM_ABOVE ? large : small).verify(b, length);
    }
}
