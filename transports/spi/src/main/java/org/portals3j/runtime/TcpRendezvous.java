package org.portals3j.runtime;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.Rendezvous;
import org.portals3j.transport.TransportException;

/**
 * The client side of the TCP rendezvous ({@link RendezvousServer}): one connection per rank, kept open
 * for the rank's whole life. When it closes without this side closing it, the launcher or rank 0 is gone
 * and the {@code onLost} action runs (the runtime ends the rank: no orphans).
 *
 * <p>Thread-safe: requests carry ids, so several threads may publish and look up at once.
 */
public final class TcpRendezvous implements Rendezvous, AutoCloseable {

    private static final long RETRY_MILLIS = 100;

    private final RendezvousAddress address;
    private final int rank;
    private final Socket socket;
    private final OutputStream out;
    /** Seals what this side writes (under the lock on {@code out}) and opens what it reads (on the reader). */
    private final RendezvousSession session;
    private final Duration requestTimeout;
    private final @Nullable Runnable onLost;
    private final Map<Long, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean closing;
    private volatile @Nullable String lostReason;

    private TcpRendezvous(RendezvousAddress address, int rank, Socket socket, OutputStream out,
                          RendezvousSession session, Duration requestTimeout, @Nullable Runnable onLost) {
        this.address = address;
        this.rank = rank;
        this.socket = socket;
        this.out = out;
        this.session = session;
        this.requestTimeout = requestTimeout;
        this.onLost = onLost;
    }

    /**
     * Connects rank {@code rank} of job {@code jobId} to the rendezvous at {@code at}, retrying until
     * {@code timeout} has passed (rank 0 or the launcher may still be starting, or busy with other connections).
     * Admission is mutual: this rank publishes nothing until the rendezvous has proved it holds {@code key}.
     *
     * @param onLost run (once, on a daemon thread) if the connection closes without {@link #close()}
     * @throws TransportException when the rendezvous cannot be reached in time, does not hold this rank's key,
     *         or refuses this rank (another job id or size, a duplicate rank); the message says what to do
     */
    public static TcpRendezvous connect(RendezvousAddress at, String jobId, int rank, int size, JobKey key,
                                        Duration timeout, @Nullable Runnable onLost) throws TransportException {
        long deadline = System.nanoTime() + timeout.toNanos();
        RendezvousAdmission admission = new RendezvousAdmission(key);
        String unreachable = "cannot reach the rendezvous at " + at + " within " + JobRuntime.seconds(timeout)
                + ": is rank 0 (or portals run) running, and is PORTALS_RENDEZVOUS right?";
        @Nullable String lastClose = null;
        while (true) {
            long remainingMillis = (deadline - System.nanoTime()) / 1_000_000;
            if (remainingMillis <= 0) {
                throw new TransportException(lastClose == null ? unreachable : unreachable
                        + " (it closed every connection before admitting this rank: " + lastClose + ")");
            }
            Socket s = new Socket();
            try {
                InetSocketAddress target = new InetSocketAddress(at.host(), at.port());
                if (target.isUnresolved()) {
                    throw new UnknownHostException(at.host());
                }
                s.connect(target, (int) Math.min(remainingMillis, 5_000));
            } catch (UnknownHostException e) {
                RendezvousServer.closeQuietly(s);
                throw new TransportException("cannot reach the rendezvous at " + at + ": unknown host '" + at.host()
                        + "'; PORTALS_RENDEZVOUS must name the host of rank 0 (or of portals run)");
            } catch (IOException e) {
                RendezvousServer.closeQuietly(s);
                sleep(Math.min(RETRY_MILLIS, Math.max(1, remainingMillis)));
                continue;
            }
            try {
                return handshake(s, at, admission, jobId, rank, size, deadline, timeout, onLost);
            } catch (ClosedEarly e) {
                // a server busy with other connections drops the oldest unfinished handshake: try again
                lastClose = e.getMessage();
                sleep(Math.min(RETRY_MILLIS, Math.max(1, remainingMillis)));
            }
        }
    }

    /** The server closed the connection before the handshake ended, without refusing: worth another try. */
    private static final class ClosedEarly extends Exception {
        private static final long serialVersionUID = 1L;

        ClosedEarly(String message) {
            super(message, null, false, false);
        }
    }

    private static TcpRendezvous handshake(Socket s, RendezvousAddress at, RendezvousAdmission admission, String jobId,
                                           int rank, int size, long deadline, Duration timeout,
                                           @Nullable Runnable onLost) throws TransportException, ClosedEarly {
        String notRendezvous = "the service at " + at + " did not answer as a Portals rendezvous"
                + ": is PORTALS_RENDEZVOUS right?";
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout((int) Math.max(1_000, (deadline - System.nanoTime()) / 1_000_000));
            OutputStream out = s.getOutputStream();
            InputStream in = new BufferedInputStream(s.getInputStream());
            byte[] clientNonce = RendezvousAdmission.nonce();
            RendezvousWire.write(out, RendezvousWire.line("HELLO", RendezvousWire.VERSION,
                    RendezvousWire.encode(jobId), Integer.toString(rank), Integer.toString(size),
                    RendezvousWire.hex(clientNonce)));
            @Nullable String reply = RendezvousWire.read(in, RendezvousWire.MAX_HANDSHAKE_LINE);
            if (reply == null) {
                throw new ClosedEarly("it closed the connection before answering");
            }
            List<String> f = RendezvousWire.split(reply);
            if (f.size() == 2 && f.get(0).equals("REFUSED")) {
                throw new TransportException(RendezvousWire.decode(f.get(1))); // another protocol version
            }
            if (f.size() != 3 || !f.get(0).equals("CHALLENGE")) {
                throw new TransportException(notRendezvous);
            }
            byte[] serverNonce = RendezvousWire.unhex(f.get(1), RendezvousAdmission.NONCE_LENGTH, "a server nonce");
            byte[] serverProof = RendezvousWire.unhex(f.get(2), RendezvousAdmission.PROOF_LENGTH, "a proof");
            RendezvousAdmission.Transcript transcript = new RendezvousAdmission.Transcript(serverNonce, clientNonce,
                    jobId, rank, size);
            if (!RendezvousAdmission.matches(admission.serverProof(transcript), serverProof)) {
                try {
                    RendezvousWire.write(out, "ABORT"); // so that its log says why this rank left
                } catch (IOException e) {
                    // it is gone already: the message below says what matters
                }
                throw new TransportException("rank " + rank + " cannot join the job at " + at + ": that rendezvous"
                        + " does not hold this rank's job key (the ranks were given different PORTALS_JOB_KEYs, or"
                        + " PORTALS_RENDEZVOUS names another job's rendezvous); give every rank the same"
                        + " PORTALS_JOB_KEY");
            }
            RendezvousSession session = admission.session(serverNonce, clientNonce, false);
            RendezvousWire.write(out, RendezvousWire.line("PROOF",
                    RendezvousWire.hex(admission.clientProof(transcript))));
            @Nullable String sealed = RendezvousWire.read(in);
            if (sealed == null) {
                throw new ClosedEarly("it closed the connection during the handshake");
            }
            String answer;
            try {
                answer = session.open(sealed);
            } catch (RendezvousWire.ProtocolException e) {
                throw new TransportException("the rendezvous at " + at + " answered rank " + rank + " with a line"
                        + " that fails its authentication (" + e.getMessage() + "): something between them alters"
                        + " the connection");
            }
            List<String> a = RendezvousWire.split(answer);
            if (a.size() == 2 && a.get(0).equals("REFUSED")) {
                throw new TransportException(RendezvousWire.decode(a.get(1)));
            }
            if (!answer.equals("WELCOME")) {
                throw new TransportException(notRendezvous);
            }
            s.setSoTimeout(0);
            TcpRendezvous client = new TcpRendezvous(at, rank, s, out, session, timeout, onLost);
            Thread.ofPlatform().daemon().name("portals-rendezvous-client").start(() -> client.readLoop(in));
            return client;
        } catch (SocketTimeoutException e) {
            RendezvousServer.closeQuietly(s);
            throw new TransportException(notRendezvous + " (no answer within " + JobRuntime.seconds(timeout) + ")");
        } catch (RendezvousWire.ProtocolException e) {
            RendezvousServer.closeQuietly(s);
            throw new TransportException(notRendezvous + " (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            RendezvousServer.closeQuietly(s);
            throw new ClosedEarly(String.valueOf(e.getMessage()));
        } catch (TransportException | ClosedEarly e) {
            RendezvousServer.closeQuietly(s);
            throw e;
        }
    }

    /** Where this client is connected. */
    public RendezvousAddress address() {
        return address;
    }

    /** The local address of the connection to the rendezvous (see {@link Rendezvous#localAddress()}). */
    @Override
    public Optional<InetAddress> localAddress() {
        return Optional.ofNullable(socket.getLocalAddress());
    }

    /** This end of the connection (address and port), as the rendezvous sees its peer. */
    java.net.@Nullable SocketAddress localSocketAddress() {
        return socket.getLocalSocketAddress();
    }

    /** Whether the connection is still up. */
    public boolean isConnected() {
        return lostReason == null && !closing;
    }

    @Override
    public void publish(int rank, String key, String value) throws TransportException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        request(requestTimeout, "PUT", Integer.toString(rank), RendezvousWire.encode(key),
                RendezvousWire.encode(value));
    }

    @Override
    public String lookup(int rank, String key, Duration timeout) throws TransportException {
        Objects.requireNonNull(key, "key");
        return request(timeout.plusSeconds(10), "GET", Integer.toString(rank), RendezvousWire.encode(key),
                Long.toString(timeout.toMillis()));
    }

    private String request(Duration wait, String... fields) throws TransportException {
        long id = ids.incrementAndGet();
        CompletableFuture<String> reply = new CompletableFuture<>();
        pending.put(id, reply);
        try {
            @Nullable String lost = lostReason;
            if (lost != null || closing) {
                throw new TransportException(lost != null ? lost : "the rendezvous connection is closed");
            }
            String[] line = new String[fields.length + 1];
            line[0] = Long.toString(id);
            System.arraycopy(fields, 0, line, 1, fields.length);
            try {
                synchronized (out) {
                    RendezvousWire.write(out, session.seal(RendezvousWire.line(line)));
                }
            } catch (IOException e) {
                throw new TransportException(lostMessage(e.getMessage()), e);
            }
            return reply.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof TransportException te) {
                throw new TransportException(String.valueOf(te.getMessage()), te);
            }
            throw new TransportException("rendezvous request failed: " + cause, e);
        } catch (TimeoutException e) {
            throw new TransportException("the rendezvous at " + address + " did not answer within "
                    + JobRuntime.seconds(wait));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while talking to the rendezvous at " + address);
        } finally {
            pending.remove(id);
        }
    }

    private void readLoop(InputStream in) {
        @Nullable String why = null;
        try {
            while (true) {
                @Nullable String sealed = RendezvousWire.read(in);
                if (sealed == null) {
                    why = "it closed the connection";
                    break;
                }
                String line = session.open(sealed);
                List<String> f = RendezvousWire.split(line);
                long id = RendezvousWire.parseLong(f.get(0), "reply id");
                @Nullable CompletableFuture<String> reply = pending.get(id);
                if (reply == null) {
                    continue; // a request that timed out here already
                }
                if (f.size() == 2 && f.get(1).equals("OK")) {
                    reply.complete("");
                } else if (f.size() == 3 && f.get(1).equals("VALUE")) {
                    reply.complete(RendezvousWire.decode(f.get(2)));
                } else if (f.size() == 3 && f.get(1).equals("ERROR")) {
                    reply.completeExceptionally(new TransportException(RendezvousWire.decode(f.get(2))));
                } else {
                    why = "it sent '" + RendezvousWire.printable(line) + "'";
                    break;
                }
            }
        } catch (IOException e) {
            why = String.valueOf(e.getMessage());
        }
        if (closing) {
            return;
        }
        String message = lostMessage(why);
        lostReason = message;
        RendezvousServer.closeQuietly(socket);
        pending.values().forEach(p -> p.completeExceptionally(new TransportException(message)));
        Runnable action = onLost;
        if (action != null) {
            action.run();
        }
    }

    private String lostMessage(@Nullable String why) {
        return "rank " + rank + " lost its connection to the rendezvous at " + address + " (" + why
                + "): portals run or rank 0 is gone";
    }

    /** Says goodbye and closes the connection: the rank leaves the job on purpose. */
    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        try {
            synchronized (out) {
                RendezvousWire.write(out, session.seal("BYE"));
            }
        } catch (IOException e) {
            // already gone
        }
        RendezvousServer.closeQuietly(socket);
    }

    @Override
    public String toString() {
        return "TcpRendezvous[rank " + rank + " at " + address + "]";
    }

    private static void sleep(long millis) throws TransportException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while connecting to the rendezvous");
        }
    }
}
