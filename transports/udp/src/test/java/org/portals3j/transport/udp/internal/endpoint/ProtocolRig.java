package org.portals3j.transport.udp.internal.endpoint;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.udp.UdpOptions;
import org.portals3j.transport.udp.internal.reliability.RttEstimator;
import org.portals3j.transport.udp.internal.wire.AutoMac;
import org.portals3j.transport.udp.internal.wire.DatagramCodec;
import org.portals3j.transport.udp.internal.wire.DatagramHeader;

/**
 * The ranks of one job, each with its sender, receiver and agent wired as the endpoint wires them, on fake sockets
 * and one clock the test moves: no sockets, no threads, no sleeps. The test carries datagrams with {@link #transfer}.
 */
final class ProtocolRig {
    static final int JOB_TAG = 0x5eed;
    static final int BASE_PORT = 41000;
    private static final byte[] KEY = new byte[32];

    static {
        Arrays.fill(KEY, (byte) 7);
    }

    /** The test's clock, in nanoseconds. */
    long now = 1_000_000_000L;
    final NanoClock clock = () -> now;
    final UdpOptions.Settings settings;
    final Rank[] ranks;

    /** What a rank's sender does when it starts waiting for room, and when it would run the receive path itself. */
    Runnable onSenderWaits = () -> { };
    Runnable onUnattended = () -> { };

    ProtocolRig(int size, Map<String, String> options) throws TransportException {
        Map<String, String> o = new HashMap<>(Map.of(UdpOptions.DATAGRAM_SIZE, "2048"));
        o.putAll(options);
        this.settings = UdpOptions.parse(o);
        this.ranks = new Rank[size];
        for (int r = 0; r < size; r++) {
            ranks[r] = new Rank(r, size);
        }
    }

    static long incarnation(int rank) {
        return 0x1000 + rank;
    }

    /** One rank's parts. */
    final class Rank {
        final int rank;
        final FakeIo io;
        final Peer[] peers;
        final Counters counters = new Counters();
        final EndpointLifecycle lifecycle = new EndpointLifecycle();
        final RecordingHandler handler = new RecordingHandler();
        final UpperLayer upper;
        final ProtocolSleep sleep;
        final DatagramSender sender;
        final DatagramReceiver receiver;
        final ProtocolAgent agent;
        int senderWaits;
        int unattendedRuns;

        Rank(int rank, int size) {
            this.rank = rank;
            this.io = new FakeIo(BASE_PORT + rank);
            EndpointIdentity self = new EndpointIdentity(rank, size, JOB_TAG, incarnation(rank));
            int datagramSize = settings.datagramSize();
            long rtoMin = settings.rtoMinMicros() * 1_000L;
            int receiveWindow = UdpEndpoint.receiveWindow(settings.window(), io.receiveBufferBytes(), datagramSize,
                    size);
            this.peers = new Peer[size];
            for (int r = 0; r < size; r++) {
                Peer p = new Peer(r, settings.window(), receiveWindow, datagramSize,
                        datagramSize - DatagramHeader.LENGTH, UdpEndpoint.MAX_HEADER,
                        new DatagramCodec(new AutoMac(KEY)),
                        new RttEstimator(rtoMin, settings.rtoMaxMillis() * 1_000_000L,
                                Math.max(rtoMin, UdpEndpoint.INITIAL_RTO_NANOS)),
                        settings.sendQueueMessages(), settings.sendQueueBytes());
                p.address = new FakeIo(BASE_PORT + r).address;
                p.incarnation = incarnation(r);
                p.lastHeardNanos = now;
                p.lastSentNanos = now;
                peers[r] = p;
            }
            long heartbeatNanos = settings.heartbeatMillis() * 1_000_000L;
            this.upper = new UpperLayer(rank, handler);
            this.sleep = new ProtocolSleep(io);
            DatagramSender.ReceivePath receivePath = new DatagramSender.ReceivePath() {
                @Override
                public void senderWaits() {
                    senderWaits++;
                    onSenderWaits.run();
                }

                @Override
                public void runIfUnattended() {
                    unattendedRuns++;
                    onUnattended.run();
                }
            };
            this.sender = new DatagramSender(self, 0, peers, io, counters, lifecycle, upper, sleep, receivePath, clock,
                    settings.ackDelayMicros() * 1_000L, heartbeatNanos);
            this.receiver = new DatagramReceiver(self, peers, io, new DatagramCodec(new AutoMac(KEY)), counters,
                    lifecycle, upper, sender, clock, datagramSize, heartbeatNanos, settings.peerTimeoutMillis());
            this.agent = new ProtocolAgent(self, peers, receiver, sender, counters, lifecycle, clock, settings);
            lifecycle.moveTo(EndpointLifecycle.State.RUNNING);
        }

        /** Sends from an application thread: the header's first int is {@code id}, the payload {@code payload}. */
        void send(int to, int id, byte[] payload, long token) {
            sender.send(peers[to], header(id), 16, MemorySegment.ofArray(payload), 0, payload.length, token, false);
        }

        /** As {@link #send}, from the receive path (a handler's reply). */
        void sendFromReceivePath(int to, int id, byte[] payload, long token) {
            sender.send(peers[to], header(id), 16, MemorySegment.ofArray(payload), 0, payload.length, token, true);
        }

        long counter(int index) {
            return counters.get(index);
        }

        /** Takes every datagram waiting in its socket; returns how many. */
        int receiveAll() {
            int n = 0;
            while (receiver.receiveOne()) {
                n++;
            }
            return n;
        }
    }

    static MemorySegment header(int id) {
        MemorySegment h = Arena.ofAuto().allocate(16);
        h.set(ValueLayout.JAVA_INT_UNALIGNED, 0, id);
        return h;
    }

    static byte[] payload(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    /** Moves every datagram sent so far into its destination's socket; returns how many moved. */
    int transfer() {
        int moved = 0;
        for (Rank from : ranks) {
            for (FakeIo.Sent s : from.io.sent) {
                ranks[s.target().getPort() - BASE_PORT].io.inbound.addLast(s.bytes());
                moved++;
            }
            from.io.sent.clear();
        }
        return moved;
    }

    /**
     * Runs every rank's agent and carries datagrams until nothing moves and no acknowledgement is owed, moving the
     * clock by the acknowledgement delay whenever only delayed acknowledgements are left.
     */
    void settle() {
        for (int round = 0; round < 100_000; round++) {
            for (Rank r : ranks) {
                r.agent.doWork();
            }
            if (transfer() == 0) {
                if (Arrays.stream(ranks).noneMatch(r -> r.agent.acksPending())) {
                    return;
                }
                now += Math.max(1, settings.ackDelayMicros()) * 1_000L;
            }
        }
        throw new AssertionError("the ranks did not settle");
    }

    void advanceMillis(long millis) {
        now += millis * 1_000_000L;
    }
}
