package org.portals3j.runtime;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import org.portals3j.runtime.RendezvousWire.ProtocolException;

/**
 * Authenticates the lines of one admitted rendezvous connection: each carries a tag over its direction's
 * sequence number and text, so that no line can be forged, altered, replayed, reordered or dropped unnoticed.
 * Not thread-safe: a side seals under its writer's lock and opens on its one reader thread.
 */
final class RendezvousSession {
    /** Bytes of a line's tag (a truncated HMAC-SHA256). */
    static final int TAG_LENGTH = 16;

    private final Mac sealing;
    private final Mac opening;
    private long sealed;
    private long opened;

    RendezvousSession(byte[] sealingKey, byte[] openingKey) {
        this.sealing = RendezvousAdmission.mac(sealingKey);
        this.opening = RendezvousAdmission.mac(openingKey);
    }

    /** {@code line} with its tag appended (one space, then hex). */
    String seal(String line) {
        return line + " " + HexFormat.of().formatHex(tag(sealing, sealed++, line));
    }

    /**
     * The line {@code text} carries, once its tag is checked.
     *
     * @throws ProtocolException when it has no tag or a wrong one (altered, replayed, forged, or out of order)
     */
    String open(String text) throws ProtocolException {
        int space = text.lastIndexOf(' ');
        if (space < 0) {
            throw new ProtocolException("a line without its authentication tag");
        }
        String line = text.substring(0, space);
        byte[] given = RendezvousWire.unhex(text.substring(space + 1), TAG_LENGTH, "an authentication tag");
        if (!MessageDigest.isEqual(tag(opening, opened, line), given)) {
            throw new ProtocolException("a line whose authentication tag is wrong (altered, replayed or forged)");
        }
        opened++;
        return line;
    }

    private static byte[] tag(Mac mac, long sequence, String line) {
        mac.update(ByteBuffer.allocate(8).putLong(sequence).array());
        byte[] full = mac.doFinal(line.getBytes(StandardCharsets.UTF_8));
        byte[] tag = new byte[TAG_LENGTH];
        System.arraycopy(full, 0, tag, 0, TAG_LENGTH);
        return tag;
    }
}
