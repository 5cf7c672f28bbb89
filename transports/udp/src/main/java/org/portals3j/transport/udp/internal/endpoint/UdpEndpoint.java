package org.portals3j.transport.udp.internal.endpoint;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Polling;
import org.portals3j.transport.SendArguments;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.internal.PollHandover;
import org.portals3j.transport.udp.UdpOptions;
import org.portals3j.transport.udp.UdpTransportProvider;
import org.portals3j.transport.udp.internal.io.ChannelIo;
import org.portals3j.transport.udp.internal.io.DatagramIo;
import org.portals3j.transport.udp.internal.io.FaultInjectingIo;
import org.portals3j.transport.udp.internal.io.SocketIo;
import org.portals3j.transport.udp.internal.reliability.ReceiveWindow;
import org.portals3j.transport.udp.internal.reliability.RttEstimator;
import org.portals3j.transport.udp.internal.reliability.SendWindow;
import org.portals3j.transport.udp.internal.wire.AesCmacMac;
import org.portals3j.transport.udp.internal.wire.AesGcmMac;
import org.portals3j.transport.udp.internal.wire.AesPmacMac;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.Crc32cOnly;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramMac;
import org.portals3j.transport.udp.internal.wire.DatagramType;
import org.portals3j.transport.udp.internal.wire.GmacMac;
import org.portals3j.transport.udp.internal.wire.HmacSha256Mac;

/**
 * One rank's UDP endpoint, the {@link Transport}: binds the socket, starts the protocol thread and heartbeat timer,
 * checks sends and polls and hands them on. The protocol: package documentation of {@code org.portals3j.transport.udp}.
 */
public final class UdpEndpoint implements Transport, Polling {
    /** What every udp endpoint offers beyond the baseline. */
    public static final Set<TransportCapability> CAPABILITIES = Collections.unmodifiableSet(EnumSet.of(
            TransportCapability.SINGLE_PROCESS, TransportCapability.MULTI_PROCESS,
            TransportCapability.REPORTS_POLLERS_GONE));
    public static final int MAX_HEADER = 256;
    /** 2^40 bytes (1 TiB): far beyond any memory region, small enough that offsets never overflow. */
    public static final long MAX_PAYLOAD = 1L << 40;
    /** Published through the rendezvous. */
    public static final String KEY_ADDRESS = "udp.address";
    public static final String KEY_FINGERPRINT = "udp.keyFingerprint";
    public static final String KEY_INCARNATION = "udp.incarnation";

    /** Initial RTO before any sample: a job's network is local, RFC 6298's 1 s would stall the first loss. */
    static final long INITIAL_RTO_NANOS = 20_000_000L;
    static final int BYE_REPEATS = 3;

    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();

    private final EndpointConfig config;
    private final UdpOptions.Settings settings;
    private final EndpointIdentity self;
    private final long firstDatagramCounter;
    private final DatagramIo io;
    private final Peer[] peers;
    private final Counters counters = new Counters();
    private final EndpointLifecycle lifecycle = new EndpointLifecycle();
    private final NanoClock clock = NanoClock.SYSTEM;
    /** Checks received datagrams (each peer has its own codec for what is sent to it). */
    private final DatagramCodec receiveCodec;
    /**
     * Who runs the receive path: the protocol thread, or an application thread in {@link #poll}. Holding it is what
     * keeps handler calls serialised; the receive path's state is guarded by it.
     */
    private final ReentrantLock receivePath = new ReentrantLock();
    /** When the protocol thread leaves the receive path to polling application threads. */
    private final PollHandover handover;
    private final ProtocolSleep sleep;
    /** What {@link #start} made; null before. */
    private volatile @Nullable Started started;

    /** The parts that run once the endpoint has a handler. */
    private record Started(UpperLayer upper, DatagramSender sender, DatagramReceiver receiver, ProtocolAgent agent,
                           ProtocolThread loop, Thread protocolThread, Thread heartbeatThread) {
    }

    private UdpEndpoint(EndpointConfig config, UdpOptions.Settings settings, DatagramIo io) {
        this.config = config;
        this.settings = settings;
        int size = config.job().size();
        this.self = new EndpointIdentity(config.rank(), size, jobTag(config.job().id()), RANDOM.nextLong());
        this.firstDatagramCounter = RANDOM.nextLong();
        int datagramSize = settings.datagramSize();
        int bodyCapacity = datagramSize - DatagramHeader.LENGTH;
        byte[] key = config.job().key().bytes();
        this.io = io;
        this.receiveCodec = new DatagramCodec(newMac(settings, key));
        this.peers = new Peer[size];
        long rtoMin = settings.rtoMinMicros() * 1_000L;
        this.handover = new PollHandover(clock.nanoTime(), rtoMin);
        this.sleep = new ProtocolSleep(io);
        long rtoMax = settings.rtoMaxMillis() * 1_000_000L;
        int receiveWindow = receiveWindow(settings.window(), io.receiveBufferBytes(), datagramSize, size);
        for (int r = 0; r < size; r++) {
            peers[r] = new Peer(r, settings.window(), receiveWindow, datagramSize, bodyCapacity, MAX_HEADER,
                    new DatagramCodec(newMac(settings, key)),
                    new RttEstimator(rtoMin, rtoMax, Math.max(rtoMin, INITIAL_RTO_NANOS)),
                    settings.sendQueueMessages(), settings.sendQueueBytes());
        }
    }

    /**
     * How many datagrams each peer may have in flight towards this endpoint: the configured window, but no more than
     * the socket's receive buffer holds when every other rank sends at once; beyond that the kernel drops datagrams,
     * and every drop costs a retransmission (docs/udp-notes.md).
     */
    static int receiveWindow(int configured, int socketBufferBytes, int datagramSize, int ranks) {
        int perDatagram = datagramSize + 1024; // the kernel's own overhead per datagram, generously
        int fits = socketBufferBytes / perDatagram / Math.max(1, ranks - 1);
        return Math.max(SendWindow.MIN_CWND, Math.min(configured, fits));
    }

    private static DatagramMac newMac(UdpOptions.Settings settings, byte[] key) {
        return switch (settings.mac()) {
            case GmacMac.NAME -> new GmacMac(key);
            case HmacSha256Mac.NAME -> new HmacSha256Mac(key);
            case AesGcmMac.NAME -> new AesGcmMac(key);
            case AesCmacMac.NAME -> new AesCmacMac(key);
            case AesPmacMac.NAME -> new AesPmacMac(key);
            case Crc32cOnly.NAME -> new Crc32cOnly();
            default -> new AutoMac(key);
        };
    }

    /** The job tag: the first four bytes of SHA-256 of the job id (tells jobs apart, cheaply, before the MAC). */
    static int jobTag(String jobId) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(jobId.getBytes(StandardCharsets.UTF_8));
            return (d[0] & 0xff) | (d[1] & 0xff) << 8 | (d[2] & 0xff) << 16 | (d[3] & 0xff) << 24;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /**
     * Binds the socket and publishes its address (and the job key's fingerprint and this incarnation's id)
     * through the rendezvous.
     */
    public static UdpEndpoint open(EndpointConfig config, UdpOptions.Settings settings) throws TransportException {
        return open(config, settings, UnaryOperator.identity());
    }

    /**
     * As {@link #open(EndpointConfig, UdpOptions.Settings)}, with the socket seen through {@code wrap} (tests and
     * benchmarks: capture what is sent, emulate a crash or a stopped process, inject an error).
     */
    public static UdpEndpoint open(EndpointConfig config, UdpOptions.Settings settings, UnaryOperator<DatagramIo> wrap)
            throws TransportException {
        InetAddress host;
        if (settings.host().isEmpty()) {
            // the address the rendezvous was reached from is one the peers can reach; in one JVM, loopback
            host = config.rendezvous().localAddress().orElse(InetAddress.getLoopbackAddress());
        } else {
            try {
                host = InetAddress.getByName(settings.host());
            } catch (UnknownHostException e) {
                throw new TransportException("cannot resolve " + UdpOptions.HOST + "=" + settings.host()
                        + "; give an IP address or a host name this machine can resolve");
            }
        }
        String hostName = host.getHostAddress();
        int port = settings.port() == 0 ? 0 : settings.port() + config.rank(); // udp.port is the job's base port
        if (port > 65535) {
            throw new TransportException(UdpOptions.PORT + "=" + settings.port() + " puts rank " + config.rank()
                    + " on port " + port + ", beyond 65535; choose a base port below " + (65536 - config.job().size()));
        }
        DatagramIo io;
        try {
            io = bind(new InetSocketAddress(host, port), settings.io());
        } catch (BindException e) {
            if (port != 0 && String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("in use")) {
                throw new TransportException("UDP port " + port + " on " + hostName + " (rank " + config.rank()
                        + ") is already in use; choose another base port with " + UdpOptions.PORT
                        + "=... or 0 for any free port");
            }
            throw new TransportException("cannot bind UDP " + hostName + ":" + port + " (" + e.getMessage()
                    + "); set " + UdpOptions.HOST + " to an address of this machine");
        } catch (IOException e) {
            throw new TransportException("cannot open a UDP socket on " + hostName + ":" + port
                    + " (" + e.getMessage() + ")");
        }
        if (settings.faulty()) {
            io = new FaultInjectingIo(io, settings.datagramSize(), new FaultInjectingIo.Faults(settings.faultLoss(),
                    settings.faultDuplicate(), settings.faultReorder(), settings.faultCorrupt(),
                    settings.faultDelayMicros() * 1_000L, settings.faultJitterMicros() * 1_000L, settings.faultLate(),
                    settings.faultLateMicros() * 1_000L, settings.faultDelayQueue(), settings.faultSeed()));
        }
        io = wrap.apply(io);
        if (settings.mac().equals(Crc32cOnly.NAME)) {
            LOG.log(System.Logger.Level.WARNING, "rank " + config.rank() + ": " + UdpOptions.MAC + "="
                    + Crc32cOnly.NAME + ": datagrams are NOT authenticated (CRC32C only); anyone who can reach "
                    + hostName + " can inject or replay datagrams into this job");
        }
        UdpEndpoint endpoint = new UdpEndpoint(config, settings, io);
        try {
            InetSocketAddress local = io.localAddress();
            String address = local.getAddress().getHostAddress() + ":" + local.getPort();
            config.rendezvous().publish(config.rank(), KEY_ADDRESS, address);
            config.rendezvous().publish(config.rank(), KEY_FINGERPRINT, config.job().key().fingerprint());
            config.rendezvous().publish(config.rank(), KEY_INCARNATION, Long.toHexString(endpoint.self.incarnation()));
        } catch (TransportException | RuntimeException e) {
            io.close();
            throw e;
        }
        return endpoint;
    }

    /**
     * The socket {@code mode} ({@link UdpOptions#IO}) asks for: the native one where it can be used (or fails with
     * {@code native}), else the JDK's channel.
     */
    private static DatagramIo bind(InetSocketAddress address, String mode) throws IOException, TransportException {
        if (mode.equals(UdpOptions.IO_CHANNEL)) {
            return ChannelIo.bind(address);
        }
        String why = SocketIo.unusableFor(address);
        if (why == null) {
            return SocketIo.bind(address);
        }
        if (mode.equals(UdpOptions.IO_NATIVE)) {
            throw new TransportException(UdpOptions.IO + "=" + UdpOptions.IO_NATIVE + " cannot be used here (" + why
                    + "); run java with --enable-native-access=ALL-UNNAMED (or the module org.portals3j.transport.udp)"
                    + " for an IPv4 address on 64-bit Linux, or set " + UdpOptions.IO + "=" + UdpOptions.IO_AUTO);
        }
        return ChannelIo.bind(address);
    }

    // ==== Transport ==============================================================================

    @Override
    public String provider() {
        return UdpTransportProvider.NAME;
    }

    @Override
    public Set<TransportCapability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public int rank() {
        return self.rank();
    }

    @Override
    public int size() {
        return self.size();
    }

    @Override
    public int maxHeaderLength() {
        return MAX_HEADER;
    }

    @Override
    public long maxPayloadLength() {
        return MAX_PAYLOAD;
    }

    /** The bound socket address (tests aim raw datagrams at it). */
    public InetSocketAddress localAddress() {
        return io.localAddress();
    }

    /**
     * Looks up every peer (waiting up to {@code udp.rendezvousTimeoutMillis}), checks that they use the same
     * job key, then starts the protocol thread.
     *
     * @throws IllegalStateException if already started or closed, or when a peer cannot be found or uses
     *         another job key (the message says what to do; the cause is the {@link TransportException})
     */
    @Override
    public synchronized void start(MessageHandler messageHandler) {
        int rank = self.rank();
        if (started != null) {
            throw new IllegalStateException("rank " + rank + ": transport already started");
        }
        if (lifecycle.state() != EndpointLifecycle.State.OPEN) {
            throw new IllegalStateException("rank " + rank + ": transport is closed");
        }
        try {
            resolvePeers();
        } catch (TransportException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        long now = clock.nanoTime();
        for (Peer p : peers) {
            p.lastHeardNanos = now;
            p.lastSentNanos = now;
        }
        long heartbeatNanos = settings.heartbeatMillis() * 1_000_000L;
        UpperLayer upper = new UpperLayer(rank, messageHandler);
        DatagramSender sender = new DatagramSender(self, firstDatagramCounter, peers, io, counters, lifecycle, upper,
                sleep, new ReceivePathForSenders(), clock, settings.ackDelayMicros() * 1_000L, heartbeatNanos);
        DatagramReceiver receiver = new DatagramReceiver(self, peers, io, receiveCodec, counters, lifecycle, upper,
                sender, clock, settings.datagramSize(), heartbeatNanos, settings.peerTimeoutMillis());
        ProtocolAgent agent = new ProtocolAgent(self, peers, receiver, sender, counters, lifecycle, clock, settings);
        ProtocolIdle idle = new ProtocolIdle(rank, config.idle(), config.oversubscribed(), sleep, handover, agent,
                lifecycle, clock, LockSupport::parkNanos, Thread::yield);
        ProtocolThread loop = new ProtocolThread(agent, idle, handover, sleep, receivePath, upper, lifecycle, clock,
                this::failEndpoint);
        Thread t = Thread.ofPlatform().daemon().name("udp-rank-" + rank).unstarted(loop);
        Thread beat = Thread.ofPlatform().daemon().name("udp-heartbeat-rank-" + rank)
                .unstarted(() -> heartbeatLoop(sender, heartbeatNanos));
        started = new Started(upper, sender, receiver, agent, loop, t, beat);
        if (!lifecycle.moveTo(EndpointLifecycle.State.RUNNING)) {
            throw new IllegalStateException("rank " + rank + ": transport is closed");
        }
        t.start();
        beat.start();
    }

    private void resolvePeers() throws TransportException {
        Duration timeout = Duration.ofMillis(settings.rendezvousTimeoutMillis());
        String ownFingerprint = config.job().key().fingerprint();
        for (Peer p : peers) {
            String fingerprint = config.rendezvous().lookup(p.rank, KEY_FINGERPRINT, timeout);
            if (!fingerprint.equals(ownFingerprint)) {
                throw new TransportException("rank " + p.rank + " uses job key " + fingerprint + " but this rank uses "
                        + ownFingerprint + "; give every rank the same PORTALS_JOB_KEY");
            }
            String address = config.rendezvous().lookup(p.rank, KEY_ADDRESS, timeout);
            int colon = address.lastIndexOf(':');
            if (colon <= 0) {
                throw new TransportException("rank " + p.rank + " published a bad udp.address '" + address + "'");
            }
            String host = address.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            try {
                InetSocketAddress a = new InetSocketAddress(InetAddress.getByName(host),
                        Integer.parseInt(address.substring(colon + 1)));
                p.address = a;
            } catch (UnknownHostException | IllegalArgumentException e) {
                throw new TransportException("cannot resolve rank " + p.rank + "'s udp.address '" + address + "'");
            }
            try {
                p.incarnation = Long.parseUnsignedLong(config.rendezvous().lookup(p.rank, KEY_INCARNATION, timeout),
                        16);
            } catch (NumberFormatException e) {
                throw new TransportException("rank " + p.rank + " published a bad udp.incarnation");
            }
        }
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength,
                     MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        SendArguments.check(peer, self.size(), header, headerLength, MAX_HEADER, payload, payloadOffset,
                payloadLength, MAX_PAYLOAD, provider());
        Started s = started;
        if (lifecycle.isClosed()) {
            throw new IllegalStateException("rank " + self.rank() + ": transport is "
                    + (lifecycle.state() == EndpointLifecycle.State.FAILED
                            ? "failed (its ERROR log line says why)" : "closed"));
        }
        if (s == null) {
            throw new IllegalStateException("rank " + self.rank() + ": send() before start()");
        }
        // the receive path's own sends never wait: the acknowledgements that make room only it can process
        boolean fromReceivePath = receivePath.isHeldByCurrentThread() || Thread.currentThread() == s.protocolThread();
        s.sender().send(peers[peer], header, headerLength, payload, payloadOffset, payloadLength, token,
                fromReceivePath);
    }

    /** The receive path as a sender waiting for room sees it (see {@link DatagramSender#send}). */
    private final class ReceivePathForSenders implements DatagramSender.ReceivePath {
        @Override
        public void senderWaits() {
            if (handover.pollingRecently(clock.nanoTime())) {
                pollingStopped(); // this thread may have been the poller: the protocol thread takes over at once
            }
        }

        @Override
        public void runIfUnattended() {
            Started s = started;
            if (s != null && lifecycle.isRunning() && receivePath.tryLock()) {
                try {
                    s.agent().doWork();
                } catch (Throwable t) {
                    // the receive path's failure, not the send's: the endpoint fails (logged, every peer and
                    // send failed) and the waiting send, released by it, completes false like the others
                    failEndpoint(t);
                } finally {
                    receivePath.unlock();
                }
            }
        }
    }

    @Override
    public boolean isPeerAlive(int peer) {
        if (peer < 0 || peer >= self.size()) {
            return false;
        }
        return !lifecycle.isFailingOrClosed() && !peers[peer].isDead(); // failing: before its peers are failed
    }

    /** The counters, and {@code sendQueue.highWater}: the most messages ever unacknowledged to one peer at once. */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = counters.snapshot();
        long highWater = 0;
        for (Peer p : peers) {
            highWater = Math.max(highWater, p.bound.highWater());
        }
        m.put("sendQueue.highWater", highWater);
        if (io instanceof FaultInjectingIo faults) {
            faults.addCounters(m);
        }
        return m;
    }

    /** The protocol thread takes the receive path back now rather than after its grace ({@link PollHandover}). */
    @Override
    public void pollingStopped() {
        handover.stopped(clock.nanoTime());
        Started s = started;
        if (s != null) {
            LockSupport.unpark(s.protocolThread());
        }
    }

    /** The calling thread polls inside a wait: the protocol thread need not look whether it is still there. */
    @Override
    public void waitStarted() {
        handover.waitBegins();
    }

    @Override
    public void waitEnded() {
        handover.waitEnds();
    }

    /**
     * Lets the calling application thread run the receive path (see {@link Polling#poll}); does nothing
     * when the protocol thread or another poller is running it, or when called from inside a handler. A protocol thread
     * asleep in the socket is woken to step aside ({@link ProtocolThread#polled}).
     */
    @Override
    public boolean poll() {
        Started s = started;
        if (s == null || !lifecycle.isRunning() || receivePath.isHeldByCurrentThread()) {
            return false;
        }
        s.loop().polled(clock.nanoTime());
        if (!receivePath.tryLock()) {
            return false;
        }
        try {
            // one datagram per call: the caller looks for its event after each, before paying for
            // another receive system call
            return lifecycle.isRunning() && s.agent().doWork(1) > 0;
        } catch (Throwable t) {
            failEndpoint(t);
            throw t; // the caller's thread: it sees what happened
        } finally {
            receivePath.unlock();
        }
    }

    @Override
    public void close() {
        if (!lifecycle.moveTo(EndpointLifecycle.State.CLOSED)) {
            return;
        }
        io.wakeup();
        Started s = started;
        if (s != null) {
            LockSupport.unpark(s.heartbeatThread());
            join(s.protocolThread());
            join(s.heartbeatThread());
        }
        receivePath.lock(); // a poller still inside the receive path finishes first
        try {
            if (s != null) {
                long now = clock.nanoTime();
                for (int i = 0; i < BYE_REPEATS; i++) {
                    for (Peer p : peers) {
                        if (p.rank != self.rank() && !p.isDead()) {
                            s.sender().sendControl(p, DatagramType.BYE, now); // best effort: peers learn at once
                        }
                    }
                }
                for (Peer p : peers) {
                    abandonAll(s, p);
                }
            }
        } finally {
            receivePath.unlock();
        }
        io.close();
    }

    /** Every pending and queued send to {@code p} completes false; a message half received from it fails. */
    private static void abandonAll(Started s, Peer p) {
        s.sender().abandon(p);
        s.receiver().finishPartial(p);
    }

    private static void join(Thread t) {
        if (t == Thread.currentThread()) {
            return;
        }
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The heartbeat timer: sleeps half a heartbeat period at a time and has the sender send heartbeats that are late
     * by half a period. The receive path sends them on time by itself; this thread only finds one late while the
     * receive path is stuck (a handler call waiting for the upper layer's lock, say), so that peers do not declare a
     * live rank dead.
     */
    private void heartbeatLoop(DatagramSender sender, long heartbeatNanos) {
        try {
            long period = Math.max(1, heartbeatNanos / 2);
            while (lifecycle.isRunning()) {
                LockSupport.parkNanos(this, period);
                sender.heartbeatsWhileStuck(clock.nanoTime());
            }
        } catch (Throwable t) {
            failEndpoint(t);
        }
    }

    /**
     * Something escaped the receive path or the heartbeat timer (an Error such as OutOfMemoryError, or a bug): its
     * state may be half updated, so the endpoint stops, loudly. One ERROR line with the cause; a BYE to every peer;
     * every peer reported failed ({@code onPeerFailure}) with every pending and queued send to it completed false,
     * and waiting senders released; the endpoint counts as closed ({@code isPeerAlive(self)} false, later sends
     * throw). {@link #close()} still releases the socket; if it runs already, it fails what is left.
     */
    private void failEndpoint(Throwable cause) {
        int rank = self.rank();
        Started s = started;
        if (s == null || !lifecycle.moveTo(EndpointLifecycle.State.FAILING)) {
            if (lifecycle.state() == EndpointLifecycle.State.CLOSED) {
                LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": the udp endpoint failed while closing ("
                        + cause + ")", cause);
            }
            return;
        }
        LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": the udp endpoint failed (" + cause + "); telling the"
                + " peers (BYE), failing every peer and every send", cause);
        LockSupport.unpark(s.heartbeatThread());
        receivePath.lock(); // a poller finishes its round first (or this thread holds it already)
        try {
            long now = clock.nanoTime();
            for (Peer p : peers) {
                try {
                    if (p.rank != rank && !p.isDead()) {
                        s.sender().sendControl(p, DatagramType.BYE, now);
                    }
                } catch (Throwable again) {
                    LOG.log(System.Logger.Level.DEBUG, "rank " + rank + ": BYE to rank " + p.rank + " failed", again);
                }
            }
            for (Peer p : peers) {
                try {
                    if (p.rank == rank) {
                        abandonAll(s, p); // this endpoint itself: its sends fail, it reports no failure of itself
                    } else {
                        s.receiver().failPeer(p);
                    }
                } catch (Throwable again) {
                    LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": failing rank " + p.rank + " failed", again);
                }
            }
        } finally {
            lifecycle.moveTo(EndpointLifecycle.State.FAILED); // false if close() came meanwhile: it is CLOSED
            receivePath.unlock();
        }
    }

    /** For diagnostics and tests: the incarnation id this endpoint puts in its datagrams. */
    public String incarnationId() {
        return HexFormat.of().toHexDigits(self.incarnation());
    }

    @Override
    public String toString() {
        return "udp endpoint of rank " + self.rank() + " at " + io.localAddress() + " (" + settings.mac() + ")";
    }

    /** Unused-bit guard so ReceiveWindow's SACK width matches the header's 64-bit field. */
    static {
        if (ReceiveWindow.SACK_BITS != Long.SIZE) {
            throw new ExceptionInInitializerError("SACK field is one long");
        }
    }
}
