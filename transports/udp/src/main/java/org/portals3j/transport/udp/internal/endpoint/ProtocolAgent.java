package org.portals3j.transport.udp.internal.endpoint;

import org.portals3j.transport.udp.UdpOptions;

/**
 * One round of the receive path: datagrams in, the acknowledgements that are due out, and the timers
 * (retransmission, heartbeats, liveness) when their period passed. Run by whichever thread holds the receive path.
 */
final class ProtocolAgent implements ProtocolIdle.Timers {
    /** The most datagrams one round of the protocol thread takes before it looks at acknowledgements and timers. */
    static final int ROUND_DATAGRAMS = 64;
    /** Timers (retransmission, heartbeat, liveness) are looked at this often while busy. */
    static final long TIMER_PERIOD_NANOS = 100_000L;
    /** The receive path sleeps at most this long (less when a heartbeat is due sooner) between runs of its timers. */
    static final long MAX_SLEEP_NANOS = 1_000_000_000L;

    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());

    private final EndpointIdentity self;
    private final Peer[] peers;
    private final DatagramReceiver receiver;
    private final DatagramSender sender;
    private final Counters counters;
    private final EndpointLifecycle lifecycle;
    private final NanoClock clock;
    private final UdpOptions.Settings settings;
    private final long peerTimeoutNanos;
    /** The longest the receive path sleeps between two runs of its timers; a longer gap is its own stall. */
    private final long longestSleepNanos;
    /** When the timers last ran. */
    private long lastTimers;
    /** Whether standalone acknowledgements were still due after the last round. */
    private boolean acksPending;

    ProtocolAgent(EndpointIdentity self, Peer[] peers, DatagramReceiver receiver, DatagramSender sender,
                  Counters counters, EndpointLifecycle lifecycle, NanoClock clock, UdpOptions.Settings settings) {
        this.self = self;
        this.peers = peers;
        this.receiver = receiver;
        this.sender = sender;
        this.counters = counters;
        this.lifecycle = lifecycle;
        this.clock = clock;
        this.settings = settings;
        this.peerTimeoutNanos = settings.peerTimeoutMillis() * 1_000_000L;
        this.longestSleepNanos = Math.min(settings.heartbeatMillis() * 1_000_000L, MAX_SLEEP_NANOS);
        this.lastTimers = clock.nanoTime();
    }

    /** A round of the protocol thread; returns the datagrams received. */
    int doWork() {
        return doWork(ROUND_DATAGRAMS);
    }

    /**
     * One round with up to {@code maxDatagrams} datagrams; returns how many were received. The caller holds the
     * receive path.
     */
    int doWork(int maxDatagrams) {
        int received = 0;
        boolean drained = false;
        while (received < maxDatagrams && lifecycle.isRunning()) {
            if (!receiver.receiveOne()) {
                drained = true;
                break;
            }
            received++;
        }
        long now = clock.nanoTime();
        acksPending = sender.flushAcks(now, drained);
        if (now - lastTimers >= TIMER_PERIOD_NANOS) {
            onTimers(now);
            lastTimers = now;
        }
        return received;
    }

    /** Whether standalone acknowledgements were still due after the last round (the thread should not sleep). */
    @Override
    public boolean acksPending() {
        return acksPending;
    }

    /** The earliest timer of any live peer, at most {@link #MAX_SLEEP_NANOS} from {@code now}. */
    @Override
    public long nextDeadline(long now) {
        long deadline = now + MAX_SLEEP_NANOS;
        for (Peer p : peers) {
            if (p.isDead()) {
                continue;
            }
            if (p.rank != self.rank()) {
                deadline = Math.min(deadline, p.lastHeardNanos + peerTimeoutNanos);
            }
            deadline = Math.min(deadline, sender.nextDeadline(p));
        }
        return deadline;
    }

    /** Liveness, heartbeats and retransmission timers, peer by peer. */
    private void onTimers(long now) {
        excuseOwnStall(now);
        for (Peer p : peers) {
            if (p.isDead()) {
                continue;
            }
            if (p.state() == Peer.State.OVERRUN) {
                LOG.log(System.Logger.Level.WARNING, "rank " + self.rank() + ": rank " + p.rank + " takes none of its"
                        + " responses: the messages this rank's receive path sent it went unacknowledged beyond "
                        + SendBound.RECEIVE_PATH_FACTOR + " x " + UdpOptions.SEND_QUEUE_MESSAGES + "="
                        + settings.sendQueueMessages() + "; declaring it dead");
                receiver.failPeer(p);
                continue;
            }
            if (p.rank != self.rank()) {
                if (now - p.lastHeardNanos > peerTimeoutNanos) {
                    LOG.log(System.Logger.Level.WARNING, "rank " + self.rank() + ": nothing heard from rank " + p.rank
                            + " for " + settings.peerTimeoutMillis() + " ms; declaring it dead");
                    receiver.failPeer(p);
                    continue;
                }
                sender.heartbeatIfDue(p, now);
            }
            sender.onTimer(p, now);
        }
    }

    /**
     * Before liveness is judged: time during which the receive path did not run (this process was stopped or paused,
     * its thread descheduled, or stuck in a handler call) is not held against the peers, whose datagrams may be
     * waiting unread in the socket (or were lost when it overflowed). The gap beyond {@link #longestSleepNanos} moves
     * every live peer's silence clock forward.
     */
    private void excuseOwnStall(long now) {
        long stall = now - lastTimers - longestSleepNanos;
        if (stall <= 0) {
            return;
        }
        counters.addOnReceivePath(Counters.STALLS);
        if (stall >= peerTimeoutNanos) {
            LOG.log(System.Logger.Level.WARNING, "rank " + self.rank() + ": this rank did not run for "
                    + stall / 1_000_000 + " ms (stopped, paused, or a handler call that long), longer than "
                    + UdpOptions.PEER_TIMEOUT_MILLIS + "=" + settings.peerTimeoutMillis()
                    + "; peers that declared it dead meanwhile will say so");
        }
        for (Peer p : peers) {
            if (!p.isDead()) {
                p.lastHeardNanos = Math.min(now, p.lastHeardNanos + stall);
            }
        }
    }
}
