package org.portals3j.lapi;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How the threads of one context wait for something communication does: a waiter takes the dispatcher's role when it
 * is free and handles the events itself until its condition holds ({@link Dispatch}); otherwise it sleeps on a
 * monitor (Waitcntr on the counters' one, the other waits on the other) until the role's holder signals it.
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
    private Dispatch dispatch = Dispatch.NONE;
    /** The thread that holds the dispatcher's role in a LAPI wait and may block in PtlEQWait, or null. */
    private volatile @Nullable Thread blocker;
    /** A wake-up event is on its way to the blocker (at most one: a waiter's signals cost one put, not one each). */
    private final AtomicBoolean wakePending = new AtomicBoolean();
    /** How many times a waiting thread took the dispatcher's role (interrupt mode; for tests). */
    private final AtomicLong leads = new AtomicLong();
    /** How many events the dispatcher thread took itself (interrupt mode; for tests). */
    private final AtomicLong dispatcherEvents = new AtomicLong();
    /** One reusable Waitcntr condition per thread: waiting allocates nothing (no nesting: O-14 forbids it). */
    private static final ThreadLocal<@Nullable CounterWait> COUNTER_WAITS = ThreadLocal.withInitial(CounterWait::new);

    Progress(boolean polling) {
        this.polling = polling;
    }

    /** Polling mode: {@code poller} runs the dispatcher once and returns the number of events it handled. */
    void poller(IntSupplier p) {
        this.poller = p;
    }

    /** How a waiting thread takes the dispatcher's role, dispatches, and gives the role back. */
    void dispatch(Dispatch d) {
        this.dispatch = d;
    }

    boolean polling() {
        return polling;
    }

    /** Wakes the threads in Waitcntr: a counter was set, or reached the threshold one of them waits for. */
    void signalCounters() {
        counterChanges.incrementAndGet();
        wakeBlocker();
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
        wakeBlocker();
        if (waiters.get() > 0) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
    }

    /**
     * A change the blocker may wait for was made on another thread (a completion thread's counter increment, a
     * Setcntr, a purge): an event for it (one in flight at a time), since it sleeps in PtlEQWait, not on a monitor.
     * The change was written before this read of the blocker; the blocker is written before it reads the state.
     */
    private void wakeBlocker() {
        Thread b = blocker;
        if (b != null && b != Thread.currentThread() && !wakePending.get() && wakePending.compareAndSet(false, true)) {
            dispatch.wake();
        }
    }

    /** The dispatcher thread took an event from the queue (it holds the role). */
    void dispatcherTook() {
        dispatcherEvents.lazySet(dispatcherEvents.get() + 1);
    }

    /** How many times a waiting thread took the role in interrupt mode (for tests). */
    long leads() {
        return leads.get();
    }

    /** How many events the dispatcher thread took (for tests). */
    long dispatcherEvents() {
        return dispatcherEvents.get();
    }

    /** True while a thread holds the dispatcher's role (for tests: the dispatcher thread holds it only to drain). */
    boolean roleHeld() {
        return dispatch.held();
    }

    /** The thread holding the dispatcher's role in a LAPI wait, or null (for tests). */
    @Nullable Thread blocker() {
        return blocker;
    }

    /** The blocker's wake-up event was handled (or could not be sent): the next change sends another. */
    void woken() {
        wakePending.set(false);
    }

    /** The thread running header handlers and inline completion handlers now (the role's holder), or null. */
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
        if (!polling && dispatch.held()) {
            // Spinning helps only while another thread handles the events; with the role free this thread takes it.
            for (int i = 0; i < SPINS; i++) {
                int left = counter.tryTake(value);
                if (left != Integer.MIN_VALUE) {
                    return left;
                }
                Thread.onSpinWait();
            }
        }
        CounterWait w = COUNTER_WAITS.get();
        if (w == null) {
            w = new CounterWait();
            COUNTER_WAITS.set(w);
        }
        w.counter = counter;
        w.value = value;
        // The threshold is registered before the value is read: an increment after that read sees it and signals.
        counter.addWaiter(value);
        try {
            if (polling) {
                awaitPolling(w, call);
            } else {
                awaitInterrupt(w, call, counterMonitor, counterChanges, counterWaiters);
            }
            return w.left;
        } finally {
            counter.removeWaiter();
            w.counter = null;
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
        // A short spin first, while another thread holds the role: it usually answers within microseconds, and a
        // waiter that has not gone to sleep costs it no wake-up (bounded, so a loaded machine loses little).
        for (int i = 0; dispatch.held() && i < SPINS; i++) {
            if (done.getAsBoolean()) {
                return;
            }
            Thread.onSpinWait();
        }
        awaitInterrupt(done, call, monitor, changes, waiters);
    }

    /**
     * Interrupt mode, past the spin: leads (takes the dispatcher's role and handles the events itself until
     * {@code done}) when no other waiting thread does, else sleeps on {@code mon} until a signal and tries again.
     */
    private void awaitInterrupt(BooleanSupplier done, String call, Object mon, AtomicLong seenChanges,
                                AtomicInteger sleepers) {
        // The condition is checked outside the monitor (it may take the locks of the state it reads, whose owners
        // signal); the change count closes the window between the check and the wait.
        sleepers.incrementAndGet();
        try {
            while (true) {
                long seen = seenChanges.get();
                if (done.getAsBoolean()) {
                    return;
                }
                failIfClosed(call);
                if (dispatch.take()) {
                    leads.incrementAndGet();
                    try {
                        lead(done, call);
                        return;
                    } finally {
                        dispatch.giveBack();
                    }
                }
                synchronized (mon) {
                    if (seenChanges.get() == seen) {
                        mon.wait(50);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LapiException(LapiError.UNKNOWN, call + " was interrupted", e);
        } finally {
            sleepers.decrementAndGet();
        }
    }

    /** Holding the role: blocks for events and handles them until {@code done} holds. */
    private void lead(BooleanSupplier done, String call) throws InterruptedException {
        blocker = Thread.currentThread();
        try {
            while (!done.getAsBoolean()) {
                failIfClosed(call);
                dispatch.handleNext(call);
            }
        } finally {
            blocker = null;
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
                blockPolling(done, call);
                idle = 0;
            }
        }
    }

    /**
     * Polling mode, idle: blocks in PtlEQWait for one event if no other thread polls (then polls again), else parks
     * briefly (the thread that polls handles the events meanwhile).
     */
    private void blockPolling(BooleanSupplier done, String call) {
        try {
            if (dispatch.take()) {
                blocker = Thread.currentThread();
                try {
                    if (!done.getAsBoolean()) {
                        failIfClosed(call);
                        dispatch.handleNext(call);
                    }
                } finally {
                    blocker = null;
                    dispatch.giveBack();
                }
                return;
            }
            LockSupport.parkNanos(PARK_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LapiException(LapiError.UNKNOWN, call + " was interrupted", e);
        }
    }

    private void failIfClosed(String call) {
        if (closed) {
            throw new LapiException(LapiError.HNDL_INVALID, call + ": the context was terminated while it waited");
        }
    }

    /**
     * The dispatcher's role, which one thread at a time holds: it alone takes events from the context's queue, so
     * they are handled in the queue's order (an event PtlEQWait hands a waiter never enters the queue).
     */
    interface Dispatch {
        /** Before the engine is bound: no role to take. */
        Dispatch NONE = new Dispatch() {
            @Override
            public boolean held() {
                return false;
            }

            @Override
            public boolean take() {
                return false;
            }

            @Override
            public void handleNext(String call) {
                throw new IllegalStateException(call + ": the engine is not bound to its context yet");
            }

            @Override
            public void giveBack() {
                // Never taken.
            }

            @Override
            public void wake() {
                // No blocker.
            }
        };

        /** True while a thread holds the role (handles events), so a condition may come true without this one. */
        boolean held();

        /** Takes the role for the calling thread; false if another waiting thread holds it. */
        boolean take() throws InterruptedException;

        /** Holding the role: blocks until an event comes (or a wake-up), handles it; HNDL_INVALID once closed. */
        void handleNext(String call) throws InterruptedException;

        /** Gives the role up (in interrupt mode the dispatcher thread takes it back when no waiter leads). */
        void giveBack();

        /** Makes an event for the blocker, so that its PtlEQWait returns. */
        void wake();
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
