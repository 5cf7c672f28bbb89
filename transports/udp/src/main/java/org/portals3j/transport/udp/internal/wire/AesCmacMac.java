package org.portals3j.transport.udp.internal.wire;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-CMAC (RFC 4493, NIST SP 800-38B) over {@code [0, CRC_OFFSET)} of the header and the body; the
 * 16-byte tag goes in the MAC field.
 *
 * <p>The JDK has no CMAC, but CMAC is CBC-MAC with one tweak of the last
 * block, and the JDK's AES/CBC (AES-NI) computes CBC-MAC without allocating: the tag is the last
 * ciphertext block, and {@code doFinal} returns the cipher to its zero IV for the next datagram. The
 * construction is checked against the RFC's test vectors.
 */
public final class AesCmacMac extends AesBlockMac {
    public static final String NAME = "aes-cmac";
    /** The constant R_b of RFC 4493 for 128-bit blocks. */
    private static final int RB = 0x87;

    private final Cipher cbc;
    private final byte[] k1 = new byte[BLOCK];
    private final byte[] k2 = new byte[BLOCK];

    /** @param key 16, 24 or 32 bytes: AES-128, -192 or -256 */
    public AesCmacMac(byte[] key) {
        try {
            SecretKeySpec k = new SecretKeySpec(key, "AES");
            Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
            ecb.init(Cipher.ENCRYPT_MODE, k);
            byte[] l = ecb.doFinal(new byte[BLOCK]); // L = AES_K(0^128)
            doubleInGf(l, k1);
            doubleInGf(k1, k2);
            cbc = Cipher.getInstance("AES/CBC/NoPadding");
            cbc.init(Cipher.ENCRYPT_MODE, k, new IvParameterSpec(new byte[BLOCK]));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is required of every Java platform", e);
        }
    }

    /** {@code to = from << 1}, reduced by R_b when the top bit falls off (RFC 4493 section 2.3). */
    private static void doubleInGf(byte[] from, byte[] to) {
        int carry = 0;
        for (int i = BLOCK - 1; i >= 0; i--) {
            int b = from[i] & 0xff;
            to[i] = (byte) ((b << 1) | carry);
            carry = b >>> 7;
        }
        if ((from[0] & 0x80) != 0) {
            to[BLOCK - 1] ^= (byte) RB;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * The CMAC of the first {@code length} bytes of {@link #in} (which has room for their last block),
     * into {@link #tag}. Package-visible for the RFC 4493 test vectors.
     */
    @Override
    void macOfScratch(int length) {
        int blocks = Math.max(1, (length + BLOCK - 1) / BLOCK);
        int last = (blocks - 1) * BLOCK;
        byte[] subkey;
        if (length > 0 && length % BLOCK == 0) {
            subkey = k1; // a complete last block
        } else {
            in[length] = (byte) 0x80; // padding 10*
            Arrays.fill(in, length + 1, blocks * BLOCK, (byte) 0);
            subkey = k2;
        }
        for (int i = 0; i < BLOCK; i++) {
            in[last + i] ^= subkey[i];
        }
        try {
            cbc.doFinal(in, 0, blocks * BLOCK, out, 0); // CBC-MAC: the tag is the last ciphertext block
        } catch (ShortBufferException e) {
            throw new IllegalStateException("the scratch buffer holds the whole message", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CBC failed on whole blocks", e);
        }
        System.arraycopy(out, last, tag, 0, BLOCK);
    }
}
