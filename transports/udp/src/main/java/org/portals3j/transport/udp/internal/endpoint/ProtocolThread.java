package org.portals3j.transport.udp.internal.endpoint;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.portals3j.transport.internal.PollHandover;

/**
 * The protocol thread's duty cycle, while the endpoint runs: leave the receive path to polling application threads,
 * else take it, run one round of the agent and idle by the work it did. What escapes fails the endpoint.
 */
final class ProtocolThread implements Runnable {
    private final ProtocolAgent agent;
    private final ProtocolIdle idle;
    private final PollHandover handover;
    /** Who runs the receive path: this thread, or an application thread that polls. */
    private final ReentrantLock receivePath;
    private final UpperLayer upper;
    private final EndpointLifecycle lifecycle;
    private final NanoClock clock;
    private final Consumer<Throwable> failure;

    ProtocolThread(ProtocolAgent agent, ProtocolIdle idle, PollHandover handover, ReentrantLock receivePath,
                   UpperLayer upper, EndpointLifecycle lifecycle, NanoClock clock, Consumer<Throwable> failure) {
        this.agent = agent;
        this.idle = idle;
        this.handover = handover;
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
