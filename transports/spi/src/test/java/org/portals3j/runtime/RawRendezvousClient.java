package org.portals3j.runtime;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.JobKey;

/** A rendezvous client driven by hand: raw lines, or the real handshake with any key and claims (tests only). */
final class RawRendezvousClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private @Nullable RendezvousSession session;

    private RawRendezvousClient(Socket socket) throws IOException {
        this.socket = socket;
        this.socket.setSoTimeout(10_000);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    static RawRendezvousClient connect(RendezvousAddress at) throws IOException {
        return new RawRendezvousClient(new Socket(at.host(), at.port()));
    }

    void send(String line) throws IOException {
        RendezvousWire.write(out, line);
    }

    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void sendSealed(String line) throws IOException {
        send(session().seal(line));
    }

    /**
     * Runs the client side of the handshake as {@code rank} of {@code jobId} ({@code size} ranks) with {@code key};
     * returns the server's final answer, opened ({@code WELCOME} or {@code REFUSED =...}).
     */
    String handshake(JobKey key, String jobId, int rank, int size) throws IOException {
        RendezvousAdmission admission = new RendezvousAdmission(key);
        byte[] clientNonce = RendezvousAdmission.nonce();
        send(RendezvousWire.line("HELLO", RendezvousWire.VERSION, RendezvousWire.encode(jobId), Integer.toString(rank),
                Integer.toString(size), RendezvousWire.hex(clientNonce)));
        List<String> challenge = RendezvousWire.split(String.valueOf(RendezvousWire.read(in)));
        byte[] serverNonce = RendezvousWire.unhex(challenge.get(1), RendezvousAdmission.NONCE_LENGTH, "a nonce");
        RendezvousAdmission.Transcript t =
                new RendezvousAdmission.Transcript(serverNonce, clientNonce, jobId, rank, size);
        RendezvousSession s = admission.session(serverNonce, clientNonce, false);
        session = s;
        send(RendezvousWire.line("PROOF", RendezvousWire.hex(admission.clientProof(t))));
        return s.open(String.valueOf(RendezvousWire.read(in)));
    }

    /** Every line until the server closes (or says nothing for 10 s, or resets the connection). */
    List<String> readToEnd() throws IOException {
        List<String> lines = new ArrayList<>();
        try {
            for (@Nullable String l; (l = RendezvousWire.read(in)) != null; ) {
                lines.add(l);
            }
        } catch (SocketTimeoutException | SocketException e) {
            // quiet, or reset: what came is the answer
        }
        return lines;
    }

    private RendezvousSession session() {
        RendezvousSession s = session;
        if (s == null) {
            throw new IllegalStateException("no handshake yet");
        }
        return s;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
