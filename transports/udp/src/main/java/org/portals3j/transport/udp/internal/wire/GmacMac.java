package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-GMAC: AES/GCM with the datagram as additional authenticated data and no plaintext. The 12-byte IV
 * is the sender's rank and the header's 64-bit datagram counter; an endpoint starts its counter at a
 * random value and never reuses one, so an IV is never repeated under the job key (GCM's requirement).
 * Verification runs the cipher in decrypt mode, which checks the tag without the encrypt-side IV check.
 *
 * <p>{@code Cipher.init} allocates (parameter objects), so this is not allocation-free; see the package
 * documentation for the measurements behind the default.
 */
public final class GmacMac implements DatagramMac {
    public static final String NAME = "gmac";

    private final Cipher signer;
    private final Cipher verifier;
    private final SecretKeySpec key;
    private final GcmNonce nonce = new GcmNonce();
    private final byte[] tag = new byte[DatagramHeader.MAC_LENGTH];
    private final byte[] empty = new byte[0];

    public GmacMac(byte[] keyBytes) {
        key = new SecretKeySpec(keyBytes, "AES");
        signer = GcmNonce.newCipher();
        verifier = GcmNonce.newCipher();
    }

    @Override
    public String name() {
        return NAME;
    }

    private void aad(Cipher c, ByteBuffer b, int length) {
        int pos = b.position();
        int lim = b.limit();
        try {
            b.limit(DatagramHeader.CRC_OFFSET).position(0);
            c.updateAAD(b);
            b.limit(length).position(DatagramHeader.LENGTH);
            c.updateAAD(b);
        } finally {
            b.limit(lim).position(pos);
        }
    }

    @Override
    public void sign(ByteBuffer b, int length) {
        try {
            signer.init(Cipher.ENCRYPT_MODE, key, nonce.of(b));
            aad(signer, b, length);
            int n = signer.doFinal(empty, 0, 0, tag, 0);
            if (n != DatagramHeader.MAC_LENGTH) {
                throw new IllegalStateException("GCM produced a " + n + "-byte tag");
            }
            b.put(DatagramHeader.MAC_OFFSET, tag, 0, DatagramHeader.MAC_LENGTH);
        } catch (GeneralSecurityException e) {
            // Only an IV reuse could cause this, which the counter rules out.
            throw new IllegalStateException("GMAC signing failed", e);
        }
    }

    @Override
    public boolean verify(ByteBuffer b, int length) {
        try {
            verifier.init(Cipher.DECRYPT_MODE, key, nonce.of(b));
            aad(verifier, b, length);
            b.get(DatagramHeader.MAC_OFFSET, tag, 0, DatagramHeader.MAC_LENGTH);
            verifier.doFinal(tag, 0, DatagramHeader.MAC_LENGTH, empty, 0);
            return true;
        } catch (AEADBadTagException e) {
            return false;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }
}
