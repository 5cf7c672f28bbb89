package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;

/**
 * Authenticates datagrams with the job key. One instance per thread that signs or verifies: the
 * underlying JDK engines are stateful and reused (no allocation per datagram).
 *
 * <p>The MAC covers {@code [0, DatagramHeader.CRC_OFFSET)} and the body {@code [DatagramHeader.LENGTH, length)}.
 * An authenticator may also encrypt the body in place ({@link AesGcmMac}); {@link #verify} then leaves the
 * plaintext in its place.
 */
public interface DatagramMac {

    /** The algorithm's option name ({@code hmac-sha256}, {@code gmac}). */
    String name();

    /** Writes the 16-byte MAC of the datagram {@code [0, length)} of {@code b} at {@code MAC_OFFSET}. */
    void sign(ByteBuffer b, int length);

    /** Whether the datagram {@code [0, length)} carries a valid MAC. Never throws for bad input. */
    boolean verify(ByteBuffer b, int length);

    /**
     * Whether datagrams over {@link AesGcmMac#HEAP_ABOVE} bytes are sealed faster in a heap buffer than in a direct
     * one (AES-GCM): the sender then builds them there, at the price of the socket's copy into a direct buffer.
     */
    default boolean sealsFasterOnArrays() {
        return false;
    }

    /**
     * Whether the first {@code n} bytes of {@code computed} and {@code received} are equal, in time that does not
     * depend on where they differ (so a forger learns nothing from how fast a guess is refused). The JDK's
     * {@code MessageDigest.isEqual} does this for whole arrays only; HMAC's tag is a prefix of its digest.
     */
    static boolean sameTag(byte[] computed, byte[] received, int n) {
        int diff = 0;
        for (int i = 0; i < n; i++) {
            diff |= computed[i] ^ received[i];
        }
        return diff == 0;
    }
}
