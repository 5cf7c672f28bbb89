package org.portals3j.transport.udp.internal.endpoint;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.udp.UdpOptions;
import org.portals3j.transport.udp.UdpTransportProvider;
import org.portals3j.transport.udp.internal.io.ChannelIo;
import org.portals3j.transport.udp.internal.io.DatagramIo;
import org.portals3j.transport.udp.internal.io.FaultInjectingIo;
import org.portals3j.transport.udp.internal.io.PooledBuffer;
import org.portals3j.transport.udp.internal.reliability.OutgoingMessage;
import org.portals3j.transport.udp.internal.reliability.ReceiveWindow;
import org.portals3j.transport.udp.internal.reliability.RttEstimator;
import org.portals3j.transport.udp.internal.reliability.SendWindow;
import org.portals3j.transport.udp.internal.wire.AesCmacMac;
import org.portals3j.transport.udp.internal.wire.AesPmacMac;
import org.portals3j.transport.udp.internal.wire.AesGcmMac;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;
import org.portals3j.transport.udp.internal.wire.DatagramMac;
import org.portals3j.transport.udp.internal.wire.DatagramType;
import org.portals3j.transport.udp.internal.wire.GmacMac;
import org.portals3j.transport.udp.internal.wire.HmacSha256Mac;

/**
 * One rank's UDP endpoint: {@link Transport} on top, one protocol thread inside (receive, validate,
 * deliver in order, acknowledge, retransmit, heartbeats, liveness) and a sleeping heartbeat timer for when the
 * protocol thread is stuck. See the package documentation of {@code org.portals3j.transport.udp} for the protocol.
 */
public final class UdpEndpoint implements Transport {
    public static final int MAX_HEADER = 256;
    /** 2^40 bytes (1 TiB): far beyond any memory region, small enough that offsets never overflow. */
    public static final long MAX_PAYLOAD = 1L << 40;
    /** Published through the rendezvous. */
    public static final String KEY_ADDRESS = "udp.address";
    public static final String KEY_FINGERPRINT = "udp.keyFingerprint";
    public static final String KEY_INCARNATION = "udp.incarnation";

    /** Before blocking in the selector, the protocol thread polls this long (a reply is often this close). */
    static final long SPIN_NANOS = 50_000L;
    /** Timers (retransmission, heartbeat, liveness) are looked at this often while busy. */
    static final long TIMER_PERIOD_NANOS = 100_000L;
    /** A standalone acknowledgement after this many unacknowledged data datagrams, even mid-burst. */
    static final int ACK_EVERY = 16;
    /** Initial RTO before any sample: a job's network is local, RFC 6298's 1 s would stall the first loss. */
    static final long INITIAL_RTO_NANOS = 20_000_000L;
    static final int BYE_REPEATS = 3;
    /** The protocol thread sleeps at most this long (and less when a heartbeat is due sooner). */
    static final long MAX_SLEEP_NANOS = 1_000_000_000L;
    /** A sender waiting for room looks this often whether the receive path is unattended (see awaitRoom). */
    static final long UNATTENDED_CHECK_NANOS = 10_000_000L;

    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();

    private final EndpointConfig config;
    private final UdpOptions.Settings settings;
    private final int rank;
    private final int size;
    private final int jobTag;
    private final long incarnation;
    private final int datagramSize;
    private final int bodyCapacity;
    private final byte[] key;
    private final DatagramIo io;
    private final Peer[] peers;
    private final Counters counters = new Counters();
    private final AtomicLong datagramCounter;
    private final EndpointLifecycle lifecycle = new EndpointLifecycle();
    private volatile @Nullable MessageHandler handler;
    /** The protocol thread is (about to be) blocked in the selector: a sender starting a timer wakes it. */
    private volatile boolean sleeping;
    private @Nullable Thread thread;
    /** Sends heartbeats while the receive path is stuck (in a long handler call): see {@link #heartbeatLoop}. */
    private @Nullable Thread heartbeatThread;
    /**
     * Who runs the receive path: the protocol thread, or an application thread in {@link #poll}. Holding
     * it is what keeps handler calls serialised; the state below marked "protocol thread" is guarded by it.
     */
    private final ReentrantLock progressLock = new ReentrantLock();
    /** When the protocol thread leaves the receive path to polling application threads. */
    private final PollHandover handover;
    /** Protocol thread: when the timers last ran; whether standalone acknowledgements are still due. */
    private long lastTimers;
    private boolean acksPending;

    // ---- protocol thread (and close() once it stopped) ----
    /** Checks received datagrams (each peer has its own codec for what is sent to it). */
    private final DatagramCodec receiveCodec;
    private final ArrayDeque<PooledBuffer> pool = new ArrayDeque<>();
    private final MemorySegment headerScratch = MemorySegment.ofArray(new byte[MAX_HEADER]);
    private final long peerTimeoutNanos;
    private final long heartbeatNanos;
    /** The longest the receive path sleeps between two runs of its timers; a longer gap is its own stall. */
    private final long longestSleepNanos;
    private final long ackDelayNanos;

    private UdpEndpoint(EndpointConfig config, UdpOptions.Settings settings, DatagramIo io) {
        this.config = config;
        this.settings = settings;
        this.rank = config.rank();
        this.size = config.job().size();
        this.jobTag = jobTag(config.job().id());
        this.incarnation = RANDOM.nextLong();
        this.datagramCounter = new AtomicLong(RANDOM.nextLong());
        this.datagramSize = settings.datagramSize();
        this.bodyCapacity = datagramSize - DatagramHeader.LENGTH;
        this.key = config.job().key().bytes();
        this.io = io;
        this.peerTimeoutNanos = settings.peerTimeoutMillis() * 1_000_000L;
        this.heartbeatNanos = settings.heartbeatMillis() * 1_000_000L;
        this.longestSleepNanos = Math.min(heartbeatNanos, MAX_SLEEP_NANOS);
        this.ackDelayNanos = settings.ackDelayMicros() * 1_000L;
        this.receiveCodec = new DatagramCodec(newMac(settings, key));
        this.peers = new Peer[size];
        long rtoMin = settings.rtoMinMicros() * 1_000L;
        this.handover = new PollHandover(System.nanoTime(), rtoMin);
        long rtoMax = settings.rtoMaxMillis() * 1_000_000L;
        int receiveWindow = receiveWindow(settings.window(), io.receiveBufferBytes(), datagramSize, size);
        for (int r = 0; r < size; r++) {
            peers[r] = new Peer(r, settings.window(), receiveWindow, datagramSize, bodyCapacity, MAX_HEADER,
                    new DatagramCodec(newMac(settings, key)), new RttEstimator(rtoMin, rtoMax, Math.max(rtoMin, INITIAL_RTO_NANOS)),
                    settings.sendQueueMessages(), settings.sendQueueBytes());
        }
    }

    /**
     * How many datagrams each peer may have in flight towards this endpoint: the configured window, but no
     * more than the socket's receive buffer holds when every other rank sends at once. Beyond that the
     * kernel drops datagrams, and every drop costs a retransmission (measured: a 256-datagram window over a
     * 4 MB buffer lost ~1% of 64 KB datagrams and spent a third of a 1 MiB stream in timeouts).
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
            io = ChannelIo.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            if (port != 0 && String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("in use")) {
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
        UdpEndpoint endpoint = new UdpEndpoint(config, settings, io);
        try {
            InetSocketAddress local = io.localAddress();
            String address = local.getAddress().getHostAddress() + ":" + local.getPort();
            config.rendezvous().publish(config.rank(), KEY_ADDRESS, address);
            config.rendezvous().publish(config.rank(), KEY_FINGERPRINT, config.job().key().fingerprint());
            config.rendezvous().publish(config.rank(), KEY_INCARNATION, Long.toHexString(endpoint.incarnation));
        } catch (TransportException | RuntimeException e) {
            io.close();
            throw e;
        }
        return endpoint;
    }

    // ==== Transport ==============================================================================

    @Override
    public String provider() {
        return UdpTransportProvider.NAME;
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
        if (handler != null) {
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
        long now = System.nanoTime();
        for (Peer p : peers) {
            p.lastHeardNanos = now;
            p.lastSentNanos = now;
        }
        lastTimers = now;
        handler = messageHandler;
        if (!lifecycle.moveTo(EndpointLifecycle.State.RUNNING)) {
            throw new IllegalStateException("rank " + rank + ": transport is closed");
        }
        Thread t = Thread.ofPlatform().daemon().name("udp-rank-" + rank).unstarted(this::protocolLoop);
        thread = t;
        Thread beat = Thread.ofPlatform().daemon().name("udp-heartbeat-rank-" + rank).unstarted(this::heartbeatLoop);
        heartbeatThread = beat;
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
                p.incarnation = Long.parseUnsignedLong(config.rendezvous().lookup(p.rank, KEY_INCARNATION, timeout), 16);
            } catch (NumberFormatException e) {
                throw new TransportException("rank " + p.rank + " published a bad udp.incarnation");
            }
        }
    }

    @Override
    public void send(int peer, MemorySegment header, int headerLength,
                     MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        if (peer < 0 || peer >= size) {
            throw new IllegalArgumentException("peer " + peer + " is not a rank of this job (size " + size + ")");
        }
        if (headerLength < 0 || headerLength > MAX_HEADER || headerLength > header.byteSize()) {
            throw new IllegalArgumentException("header length " + headerLength + " (max " + MAX_HEADER + ")");
        }
        if (payloadOffset < 0 || payloadLength < 0 || payloadOffset > payload.byteSize() - payloadLength) {
            throw new IllegalArgumentException("payload region [" + payloadOffset + ", +" + payloadLength
                    + ") is outside a segment of " + payload.byteSize() + " bytes");
        }
        if (payloadLength > MAX_PAYLOAD) {
            throw new IllegalArgumentException("payload of " + payloadLength + " bytes; the udp transport carries at most "
                    + MAX_PAYLOAD);
        }
        MessageHandler h = handler;
        if (lifecycle.isClosed()) {
            throw new IllegalStateException("rank " + rank + ": transport is "
                    + (lifecycle.state() == EndpointLifecycle.State.FAILED
                            ? "failed (its ERROR log line says why)" : "closed"));
        }
        if (h == null) {
            throw new IllegalStateException("rank " + rank + ": send() before start()");
        }
        Peer p = peers[peer];
        // the receive path's own sends never wait: the acknowledgements that make room only it can process
        boolean receivePath = progressLock.isHeldByCurrentThread() || Thread.currentThread() == thread;
        boolean accepted = false;
        boolean wasIdle = false;
        boolean interrupted = false;
        p.lock.lock();
        try {
            if (!receivePath && !p.bound.hasRoom(payloadLength) && p.isAlive() && !lifecycle.isClosed()) {
                interrupted = awaitRoom(h, p, payloadLength);
            }
            if (receivePath && p.isAlive() && p.bound.beyondReceivePathLimit()) {
                p.state(Peer.State.OVERRUN); // this send fails, and so does every later one; the receive path fails the peer
                p.bound.wakeAll();
            }
            if (p.isAlive() && !lifecycle.isClosed()) {
                wasIdle = p.send.inFlight() == 0;
                OutgoingMessage m = p.send.allocate();
                MemorySegment.copy(header, 0, m.header, 0, headerLength);
                m.headerLength = headerLength;
                m.payload = payload;
                m.payloadOffset = payloadOffset;
                m.payloadLength = payloadLength;
                m.token = token;
                // memory already gone: the message still goes (the receiver must see it fail), without payload
                m.failed = payloadLength > 0 && !payload.scope().isAlive();
                p.send.enqueue(m);
                p.bound.added(payloadLength);
                counters.add(Counters.MESSAGES_SENT);
                pump(p, System.nanoTime());
                accepted = true;
            }
        } finally {
            p.lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (!accepted) {
            complete(h, token, false);
        } else if (wasIdle && sleeping) {
            io.wakeup(); // the protocol thread's sleep does not cover the retransmission timer just started
        }
    }

    /**
     * An application thread waits, holding {@code p.lock} (released while it waits), until the queue to {@code p}
     * has room for {@code length} bytes, {@code p} is dead or this endpoint closes. It is woken when acknowledgements
     * complete messages; now and then it also looks whether the receive path is unattended (its thread is in a
     * callback outside it, as Isotach's onPollersGone, which may wait for this very thread's send to end) and runs it
     * itself. Returns whether the thread was interrupted meanwhile.
     */
    private boolean awaitRoom(MessageHandler h, Peer p, long length) {
        counters.add(Counters.SENDS_WAITED);
        if (handover.pollingRecently(System.nanoTime())) {
            pollingStopped(); // this thread may have been the poller: the protocol thread takes over at once
        }
        boolean interrupted = false;
        while (!p.bound.hasRoom(length) && p.isAlive() && !lifecycle.isClosed()) {
            interrupted |= p.bound.await(UNATTENDED_CHECK_NANOS);
            if (!p.bound.hasRoom(length) && lifecycle.isRunning() && progressLock.tryLock()) {
                p.lock.unlock(); // the receive path takes peers' locks itself
                try {
                    progressOnce(h, 64);
                } catch (Throwable t) {
                    failEndpoint(h, t);
                    throw t;
                } finally {
                    progressLock.unlock();
                    p.lock.lock();
                }
            }
        }
        return interrupted;
    }

    @Override
    public boolean isPeerAlive(int peer) {
        if (peer < 0 || peer >= size) {
            return false;
        }
        return !lifecycle.isClosed() && !peers[peer].isDead();
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

    @Override
    public void close() {
        if (!lifecycle.moveTo(EndpointLifecycle.State.CLOSED)) {
            return;
        }
        io.wakeup();
        Thread beat = heartbeatThread;
        if (beat != null) {
            LockSupport.unpark(beat);
        }
        join(thread);
        join(beat);
        MessageHandler h = handler;
        progressLock.lock(); // a poller still inside the receive path finishes first
        try {
            closeUnderProgressLock(h);
        } finally {
            progressLock.unlock();
        }
        io.close();
    }

    /** Every pending and queued send to {@code p} completes false; a message half received from it fails. */
    private void abandonAll(MessageHandler h, Peer p) {
        CompletionList failed = new CompletionList(p.send, p.bound, true);
        p.lock.lock();
        try {
            p.send.abandon(failed);
            p.bound.wakeAll();
        } finally {
            p.lock.unlock();
        }
        failed.dispatch(h, this);
        finishPartial(h, p);
    }

    private static void join(@Nullable Thread t) {
        if (t == null || t == Thread.currentThread()) {
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

    private void closeUnderProgressLock(@Nullable MessageHandler h) {
        if (h != null) {
            long now = System.nanoTime();
            for (int i = 0; i < BYE_REPEATS; i++) {
                for (Peer p : peers) {
                    if (p.rank != rank && !p.isDead()) {
                        sendControl(p, DatagramType.BYE, now); // best effort: peers learn at once
                    }
                }
            }
            for (Peer p : peers) {
                abandonAll(h, p);
            }
        }
    }

    // ==== sending ================================================================================

    /** Sends new fragments while the windows allow. Caller holds {@code p.lock}. */
    private void pump(Peer p, long now) {
        while (p.send.canTransmitNew()) {
            transmit(p, p.send.cutNext(), now);
        }
    }

    /** Builds and sends the datagram of {@code slot}, from the message's memory. Caller holds {@code p.lock}. */
    private void transmit(Peer p, SendWindow.Slot slot, long now) {
        OutgoingMessage m = slot.message;
        if (m == null) {
            return;
        }
        boolean first = (slot.flags & DatagramHeader.FLAG_FIRST) != 0;
        int headerPart = first ? m.headerLength : 0;
        int dataPart = slot.fragmentLength;
        ByteBuffer b = p.sendBuffer;
        MemorySegment bs = p.sendSegment;
        if (DatagramHeader.LENGTH + headerPart + dataPart > Peer.BULK_ABOVE && p.bulkSendBuffer != null
                && p.bulkSendSegment != null) {
            b = p.bulkSendBuffer;
            bs = p.bulkSendSegment;
        }
        if (first) {
            MemorySegment.copy(m.header, 0, bs, DatagramHeader.LENGTH, headerPart);
        }
        if (!m.failed && dataPart > 0) {
            try {
                MemorySegment.copy(m.payload, m.payloadOffset + slot.fragmentOffset, bs,
                        DatagramHeader.LENGTH + headerPart, dataPart);
            } catch (IllegalStateException | WrongThreadException | IndexOutOfBoundsException e) {
                m.failed = true; // the payload's memory went away (its arena was closed)
            }
        }
        int flags = slot.flags;
        if (m.failed) {
            flags |= DatagramHeader.FLAG_ABORT;
            dataPart = 0;
        }
        int bodyLength = headerPart + dataPart;
        DatagramHeader.write(b, DatagramType.DATA, flags, jobTag, rank, p.rank, 0, incarnation,
                p.incarnation, datagramCounter.getAndIncrement(), slot.seq, 0, 0, 0, m.payloadLength,
                slot.fragmentOffset, headerPart, bodyLength);
        long cum = p.putAck(b);
        int length = DatagramHeader.LENGTH + bodyLength;
        p.sendCodec.seal(b, length);
        slot.sentNanos = now;
        slot.transmissions++;
        p.ackCarried = cum;
        p.lastSentNanos = now;
        try {
            io.send(b, length, p.address());
            counters.add(Counters.DATAGRAMS_SENT);
        } catch (IOException e) {
            counters.add(Counters.SEND_ERRORS); // as good as lost: the retransmission timer covers it
        }
    }

    /**
     * An ACK, HEARTBEAT or BYE to {@code p}, with the acknowledgement state last published. Any thread: it is built
     * in {@code p}'s send buffer under {@code p}'s lock, like data, so that datagrams to one peer take their counters
     * in the order they reach the socket (see "Replay protection" in the package documentation).
     */
    private void sendControl(Peer p, int type, long now) {
        p.lock.lock();
        try {
            sendControlLocked(p, type, now);
        } finally {
            p.lock.unlock();
        }
    }

    /** {@link #sendControl}; the caller holds {@code p.lock}. */
    private void sendControlLocked(Peer p, int type, long now) {
        ByteBuffer b = p.sendBuffer;
        DatagramHeader.write(b, type, 0, jobTag, rank, p.rank, 0, incarnation, p.incarnation,
                datagramCounter.getAndIncrement(), 0, 0, 0, 0, 0, 0, 0, 0);
        long cum = p.putAck(b);
        DatagramHeader.duplicate(b, DatagramHeader.duplicateDistance(cum, p.duplicateToReport.getAndSet(-1)));
        p.sendCodec.seal(b, DatagramHeader.LENGTH);
        p.ackCarried = cum;
        p.lastSentNanos = now;
        try {
            io.send(b, DatagramHeader.LENGTH, p.address());
            counters.add(Counters.DATAGRAMS_SENT);
            counters.add(switch (type) {
                case DatagramType.HEARTBEAT -> Counters.HEARTBEATS_SENT;
                case DatagramType.DEAD_NOTICE -> Counters.DEAD_NOTICES_SENT;
                default -> Counters.ACKS_SENT;
            });
        } catch (IOException e) {
            counters.add(Counters.SEND_ERRORS);
        }
    }

    /** Receive path: an ACK or HEARTBEAT, which carries every acknowledgement due to {@code p}. */
    private void sendAcknowledgement(Peer p, int type, long now) {
        sendControl(p, type, now);
        p.unackedSince = -1;
        p.unackedCount = 0;
        p.ackNow = false;
    }

    /**
     * The heartbeat timer: sleeps half a heartbeat period at a time and, for each live peer nothing was sent to
     * for one and a half periods, sends a heartbeat with the acknowledgement state last published. The receive
     * path sends heartbeats on time by itself; this thread only ever finds one late while the receive path is
     * stuck (a handler call that waits for the upper layer's lock, for instance), so that peers do not declare a
     * live rank dead. It never touches the receive path's state, and wakes twice a heartbeat period.
     */
    private void heartbeatLoop() {
        try {
            beat();
        } catch (Throwable t) {
            MessageHandler h = handler;
            if (h != null) {
                failEndpoint(h, t);
            }
        }
    }

    private void beat() {
        long period = Math.max(1, heartbeatNanos / 2);
        long late = heartbeatNanos + heartbeatNanos / 2;
        while (lifecycle.isRunning()) {
            LockSupport.parkNanos(this, period);
            long now = System.nanoTime();
            for (Peer p : peers) {
                if (!lifecycle.isRunning()) {
                    return;
                }
                if (p.rank == rank || p.isDead() || now - p.lastSentNanos < late) {
                    continue;
                }
                p.lock.lock();
                try {
                    if (!p.isDead() && now - p.lastSentNanos >= late) { // a sender may have gone first
                        sendControlLocked(p, DatagramType.HEARTBEAT, now);
                        counters.add(Counters.HEARTBEATS_WHILE_STUCK);
                    }
                } finally {
                    p.lock.unlock();
                }
            }
        }
    }

    void complete(MessageHandler h, long token, boolean delivered) {
        if (token == NO_NOTIFY) {
            return;
        }
        try {
            h.onSendComplete(token, delivered);
        } catch (RuntimeException e) {
            handlerFault("onSendComplete", e);
        }
    }

    private void handlerFault(String callback, RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": message handler threw from " + callback
                + "; the message was handled as far as it got", e);
    }

    // ==== the protocol thread ====================================================================

    private PooledBuffer takeBuffer() {
        PooledBuffer b = pool.pollFirst();
        return b != null ? b : new PooledBuffer(datagramSize);
    }

    private void giveBuffer(PooledBuffer b) {
        pool.addFirst(b); // LIFO: the buffer just used is warm in the cache
    }

    private void protocolLoop() {
        MessageHandler h = handler;
        if (h == null) {
            return;
        }
        try {
            runProtocol(h);
        } catch (Throwable t) { // an Error (OutOfMemoryError, ...) or a bug: this endpoint cannot go on
            failEndpoint(h, t);
        }
    }

    private void runProtocol(MessageHandler h) {
        IdleMode mode = config.idle();
        long lastProgress = System.nanoTime();
        while (lifecycle.isRunning()) {
            long keepAway = handover.keepAwayNanos(System.nanoTime());
            if (keepAway > 0) {
                LockSupport.parkNanos(keepAway); // an application thread is receiving
                lastProgress = System.nanoTime();
                continue;
            }
            if (handover.pollingEnded()) {
                // The polling thread has gone: what it left for itself to do must not wait for its return.
                try {
                    h.onPollersGone();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": message handler threw from onPollersGone", e);
                }
            }
            boolean progress;
            if (!progressLock.tryLock()) {
                // A poller holds the receive path, maybe for long (acknowledgements it took opened the
                // window, and it is sending the datagrams that were waiting). Never queue behind it (its
                // unlock would pay for waking this thread) and never spin beside it (on 2 cores that
                // takes the core it needs): look again a little later.
                LockSupport.parkNanos(PollHandover.MIN_GRACE_NANOS / 10);
                continue;
            }
            try {
                progress = progressOnce(h, 64);
            } finally {
                progressLock.unlock();
            }
            long now = System.nanoTime();
            if (progress) {
                lastProgress = now;
                continue;
            }
            if (mode == IdleMode.SPIN) {
                Thread.onSpinWait();
            } else if (mode == IdleMode.YIELD) {
                Thread.yield();
            } else if (acksPending || now - lastProgress < SPIN_NANOS) {
                Thread.onSpinWait();
            } else {
                sleeping = true;
                try {
                    long deadline = nextDeadline(now);
                    long millis = Math.max(1, (deadline - now + 999_999) / 1_000_000);
                    if (lifecycle.isRunning()) {
                        io.await(Math.min(millis, 1_000));
                    }
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "rank " + rank + ": select failed", e);
                } finally {
                    sleeping = false;
                }
                lastProgress = System.nanoTime();
                // woken: spin again briefly, data tends to come in bursts
            }
        }
    }

    /** The protocol thread takes the receive path back now rather than after its grace ({@link PollHandover}). */
    @Override
    public void pollingStopped() {
        handover.stopped(System.nanoTime());
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Lets the calling application thread run the receive path (see {@link Transport#poll}); does nothing
     * when the protocol thread or another poller is running it, or when called from inside a handler.
     */
    @Override
    public boolean poll() {
        MessageHandler h = handler;
        if (h == null || !lifecycle.isRunning() || progressLock.isHeldByCurrentThread()) {
            return false;
        }
        handover.polled(System.nanoTime());
        if (!progressLock.tryLock()) {
            return false;
        }
        try {
            // one datagram per call: the caller looks for its event after each, before paying for
            // another receive system call
            return lifecycle.isRunning() && progressOnce(h, 1);
        } catch (Throwable t) {
            failEndpoint(h, t);
            throw t; // the caller's thread: it sees what happened
        } finally {
            progressLock.unlock();
        }
    }

    /**
     * Something escaped the receive path or the heartbeat timer (an Error such as OutOfMemoryError, or a bug): its
     * state may be half updated, so the endpoint stops, loudly. One ERROR line with the cause; a BYE to every peer;
     * every peer reported failed ({@code onPeerFailure}) with every pending and queued send to it completed false,
     * and waiting senders released; the endpoint counts as closed ({@code isPeerAlive(self)} false, later sends
     * throw). {@link #close()} still releases the socket.
     */
    private void failEndpoint(MessageHandler h, Throwable cause) {
        if (!lifecycle.moveTo(EndpointLifecycle.State.FAILING)) {
            if (lifecycle.state() == EndpointLifecycle.State.CLOSED) {
                LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": the udp endpoint failed while closing ("
                        + cause + ")", cause);
            }
            return;
        }
        LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": the udp endpoint failed (" + cause + "); telling the"
                + " peers (BYE), failing every peer and every send", cause);
        Thread beat = heartbeatThread;
        if (beat != null) {
            LockSupport.unpark(beat);
        }
        progressLock.lock(); // a poller finishes its round first (or this thread holds it already)
        try {
            long now = System.nanoTime();
            for (Peer p : peers) {
                try {
                    if (p.rank != rank && !p.isDead()) {
                        sendControl(p, DatagramType.BYE, now);
                    }
                } catch (Throwable again) {
                    LOG.log(System.Logger.Level.DEBUG, "rank " + rank + ": BYE to rank " + p.rank + " failed", again);
                }
            }
            for (Peer p : peers) {
                try {
                    if (p.rank == rank) {
                        abandonAll(h, p); // this endpoint itself: its sends fail, it reports no failure of itself
                    } else {
                        peerFailed(h, p);
                    }
                } catch (Throwable again) {
                    LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": failing rank " + p.rank + " failed", again);
                }
            }
        } finally {
            lifecycle.moveTo(EndpointLifecycle.State.FAILED); // false if close() came meanwhile: it is CLOSED
            progressLock.unlock();
        }
    }

    /**
     * One round of the receive path: up to {@code maxDatagrams} datagrams, the acknowledgements that are due,
     * and the timers when their period passed. Caller holds {@link #progressLock}.
     *
     * @return whether a datagram arrived
     */
    private boolean progressOnce(MessageHandler h, int maxDatagrams) {
        boolean progress = false;
        boolean drained = false;
        for (int i = 0; i < maxDatagrams && lifecycle.isRunning(); i++) {
            PooledBuffer buf = takeBuffer();
            boolean got;
            try {
                got = io.receive(buf.buffer);
            } catch (IOException e) {
                got = false;
                if (lifecycle.isRunning()) {
                    counters.add(Counters.DROP_MALFORMED);
                    LOG.log(System.Logger.Level.DEBUG, "rank " + rank + ": receive failed", e);
                }
            }
            if (!got) {
                giveBuffer(buf);
                drained = true;
                break;
            }
            progress = true;
            counters.add(Counters.DATAGRAMS_RECEIVED);
            boolean kept;
            try {
                kept = handle(h, buf, System.nanoTime());
            } catch (RuntimeException e) {
                // hostile or broken input must never stop the endpoint
                counters.add(Counters.DROP_MALFORMED);
                kept = false;
            }
            if (!kept) {
                giveBuffer(buf);
            }
        }
        long now = System.nanoTime();
        acksPending = flushAcks(now, drained);
        if (now - lastTimers >= TIMER_PERIOD_NANOS) {
            timers(h, now);
            lastTimers = now;
        }
        return progress;
    }

    /** Sends the standalone acknowledgements that are due; returns whether some are still pending. */
    private boolean flushAcks(long now, boolean drained) {
        boolean pending = false;
        for (Peer p : peers) {
            if (p.unackedSince < 0 || p.isDead()) {
                continue;
            }
            if (!p.ackNow && p.ackCarried == p.ackCum && p.receive.heldCount() == 0) {
                p.unackedSince = -1; // data we sent meanwhile carried it
                p.unackedCount = 0;
                continue;
            }
            if (p.ackNow || p.unackedCount >= ACK_EVERY || (drained && now - p.unackedSince >= ackDelayNanos)) {
                sendAcknowledgement(p, DatagramType.ACK, now);
            } else {
                pending = true;
            }
        }
        return pending;
    }

    /** Retransmission timers, heartbeats, liveness. */
    private void timers(MessageHandler h, long now) {
        excuseOwnStall(now);
        for (Peer p : peers) {
            if (p.isDead()) {
                continue;
            }
            if (p.state() == Peer.State.OVERRUN) {
                LOG.log(System.Logger.Level.WARNING, "rank " + rank + ": rank " + p.rank + " takes none of its responses:"
                        + " the messages this rank's receive path sent it went unacknowledged beyond "
                        + SendBound.RECEIVE_PATH_FACTOR + " x " + UdpOptions.SEND_QUEUE_MESSAGES + "="
                        + settings.sendQueueMessages() + "; declaring it dead");
                peerFailed(h, p);
                continue;
            }
            if (p.rank != rank) {
                if (now - p.lastHeardNanos > peerTimeoutNanos) {
                    LOG.log(System.Logger.Level.WARNING, "rank " + rank + ": nothing heard from rank " + p.rank
                            + " for " + settings.peerTimeoutMillis() + " ms; declaring it dead");
                    peerFailed(h, p);
                    continue;
                }
                if (now - p.lastSentNanos >= heartbeatNanos) {
                    sendAcknowledgement(p, DatagramType.HEARTBEAT, now);
                }
            }
            p.lock.lock();
            try {
                if (p.send.inFlight() > 0) {
                    retransmitLost(p, now); // RACK's reordering timer
                    long rto = p.rtt.rto();
                    SendWindow.Slot oldest = p.send.slot(p.send.una());
                    if (now - oldest.sentNanos >= rto) {
                        // RFC 6298 5.4-5.6: retransmit, back off, and collapse the congestion window
                        p.rtt.backoff();
                        p.send.onTimeout(now, rto);
                        counters.add(Counters.TIMEOUTS);
                    }
                    int budget = Math.max(p.send.cwnd(), SendWindow.MIN_CWND);
                    long s = p.send.una();
                    while (budget-- > 0 && (s = p.send.nextExpired(s, now, rto)) >= 0) {
                        transmit(p, p.send.slot(s), now);
                        counters.add(Counters.RETRANSMITS);
                        s++;
                    }
                }
                pump(p, now);
            } finally {
                p.lock.unlock();
            }
        }
    }

    /**
     * Receive path, before liveness is judged: time during which it did not run (this process was stopped or
     * paused, its thread descheduled, or stuck in a handler call) is not held against the peers, whose datagrams
     * may be waiting unread in the socket (or were lost when it overflowed). It runs its timers at least every
     * {@link #longestSleepNanos}; the gap beyond that moves every live peer's silence clock forward.
     */
    private void excuseOwnStall(long now) {
        long stall = now - lastTimers - longestSleepNanos;
        if (stall <= 0) {
            return;
        }
        counters.add(Counters.STALLS);
        if (stall >= peerTimeoutNanos) {
            LOG.log(System.Logger.Level.WARNING, "rank " + rank + ": this rank did not run for " + stall / 1_000_000
                    + " ms (stopped, paused, or a handler call that long), longer than " + UdpOptions.PEER_TIMEOUT_MILLIS
                    + "=" + settings.peerTimeoutMillis() + "; peers that declared it dead meanwhile will say so");
        }
        for (Peer p : peers) {
            if (!p.isDead()) {
                p.lastHeardNanos = Math.min(now, p.lastHeardNanos + stall);
            }
        }
    }

    /** The earliest timer of any peer (for how long the protocol thread may block). */
    private long nextDeadline(long now) {
        long deadline = now + 1_000_000_000L;
        for (Peer p : peers) {
            if (p.isDead()) {
                continue;
            }
            if (p.rank != rank) {
                deadline = Math.min(deadline, p.lastHeardNanos + peerTimeoutNanos);
                deadline = Math.min(deadline, p.lastSentNanos + heartbeatNanos);
            }
            p.lock.lock();
            try {
                deadline = Math.min(deadline, Math.min(p.send.nextDeadline(p.rtt.rto()), p.send.lossDeadline(p.rtt)));
            } finally {
                p.lock.unlock();
            }
        }
        return deadline;
    }

    /**
     * Validates one datagram (length/magic/version, CRC, MAC, then every field) and acts on it.
     *
     * @return whether the buffer was kept (held for in-order delivery)
     */
    private boolean handle(MessageHandler h, PooledBuffer pb, long now) {
        ByteBuffer b = pb.buffer;
        int length = b.limit();
        switch (receiveCodec.check(b, length)) {
            case SHORT -> {
                counters.add(Counters.DROP_SHORT);
                return false;
            }
            case MAGIC -> {
                counters.add(Counters.DROP_MAGIC);
                return false;
            }
            case VERSION -> {
                counters.add(Counters.DROP_VERSION);
                return false;
            }
            case CRC -> {
                counters.add(Counters.DROP_CRC);
                return false;
            }
            case MAC -> {
                counters.add(Counters.DROP_MAC);
                return false;
            }
            case OK -> {
                // authenticated: the fields can be looked at
            }
        }
        if (DatagramHeader.jobTag(b) != jobTag) {
            counters.add(Counters.DROP_JOB);
            return false;
        }
        int source = DatagramHeader.source(b);
        if (source < 0 || source >= size || DatagramHeader.destination(b) != rank) {
            counters.add(Counters.DROP_MALFORMED);
            return false;
        }
        Peer p = peers[source];
        if (DatagramHeader.sourceIncarnation(b) != p.incarnation || DatagramHeader.destinationIncarnation(b) != incarnation) {
            counters.add(Counters.DROP_INCARNATION);
            return false;
        }
        int type = DatagramHeader.type(b);
        int bodyLength = length - DatagramHeader.LENGTH;
        if (!wellFormed(b, type, bodyLength)) {
            counters.add(Counters.DROP_MALFORMED);
            return false;
        }
        if (!p.replay.accept(DatagramHeader.counter(b))) {
            // a replay, or older than the window: only provably new datagrams are acted on (liveness included)
            counters.add(Counters.DROP_REPLAY);
            return false;
        }
        if (p.isDead()) {
            counters.add(Counters.DROP_DEAD_PEER);
            if (type != DatagramType.BYE && type != DatagramType.DEAD_NOTICE && p.rank != rank) {
                noticeDead(p, now);
            }
            return false;
        }
        long cumAck = DatagramHeader.cumAck(b);
        if (!acknowledged(h, p, cumAck, DatagramHeader.sack(b), DatagramHeader.failed(b), DatagramHeader.window(b),
                DatagramHeader.duplicateSeq(cumAck, DatagramHeader.duplicate(b)), now)) {
            counters.add(Counters.DROP_MALFORMED);
            return false;
        }
        p.lastHeardNanos = now;
        return switch (type) {
            case DatagramType.DATA -> receiveData(h, p, pb, now);
            case DatagramType.BYE -> {
                peerFailed(h, p);
                yield false;
            }
            case DatagramType.DEAD_NOTICE -> {
                counters.add(Counters.DEAD_NOTICES_RECEIVED);
                LOG.log(System.Logger.Level.WARNING, "rank " + rank + ": rank " + p.rank + " declared this rank dead:"
                        + " it heard nothing from it for longer than its " + UdpOptions.PEER_TIMEOUT_MILLIS + " ("
                        + settings.peerTimeoutMillis() + " ms here), so this process was stopped, paused or cut off"
                        + " for that long; rank " + p.rank + " drops this rank's datagrams, failing it");
                peerFailed(h, p);
                yield false;
            }
            default -> false; // ACK, HEARTBEAT: the acknowledgement and the sign of life were all
        };
    }

    /**
     * Receive path: {@code p}, declared dead here, sent a provably new datagram, so it runs again (it was stopped
     * or cut off for longer than the timeout); tell it, at most once a heartbeat period, so that it fails this rank
     * at once rather than after its own timeout.
     */
    private void noticeDead(Peer p, long now) {
        boolean told = p.state() == Peer.State.TOLD_DEAD;
        if (told && now - p.lastNoticeNanos < heartbeatNanos) {
            return;
        }
        if (!told) {
            LOG.log(System.Logger.Level.INFO, "rank " + rank + ": rank " + p.rank + ", declared dead, sends again;"
                    + " telling it so");
            p.lock.lock();
            try {
                p.state(Peer.State.TOLD_DEAD);
            } finally {
                p.lock.unlock();
            }
        }
        p.lastNoticeNanos = now;
        sendControl(p, DatagramType.DEAD_NOTICE, now);
    }

    /** Field checks that need no connection state. */
    private static boolean wellFormed(ByteBuffer b, int type, int bodyLength) {
        int flags = DatagramHeader.flags(b);
        if (!DatagramType.isKnown(type) || (flags & ~DatagramHeader.KNOWN_FLAGS) != 0
                || DatagramHeader.bodyLength(b) != bodyLength || DatagramHeader.window(b) < 0
                || DatagramHeader.cumAck(b) < 0) {
            return false;
        }
        if (type != DatagramType.DATA) {
            return flags == 0 && bodyLength == 0;
        }
        long seq = DatagramHeader.seq(b);
        long messageLength = DatagramHeader.messageLength(b);
        long offset = DatagramHeader.fragmentOffset(b);
        int headerLength = DatagramHeader.messageHeaderLength(b);
        boolean first = (flags & DatagramHeader.FLAG_FIRST) != 0;
        boolean last = (flags & DatagramHeader.FLAG_LAST) != 0;
        boolean abort = (flags & DatagramHeader.FLAG_ABORT) != 0;
        if (seq < 0 || messageLength < 0 || messageLength > MAX_PAYLOAD || offset < 0 || offset > messageLength) {
            return false;
        }
        if (first ? (headerLength > MAX_HEADER || headerLength > bodyLength || offset != 0) : headerLength != 0) {
            return false;
        }
        long data = bodyLength - headerLength;
        if (abort) {
            return data == 0;
        }
        if (data > messageLength - offset) {
            return false;
        }
        return last == (offset + data == messageLength) && (last || data > 0);
    }

    /**
     * Applies the acknowledgement fields ({@code duplicate}: a sequence number the peer received again, or -1)
     * and retransmits what they show lost; false if they are impossible (acknowledging unsent data).
     */
    private boolean acknowledged(MessageHandler h, Peer p, long cum, long sack, long failed, long window,
                                 long duplicate, long now) {
        p.lock.lock();
        try {
            if (!p.send.plausible(cum, window, duplicate)) {
                return false;
            }
            long spurious = p.send.spuriousRetransmissions();
            long undone = p.send.undoneCuts();
            p.send.onAck(cum, sack, failed, window, duplicate, now, p.rtt, p.completions);
            counters.add(Counters.SPURIOUS_RETRANSMITS, p.send.spuriousRetransmissions() - spurious);
            counters.add(Counters.CWND_UNDOS, p.send.undoneCuts() - undone);
            retransmitLost(p, now);
            pump(p, now);
        } finally {
            p.lock.unlock();
        }
        p.completions.dispatch(h, this);
        return true;
    }

    /** Retransmits every fragment RACK finds lost now. Caller holds {@code p.lock}. */
    private void retransmitLost(Peer p, long now) {
        long s = p.send.una();
        while ((s = p.send.nextLost(s, now, p.rtt)) >= 0) {
            transmit(p, p.send.slot(s), now);
            counters.add(Counters.RETRANSMITS);
            counters.add(Counters.FAST_RETRANSMITS);
            s++;
        }
    }

    private boolean receiveData(MessageHandler h, Peer p, PooledBuffer pb, long now) {
        long seq = DatagramHeader.seq(pb.buffer);
        if (p.unackedSince < 0) {
            p.unackedSince = now;
        }
        p.unackedCount++;
        boolean kept;
        switch (p.receive.offer(seq, true)) {
            case DUPLICATE -> {
                counters.add(Counters.DROP_DUPLICATE);
                if (p.duplicateToReport.get() >= 0) {
                    sendControl(p, DatagramType.ACK, now); // each duplicate is reported once: the last one goes now
                    p.unackedSince = now;
                }
                p.duplicateToReport.set(seq); // the sender learns that its retransmission was not needed
                p.ackNow = true;
                return false;
            }
            case OUT_OF_WINDOW -> {
                counters.add(Counters.DROP_WINDOW);
                p.ackNow = true;
                return false;
            }
            case DIRECT -> {
                p.receive.consumedDirect();
                publishAck(p); // before delivery: a reply sent from the handler carries this acknowledgement
                deliver(h, p, pb);
                kept = false;
            }
            default -> {
                p.receive.hold(seq, pb);
                publishAck(p);
                kept = true;
            }
        }
        PooledBuffer next;
        while ((next = p.receive.takeDeliverable()) != null) {
            deliver(h, p, next);
            if (next != pb) {
                giveBuffer(next);
            } else {
                kept = false;
            }
        }
        publishAck(p);
        if (p.receive.heldCount() > 0) {
            p.ackNow = true; // a gap: tell the sender at once so it can retransmit fast
        }
        return kept;
    }

    /** Makes the receive window's acknowledgement state visible to threads that piggyback it. */
    private static void publishAck(Peer p) {
        long cum = p.receive.cumAck();
        long failed = 0;
        for (long f : p.failedSeqs) {
            long below = cum - 1 - f;
            if (f >= 0 && below >= 0 && below < Long.SIZE) {
                failed |= 1L << below;
            }
        }
        p.publishAck(cum, p.receive.sack(), failed, p.receive.window());
    }

    /** Processes one in-order fragment: header phase, direct deposit, completion. */
    private void deliver(MessageHandler h, Peer p, PooledBuffer pb) {
        ByteBuffer b = pb.buffer;
        int flags = DatagramHeader.flags(b);
        long messageLength = DatagramHeader.messageLength(b);
        long offset = DatagramHeader.fragmentOffset(b);
        int headerLength = DatagramHeader.messageHeaderLength(b);
        int data = b.limit() - DatagramHeader.LENGTH - headerLength;
        Deposit deposit = p.deposit;
        if ((flags & DatagramHeader.FLAG_FIRST) != 0) {
            if (p.inMessage) {
                // the peer started a message before ending the last: a broken sender; fail the old one
                counters.add(Counters.DROP_MALFORMED);
                deposit.fail();
                finish(h, p);
            }
            MemorySegment.copy(pb.segment, DatagramHeader.LENGTH, headerScratch, 0, headerLength);
            deposit.reset();
            p.inMessage = true;
            p.messageLength = messageLength;
            p.messageNext = 0;
            p.messageFailed = false;
            try {
                h.onHeader(p.rank, headerScratch, headerLength, messageLength, deposit);
            } catch (RuntimeException e) {
                handlerFault("onHeader", e);
                deposit.discard();
            }
        } else if (!p.inMessage || messageLength != p.messageLength || (!p.messageFailed && offset != p.messageNext)) {
            counters.add(Counters.DROP_MALFORMED);
            if (p.inMessage) {
                deposit.fail();
                finish(h, p);
            }
            return;
        }
        if ((flags & DatagramHeader.FLAG_ABORT) != 0) {
            p.messageFailed = true;
            deposit.fail();
        } else if (data > 0 && deposit.accepted() && !deposit.failed() && offset < deposit.length()) {
            long n = Math.min(data, deposit.length() - offset);
            try {
                MemorySegment.copy(pb.segment, DatagramHeader.LENGTH + headerLength, deposit.segment(),
                        deposit.offset() + offset, n);
                deposit.addDeposited(n);
            } catch (IllegalStateException | WrongThreadException | IndexOutOfBoundsException | UnsupportedOperationException e) {
                deposit.fail(); // the destination memory went away or is read-only
            }
        }
        p.messageNext = offset + data;
        if ((flags & DatagramHeader.FLAG_LAST) != 0) {
            if (deposit.failed()) {
                // tell the sender, in every acknowledgement that covers this fragment, that its send failed
                p.failedSeqs[p.failedNext] = DatagramHeader.seq(b);
                p.failedNext = (p.failedNext + 1) % p.failedSeqs.length;
                publishAck(p);
            }
            finish(h, p);
        }
    }

    private void finish(MessageHandler h, Peer p) {
        p.inMessage = false;
        counters.add(Counters.MESSAGES_RECEIVED);
        try {
            h.onDeposited(p.rank, p.deposit);
        } catch (RuntimeException e) {
            handlerFault("onDeposited", e);
        }
    }

    /** A message from {@code p} left half-received: it ends now, failed (exactly one onDeposited). */
    private void finishPartial(MessageHandler h, Peer p) {
        if (p.inMessage) {
            p.deposit.fail();
            finish(h, p);
        }
    }

    /** {@code p} is dead: fail what is pending to and from it, and tell the upper layer once. */
    private void peerFailed(MessageHandler h, Peer p) {
        if (p.isDead()) {
            return;
        }
        CompletionList failed = new CompletionList(p.send, p.bound, true);
        p.lock.lock();
        try {
            p.state(Peer.State.DEAD);
            p.send.abandon(failed);
            p.bound.wakeAll();
        } finally {
            p.lock.unlock();
        }
        counters.add(Counters.PEERS_FAILED);
        finishPartial(h, p);
        p.receive.releaseAll(this::giveBuffer);
        p.unackedSince = -1;
        if (!lifecycle.isClosed()) {
            try {
                h.onPeerFailure(p.rank);
            } catch (RuntimeException e) {
                handlerFault("onPeerFailure", e);
            }
        }
        failed.dispatch(h, this);
    }

    /** For diagnostics and tests: the incarnation id this endpoint puts in its datagrams. */
    public String incarnationId() {
        return HexFormat.of().toHexDigits(incarnation);
    }

    @Override
    public String toString() {
        return "udp endpoint of rank " + rank + " at " + io.localAddress() + " (" + settings.mac() + ")";
    }

    /** Unused-bit guard so ReceiveWindow's SACK width matches the header's 64-bit field. */
    static {
        if (ReceiveWindow.SACK_BITS != Long.SIZE) {
            throw new ExceptionInInitializerError("SACK field is one long");
        }
    }
}
