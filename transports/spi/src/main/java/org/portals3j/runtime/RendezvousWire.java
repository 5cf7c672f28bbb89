package org.portals3j.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The TCP rendezvous's line protocol (UTF-8, one message a line, fields separated by one space, each
 * free-text field {@code =}-prefixed and percent-encoded so that it holds no space or newline; nonces, proofs
 * and tags in hex). {@link RendezvousAdmission} makes the proofs, {@link RendezvousSession} the tags.
 *
 * <pre>
 * client                                   server
 * HELLO 2 =jobId rank size clientNonce     CHALLENGE serverNonce serverProof
 *                                          | REFUSED =message (another protocol version; then closes)
 * PROOF clientProof                        WELCOME tag | REFUSED =message tag (then closes)
 * | ABORT (the server's proof is wrong: the client gives up and closes)
 * id PUT rank =key =value tag              id OK tag | id ERROR =message tag
 * id GET rank =key timeoutMillis tag       id VALUE =value tag | id ERROR =message tag (waits for the value)
 * BYE tag                                  (closes; the rank left on purpose)
 * </pre>
 * Every line after CHALLENGE and PROOF carries a tag ({@link RendezvousSession}). A HELLO of another protocol
 * version (version 1 sent a bearer fingerprint of the key) is refused with a REFUSED naming both versions, so a
 * mismatched rank is told to run the same Portals3J version.
 */
final class RendezvousWire {
    /** Protocol version, the second field of HELLO. */
    static final String VERSION = "2";
    /** Longest line either side accepts; longer input is garbage and drops the connection. */
    static final int MAX_LINE = 16 * 1024;
    /** Longest line of the handshake: what an unauthenticated peer can make the server hold. */
    static final int MAX_HANDSHAKE_LINE = 1024;

    private RendezvousWire() {
    }

    /** Thrown for input that breaks the protocol. */
    static final class ProtocolException extends IOException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }

    static String encode(String field) {
        StringBuilder sb = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '%' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0) {
                sb.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            } else {
                sb.append(c);
            }
        }
        return "=" + sb;
    }

    static String decode(String field) throws ProtocolException {
        if (!field.startsWith("=")) {
            throw new ProtocolException("a field that is not '='-prefixed");
        }
        StringBuilder sb = new StringBuilder(field.length());
        for (int i = 1; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '%') {
                if (i + 2 >= field.length()) {
                    throw new ProtocolException("truncated %-escape");
                }
                int hi = Character.digit(field.charAt(i + 1), 16);
                int lo = Character.digit(field.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new ProtocolException("bad %-escape");
                }
                sb.append((char) (hi << 4 | lo));
                i += 2;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Joins already-encoded or plain (space-free) tokens into one line. */
    static String line(String... fields) {
        return String.join(" ", fields);
    }

    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        for (String f : line.split(" ", -1)) {
            out.add(f);
        }
        return out;
    }

    static void write(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The next line without its newline, or null at end of stream. */
    static @Nullable String read(InputStream in) throws IOException {
        return read(in, MAX_LINE);
    }

    /** The next line of at most {@code max} bytes without its newline, or null at end of stream. */
    static @Nullable String read(InputStream in, int max) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (buf.size() > 0) {
                    throw new ProtocolException("the stream ended inside a line");
                }
                return null;
            }
            if (b == '\n') {
                return buf.toString(StandardCharsets.UTF_8);
            }
            if (buf.size() >= max) {
                throw new ProtocolException("a line longer than " + max + " bytes");
            }
            buf.write(b);
        }
    }

    static int parseInt(String field, String what) throws ProtocolException {
        try {
            return Integer.parseInt(field);
        } catch (NumberFormatException e) {
            throw new ProtocolException("bad " + what + " '" + printable(field) + "'");
        }
    }

    static long parseLong(String field, String what) throws ProtocolException {
        try {
            return Long.parseLong(field);
        } catch (NumberFormatException e) {
            throw new ProtocolException("bad " + what + " '" + printable(field) + "'");
        }
    }

    /** Bytes in hex, as nonces, proofs and tags travel. */
    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** {@code field} as {@code length} bytes of hex. */
    static byte[] unhex(String field, int length, String what) throws ProtocolException {
        if (field.length() != 2 * length) {
            throw new ProtocolException(what + " that is not " + length + " bytes of hex");
        }
        try {
            return HexFormat.of().parseHex(field);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(what + " that is not hex");
        }
    }

    /** At most 40 characters of {@code s}, control characters replaced, for log lines. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 40; i++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        if (s.length() > 40) {
            sb.append("...");
        }
        return sb.toString();
    }
}
