package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * The 12-byte GCM nonce of a datagram: the sender's rank (4 bytes) and the header's 64-bit datagram
 * counter, little-endian. An endpoint starts its counter at a random value and never reuses one, so a
 * nonce never repeats under one key, which is GCM's one hard requirement. Shared by {@link AesGcmMac}
 * and {@link GmacMac}; one instance per cipher user (it reuses its array).
 */
final class GcmNonce {
    private final byte[] iv = new byte[12];

    /** The GCM parameters (16-byte tag, this datagram's nonce) for the datagram in {@code b}. */
    GCMParameterSpec of(ByteBuffer b) {
        int source = DatagramHeader.source(b);
        long counter = DatagramHeader.counter(b);
        for (int i = 0; i < 4; i++) {
            iv[i] = (byte) (source >>> (8 * i));
        }
        for (int i = 0; i < 8; i++) {
            iv[4 + i] = (byte) (counter >>> (8 * i));
        }
        return new GCMParameterSpec(8 * DatagramHeader.MAC_LENGTH, iv);
    }

    /** A fresh AES/GCM cipher. */
    static Cipher newCipher() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is required of every Java platform", e);
        }
    }
}
