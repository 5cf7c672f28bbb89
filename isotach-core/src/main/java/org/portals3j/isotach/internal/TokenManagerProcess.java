package org.portals3j.isotach.internal;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.siu.NanoClock;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Polling;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.internal.AwaitLoop;
import org.portals3j.transport.internal.ParkingIdle;

/**
 * The token manager as a rank of its own, the job's last (the report's TM was a device, Isotach report §1.1.3, pp. 1-2,
 * not a host, Isotach report App. A.2, pp. 95-96): starts the clock once every host has synced, then serves the hosts
 * until they have all left or the time is up.
 */
final class TokenManagerProcess implements PollingHandler {
    /** How long the token manager's thread parks between its looks (and idle ticks). */
    private static final long PARK_NANOS = 50_000L;

    private final SwitchNode node;
    private final int hosts;
    private final boolean[] synced;
    private final boolean[] left;

    private TokenManagerProcess(Transport transport, IsotachConfig config) {
        this.hosts = transport.size() - 1;
        this.node = new SwitchNode(transport, config, hosts, transport.rank(), NanoClock.SYSTEM);
        this.synced = new boolean[hosts];
        this.left = new boolean[hosts];
    }

    /**
     * Runs the token manager: marks, bs-markers and wake-ups are served on the transport's thread; this loop only
     * issues idle ticks and notices when every host has left (or the timeout passed). Returns the tokens issued.
     */
    static long run(Transport transport, IsotachConfig config, Duration timeout) throws TransportException {
        if (transport.rank() != transport.size() - 1 || transport.size() < 2) {
            throw new IllegalArgumentException("the token-manager process is the last rank of a job of at least 2");
        }
        TokenManagerProcess tm = new TokenManagerProcess(transport, config);
        transport.start(tm);
        AwaitLoop loop = new AwaitLoop(Polling.of(transport));
        IdleStrategy idle = new ParkingIdle(PARK_NANOS, LockSupport::parkNanos);
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!loop.await(tm.new Phase(tm.synced, false), idle, Math.max(0L, deadline - System.nanoTime()))) {
            throw new TransportException("token manager: timed out waiting for every host to open the network");
        }
        tm.node.startClock();
        if (!loop.await(tm.new Phase(tm.left, true), idle, Math.max(0L, deadline - System.nanoTime()))) {
            throw new TransportException("token manager: timed out waiting for every host to close the network");
        }
        return tm.node.tokensIssued();
    }

    /**
     * A wait for every host's flag, issuing an idle tick between looks if {@code ticking}; the transport's thread
     * sets the flags and serves the rest, so this thread only parks in between.
     */
    private final class Phase implements AwaitLoop.Wait {
        private final boolean[] flags;
        private final boolean ticking;

        Phase(boolean[] flags, boolean ticking) {
            this.flags = flags;
            this.ticking = ticking;
        }

        @Override
        public boolean isOver() {
            if (!node.isTokenManager()) {
                throw new IllegalStateException("not the token manager");
            }
            return all(flags);
        }

        @Override
        public int work(Polling polling) {
            if (ticking) {
                node.tick();
            }
            return 0;
        }

        @Override
        public boolean handsOver() {
            return false;
        }
    }

    private synchronized boolean all(boolean[] flags) {
        for (boolean f : flags) {
            if (!f) {
                return false;
            }
        }
        return true;
    }

    private synchronized void flag(boolean[] flags, int source) {
        flags[source] = true;
    }

    @Override
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        if (source >= hosts || payloadLength != 0 || !Frame.check(header, headerLength)) {
            return;
        }
        switch (Frame.kind(header)) {
            case Frame.SYNC -> flag(synced, source);
            case Frame.CLOCK -> node.onClock(source, header);
            case Frame.BARRIER_SIGNAL_MARKER -> node.onBarrierSignalMarker(source, header);
            case Frame.LEAVE -> {
                flag(left, source);
                node.peerDown(source);
            }
            default -> {
                // Other frames are for hosts; a TM ignores them.
            }
        }
    }

    @Override
    public void onDeposited(int source, Deposit deposit) {
    }

    @Override
    public void onSendComplete(long token, boolean delivered) {
    }

    @Override
    public void onPeerFailure(int peer) {
        if (peer < hosts) {
            flag(left, peer);
            node.peerDown(peer);
        }
    }

    @Override
    public void onPollersGone() {
        node.pollersGone();
    }
}
