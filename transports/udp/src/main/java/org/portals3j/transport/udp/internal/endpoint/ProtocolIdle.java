package org.portals3j.transport.udp.internal.endpoint;

import java.io.IOException;
import org.portals3j.transport.IdleMode;

/**
 * How the protocol thread idles: work resets it; on zero work it spins, yields, or (park and backoff modes) spins
 * briefly and then sleeps in the socket until a datagram, a wake-up or its next timer. Protocol thread only.
 */
final class ProtocolIdle {
    /** Before sleeping in the selector, the protocol thread polls this long (a reply is often this close). */
    static final long SPIN_NANOS = 50_000L;
    /** The longest single sleep in the selector, in milliseconds. */
    static final long MAX_SLEEP_MILLIS = 1_000L;
    /** How long the thread parks when a polling application thread holds the receive path. */
    static final long BUSY_PARK_NANOS = PollHandover.MIN_GRACE_NANOS / 10;

    /** What the idle strategy asks of the agent before it sleeps. */
    interface Timers {
        /** Whether standalone acknowledgements are still due (then the thread spins rather than sleeps). */
        boolean acksPending();

        /** When the earliest timer is due. */
        long nextDeadline(long now);
    }

    /** Parks the calling thread (as {@link java.util.concurrent.locks.LockSupport#parkNanos(long)}). */
    @FunctionalInterface
    interface Parker {
        void parkNanos(long nanos);
    }

    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());

    private final int rank;
    private final IdleMode mode;
    private final ProtocolSleep sleep;
    private final Timers timers;
    private final EndpointLifecycle lifecycle;
    private final NanoClock clock;
    private final Parker parker;
    /** When the thread last did work, or woke up (it spins for {@link #SPIN_NANOS} after). */
    private long lastWork;

    ProtocolIdle(int rank, IdleMode mode, ProtocolSleep sleep, Timers timers, EndpointLifecycle lifecycle,
                 NanoClock clock, Parker parker) {
        this.rank = rank;
        this.mode = mode;
        this.sleep = sleep;
        this.timers = timers;
        this.lifecycle = lifecycle;
        this.clock = clock;
        this.parker = parker;
        this.lastWork = clock.nanoTime();
    }

    /** Starts a spell of spinning, as work does. */
    void reset() {
        lastWork = clock.nanoTime();
    }

    /** After a round that did {@code workCount} units of work: resets on work, idles otherwise. */
    void idle(int workCount) {
        long now = clock.nanoTime();
        if (workCount > 0) {
            lastWork = now;
            return;
        }
        if (mode == IdleMode.SPIN) {
            Thread.onSpinWait();
        } else if (mode == IdleMode.YIELD) {
            Thread.yield();
        } else if (timers.acksPending() || now - lastWork < SPIN_NANOS) {
            Thread.onSpinWait();
        } else {
            sleepUntilNextTimer(now);
            lastWork = clock.nanoTime(); // woken: spin again briefly, data tends to come in bursts
        }
    }

    /** Polling application threads run the receive path: stay away for {@code nanos}, then spin again briefly. */
    void stepAside(long nanos) {
        parker.parkNanos(nanos);
        lastWork = clock.nanoTime();
    }

    /**
     * A poller holds the receive path, maybe for long (acknowledgements it took opened the window, and it is sending
     * what was waiting). Never queue behind it (its unlock would pay for waking this thread) and never spin beside it
     * (on 2 cores that takes the core it needs): look again a little later.
     */
    void receivePathBusy() {
        parker.parkNanos(BUSY_PARK_NANOS);
    }

    private void sleepUntilNextTimer(long now) {
        sleep.begin();
        try {
            long deadline = timers.nextDeadline(now);
            long millis = Math.max(1, (deadline - now + 999_999) / 1_000_000);
            if (lifecycle.isRunning()) {
                sleep.await(Math.min(millis, MAX_SLEEP_MILLIS));
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "rank " + rank + ": select failed", e);
        } finally {
            sleep.end();
        }
    }
}
