package org.portals3j.runtime;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.runtime.RendezvousWire.ProtocolException;
import org.portals3j.transport.JobKey;
import org.portals3j.transport.TransportException;

/**
 * Serves the TCP rendezvous of one job (see {@link RendezvousWire} for the protocol): {@code portals run}
 * runs one for its ranks; under Slurm or Open MPI rank 0 runs it on {@code PORTALS_RENDEZVOUS}.
 *
 * <p>A client is admitted when it proves it holds this job's {@link JobKey} ({@link RendezvousAdmission}), names
 * this job's id and size and a rank inside the job that is not already connected, and passes the optional
 * {@link RendezvousPeerCheck}; otherwise it is told what is wrong in terms it already knows (never the values
 * this server expects: those are logged here only) and disconnected. Unauthenticated connections are bounded: at
 * most 64 at once (a new one evicts the oldest), each for at most 20 s, each line at most 1 KiB, and what they
 * make this server log is rate-limited. Input that breaks the protocol only drops that connection; the
 * server keeps serving.
 */
public final class RendezvousServer implements AutoCloseable {

    /**
     * What unauthenticated peers may hold: {@code maxPending} connections that have not completed the
     * handshake, each for at most {@code handshakeTimeout}.
     */
    record Limits(Duration handshakeTimeout, int maxPending) {
        static final Limits DEFAULT = new Limits(Duration.ofSeconds(20), 64);
    }

    /** Values one rank may publish, and lookups one rank may have waiting at once. */
    static final int MAX_VALUES_PER_RANK = 1024;
    static final int MAX_WAITING_LOOKUPS = 1024;

    private final ServerSocket socket;
    /** The thread blocked in accept(); the listening port is released only once it has left accept. */
    private volatile @Nullable Thread acceptor;
    private final RendezvousAddress address;
    private final String jobId;
    private final int size;
    private final RendezvousAdmission admission;
    private final @Nullable RendezvousPeerCheck peerCheck;
    private final Limits limits;
    private final Consumer<String> log;
    /** The log of what unauthenticated peers cause: rate-limited, so that strangers cannot flood it. */
    private final LogLimiter strangerLog;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, String> values = new HashMap<>();
    private final Map<Integer, Integer> valueCounts = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();
    private final Set<Integer> connected = new HashSet<>();
    private final Set<Socket> sockets = new HashSet<>();
    /** Connections that have not completed the handshake, oldest first. */
    private final LinkedHashSet<Connection> pending = new LinkedHashSet<>();
    private final ScheduledThreadPoolExecutor timer;
    private volatile boolean closed;

    private record Waiter(String slot, Connection connection, String requestId) {
    }

    private RendezvousServer(ServerSocket socket, RendezvousAddress address, String jobId, int size, JobKey key,
                             Consumer<String> log, @Nullable RendezvousPeerCheck peerCheck, Limits limits) {
        this.socket = socket;
        this.address = address;
        this.jobId = jobId;
        this.size = size;
        this.admission = new RendezvousAdmission(key);
        this.peerCheck = peerCheck;
        this.limits = limits;
        this.log = log;
        this.strangerLog = new LogLimiter(log, 20, TimeUnit.SECONDS.toNanos(1), System::nanoTime);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "portals-rendezvous-timer");
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Serves the rendezvous of job {@code jobId} ({@code size} ranks, key {@code key}) on {@code at}
     * (port 0: any free port; {@link #address()} tells which).
     *
     * @throws TransportException when the address cannot be bound (the port is in use, or the host is not
     *         this machine's)
     */
    public static RendezvousServer start(RendezvousAddress at, String jobId, int size, JobKey key)
            throws TransportException {
        return start(at, jobId, size, key, line -> System.err.println(line));
    }

    /** As {@link #start(RendezvousAddress, String, int, JobKey)}, logging to {@code log} (one line per event). */
    public static RendezvousServer start(RendezvousAddress at, String jobId, int size, JobKey key,
                                         Consumer<String> log) throws TransportException {
        return start(at, jobId, size, key, log, null);
    }

    /**
     * As {@link #start(RendezvousAddress, String, int, JobKey, Consumer)}, admitting a rank that proved the key
     * only if {@code peerCheck} (when not null) lets its connection be that rank.
     */
    public static RendezvousServer start(RendezvousAddress at, String jobId, int size, JobKey key,
                                         Consumer<String> log, @Nullable RendezvousPeerCheck peerCheck)
            throws TransportException {
        return start(at, jobId, size, key, log, peerCheck, Limits.DEFAULT);
    }

    static RendezvousServer start(RendezvousAddress at, String jobId, int size, JobKey key, Consumer<String> log,
                                  @Nullable RendezvousPeerCheck peerCheck, Limits limits) throws TransportException {
        Objects.requireNonNull(jobId, "jobId");
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank, not " + size);
        }
        ServerSocket server;
        try {
            server = new ServerSocket();
            server.setReuseAddress(true);
        } catch (IOException e) {
            throw new TransportException("cannot open a socket for the rendezvous: " + e.getMessage(), e);
        }
        try {
            InetSocketAddress bind = new InetSocketAddress(at.host(), at.port());
            if (bind.isUnresolved()) {
                throw new TransportException("cannot serve the rendezvous on " + at + ": host '" + at.host()
                        + "' is unknown; PORTALS_RENDEZVOUS must name the host of rank 0");
            }
            server.bind(bind, 128);
        } catch (BindException e) {
            closeQuietly(server);
            String reason = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("in use")
                    ? "the port is in use (another job or program has it); choose another port"
                    : e.getMessage() + "; PORTALS_RENDEZVOUS must name an address of the host of rank 0";
            throw new TransportException("cannot serve the rendezvous on " + at + ": " + reason, e);
        } catch (IOException e) {
            closeQuietly(server);
            throw new TransportException("cannot serve the rendezvous on " + at + ": " + e.getMessage(), e);
        } catch (TransportException e) {
            closeQuietly(server);
            throw e;
        }
        RendezvousServer s = new RendezvousServer(server, new RendezvousAddress(at.host(), server.getLocalPort()),
                jobId, size, key, log, peerCheck, limits);
        s.acceptor = Thread.ofPlatform().daemon().name("portals-rendezvous-accept").start(s::acceptLoop);
        return s;
    }

    /** The address clients connect to (the port actually bound). */
    public RendezvousAddress address() {
        return address;
    }

    /** How many connections have not completed the handshake now (at most {@link Limits#maxPending}). */
    int pendingConnections() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    /** How many ranks are connected now. */
    public int connectedRanks() {
        lock.lock();
        try {
            return connected.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until no rank other than {@code except} (or -1 for none) is connected, up to {@code timeout}.
     *
     * @return whether they all left in time
     */
    public boolean awaitRanksGone(int except, Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (!(connected.isEmpty() || (connected.size() == 1 && connected.contains(except)))) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = changed.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Stops serving and drops every connection (their ranks see the rendezvous go away). */
    @Override
    public void close() {
        closed = true;
        closeQuietly(socket);
        List<Socket> open;
        lock.lock();
        try {
            open = new ArrayList<>(sockets);
            waiters.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        open.forEach(RendezvousServer::closeQuietly);
        timer.shutdownNow();
        // A socket closed while another thread is blocked in accept() keeps its port until that thread
        // leaves accept(): wait for it, so that the port is free when close() returns.
        @Nullable Thread t = acceptor;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "RendezvousServer[" + jobId + " at " + address + "]";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.accept("portals rendezvous: accept failed on " + address + ": " + e.getMessage());
                    sleepQuietly(100);
                }
                continue;
            }
            Connection connection = new Connection(client);
            @Nullable Connection evicted = null;
            lock.lock();
            try {
                if (closed) {
                    closeQuietly(client);
                    return;
                }
                sockets.add(client);
                pending.add(connection);
                if (pending.size() > limits.maxPending()) {
                    // The oldest has had the longest to complete its handshake (a rank needs milliseconds).
                    Iterator<Connection> oldest = pending.iterator();
                    evicted = oldest.next();
                    oldest.remove();
                }
            } finally {
                lock.unlock();
            }
            if (evicted != null) {
                evicted.abandon("evicted: more than " + limits.maxPending()
                        + " connections were waiting to complete the handshake");
            }
            try {
                connection.deadline = timer.schedule(() -> connection.abandon("no complete handshake within "
                        + JobRuntime.seconds(limits.handshakeTimeout())), limits.handshakeTimeout().toMillis(),
                        TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                closeQuietly(client); // closed meanwhile
                return;
            }
            Thread.ofVirtual().name("portals-rendezvous-" + client.getRemoteSocketAddress())
                    .start(connection::serve);
        }
    }

    private final class Connection {
        private final Socket client;
        private final @Nullable SocketAddress peer;
        private @Nullable OutputStream out;
        /** Authenticates every line once both proofs are exchanged; null before. */
        private volatile @Nullable RendezvousSession session;
        /** Whether the client has proved it holds the job key (what it makes this server log is not rate-limited). */
        private volatile boolean proven;
        private volatile @Nullable ScheduledFuture<?> deadline;
        /** Why this server closed the connection before it was admitted (then its reader fails): logged once. */
        private volatile @Nullable String abandoned;
        private volatile int rank = -1;
        private int waiting;

        Connection(Socket client) {
            this.client = client;
            this.peer = client.getRemoteSocketAddress();
        }

        void serve() {
            try {
                client.setTcpNoDelay(true);
                client.setSoTimeout((int) limits.handshakeTimeout().toMillis());
                InputStream in = new BufferedInputStream(client.getInputStream(), 1024);
                out = client.getOutputStream();
                @Nullable RendezvousSession s = handshake(in);
                if (s == null) {
                    return;
                }
                client.setSoTimeout(0);
                while (!closed) {
                    @Nullable String line = RendezvousWire.read(in);
                    if (line == null) {
                        return;
                    }
                    String request = s.open(line);
                    if (request.equals("BYE")) {
                        return; // the rank left on purpose
                    }
                    request(request);
                }
            } catch (SocketTimeoutException e) {
                drop("no complete handshake within " + JobRuntime.seconds(limits.handshakeTimeout()));
            } catch (ProtocolException e) {
                drop(e.getMessage());
            } catch (IOException e) {
                // the peer went away (a rank process ended, or closed its end), or this server abandoned it
                @Nullable String why = abandoned;
                if (why != null) {
                    drop(why);
                }
            } catch (RuntimeException e) {
                drop("internal error " + e);
            } finally {
                end();
            }
        }

        /** Closes a connection that has not been admitted (evicted, or out of time); its reader logs why. */
        void abandon(String why) {
            lock.lock();
            try {
                if (rank >= 0) {
                    return;
                }
                abandoned = why;
                pending.remove(this);
            } finally {
                lock.unlock();
            }
            closeQuietly(client);
        }

        private void drop(@Nullable String why) {
            if (closed) {
                return;
            }
            String line = "portals rendezvous: dropped the connection from " + peer
                    + (rank >= 0 ? " (rank " + rank + ")" : "") + ": " + why;
            if (proven) {
                log.accept(line);
            } else {
                strangerLog.accept(line);
            }
        }

        /** Runs the admission handshake: the admitted client's session (it has been told), or null. */
        private @Nullable RendezvousSession handshake(InputStream in) throws IOException {
            @Nullable String line = RendezvousWire.read(in, RendezvousWire.MAX_HANDSHAKE_LINE);
            if (line == null) {
                return null;
            }
            List<String> f = RendezvousWire.split(line);
            if (f.size() < 2 || !f.get(0).equals("HELLO")) {
                throw new ProtocolException("expected HELLO, got '" + RendezvousWire.printable(line) + "'");
            }
            if (!f.get(1).equals(RendezvousWire.VERSION)) {
                refuse("rendezvous protocol version " + RendezvousWire.printable(f.get(1)) + " is not "
                        + RendezvousWire.VERSION + ": run every rank with the same Portals3J version", "");
                return null;
            }
            if (f.size() != 6) {
                throw new ProtocolException("a HELLO of " + f.size() + " fields, not 6");
            }
            String claimedJob = RendezvousWire.decode(f.get(2));
            int claimedRank = RendezvousWire.parseInt(f.get(3), "rank");
            int claimedSize = RendezvousWire.parseInt(f.get(4), "size");
            byte[] clientNonce = RendezvousWire.unhex(f.get(5), RendezvousAdmission.NONCE_LENGTH, "a client nonce");
            byte[] serverNonce = RendezvousAdmission.nonce();
            RendezvousAdmission.Transcript transcript = new RendezvousAdmission.Transcript(serverNonce, clientNonce,
                    claimedJob, claimedRank, claimedSize);
            send(RendezvousWire.line("CHALLENGE", RendezvousWire.hex(serverNonce),
                    RendezvousWire.hex(admission.serverProof(transcript))));
            String who = "rank " + claimedRank + " from " + peer;
            @Nullable String answer = RendezvousWire.read(in, RendezvousWire.MAX_HANDSHAKE_LINE);
            if (answer == null) {
                strangerLog.accept("portals rendezvous: " + who + " closed the connection during the handshake");
                return null;
            }
            if (answer.equals("ABORT")) {
                strangerLog.accept("portals rendezvous: refused " + who + ": its PORTALS_JOB_KEY differs from"
                        + " this job's (it found this rendezvous's proof of the key wrong)");
                return null;
            }
            List<String> p = RendezvousWire.split(answer);
            if (p.size() != 2 || !p.get(0).equals("PROOF")) {
                throw new ProtocolException("expected PROOF, got '" + RendezvousWire.printable(answer) + "'");
            }
            byte[] proof = RendezvousWire.unhex(p.get(1), RendezvousAdmission.PROOF_LENGTH, "a proof");
            RendezvousSession admittedSession = admission.session(serverNonce, clientNonce, true);
            session = admittedSession;
            if (!RendezvousAdmission.matches(admission.clientProof(transcript), proof)) {
                strangerLog.accept("portals rendezvous: refused " + who + ": a wrong proof of the job key (not"
                        + " a rank of this job, or a replayed handshake)");
                send(RendezvousWire.line("REFUSED", RendezvousWire.encode("the rendezvous found this rank's proof"
                        + " of the job key wrong: give every rank the same PORTALS_JOB_KEY")));
                return null;
            }
            // The client holds the job key: from here on it is told what is wrong with its own claims.
            proven = true;
            if (!claimedJob.equals(jobId) || claimedSize != size) {
                refuse("the rendezvous at " + address + " serves another job: rank " + claimedRank + "'s job id or"
                        + " number of ranks differs from that job's; give every rank the same job id (PORTALS_JOB_ID,"
                        + " or the same Slurm/Open MPI job) and the same number of ranks",
                        "it claims job '" + RendezvousWire.printable(claimedJob) + "' of " + claimedSize
                                + " ranks; this is job '" + jobId + "' of " + size);
                return null;
            }
            if (claimedRank < 0 || claimedRank >= size) {
                refuse("rank " + claimedRank + " is outside the job's " + size + " ranks (0.." + (size - 1) + ")", "");
                return null;
            }
            if (peerCheck != null) {
                if (!(client.getRemoteSocketAddress() instanceof InetSocketAddress remote
                        && client.getLocalSocketAddress() instanceof InetSocketAddress local)) {
                    throw new IOException("the connection closed"); // its addresses are gone with it
                }
                Optional<RendezvousPeerCheck.Refusal> refusal = peerCheck.check(claimedRank, remote, local);
                if (refusal.isPresent()) {
                    refuse(refusal.get().toRank(), refusal.get().detail());
                    return null;
                }
            }
            boolean admitted;
            lock.lock();
            try {
                if (abandoned != null) {
                    throw new IOException("abandoned");
                }
                admitted = connected.add(claimedRank);
                if (admitted) {
                    rank = claimedRank;
                    pending.remove(this);
                    changed.signalAll();
                }
            } finally {
                lock.unlock();
            }
            if (!admitted) {
                refuse("rank " + claimedRank + " is already connected to the rendezvous: two processes were"
                        + " given the same rank (check PORTALS_RANK, SLURM_PROCID or OMPI_COMM_WORLD_RANK)", "");
                return null;
            }
            @Nullable ScheduledFuture<?> d = deadline;
            if (d != null) {
                d.cancel(false);
            }
            send("WELCOME");
            return admittedSession;
        }

        /** Tells the client {@code why} (in its own terms) and logs it with {@code detail} (this side only). */
        private void refuse(String why, String detail) throws IOException {
            String entry = "portals rendezvous: refused " + peer + ": " + why
                    + (detail.isEmpty() ? "" : " [" + detail + "]");
            if (proven) {
                log.accept(entry);
            } else {
                strangerLog.accept(entry);
            }
            send(RendezvousWire.line("REFUSED", RendezvousWire.encode(why)));
        }

        private void request(String line) throws IOException {
            List<String> f = RendezvousWire.split(line);
            if (f.size() < 2) {
                throw new ProtocolException("a request without an id and a verb: '"
                        + RendezvousWire.printable(line) + "'");
            }
            String id = f.get(0);
            RendezvousWire.parseLong(id, "request id");
            switch (f.get(1)) {
                case "PUT" -> {
                    if (f.size() != 5) {
                        throw new ProtocolException("PUT takes rank, key and value");
                    }
                    int r = RendezvousWire.parseInt(f.get(2), "rank");
                    String key = RendezvousWire.decode(f.get(3));
                    String value = RendezvousWire.decode(f.get(4));
                    if (r != rank) {
                        send(RendezvousWire.line(id, "ERROR", RendezvousWire.encode(
                                "rank " + rank + " cannot publish for rank " + r)));
                        return;
                    }
                    put(id, r + "/" + key, key, value);
                }
                case "GET" -> {
                    if (f.size() != 5) {
                        throw new ProtocolException("GET takes rank, key and timeout");
                    }
                    int r = RendezvousWire.parseInt(f.get(2), "rank");
                    String key = RendezvousWire.decode(f.get(3));
                    long timeoutMillis = RendezvousWire.parseLong(f.get(4), "timeout");
                    get(id, r, key, Math.max(0, timeoutMillis));
                }
                default -> throw new ProtocolException("unknown request '" + RendezvousWire.printable(f.get(1)) + "'");
            }
        }

        private void put(String id, String slot, String key, String value) throws IOException {
            List<Waiter> ready = new ArrayList<>();
            @Nullable String previous;
            boolean full = false;
            lock.lock();
            try {
                previous = values.get(slot);
                if (previous == null) {
                    int count = valueCounts.getOrDefault(rank, 0);
                    if (count >= MAX_VALUES_PER_RANK) {
                        full = true;
                    } else {
                        values.put(slot, value);
                        valueCounts.put(rank, count + 1);
                        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                            Waiter w = it.next();
                            if (w.slot().equals(slot)) {
                                ready.add(w);
                                it.remove();
                            }
                        }
                    }
                }
            } finally {
                lock.unlock();
            }
            if (full) {
                send(RendezvousWire.line(id, "ERROR", RendezvousWire.encode("rank " + rank + " has published "
                        + MAX_VALUES_PER_RANK + " values, the most a rank may")));
                return;
            }
            if (previous != null && !previous.equals(value)) {
                send(RendezvousWire.line(id, "ERROR", RendezvousWire.encode("rank " + rank + " published '" + key
                        + "' twice with different values (" + previous + ", then " + value + ")")));
                return;
            }
            send(RendezvousWire.line(id, "OK"));
            for (Waiter w : ready) {
                w.connection().answerLookup(w.requestId(), RendezvousWire.line(w.requestId(), "VALUE",
                        RendezvousWire.encode(value)));
            }
        }

        private void get(String id, int r, String key, long timeoutMillis) throws IOException {
            String slot = r + "/" + key;
            @Nullable String value;
            boolean full = false;
            Waiter waiter = new Waiter(slot, this, id);
            lock.lock();
            try {
                value = values.get(slot);
                if (value == null) {
                    if (waiting >= MAX_WAITING_LOOKUPS) {
                        full = true;
                    } else {
                        waiters.add(waiter);
                        waiting++;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (value != null) {
                send(RendezvousWire.line(id, "VALUE", RendezvousWire.encode(value)));
                return;
            }
            if (full) {
                send(RendezvousWire.line(id, "ERROR", RendezvousWire.encode("rank " + rank + " has "
                        + MAX_WAITING_LOOKUPS + " lookups waiting, the most a rank may")));
                return;
            }
            timer.schedule(() -> {
                boolean expired;
                lock.lock();
                try {
                    expired = waiters.remove(waiter);
                } finally {
                    lock.unlock();
                }
                if (expired) {
                    answerLookup(id, RendezvousWire.line(id, "ERROR", RendezvousWire.encode("rank " + r
                            + " did not publish '" + key + "' within "
                            + JobRuntime.seconds(Duration.ofMillis(timeoutMillis))
                            + ": is it running? (it may have failed before joining the job)")));
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }

        /** Answers one of this connection's waiting lookups (it no longer counts as waiting). */
        void answerLookup(String requestId, String line) {
            lock.lock();
            try {
                waiting--;
            } finally {
                lock.unlock();
            }
            sendQuietly(line);
        }

        /** Sends {@code line}, sealed once the handshake has made the session. */
        void send(String line) throws IOException {
            @Nullable OutputStream o = out;
            if (o == null) {
                throw new IOException("the connection is not open yet");
            }
            synchronized (this) {
                @Nullable RendezvousSession s = session;
                RendezvousWire.write(o, s == null ? line : s.seal(line));
            }
        }

        void sendQuietly(String line) {
            try {
                send(line);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }

        private void end() {
            closeQuietly(client);
            @Nullable ScheduledFuture<?> d = deadline;
            if (d != null) {
                d.cancel(false);
            }
            lock.lock();
            try {
                sockets.remove(client);
                pending.remove(this);
                waiters.removeIf(w -> w.connection() == this);
                if (rank >= 0) {
                    connected.remove(rank);
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void closeQuietly(@Nullable AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // closing: nothing to do
            }
        }
    }
}
