package org.portals3j.transport.internal;

import java.util.function.LongSupplier;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Polling;

/**
 * The one waiting loop: checks the condition, does the wait's work (polling the transport) while the idle strategy
 * spins or yields, announces before its first park, and returns on the condition or at the deadline.
 */
public final class AwaitLoop {
    /** A timeout meaning: no deadline. */
    public static final long FOREVER = -1L;

    /** What a thread waits for, and what it does while it waits. */
    public interface Wait {
        /** Whether the wait is over (it may take what it waited for, as PtlEQPoll takes an event). */
        boolean isOver();

        /** One round of the work that brings the condition closer; the work count. The default polls the transport. */
        default int work(Polling polling) {
            return polling.poll() ? 1 : 0;
        }

        /**
         * True: another thread meets the condition and wakes this one, so before its first park this thread stops
         * working and announces it ({@link #parking}, then {@link Polling#pollingStopped}). False: the condition
         * needs this thread's work, done between parks too.
         */
        default boolean handsOver() {
            return true;
        }

        /** Called once before the first park of a wait that {@link #handsOver}: from now on a waker must unpark. */
        default void parking() {
        }

        /** True: an interrupt ends the wait ({@link #await} returns false with the interrupt status set). */
        default boolean endsOnInterrupt() {
            return false;
        }
    }

    private final Polling polling;
    private final LongSupplier clock;

    /** A loop polling through {@code polling} ({@link Polling#NONE} for a transport without it), system clock. */
    public AwaitLoop(Polling polling) {
        this(polling, System::nanoTime);
    }

    /** A loop polling through {@code polling}, reading deadlines on {@code clock} (nanoseconds, as System.nanoTime). */
    public AwaitLoop(Polling polling, LongSupplier clock) {
        this.polling = polling;
        this.clock = clock;
    }

    /**
     * Waits until {@code wait} is over or {@code timeoutNanos} have passed ({@link #FOREVER}: no limit), idling with
     * {@code idle} (reset first). An interrupt ends only a wait that {@linkplain Wait#endsOnInterrupt ends on one};
     * otherwise the flag is cleared so that parks keep parking. Either way it is set again on return.
     *
     * @return true when the wait is over, false at the deadline or on an interrupt that ends it
     */
    public boolean await(Wait wait, IdleStrategy idle, long timeoutNanos) {
        if (wait.isOver()) {
            return true;
        }
        boolean timed = timeoutNanos != FOREVER;
        long start = timed ? clock.getAsLong() : 0L;
        boolean handedOver = false;
        boolean polled = false;
        boolean inside = false; // between waitStarted and waitEnded
        boolean interrupted = false;
        idle.reset();
        try {
            while (!wait.isOver()) {
                if (timed && clock.getAsLong() - start >= timeoutNanos) {
                    return false;
                }
                if (handedOver) {
                    idle.idle(0);
                } else if (idle.parksNext() && wait.handsOver()) {
                    handedOver = true;
                    wait.parking();
                    if (inside) {
                        inside = false;
                        polling.waitEnded();
                    }
                    if (polled) {
                        polling.pollingStopped();
                    }
                    continue; // look again before parking: a waker that came before the announcement did not unpark
                } else {
                    if (!polled) {
                        polled = true;
                        inside = true;
                        polling.waitStarted();
                    }
                    idle.idle(wait.work(polling));
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    if (wait.endsOnInterrupt()) {
                        return wait.isOver();
                    }
                }
            }
            return true;
        } finally {
            if (inside) {
                polling.waitEnded();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
