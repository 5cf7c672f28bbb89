package org.portals3j.lapi;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How the threads of one context wait for something communication does. In interrupt mode a waiter sleeps on a
 * monitor: {@code Waitcntr} on the counters' one, woken by {@link #signalCounters()} only when an increment reaches
 * the threshold waited for (see {@link LapiCounter#increment()}); the other waits (credit, Fence, barrier) on the
 * other one, woken by every {@link #signal()} of the state they read. So a credit coming back does not wake a thread
 * in {@code Waitcntr}, and a counter moving does not wake a thread waiting for credit. In polling mode
 * (LAPI_Senv man page, INTERRUPT_SET 0) the waiter runs the dispatcher itself between checks.
 */
final class Progress {
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long PARK_NANOS = 50_000;

    private final Object monitor = new Object();
    private final boolean polling;
    /** Bumped by every {@link #signal()}: a waiter sleeps only if it has not moved since it last checked. */
    private final AtomicLong changes = new AtomicLong();
    private final AtomicInteger waiters = new AtomicInteger();
    private final Object counterMonitor = new Object();
    /** As {@link #changes}, for the counters: bumped by {@link #signalCounters()}. */
    private final AtomicLong counterChanges = new AtomicLong();
    private final AtomicInteger counterWaiters = new AtomicInteger();
    private volatile boolean closed;
    private volatile @Nullable Thread dispatching;
    private IntSupplier poller = () -> 0;
    /** One reusable Waitcntr condition per thread: waiting allocates nothing (no nesting: O-14 forbids it). */
    private static final ThreadLocal<@Nullable CounterWait> COUNTER_WAITS = ThreadLocal.withInitial(CounterWait::new);

    Progress(boolean polling) {
        this.polling = polling;
    }

    /** Polling mode: {@code poller} runs the dispatcher once and returns the number of events it handled. */
    void poller(IntSupplier p) {
        this.poller = p;
    }

    boolean polling() {
        return polling;
    }

    /** Wakes the threads in Waitcntr: a counter was set, or reached the threshold one of them waits for. */
    void signalCounters() {
        counterChanges.incrementAndGet();
        if (counterWaiters.get() > 0) {
            synchronized (counterMonitor) {
                counterMonitor.notifyAll();
            }
        }
    }

    /** How many times the threads in Waitcntr were signalled (for tests). */
    long counterSignals() {
        return counterChanges.get();
    }

    /** How many threads sleep in Waitcntr now, past their spin (for tests). */
    int counterWaiters() {
        return counterWaiters.get();
    }

    /** Wakes the waiters other than Waitcntr's: called after every change such a waiter may be waiting for. */
    void signal() {
        changes.incrementAndGet();
        if (waiters.get() > 0) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
    }

    /** The thread running header handlers and inline completion handlers now (the dispatcher's), or null. */
    void dispatching(@Nullable Thread t) {
        dispatching = t;
    }

    /**
     * {@code BLOCKING_IN_HANDLER} when called on the dispatcher's thread (our choice, open point: the man pages do not
     * say what a blocking call from a handler does).
     */
    void checkMayBlock(String call) {
        if (Thread.currentThread() == dispatching) {
            throw new LapiException(LapiError.BLOCKING_IN_HANDLER, call + " blocks, and it was called on the"
                    + " dispatcher's thread (a header handler or an inline completion handler): call it from a normal"
                    + " completion handler or the program's thread");
        }
    }

    void close() {
        closed = true;
        changes.incrementAndGet();
        synchronized (monitor) {
            monitor.notifyAll();
        }
        signalCounters();
    }

    boolean closed() {
        return closed;
    }

    /** Makes progress once in polling mode (LAPI_Probe, LAPI_Getcntr); nothing in interrupt mode. */
    void poll() {
        if (polling) {
            while (poller.getAsInt() > 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** Waitcntr: waits until {@code counter} is at least {@code value}, subtracts it, returns what is left. */
    int awaitTake(LapiCounter counter, int value, String call) {
        if (!polling) {
            return awaitTakeInterrupt(counter, value, call);
        }
        CounterWait w = COUNTER_WAITS.get();
        if (w == null) {
            w = new CounterWait();
            COUNTER_WAITS.set(w);
        }
        w.counter = counter;
        w.value = value;
        try {
            await(w, call);
            return w.left;
        } finally {
            w.counter = null;
        }
    }

    private int awaitTakeInterrupt(LapiCounter counter, int value, String call) {
        for (int i = 0; i < SPINS; i++) {
            int left = counter.tryTake(value);
            if (left != Integer.MIN_VALUE) {
                return left;
            }
            Thread.onSpinWait();
        }
        // The threshold is registered before the value is read: an increment after that read sees it and signals.
        counter.addWaiter(value);
        counterWaiters.incrementAndGet();
        try {
            while (true) {
                long seen = counterChanges.get();
                int left = counter.tryTake(value);
                if (left != Integer.MIN_VALUE) {
                    return left;
                }
                failIfClosed(call);
                synchronized (counterMonitor) {
                    if (counterChanges.get() == seen) {
                        counterMonitor.wait(50);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LapiException(LapiError.UNKNOWN, call + " was interrupted", e);
        } finally {
            counterWaiters.decrementAndGet();
            counter.removeWaiter();
        }
    }

    /**
     * Waits until {@code done} holds; {@code HNDL_INVALID} if the context terminates meanwhile.
     */
    void await(BooleanSupplier done, String call) {
        if (polling) {
            awaitPolling(done, call);
            return;
        }
        // A short spin first: the dispatcher usually answers within microseconds, and a waiter that has not gone
        // to sleep costs it no wake-up (the latency goal of a ping-pong; bounded, so a loaded machine loses little).
        for (int i = 0; i < SPINS; i++) {
            if (done.getAsBoolean()) {
                return;
            }
            Thread.onSpinWait();
        }
        // The condition is checked outside the monitor (it may take the locks of the state it reads, whose owners
        // signal); the change count closes the window between the check and the wait.
        waiters.incrementAndGet();
        try {
            while (true) {
                long seen = changes.get();
                if (done.getAsBoolean()) {
                    return;
                }
                failIfClosed(call);
                synchronized (monitor) {
                    if (changes.get() == seen) {
                        monitor.wait(50);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LapiException(LapiError.UNKNOWN, call + " was interrupted", e);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void awaitPolling(BooleanSupplier done, String call) {
        int idle = 0;
        while (true) {
            int handled = poller.getAsInt();
            if (done.getAsBoolean()) {
                return;
            }
            failIfClosed(call);
            if (handled > 0) {
                idle = 0;
            } else if (++idle < SPINS) {
                Thread.onSpinWait();
            } else if (idle < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(PARK_NANOS);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new LapiException(LapiError.UNKNOWN, call + " was interrupted");
                }
            }
        }
    }

    private void failIfClosed(String call) {
        if (closed) {
            throw new LapiException(LapiError.HNDL_INVALID, call + ": the context was terminated while it waited");
        }
    }

    /** The condition of a Waitcntr: the counter could be taken down by the value. */
    private static final class CounterWait implements BooleanSupplier {
        private @Nullable LapiCounter counter;
        private int value;
        private int left;

        @Override
        public boolean getAsBoolean() {
            LapiCounter c = counter;
            if (c == null) {
                return true;
            }
            left = c.tryTake(value);
            return left != Integer.MIN_VALUE;
        }
    }
}
