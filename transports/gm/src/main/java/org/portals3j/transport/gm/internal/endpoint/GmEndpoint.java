package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.HexFormat;
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
import org.portals3j.transport.gm.internal.nativeaccess.GmStatus;
import org.portals3j.transport.gm.internal.nativeaccess.Libgm;
import org.portals3j.transport.gm.internal.protocol.Bounce;
import org.portals3j.transport.gm.internal.protocol.RegistrationCache;
import org.portals3j.transport.gm.internal.protocol.SizeClasses;
import org.portals3j.transport.gm.internal.protocol.Threshold;
import org.portals3j.transport.gm.internal.protocol.WireHeader;

/**
 * One rank's endpoint over one GM port: the send side (slots, credits, posting) here, the receive side in the
 * {@link ReceivePath}, run by application threads that poll or else by its progress thread. The protocol is in the
 * package documentation of {@code org.portals3j.transport.gm}.
 */
public final class GmEndpoint implements Transport, Polling {
    public static final String NAME = "gm";
    public static final Set<TransportCapability> CAPABILITIES = Set.of(TransportCapability.MULTI_PROCESS,
            TransportCapability.SINGLE_COPY, TransportCapability.NATIVE, TransportCapability.REPORTS_POLLERS_GONE);
    public static final int MAX_HEADER = 256;
    public static final long MAX_PAYLOAD = 1L << 40;
    /** Published through the rendezvous: "gm port:hex libfabric name". */
    static final String KEY_ADDRESS = "gm.address";
    /** The size classes of data buffers; the largest is chosen to hold the eager threshold. */
    private static final int SMALL_SIZE = 9;
    private static final int MEDIUM_SIZE = 12;
    /** Control messages are only the wire header. */
    static final int CONTROL_SIZE = SizeClasses.minSizeForLength(WireHeader.LENGTH);

    /** How often a sender that waits for room looks at the receive path again. */
    private static final long ROOM_RECHECK_NANOS = 100_000L;

    /** Why a peer that said BYE failed: the orderly end of a job, logged at DEBUG only. */
    static final String CLOSED = "it closed its endpoint";
    private static final System.Logger LOG = System.getLogger(GmEndpoint.class.getName());

    final int rank;
    final int size;
    private final EndpointConfig config;
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
    private volatile boolean resolved; // written under stateLock; read without it once true (ensureResolved)
    private volatile @Nullable ReceivePath receivePath; // written under stateLock
    volatile boolean closed;
    volatile @Nullable MessageHandler handler;
    final AtomicLong protocolErrors = new AtomicLong();
    /** Payloads copied through a bounce buffer because they were on the heap (sent or read by RMA). */
    final AtomicLong bounceCopies = new AtomicLong();
    /** Payloads this rank offered by RMA, and payloads it read by RMA. */
    final AtomicLong rmaPayloadsSent = new AtomicLong();
    final AtomicLong rmaPayloadsRead = new AtomicLong();

    private GmEndpoint(EndpointConfig config, GmOptions.Settings settings, GmPort port, SizeClasses dataSizes) {
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
                + controlBuffersPerPeer(settings)));
    }

    /** Control buffers each rank posts per peer, and has for sending to it: FINs for every slot, credits, a BYE. */
    static int controlBuffersPerPeer(GmOptions.Settings settings) {
        return settings.credits() * 4 + 4;
    }

    /**
     * Send slots per peer: application threads wait at {@link #bound}, handler callbacks (which must never wait) may
     * go to this many, as loopback's delivery threads may; beyond it the peer counts as failed.
     */
    static int slotsPerPeer(GmOptions.Settings settings) {
        return Math.max(256, settings.credits() * 4);
    }

    /**
     * Opens a GM port (node id rank + 1), allocates and posts its buffers, and publishes its name.
     *
     * @throws TransportException when the library, the provider or DMA memory is missing (the message says what to
     *         do)
     */
    public static GmEndpoint open(EndpointConfig config, GmOptions.Settings settings) throws TransportException {
        Libgm lib;
        try {
            lib = Libgm.load();
        } catch (IllegalStateException e) {
            throw new TransportException(String.valueOf(e.getMessage()));
        }
        @Nullable String unavailable = lib.providerUnavailable(settings.provider());
        if (unavailable != null) {
            throw new TransportException(unavailable);
        }
        long largest = WireHeader.LENGTH + MAX_HEADER + settings.eagerThreshold();
        int top = Math.max(MEDIUM_SIZE + 1, SizeClasses.minSizeForLength(largest));
        SizeClasses sizes = new SizeClasses(SMALL_SIZE, MEDIUM_SIZE, top);
        int n = config.job().size();
        int slots = slotsPerPeer(settings);
        int controls = controlBuffersPerPeer(settings);
        GmPort port = openPort(lib, config, settings, new GmPort.Options(providerName(settings.provider()),
                address(config, settings), config.rank() + 1, n * (slots + controls + 4),
                n * (sizes.count() * settings.credits() + controls), settings.ackTimeoutMillis(),
                settings.keepaliveMillis(), settings.strict()));
        GmEndpoint endpoint = new GmEndpoint(config, settings, port, sizes);
        PortCloser.opened(config.job().id());
        try {
            endpoint.allocate(slots, controls);
            byte[] name = port.endpointName();
            config.rendezvous().publish(config.rank(), KEY_ADDRESS,
                    port.portId() + ":" + HexFormat.of().formatHex(name));
        } catch (TransportException | RuntimeException e) {
            PortCloser.close(config.job().id(), port);
            throw e;
        } catch (GmPort.GmException e) {
            PortCloser.close(config.job().id(), port);
            throw new TransportException(String.valueOf(e.getMessage()));
        }
        return endpoint;
    }

    private static String providerName(String provider) {
        return provider;
    }

    private static @Nullable String address(EndpointConfig config, GmOptions.Settings settings) {
        if (!settings.address().isEmpty()) {
            return settings.address();
        }
        return config.rendezvous().localAddress().map(a -> a.getHostAddress()).orElse("127.0.0.1");
    }

    /** Tries the configured port id, then the others: ranks of one process each take a port of their own. */
    private static GmPort openPort(Libgm lib, EndpointConfig config, GmOptions.Settings settings,
                                   GmPort.Options options) throws TransportException {
        GmPort.@Nullable GmException last = null;
        for (int i = 0; i < 8; i++) {
            int id = (settings.port() + i) % 8;
            try {
                return GmPort.open(lib, id, options);
            } catch (GmPort.GmException e) {
                last = e;
                if (e.status() != GmStatus.BUSY) {
                    break;
                }
            }
        }
        throw new TransportException("rank " + config.rank() + ": cannot open a GM port over "
                + settings.provider() + ": " + (last == null ? "" : last.getMessage())
                + "; check that libfabric1 is installed and gm.provider and gm.address suit this host");
    }

    private void allocate(int slots, int controls) throws TransportException {
        long largest = dataSizes.largestLength();
        long controlLength = SizeClasses.maxLengthForSize(CONTROL_SIZE);
        for (int r = 0; r < size; r++) {
            SendSlot[] s = new SendSlot[slots];
            for (int i = 0; i < slots; i++) { // the slots beyond the bound get their buffer when first used
                s[i] = new SendSlot(i, i < bound ? dma(largest) : MemorySegment.NULL);
            }
            MemorySegment[] c = new MemorySegment[controls];
            for (int i = 0; i < controls; i++) {
                c[i] = dma(controlLength);
            }
            peers[r] = new Peer(r, settings.credits(), s, dataSizes.count() * settings.credits(), c);
        }
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < dataSizes.count(); k++) {
                for (int i = 0; i < settings.credits(); i++) {
                    addReceiveBuffer(dataSizes.size(k), GmPort.LOW_PRIORITY);
                }
            }
            for (int i = 0; i < controls; i++) {
                addReceiveBuffer(CONTROL_SIZE, GmPort.HIGH_PRIORITY);
            }
        }
        for (int i = 0; i < receiveBuffers.count(); i++) {
            receiveBuffers.post(port, i);
        }
    }

    private MemorySegment dma(long length) throws TransportException {
        MemorySegment m = port.dmaMalloc(length);
        if (m.equals(MemorySegment.NULL)) {
            throw outOfDmaMemory();
        }
        return m;
    }

    private void addReceiveBuffer(int sizeClass, int priority) throws TransportException {
        if (!receiveBuffers.add(port, sizeClass, SizeClasses.maxLengthForSize(sizeClass), priority)) {
            throw outOfDmaMemory();
        }
    }

    private TransportException outOfDmaMemory() {
        return new TransportException("rank " + rank + ": gm_dma_malloc has no memory left for " + size
                + " peers; lower " + GmOptions.CREDITS + " or " + GmOptions.EAGER_THRESHOLD);
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
            if (handler != null || closed) {
                throw new IllegalStateException("rank " + rank + ": endpoint already started or closed");
            }
            resolvePeers();
            handler = messageHandler;
            ReceivePath path = new ReceivePath(this, messageHandler, handoverClock);
            receivePath = path;
            path.start();
        } finally {
            stateLock.unlock();
        }
    }

    /** Sets every peer's address in the port, once (stateLock held). */
    private void resolvePeers() {
        if (resolved) {
            return;
        }
        Duration timeout = Duration.ofMillis(settings.rendezvousTimeoutMillis());
        try {
            for (Peer p : peers) {
                String address = config.rendezvous().lookup(p.rank, KEY_ADDRESS, timeout);
                int colon = address.indexOf(':');
                try {
                    p.gmPort = Integer.parseInt(address.substring(0, Math.max(0, colon)));
                    byte[] name = HexFormat.of().parseHex(address.substring(colon + 1));
                    if (p.gmPort < 0 || p.gmPort > 7) {
                        throw new IllegalArgumentException("port " + p.gmPort);
                    }
                    port.setPeer(p.node, p.gmPort, name, "rank-" + p.rank);
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    throw new TransportException("rank " + p.rank + " published a bad " + KEY_ADDRESS + " '"
                            + address + "'; do all ranks run the same transport?");
                }
            }
        } catch (TransportException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (GmPort.GmException e) {
            throw new IllegalStateException("rank " + rank + ": " + e.getMessage(), e);
        }
        resolved = true;
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength,
                     MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        SendArguments.check(peer, size, header, headerLength, MAX_HEADER, payload, payloadOffset, payloadLength,
                MAX_PAYLOAD, provider());
        if (closed) {
            throw new IllegalStateException("rank " + rank + ": endpoint is closed");
        }
        ensureResolved();
        Peer p = peers[peer];
        if (p.failed) {
            complete(token, false);
            return;
        }
        boolean readable = payloadLength == 0 || payload.scope().isAlive();
        boolean eager = !readable || threshold.eager(headerLength, payloadLength);
        RegistrationCache.@Nullable Registration registration = null;
        @Nullable Bounce bounce = null;
        if (!eager) { // staged outside every lock: registering and copying a heap payload take time
            try {
                if (payload.isNative()) {
                    registration = cache.acquire(payload.address() + payloadOffset, payloadLength);
                } else {
                    bounce = Bounce.stageOut(payload, payloadOffset, payloadLength, port);
                    bounceCopies.incrementAndGet();
                }
            } catch (IllegalStateException e) { // the memory went away, or libgm refused it
                LOG.log(System.Logger.Level.DEBUG, "rank " + rank + ": cannot stage a payload of "
                        + payloadLength + " bytes for rank " + peer + ": " + e.getMessage());
                readable = false;
                eager = true;
            }
        }
        if (!enqueue(p, header, headerLength, readable ? payload : MemorySegment.NULL, payloadOffset, payloadLength,
                token, eager, registration, bounce)) {
            release(registration, bounce);
            complete(token, false);
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

    private void ensureResolved() {
        if (resolved) { // once set it stays: no lock per send (the volatile write published the peers' addresses)
            return;
        }
        stateLock.lock();
        try {
            if (!closed) {
                resolvePeers();
            }
        } finally {
            stateLock.unlock();
        }
    }

    /** Takes a slot (waiting for one unless on the progress thread), fills it and posts it if there is a credit. */
    private boolean enqueue(Peer p, MemorySegment header, int headerLength, MemorySegment payload, long offset,
                            long length, long token, boolean eager,
                            RegistrationCache.@Nullable Registration registration, @Nullable Bounce bounce) {
        boolean fromReceivePath = isReceivePathThread();
        boolean overflow = false;
        boolean interrupted = false;
        p.lock.lock();
        try {
            while (!p.failed && !closed && p.inUse() >= (fromReceivePath ? p.slots.length : bound)) {
                if (fromReceivePath) {
                    overflow = true;
                    break;
                }
                interrupted |= awaitRoom(p); // backpressure: wait for a completion
            }
            if (p.failed || closed || overflow) {
                return false;
            }
            SendSlot s = p.takeSlot();
            if (s.buffer.equals(MemorySegment.NULL)) { // once per slot, for a handler callback's burst
                MemorySegment b = port.dmaMalloc(dataSizes.largestLength());
                if (b.equals(MemorySegment.NULL)) {
                    p.freeSlot(s);
                    overflow = true;
                    return false;
                }
                s.buffer = b;
            }
            s.token = token;
            s.headerLength = headerLength;
            s.payloadLength = length;
            s.rma = !eager;
            MemorySegment.copy(header, 0, s.buffer, WireHeader.LENGTH, headerLength);
            s.unreadable = false;
            if (eager && length > 0 && !payload.equals(MemorySegment.NULL)) {
                try {
                    MemorySegment.copy(payload, offset, s.buffer, WireHeader.LENGTH + headerLength, length);
                } catch (IllegalStateException e) { // its memory went away since send checked
                    s.unreadable = true;
                }
            } else if (eager && length > 0) {
                s.unreadable = true;
            }
            if (s.unreadable) { // the receiver ends the message failed, the send completes not delivered
                s.messageLength = WireHeader.LENGTH + headerLength;
            } else if (eager) {
                s.messageLength = WireHeader.LENGTH + headerLength + length;
            } else {
                s.messageLength = WireHeader.LENGTH + headerLength;
                s.registration = registration;
                s.bounce = bounce;
                s.rmaAddress = bounce != null ? bounce.address() : payload.address() + offset;
                s.rmaKey = bounce != null ? bounce.key() : registration == null ? 0 : registration.key();
                rmaPayloadsSent.incrementAndGet();
            }
            s.sizeIndex = threshold.sizeIndex(s.messageLength);
            p.queueForCredit(s);
            postWaiting(p);
            return true;
        } finally {
            p.lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (overflow) {
                peerFailed(p.rank, "a handler callback sent more than " + p.slots.length
                        + " messages that wait, or gm_dma_malloc had no memory left for them");
            }
        }
    }

    /**
     * Waits a little for a completion that makes room towards {@code p} (its lock held, and released meanwhile),
     * running the receive path itself when nobody does: the thread that would have run it may be waiting for this one
     * (an upper layer's callback for which this sender holds something), and this thread may have been its poller.
     * Returns whether the thread was interrupted (the flag is cleared: the wait goes on, the caller sets it again).
     */
    private boolean awaitRoom(Peer p) {
        ReceivePath path = receivePath;
        if (path == null) {
            p.room.awaitUninterruptibly();
            return false;
        }
        p.lock.unlock();
        boolean ran;
        try {
            ran = path.runIfUnattended();
        } finally {
            p.lock.lock();
        }
        if (p.inUse() >= bound && !p.failed && !closed) {
            try {
                p.room.awaitNanos(ran ? ROOM_RECHECK_NANOS : ROOM_RECHECK_NANOS * 10);
            } catch (InterruptedException e) {
                return true;
            }
        }
        return false;
    }

    /** Posts queued messages while there are credits, each carrying a FIN that waits (peer lock held). */
    private void postWaiting(Peer p) {
        while (!p.failed && p.hasWaiting() && p.credits.tryTake()) {
            SendSlot s = p.nextWaiting();
            if (s == null) {
                return;
            }
            WireHeader.write(s.buffer, s.unreadable ? WireHeader.KIND_UNREADABLE
                    : s.rma ? WireHeader.KIND_RMA : WireHeader.KIND_EAGER, s.headerLength,
                    p.returns.take(), p.sendSequence++, s.index, p.takeFin(), s.payloadLength, s.rmaAddress,
                    s.rmaKey);
            s.withGm = true;
            port.send(s.buffer, dataSizes.size(s.sizeIndex), s.messageLength, GmPort.LOW_PRIORITY, p.node,
                    p.gmPort, Contexts.of(Contexts.DATA, p.rank, s.index));
        }
    }

    /** GM gave a data message's buffer back (progress thread). */
    void dataSent(Peer p, int index, int status) {
        if (index >= p.slots.length) {
            return;
        }
        SendSlot s = p.slots[index];
        long token = NO_NOTIFY;
        boolean report = false;
        boolean sent = status == GmStatus.SUCCESS;
        boolean delivered = sent;
        RegistrationCache.@Nullable Registration registration = null;
        @Nullable Bounce bounce = null;
        p.lock.lock();
        try {
            if (!s.inUse || !s.withGm) {
                return;
            }
            s.withGm = false;
            delivered = sent && !s.unreadable;
            if (!sent || s.finReceived || p.failed) { // else the peer's FIN completes it
                report = !s.completed;
                s.completed = true;
                token = s.token;
                registration = s.registration;
                bounce = s.bounce;
                p.freeSlot(s);
            }
        } finally {
            p.lock.unlock();
        }
        release(registration, bounce);
        if (report) {
            complete(token, delivered);
        }
        if (!sent && status != GmStatus.SEND_DROPPED) {
            peerFailed(p.rank, "a send completed with " + GmStatus.name(status));
        }
    }

    /** What {@link #creditsAndFin} found wrong, if anything. */
    enum Returned { OK, CREDITS, FIN }

    /**
     * A message's returned credits (waiting messages are posted with them), then, if {@code fin}, the peer's FIN for
     * its slot {@code finIndex}, under one take of the peer's lock (progress thread). CREDITS: the peer returned more
     * than it had; FIN: no message waits for a FIN in that slot (both protocol violations).
     */
    Returned creditsAndFin(Peer p, long credits, boolean fin, long finIndex, boolean read) {
        if (credits == 0 && !fin) {
            return Returned.OK;
        }
        long token = NO_NOTIFY;
        boolean report = false;
        boolean delivered = read;
        RegistrationCache.@Nullable Registration registration = null;
        @Nullable Bounce bounce = null;
        p.lock.lock();
        try {
            if (credits != 0) {
                if (!p.credits.give(credits)) {
                    return Returned.CREDITS;
                }
                postWaiting(p);
            }
            if (!fin) {
                return Returned.OK;
            }
            if (finIndex < 0 || finIndex >= p.slots.length) {
                return Returned.FIN;
            }
            SendSlot s = p.slots[(int) finIndex];
            if (!s.inUse || s.finReceived) {
                return Returned.FIN;
            }
            s.finReceived = true;
            delivered &= !s.unreadable;
            report = !s.completed;
            s.completed = true;
            token = s.token;
            registration = s.registration;
            bounce = s.bounce;
            s.registration = null;
            s.bounce = null;
            if (!s.withGm) {
                p.freeSlot(s);
            }
        } finally {
            p.lock.unlock();
        }
        release(registration, bounce);
        if (report) {
            complete(token, delivered);
        }
        return Returned.OK;
    }

    void release(RegistrationCache.@Nullable Registration registration, @Nullable Bounce bounce) {
        if (registration != null) {
            cache.release(registration);
        }
        if (bounce != null) {
            bounce.close();
        }
    }

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

    /** Records that {@code peer} failed, fails its sends and tells the handler, once. Any thread. */
    void peerFailed(int peer, String why) {
        if (peer == rank) {
            return; // this endpoint's own port: it fails as a whole, in close
        }
        Peer p = peers[peer];
        long[] tokens;
        int count = 0;
        p.lock.lock();
        try {
            if (p.failed) {
                return;
            }
            p.failed = true;
            tokens = new long[p.slots.length]; // the failure path may allocate
            for (SendSlot s : p.slots) {
                if (s.inUse && !s.completed) {
                    s.completed = true;
                    tokens[count++] = s.token;
                }
                if (s.inUse && !s.withGm) {
                    release(s.registration, s.bounce);
                    p.freeSlot(s);
                }
            }
            p.clearWaiting();
            p.room.signalAll();
        } finally {
            p.lock.unlock();
        }
        LOG.log(why.equals(CLOSED) ? System.Logger.Level.DEBUG : System.Logger.Level.INFO,
                "rank " + rank + ": rank " + peer + " failed: " + why);
        if (!closed) {
            port.dropSends(GmPort.LOW_PRIORITY, p.node, p.gmPort, Contexts.of(Contexts.DROP, peer, 0));
            port.dropSends(GmPort.HIGH_PRIORITY, p.node, p.gmPort, Contexts.of(Contexts.DROP, peer, 0));
        }
        for (int i = 0; i < count; i++) {
            complete(tokens[i], false);
        }
        MessageHandler h = handler;
        if (h != null && !closed) { // the handler of a closed endpoint is told nothing more (its layer is gone)
            try {
                h.onPeerFailure(peer);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": handler threw from onPeerFailure", e);
            }
        }
    }

    @Override
    public boolean isPeerAlive(int peer) {
        if (peer == rank) {
            return !closed;
        }
        return peer >= 0 && peer < size && !peers[peer].failed && !closed;
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
            if (closed) {
                return;
            }
            closed = true;
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
            failAllSends();
            cache.clear();
            closePort();
            abandonBounces();
        }
    }

    /** Closes the port, or hands it to the job's last endpoint in this JVM to close (see {@link PortCloser}). */
    void closePort() {
        PortCloser.close(config.job().id(), port);
    }

    /** Fails every send not completed yet and releases what was staged for it (at close). */
    void failAllSends() {
        for (Peer p : peers) {
            long[] tokens = new long[p.slots.length];
            int count = 0;
            p.lock.lock();
            try {
                for (SendSlot s : p.slots) {
                    if (s.inUse && !s.completed) {
                        s.completed = true;
                        tokens[count++] = s.token;
                    }
                    if (s.inUse && s.registration != null) {
                        cache.release(s.registration);
                        s.registration = null;
                    }
                }
                p.clearWaiting();
            } finally {
                p.lock.unlock();
            }
            for (int i = 0; i < count; i++) {
                complete(tokens[i], false);
            }
        }
    }

    /** Frees the bounce buffers of sends after the port closed (their registrations went with it). */
    void abandonBounces() {
        for (Peer p : peers) {
            p.lock.lock();
            try {
                for (SendSlot s : p.slots) {
                    if (s.bounce != null) {
                        s.bounce.abandon();
                        s.bounce = null;
                    }
                }
            } finally {
                p.lock.unlock();
            }
        }
    }
}
