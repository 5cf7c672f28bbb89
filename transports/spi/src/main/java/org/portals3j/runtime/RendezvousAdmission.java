package org.portals3j.runtime;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.portals3j.transport.JobKey;

/**
 * The rendezvous's admission handshake: each side proves it holds the job key with an HMAC over both sides'
 * fresh nonces and the client's claims, and both derive the keys that authenticate the connection's later lines.
 * Keyed by {@link JobKey#derive derive("rendezvous admission")}: the job key itself never crosses the wire.
 */
final class RendezvousAdmission {
    /** Bytes of each side's nonce, fresh for every connection. */
    static final int NONCE_LENGTH = 32;
    /** Bytes of a proof (a whole HMAC-SHA256). */
    static final int PROOF_LENGTH = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] admissionKey;

    RendezvousAdmission(JobKey key) {
        this.admissionKey = key.derive("rendezvous admission");
    }

    /** A fresh random nonce. */
    static byte[] nonce() {
        byte[] n = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * What both proofs cover: the protocol version, both nonces, and the job id, rank and size the client
     * claims. A proof made for one connection is worthless on any other (the other side's nonce differs).
     */
    record Transcript(byte[] serverNonce, byte[] clientNonce, String jobId, int rank, int size) {

        /** The transcript as bytes, under {@code role}'s label: every field length-prefixed (unambiguous). */
        byte[] encode(String role) {
            return fields(utf8(role), utf8(RendezvousWire.VERSION), serverNonce, clientNonce, utf8(jobId),
                    ByteBuffer.allocate(8).putInt(rank).putInt(size).array());
        }
    }

    /** The server's proof that it holds the job key (checked by the client before it says anything more). */
    byte[] serverProof(Transcript t) {
        return hmac(admissionKey, t.encode("server proof"));
    }

    /** The client's proof that it holds the job key (a server proof is never a client proof: other label). */
    byte[] clientProof(Transcript t) {
        return hmac(admissionKey, t.encode("client proof"));
    }

    /** Whether {@code given} is {@code expected}, in time that does not depend on where they differ. */
    static boolean matches(byte[] expected, byte[] given) {
        return MessageDigest.isEqual(expected, given);
    }

    /** The authenticator of an admitted connection's later lines, for the server or the client side. */
    RendezvousSession session(byte[] serverNonce, byte[] clientNonce, boolean serverSide) {
        byte[] version = utf8(RendezvousWire.VERSION);
        byte[] fromClient = hmac(admissionKey, fields(utf8("client lines"), version, serverNonce, clientNonce));
        byte[] fromServer = hmac(admissionKey, fields(utf8("server lines"), version, serverNonce, clientNonce));
        return serverSide ? new RendezvousSession(fromServer, fromClient)
                : new RendezvousSession(fromClient, fromServer);
    }

    /** {@code parts}, each preceded by its length: no two different lists encode alike. */
    private static byte[] fields(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(160);
        for (byte[] part : parts) {
            out.writeBytes(ByteBuffer.allocate(4).putInt(part.length).array());
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] hmac(byte[] key, byte[] data) {
        return mac(key).doFinal(data);
    }

    static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java platform", e);
        }
    }
}
