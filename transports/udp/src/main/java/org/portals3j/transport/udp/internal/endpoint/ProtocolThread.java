package org.portals3j.transport.udp.internal.endpoint;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.portals3j.transport.internal.PollHandover;

/**
 * The protocol thread's duty cycle, while the endpoint runs: leave the receive path to polling application threads,
 * else take it, run one round of the agent and idle by the work it did. What escapes fails the endpoint.
 *
 * <p>Why not the shared {@code AwaitLoop}: that loop is a wait for a condition, which returns once the condition
 * holds or a deadline passes, and before it parks hands the receive path over and announces that it stops polling.
 * This is an agent's duty cycle, which has no condition to return on (it runs for the endpoint's life), owns the
 * receive path rather than handing it over (it is the thread that takes it back when the polling threads leave), and
 * must step aside while an application thread polls and idle by the agent's work count; bent into a wait, each of
 * these would be a special case of the loop that every other waiter shares.
 */
final class ProtocolThread implements Runnable {
    private final ProtocolAgent agent;
    private final ProtocolIdle idle;
    private final PollHandover handover;
    private final ProtocolSleep sleep;
    /** Who runs the receive path: this thread, or an application thread that polls. */
    private final ReentrantLock receivePath;
    private final UpperLayer upper;
    private final EndpointLifecycle lifecycle;
    private final NanoClock clock;
    private final Consumer<Throwable> failure;

    ProtocolThread(ProtocolAgent agent, ProtocolIdle idle, PollHandover handover, ProtocolSleep sleep,
                   ReentrantLock receivePath, UpperLayer upper, EndpointLifecycle lifecycle, NanoClock clock,
                   Consumer<Throwable> failure) {
        this.agent = agent;
        this.idle = idle;
        this.handover = handover;
        this.sleep = sleep;
        this.receivePath = receivePath;
        this.upper = upper;
        this.lifecycle = lifecycle;
        this.clock = clock;
        this.failure = failure;
    }

    @Override
    public void run() {
        try {
            cycle();
        } catch (Throwable t) { // an Error (OutOfMemoryError, ...) or a bug: this endpoint cannot go on
            failure.accept(t);
        }
    }

    /**
     * An application thread polls at {@code now}: this thread stays away, and if it sleeps in the socket it is woken
     * to step aside now, rather than by the next datagram, which the poller wants. Any thread. The poll is written
     * before the look for a sleep; this thread announces its sleep before it looks for a poll ({@link ProtocolIdle}),
     * so a poll that lands between its last look and its sleep keeps it awake instead of going unseen.
     */
    void polled(long now) {
        handover.polled(now);
        sleep.wakeIfSleeping();
    }

    /** The duty cycle, until the endpoint stops running. */
    void cycle() {
        idle.reset();
        while (lifecycle.isRunning()) {
            long keepAway = handover.keepAwayNanos(clock.nanoTime());
            if (keepAway > 0) {
                idle.stepAside(keepAway); // an application thread is receiving
                continue;
            }
            if (handover.pollingEnded()) {
                upper.onPollersGone(); // what the polling thread left for itself must not wait for its return
            }
            if (!receivePath.tryLock()) {
                idle.receivePathBusy();
                continue;
            }
            int work;
            try {
                work = agent.doWork();
            } finally {
                receivePath.unlock();
            }
            idle.idle(work);
        }
    }
}
