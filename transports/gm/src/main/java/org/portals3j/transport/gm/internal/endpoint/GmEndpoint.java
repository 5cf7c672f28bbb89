package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.SendArguments;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.gm.GmOptions;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;
import org.portals3j.transport.gm.internal.protocol.Bounce;
import org.portals3j.transport.gm.internal.protocol.RegistrationCache;
import org.portals3j.transport.gm.internal.protocol.SizeClasses;
import org.portals3j.transport.gm.internal.protocol.Threshold;

/**
 * One rank's endpoint over one GM port: its lifecycle (open, start, close) and what its parts share; the send side is
 * {@link SendPath}, the receive path {@link ReceivePath}, a peer's failure {@link PeerFailures}.
 */
public final class GmEndpoint implements Transport, Polling {
    public static final String NAME = "gm";
    public static final Set<TransportCapability> CAPABILITIES = Set.of(TransportCapability.MULTI_PROCESS,
            TransportCapability.SINGLE_COPY, TransportCapability.NATIVE, TransportCapability.REPORTS_POLLERS_GONE);
    public static final int MAX_HEADER = 256;
    public static final long MAX_PAYLOAD = 1L << 40;
    static final System.Logger LOG = System.getLogger(GmEndpoint.class.getName());

    final int rank;
    final int size;
    final EndpointConfig config;
    final GmOptions.Settings settings;
    final GmPort port;
    final Peer[] peers;
    final SizeClasses dataSizes;
    final Threshold threshold;
    final RegistrationCache cache;
    final ReceiveBuffers receiveBuffers;
    /** In-use slots per peer at which an application thread's send waits. */
    final int bound;
    private final ReentrantLock stateLock = new ReentrantLock();
    /** Read without stateLock (past OPEN, a send takes no lock for it); changed under it by {@link #state(State)}. */
    private volatile State state = State.OPEN;
    volatile @Nullable ReceivePath receivePath; // written under stateLock
    volatile @Nullable MessageHandler handler;
    final AtomicLong protocolErrors = new AtomicLong();
    /** Payloads copied through a bounce buffer because they were on the heap (sent or read by RMA). */
    final AtomicLong bounceCopies = new AtomicLong();
    /** Payloads this rank offered by RMA, and payloads it read by RMA. */
    final AtomicLong rmaPayloadsSent = new AtomicLong();
    final AtomicLong rmaPayloadsRead = new AtomicLong();

    /**
     * The endpoint's life: its port open, the peers' names set in the port (at start, or at a send before it), the
     * receive path running, closed. It only moves forward, and from any state to CLOSED.
     */
    enum State { OPEN, RESOLVED, STARTED, CLOSED }

    GmEndpoint(EndpointConfig config, GmOptions.Settings settings, GmPort port, SizeClasses dataSizes) {
        this.config = config;
        this.settings = settings;
        this.port = port;
        this.rank = config.rank();
        this.size = config.job().size();
        this.dataSizes = dataSizes;
        this.threshold = new Threshold(settings.eagerThreshold(), dataSizes);
        this.cache = new RegistrationCache(port, settings.registrationCache());
        this.bound = settings.credits() * 2;
        this.peers = new Peer[size];
        this.receiveBuffers = new ReceiveBuffers(size * (dataSizes.count() * settings.credits()
                + PortSetup.controlBuffersPerPeer(settings)));
    }

    /**
     * Opens a GM port (node id rank + 1), allocates and posts its buffers, and publishes its name.
     *
     * @throws TransportException when the library, the provider or DMA memory is missing (the message says what to
     *         do)
     */
    public static GmEndpoint open(EndpointConfig config, GmOptions.Settings settings) throws TransportException {
        return PortSetup.open(config, settings);
    }

    // ==== Transport ==============================================================================

    @Override
    public String provider() {
        return NAME;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public int maxHeaderLength() {
        return MAX_HEADER;
    }

    @Override
    public long maxPayloadLength() {
        return MAX_PAYLOAD;
    }

    /**
     * Looks up every peer's GM address (waiting up to {@code gm.rendezvousTimeoutMillis}) and starts the progress
     * thread.
     *
     * @throws IllegalStateException if started or closed already, or a peer cannot be found
     */
    @Override
    public void start(MessageHandler messageHandler) {
        start(messageHandler, System::nanoTime);
    }

    /** {@link #start}, with the clock of the polling hand-over (tests freeze it to fix who runs the receive path). */
    void start(MessageHandler messageHandler, LongSupplier handoverClock) {
        stateLock.lock();
        try {
            if (state == State.STARTED || state == State.CLOSED) {
                throw new IllegalStateException("rank " + rank + ": endpoint already started or closed");
            }
            resolvePeers();
            handler = messageHandler;
            ReceivePath path = new ReceivePath(this, messageHandler, handoverClock);
            receivePath = path;
            state(State.STARTED);
            path.start();
        } finally {
            stateLock.unlock();
        }
    }

    /** Sets every peer's address in the port, once (stateLock held). */
    private void resolvePeers() {
        if (state != State.OPEN) {
            return;
        }
        PortSetup.setPeers(this);
        state(State.RESOLVED);
    }

    private void ensureResolved() {
        if (state != State.OPEN) { // past OPEN: no lock per send (the volatile write published the peers' addresses)
            return;
        }
        stateLock.lock();
        try {
            resolvePeers();
        } finally {
            stateLock.unlock();
        }
    }

    /** The one transition of {@link State} (stateLock held). */
    private void state(State next) {
        state = next;
    }

    /** Whether {@code close} was called: one volatile read, no lock. */
    boolean closed() {
        return state == State.CLOSED;
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength,
                     MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        SendArguments.check(peer, size, header, headerLength, MAX_HEADER, payload, payloadOffset, payloadLength,
                MAX_PAYLOAD, provider());
        if (closed()) {
            throw new IllegalStateException("rank " + rank + ": endpoint is closed");
        }
        ensureResolved();
        SendPath.send(this, peer, header, headerLength, payload, payloadOffset, payloadLength, token);
    }

    /** Releases what was staged for a message: its registration, or its bounce buffer. */
    void release(RegistrationCache.@Nullable Registration registration, @Nullable Bounce bounce) {
        if (registration != null) {
            cache.release(registration);
        }
        if (bounce != null) {
            bounce.close();
        }
    }

    /** Tells the handler that the send of {@code token} completed, unless NO_NOTIFY; never under a peer lock. */
    void complete(long token, boolean delivered) {
        MessageHandler h = handler;
        if (token != NO_NOTIFY && h != null) {
            try {
                h.onSendComplete(token, delivered);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": handler threw from onSendComplete", e);
            }
        }
    }

    /** Whether the calling thread runs the receive path (a handler callback, or the progress thread at close). */
    boolean isReceivePathThread() {
        ReceivePath path = receivePath;
        return path != null && (path.isHeldByCurrentThread() || path.thread() == Thread.currentThread());
    }

    /** The progress thread, once started (tests). */
    @Nullable Thread progressThread() {
        ReceivePath path = receivePath;
        return path == null ? null : path.thread();
    }

    /** Runs the receive path on the calling thread once, without waiting, unless another thread runs it. */
    @Override
    public boolean poll() {
        ReceivePath path = receivePath;
        return path != null && path.poll();
    }

    /** The progress thread takes the receive path back at once. */
    @Override
    public void pollingStopped() {
        ReceivePath path = receivePath;
        if (path != null) {
            path.pollingStopped();
        }
    }

    /**
     * The calling thread polls inside a wait: the progress thread need not look whether it is still there. Waits
     * begin after {@code start}; before it there is no receive path to stay away from.
     */
    @Override
    public void waitStarted() {
        ReceivePath path = receivePath;
        if (path != null) {
            path.waitStarted();
        }
    }

    @Override
    public void waitEnded() {
        ReceivePath path = receivePath;
        if (path != null) {
            path.waitEnded();
        }
    }

    @Override
    public boolean isPeerAlive(int peer) {
        if (peer == rank) {
            return !closed();
        }
        return peer >= 0 && peer < size && !peers[peer].failed && !closed();
    }

    @Override
    public Map<String, Long> counters() {
        ReceivePath path = receivePath;
        return Map.of("registrationCacheHits", cache.hits(), "registrationCacheMisses", cache.misses(),
                "protocolErrors", protocolErrors.get(), "bounceCopies", bounceCopies.get(),
                "rmaPayloadsSent", rmaPayloadsSent.get(), "rmaPayloadsRead", rmaPayloadsRead.get(),
                "progressStayedAway", path == null ? 0L : path.stayedAway());
    }

    /**
     * Closes without waiting for the progress thread (the caller may hold a lock a handler callback waits for): that
     * thread fails what is queued, tells the peers (BYE) and closes the port; or this call does, if never started.
     */
    @Override
    public void close() {
        @Nullable ReceivePath path;
        stateLock.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            state(State.CLOSED);
            path = receivePath;
        } finally {
            stateLock.unlock();
        }
        for (Peer p : peers) {
            p.lock.lock();
            try {
                p.room.signalAll();
            } finally {
                p.lock.unlock();
            }
        }
        if (path != null) {
            path.wakeProgressThread();
        } else {
            PeerFailures.failAllSends(this);
            cache.clear();
            closePort();
            PeerFailures.abandonBounces(this);
        }
    }

    /** Closes the port, or hands it to the job's last endpoint in this JVM to close (see {@link PortCloser}). */
    void closePort() {
        PortCloser.close(config.job().id(), port);
    }
}
