package org.portals3j.transport.udp.internal.endpoint;

import java.io.IOException;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.internal.IdleStrategies;
import org.portals3j.transport.internal.Parker;
import org.portals3j.transport.internal.PollHandover;

/**
 * How the protocol thread idles: work resets it; on zero work it does as its mode's strategy for an agent does, and
 * sleeps in the socket where that strategy would park, unless a thread polled since its last look. Protocol thread.
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

    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());

    /** The mode's strategy for an agent: spins, yields or rests ({@link Rest}) on an idle round. */
    private final IdleStrategy strategy;
    private final Rest rest;
    private final NanoClock clock;
    private final Parker parker;

    ProtocolIdle(int rank, IdleMode mode, ProtocolSleep sleep, PollHandover handover, Timers timers,
                 EndpointLifecycle lifecycle, NanoClock clock, Parker parker) {
        this(rank, mode, false, sleep, handover, timers, lifecycle, clock, parker, Thread::yield);
    }

    /**
     * @param oversubscribed the job's ranks on this host outnumber its cores: where the thread would spin before it
     *                       sleeps, it yields through {@code yielder} instead, giving the core to a runnable rank
     */
    ProtocolIdle(int rank, IdleMode mode, boolean oversubscribed, ProtocolSleep sleep, PollHandover handover,
                 Timers timers, EndpointLifecycle lifecycle, NanoClock clock, Parker parker, Runnable yielder) {
        this.rest = new Rest(rank, sleep, handover, timers, lifecycle, clock, oversubscribed, yielder);
        this.strategy = IdleStrategies.forAgent(mode, rest);
        this.clock = clock;
        this.parker = parker;
    }

    /** Starts a spell of spinning, as work does. */
    void reset() {
        rest.lastWork = clock.nanoTime();
        strategy.reset();
    }

    /** After a round that did {@code workCount} units of work: resets on work, idles otherwise. */
    void idle(int workCount) {
        if (workCount > 0) {
            rest.lastWork = clock.nanoTime();
        }
        strategy.idle(workCount);
    }

    /** Polling application threads run the receive path: stay away for {@code nanos}, then spin again briefly. */
    void stepAside(long nanos) {
        parker.parkNanos(nanos);
        rest.lastWork = clock.nanoTime();
    }

    /**
     * A poller holds the receive path, maybe for long (acknowledgements it took opened the window, and it is sending
     * what was waiting). Never queue behind it (its unlock would pay for waking this thread) and never spin beside it
     * (on 2 cores that takes the core it needs): look again a little later.
     */
    void receivePathBusy() {
        parker.parkNanos(BUSY_PARK_NANOS);
    }

    /**
     * Where the mode's strategy would park: spin on (yield, when oversubscribed) while acknowledgements are owed or
     * for {@link #SPIN_NANOS} after work, then sleep in the socket until a datagram, a wake-up or the next timer (not
     * for the strategy's period).
     * A poll since the thread's last look keeps it awake: it announces its sleep, then looks for one (a poller writes
     * its poll, then looks for the announcement), so either the poller wakes it or it does not sleep.
     */
    private static final class Rest implements Parker {
        private final int rank;
        private final ProtocolSleep sleep;
        private final PollHandover handover;
        private final Timers timers;
        private final EndpointLifecycle lifecycle;
        private final NanoClock clock;
        private final boolean oversubscribed;
        private final Runnable yielder;
        /** When the thread last did work, or woke up (it spins for {@link #SPIN_NANOS} after). */
        long lastWork;

        Rest(int rank, ProtocolSleep sleep, PollHandover handover, Timers timers, EndpointLifecycle lifecycle,
             NanoClock clock, boolean oversubscribed, Runnable yielder) {
            this.rank = rank;
            this.sleep = sleep;
            this.handover = handover;
            this.timers = timers;
            this.lifecycle = lifecycle;
            this.clock = clock;
            this.oversubscribed = oversubscribed;
            this.yielder = yielder;
            this.lastWork = clock.nanoTime();
        }

        @Override
        public void parkNanos(long strategyPeriodNanos) {
            long now = clock.nanoTime();
            if (timers.acksPending() || now - lastWork < SPIN_NANOS) {
                if (oversubscribed) {
                    yielder.run();
                } else {
                    Thread.onSpinWait();
                }
            } else {
                sleepUntilNextTimer(now);
                lastWork = clock.nanoTime(); // woken: spin again briefly, data tends to come in bursts
            }
        }

        private void sleepUntilNextTimer(long now) {
            sleep.begin();
            try {
                long deadline = timers.nextDeadline(now);
                long millis = Math.max(1, (deadline - now + 999_999) / 1_000_000);
                if (lifecycle.isRunning() && !handover.polledSinceLook()) {
                    sleep.await(Math.min(millis, MAX_SLEEP_MILLIS));
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "rank " + rank + ": select failed", e);
            } finally {
                sleep.end();
            }
        }
    }
}
