package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-GCM over a datagram: the body is encrypted, {@code [0, CRC_OFFSET)} of the header is the additional
 * authenticated data, and the 16-byte tag goes in the header's MAC field. The 12-byte IV is the sender's
 * rank and the header's 64-bit datagram counter, which an endpoint starts at a random value and never
 * reuses, so an IV never repeats under one key (GCM's requirement).
 *
 * <p>The JDK's AES-GCM is fastest on Java arrays, and out of place (docs/udp-notes.md): the body is sealed in
 * place when the buffer is a heap buffer and copied through {@link #scratch} when it is direct, and always
 * opened out of place into {@link #plaintext}. {@code Cipher.init} allocates per datagram; the default is
 * AES-PMAC ({@link AutoMac}).
 *
 * <p>Buffers need {@link DatagramHeader#TRAILER_ROOM} bytes after the datagram (room for the tag, as
 * for every authenticator).
 */
public final class AesGcmMac implements DatagramMac {
    public static final String NAME = "aes-gcm";
    /** Datagrams longer than this are built in a heap buffer ({@link #sealsFasterOnArrays}). */
    public static final int HEAP_ABOVE = 8192;
    private static final int TAG = DatagramHeader.MAC_LENGTH;

    private final Cipher sealer;
    private final Cipher opener;
    private final SecretKeySpec key;
    private final GcmNonce nonce = new GcmNonce();
    private final byte[] tag = new byte[TAG];
    /** A direct buffer's body (and tag), copied out for the cipher; grown to the largest body seen. */
    private byte[] scratch = new byte[0];
    /** Where the opener puts the plaintext; grown to the largest body seen. */
    private byte[] plaintext = new byte[0];

    public AesGcmMac(byte[] keyBytes) {
        key = new SecretKeySpec(keyBytes, "AES");
        sealer = GcmNonce.newCipher();
        opener = GcmNonce.newCipher();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean sealsFasterOnArrays() {
        return true;
    }

    private void aad(Cipher c, ByteBuffer b) {
        int pos = b.position();
        int lim = b.limit();
        try {
            b.limit(DatagramHeader.CRC_OFFSET).position(0);
            c.updateAAD(b);
        } finally {
            b.limit(lim).position(pos);
        }
    }

    private byte[] scratch(int n) {
        if (scratch.length < n) {
            scratch = new byte[n];
        }
        return scratch;
    }

    @Override
    public void sign(ByteBuffer b, int length) {
        if (length + TAG > b.capacity()) {
            throw new IllegalArgumentException("a datagram buffer needs " + TAG + " bytes of room after the datagram");
        }
        int body = length - DatagramHeader.LENGTH;
        try {
            sealer.init(Cipher.ENCRYPT_MODE, key, nonce.of(b));
            aad(sealer, b);
            if (b.hasArray()) {
                byte[] a = b.array();
                int at = b.arrayOffset() + DatagramHeader.LENGTH;
                sealer.doFinal(a, at, body, a, at); // ciphertext in place, the tag right after it
                System.arraycopy(a, at + body, tag, 0, TAG);
            } else {
                byte[] s = scratch(body + TAG);
                b.get(DatagramHeader.LENGTH, s, 0, body);
                sealer.doFinal(s, 0, body, s, 0);
                b.put(DatagramHeader.LENGTH, s, 0, body);
                System.arraycopy(s, body, tag, 0, TAG);
            }
            b.put(DatagramHeader.MAC_OFFSET, tag, 0, TAG);
        } catch (GeneralSecurityException e) {
            // only an IV reuse could cause this, which the counter rules out
            throw new IllegalStateException("AES-GCM sealing failed", e);
        }
    }

    @Override
    public boolean verify(ByteBuffer b, int length) {
        if (length < DatagramHeader.LENGTH || length + TAG > b.capacity()) {
            return false;
        }
        int body = length - DatagramHeader.LENGTH;
        try {
            opener.init(Cipher.DECRYPT_MODE, key, nonce.of(b));
            aad(opener, b);
            byte[] in;
            int at;
            if (b.hasArray()) {
                in = b.array();
                at = b.arrayOffset() + DatagramHeader.LENGTH;
            } else {
                in = scratch(body + TAG);
                at = 0;
                b.get(DatagramHeader.LENGTH, in, 0, body);
            }
            b.get(DatagramHeader.MAC_OFFSET, in, at + body, TAG); // GCM reads the tag after the ciphertext
            if (plaintext.length < body) {
                plaintext = new byte[body];
            }
            opener.doFinal(in, at, body + TAG, plaintext, 0); // releases nothing unless the tag verifies
            b.put(DatagramHeader.LENGTH, plaintext, 0, body);
            return true;
        } catch (AEADBadTagException e) {
            return false;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }
}
