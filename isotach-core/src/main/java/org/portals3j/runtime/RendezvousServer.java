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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.TransportException;
import org.portals3j.runtime.RendezvousWire.ProtocolException;

/**
 * Serves the TCP rendezvous of one job (see {@link RendezvousWire} for the protocol): {@code portals run}
 * runs one for its ranks; under Slurm or Open MPI rank 0 runs it on {@code PORTALS_RENDEZVOUS}.
 *
 * <p>A client is admitted when its HELLO names this job's id and size, a rank inside the job that is not
 * already connected, and the fingerprint of this job's {@link JobKey}; otherwise it is told why and
 * disconnected. Input that breaks the protocol only drops that connection (one log line); the server
 * keeps serving.
 */
public final class RendezvousServer implements AutoCloseable {

    private static final Duration HELLO_TIMEOUT = Duration.ofSeconds(30);

    private final ServerSocket socket;
    /** The thread blocked in accept(); the listening port is released only once it has left accept. */
    private volatile @Nullable Thread acceptor;
    private final RendezvousAddress address;
    private final String jobId;
    private final int size;
    private final String fingerprint;
    private final Consumer<String> log;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, String> values = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();
    private final Set<Integer> connected = new HashSet<>();
    private final Set<Socket> sockets = new HashSet<>();
    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    private record Waiter(String slot, Connection connection, String requestId) {
    }

    private RendezvousServer(ServerSocket socket, RendezvousAddress address, String jobId, int size, JobKey key,
                             Consumer<String> log) {
        this.socket = socket;
        this.address = address;
        this.jobId = jobId;
        this.size = size;
        this.fingerprint = key.fingerprint();
        this.log = log;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "portals-rendezvous-timer");
            t.setDaemon(true);
            return t;
        });
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
            String reason = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("in use")
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
                jobId, size, key, log);
        s.acceptor = Thread.ofPlatform().daemon().name("portals-rendezvous-accept").start(s::acceptLoop);
        return s;
    }

    /** The address clients connect to (the port actually bound). */
    public RendezvousAddress address() {
        return address;
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
            lock.lock();
            try {
                if (closed) {
                    closeQuietly(client);
                    return;
                }
                sockets.add(client);
            } finally {
                lock.unlock();
            }
            Thread.ofVirtual().name("portals-rendezvous-" + client.getRemoteSocketAddress())
                    .start(() -> new Connection(client).serve());
        }
    }

    private final class Connection {
        private final Socket client;
        private final @Nullable SocketAddress peer;
        private @Nullable OutputStream out;
        private int rank = -1;

        Connection(Socket client) {
            this.client = client;
            this.peer = client.getRemoteSocketAddress();
        }

        void serve() {
            try {
                client.setTcpNoDelay(true);
                client.setSoTimeout((int) HELLO_TIMEOUT.toMillis());
                InputStream in = new BufferedInputStream(client.getInputStream());
                out = client.getOutputStream();
                if (!hello(in)) {
                    return;
                }
                client.setSoTimeout(0);
                while (!closed) {
                    @Nullable String line = RendezvousWire.read(in);
                    if (line == null) {
                        return;
                    }
                    if (line.equals("BYE")) {
                        return; // the rank left on purpose
                    }
                    request(line);
                }
            } catch (SocketTimeoutException e) {
                drop("no HELLO within " + HELLO_TIMEOUT.toSeconds() + " s");
            } catch (ProtocolException e) {
                drop(e.getMessage());
            } catch (IOException e) {
                // the peer went away (a rank process ended, or closed its end): nothing to report
            } catch (RuntimeException e) {
                drop("internal error " + e);
            } finally {
                end();
            }
        }

        private void drop(@Nullable String why) {
            if (!closed) {
                log.accept("portals rendezvous: dropped the connection from " + peer
                        + (rank >= 0 ? " (rank " + rank + ")" : "") + ": " + why);
            }
        }

        private boolean hello(InputStream in) throws IOException {
            @Nullable String line = RendezvousWire.read(in);
            if (line == null) {
                return false;
            }
            List<String> f = RendezvousWire.split(line);
            if (f.size() != 6 || !f.get(0).equals("HELLO")) {
                throw new ProtocolException("expected HELLO, got '" + RendezvousWire.printable(line) + "'");
            }
            if (!f.get(1).equals(RendezvousWire.VERSION)) {
                refuse("rendezvous protocol version " + RendezvousWire.printable(f.get(1)) + " is not "
                        + RendezvousWire.VERSION + ": run every rank with the same Portals3J version");
                return false;
            }
            String clientJob = RendezvousWire.decode(f.get(2));
            int clientRank = RendezvousWire.parseInt(f.get(3), "rank");
            int clientSize = RendezvousWire.parseInt(f.get(4), "size");
            String clientFp = RendezvousWire.decode(f.get(5));
            if (!clientJob.equals(jobId)) {
                refuse("rank " + clientRank + " belongs to job '" + RendezvousWire.printable(clientJob)
                        + "' but the rendezvous at " + address + " serves job '" + jobId
                        + "': give every rank the same job id (PORTALS_JOB_ID, or the same Slurm/Open MPI job)");
                return false;
            }
            if (clientSize != size) {
                refuse("rank " + clientRank + " says the job has " + clientSize + " ranks but the rendezvous at "
                        + address + " serves a job of " + size + ": give every rank the same size");
                return false;
            }
            if (clientRank < 0 || clientRank >= size) {
                refuse("rank " + clientRank + " is outside the job's " + size + " ranks (0.." + (size - 1) + ")");
                return false;
            }
            if (!clientFp.equals(fingerprint)) {
                refuse("rank " + clientRank + "'s job key (fp " + RendezvousWire.printable(clientFp)
                        + ") differs from the job's (fp " + fingerprint
                        + "): give every rank the same PORTALS_JOB_KEY");
                return false;
            }
            boolean admitted;
            lock.lock();
            try {
                admitted = connected.add(clientRank);
                if (admitted) {
                    rank = clientRank;
                    changed.signalAll();
                }
            } finally {
                lock.unlock();
            }
            if (!admitted) {
                refuse("rank " + clientRank + " is already connected to the rendezvous: two processes were"
                        + " given the same rank (check PORTALS_RANK, SLURM_PROCID or OMPI_COMM_WORLD_RANK)");
                return false;
            }
            send("WELCOME");
            return true;
        }

        private void refuse(String why) throws IOException {
            log.accept("portals rendezvous: refused " + peer + ": " + why);
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
            lock.lock();
            try {
                previous = values.putIfAbsent(slot, value);
                if (previous == null) {
                    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                        Waiter w = it.next();
                        if (w.slot().equals(slot)) {
                            ready.add(w);
                            it.remove();
                        }
                    }
                }
            } finally {
                lock.unlock();
            }
            if (previous != null && !previous.equals(value)) {
                send(RendezvousWire.line(id, "ERROR", RendezvousWire.encode("rank " + rank + " published '" + key
                        + "' twice with different values (" + previous + ", then " + value + ")")));
                return;
            }
            send(RendezvousWire.line(id, "OK"));
            for (Waiter w : ready) {
                w.connection().sendQuietly(RendezvousWire.line(w.requestId(), "VALUE", RendezvousWire.encode(value)));
            }
        }

        private void get(String id, int r, String key, long timeoutMillis) throws IOException {
            String slot = r + "/" + key;
            @Nullable String value;
            Waiter waiter = new Waiter(slot, this, id);
            lock.lock();
            try {
                value = values.get(slot);
                if (value == null) {
                    waiters.add(waiter);
                }
            } finally {
                lock.unlock();
            }
            if (value != null) {
                send(RendezvousWire.line(id, "VALUE", RendezvousWire.encode(value)));
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
                    sendQuietly(RendezvousWire.line(id, "ERROR", RendezvousWire.encode("rank " + r
                            + " did not publish '" + key + "' within " + JobRuntime.seconds(Duration.ofMillis(timeoutMillis))
                            + ": is it running? (it may have failed before joining the job)")));
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }

        void send(String line) throws IOException {
            @Nullable OutputStream o = out;
            if (o == null) {
                throw new IOException("the connection is not open yet");
            }
            synchronized (this) {
                RendezvousWire.write(o, line);
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
            lock.lock();
            try {
                sockets.remove(client);
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
