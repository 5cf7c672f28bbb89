package org.portals3j.portals.internal.engine;

import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.EqPollResult;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ReturnCode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.internal.AwaitLoop;
import org.portals3j.transport.internal.SpinLock;

/**
 * The event queue calls: PtlEQAlloc, PtlEQFree, PtlEQGet, PtlEQWait and Portals 3.3 PtlEQPoll, with the
 * waiting of the calls that block. Each call takes the engine lock itself.
 */
final class EventQueues {
    /** Largest event queue (events); a larger count gives PTL_NOSPACE. */
    static final long MAX_EQ_COUNT = 1L << 24;
    /** Portals 3.3 {@code PTL_TIME_FOREVER} as a PtlEQPoll timeout: no limit. */
    static final long TIME_FOREVER = -1L;

    private final LibraryState library;
    // The library's lock, handler check, wake list and other fixed state, held here too: one hop less on the
    // hot paths (bench/README.md, issue 18 put path).
    private final SpinLock lock;
    private final HandlerCalls handlers;
    private final Wakeups wakeups;
    private final NetworkInterfaceState[] nis;
    private final int libraryId;
    private final ThreadLocal<@Nullable EqWaiter> waiters = new ThreadLocal<>();
    /** The waiter {@link #eqWait} used last (see {@link #waiter()}). */
    private @Nullable EqWaiter recentWaiter;
    private final ThreadLocal<@Nullable PollWait> pollers = new ThreadLocal<>();
    private final ThreadLocal<@Nullable IdleStrategy> idlers = new ThreadLocal<>();
    /** Where the chunks of event queues come from (tests replace it to fail or hold an allocation). */
    private final EventStorage.ChunkAllocator chunkAllocator;
    /** Where PtlEQWait and PtlEQPoll wait. */
    private final AwaitLoop awaitLoop;

    EventQueues(LibraryState library, EventStorage.ChunkAllocator chunkAllocator) {
        this.library = library;
        this.lock = library.lock;
        this.handlers = library.handlers;
        this.wakeups = library.wakeups;
        this.nis = library.nis;
        this.libraryId = library.libraryId;
        this.chunkAllocator = chunkAllocator;
        this.awaitLoop = new AwaitLoop(library.polling);
    }

    /** PtlEQAlloc (Portals 3.2 spec §3.9.5): {@code count} 0 is PTL_NOSPACE. */
    long eqAlloc(long niHandle, long count) {
        return eqAlloc(niHandle, count, null);
    }

    /**
     * PtlEQAlloc; in Portals 3.3 with a handler (3.3 &sect;3.11, {@code PtlEQAlloc(ni, count, eq_handler,
     * &handle)}), null for {@code PTL_EQ_HANDLER_NONE}; a 3.2 queue may have one too (the extension
     * {@code Portals.eqAlloc(ni, count, handler)}), and is otherwise a 3.2 queue. A queue of a 3.3 library
     * numbers its own events, and holds {@code count} rounded up to a power of two ({@link #eqCapacity}); a 3.3
     * {@code count} of 0 gives {@code PTL_EQ_NONE} (0), as in the reference implementation, and no queue.
     *
     * <p>The queue's memory ({@link EventStorage}) is allocated between two holds of the engine lock, so
     * that neither the other threads' Portals calls nor the transport's deliveries wait for it; the slot
     * is taken only in the second, when nothing is left to allocate. A JVM without the memory makes it
     * PTL_NOSPACE with nothing taken.
     *
     * @return the queue's handle, or 0 for a 3.3 {@code count} of 0
     */
    long eqAlloc(long niHandle, long count, @Nullable EventHandler handler) {
        int capacity;
        LibraryState.acquire(handlers, lock);
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.ni(niHandle);
            capacity = eqCapacity(count);
            if (capacity == 0) {
                return 0L; // PTL_EQ_NONE
            }
            if (!ni.eqs.hasRoom()) {
                throw noEqSlot(ni);
            }
        } finally {
            LibraryState.release(wakeups, lock);
        }
        EventStorage storage;
        try {
            storage = EventStorage.allocate(capacity, chunkAllocator, handler != null);
        } catch (OutOfMemoryError e) {
            throw new PortalsException(ReturnCode.NOSPACE, "the JVM has no memory for an event queue of " + capacity
                    + " events (" + e.getMessage() + "): a smaller count, or a larger heap (-Xmx)");
        }
        LibraryState.acquire(handlers, lock);
        try {
            library.requireInit(); // PtlFini or PtlNIFini may have run meanwhile
            NetworkInterfaceState ni = library.ni(niHandle);
            EventQueueState q = ni.eqs.allocate();
            if (q == null) {
                throw noEqSlot(ni);
            }
            q.init(storage);
            if (library.dialect == Dialect.PORTALS_3_3) {
                q.initDialect33(handler);
            } else {
                q.handler = handler;
            }
            return ni.handleOf(q);
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /**
     * The events a queue of {@code count} holds, or PTL_NOSPACE. Portals 3.2: {@code count} itself, 1 to
     * {@link #MAX_EQ_COUNT} (0 is PTL_NOSPACE, A-57). Portals 3.3: as the reference implementation
     * ({@code p3api/eq.c PtlEQAlloc}), {@code count} rounded up to a power of two, at least 2, up to
     * {@link #MAX_EQ_COUNT}; and 0 for a count of 0, which allocates no queue.
     */
    private int eqCapacity(long count) {
        if (library.dialect == Dialect.PORTALS_3_3) {
            if (count == 0) {
                return 0;
            }
            if (count > 0 && count <= MAX_EQ_COUNT) {
                return count <= 2 ? 2 : (int) Long.highestOneBit(count - 1) << 1;
            }
        } else if (count > 0 && count <= MAX_EQ_COUNT) {
            return (int) count;
        }
        throw new PortalsException(ReturnCode.NOSPACE, "an event queue holds 1.." + MAX_EQ_COUNT + " events, not "
                + Long.toUnsignedString(count) + (count == 0 ? " (A-57)" : ""));
    }

    private static PortalsException noEqSlot(NetworkInterfaceState ni) {
        return new PortalsException(ReturnCode.NOSPACE, "the interface already has max_event_queues = "
                + ni.limits.maxEventQueues() + " event queues");
    }

    /**
     * PtlEQFree (Portals 3.2 spec §3.9.6): threads waiting on it wake with PTL_INV_EQ; MDs still naming it log nothing
     * (A-39).
     */
    void eqFree(long eqHandle) {
        LibraryState.acquire(handlers, lock);
        try {
            library.requireInit();
            NetworkInterfaceState ni = library.niOf(eqHandle, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            q.discard();
            ni.eqs.free(q);
            ni.wakePollers(); // a PtlEQPoll on this queue answers PTL_INV_EQ now
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /** PtlEQGet (Portals 3.2 spec §3.9.7): never blocks; OK, EQ_DROPPED or EQ_EMPTY. */
    ReturnCode eqGet(long eqHandle, Event into) {
        ReturnCode rc = takeNow(eqHandle, into);
        // An empty queue: let this thread take what the network holds (Polling.poll), then look again.
        // PtlEQGet stays non-blocking: poll never waits.
        if (rc == ReturnCode.EQ_EMPTY && library.polling.poll()) {
            rc = takeNow(eqHandle, into);
        }
        return rc;
    }

    private ReturnCode takeNow(long eqHandle, Event into) {
        LibraryState lib = library;
        LibraryState.acquire(handlers, lock);
        try {
            lib.requireInit();
            NetworkInterfaceState ni = LibraryState.niOf(nis, libraryId, eqHandle, HandleCodec.KIND_EQ,
                    ReturnCode.INV_EQ);
            EventQueueState q = requireEq(ni, eqHandle);
            return q.take(into);
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /** PtlEQWait (Portals 3.2 spec §3.9.8): blocks with the configured idle strategy until an event is handed over. */
    ReturnCode eqWait(long eqHandle, Event into) {
        ReturnCode rc = awaitEvent(eqHandle, into, false);
        if (rc == null) {
            throw new IllegalStateException("an uninterruptible PtlEQWait ended without an event");
        }
        return rc;
    }

    /**
     * PtlEQWait that an interrupt ends: as {@link #eqWait}, but a thread interrupted before or while it waits leaves
     * the queue's waiters and gets {@link InterruptedException} (its status cleared), unless an event was handed to
     * it first, which it then returns with its status still set.
     */
    ReturnCode eqWaitInterruptibly(long eqHandle, Event into) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before PtlEQWait");
        }
        ReturnCode rc = awaitEvent(eqHandle, into, true);
        if (rc == null) {
            Thread.interrupted();
            throw new InterruptedException("interrupted in PtlEQWait");
        }
        return rc;
    }

    /** Waits for an event; null if an interrupt ended an interruptible wait before one was handed over. */
    private @Nullable ReturnCode awaitEvent(long eqHandle, Event into, boolean interruptible) {
        EqWaiter w = waiter();
        EventQueueState q;
        LibraryState lib = library;
        LibraryState.acquire(handlers, lock);
        try {
            lib.requireInit();
            NetworkInterfaceState ni = LibraryState.niOf(nis, libraryId, eqHandle, HandleCodec.KIND_EQ,
                    ReturnCode.INV_EQ);
            q = requireEq(ni, eqHandle);
            ReturnCode now = q.take(into);
            if (now != ReturnCode.EQ_EMPTY) {
                return now;
            }
            w.arm(into);
            w.interruptible = interruptible;
            q.enqueueWaiter(w);
        } finally {
            LibraryState.release(wakeups, lock);
        }
        // The loop polls the transport while the idle strategy spins (the message this thread waits for is then
        // received, matched and posted here, with no hand-over from another thread), and sets mayPark before its
        // first park (EqWaiter.wake unparks only such waiters). An uninterruptible wait keeps the interrupt flag
        // for the caller.
        boolean over = awaitLoop.await(w, idler(), AwaitLoop.FOREVER);
        if (!over && leftWaiting(q, w)) {
            w.mayPark = false;
            w.event = w.spare;
            return null;
        }
        while (!w.isOver()) { // an event was handed over under the lock; its wake follows the lock's release
            Thread.onSpinWait();
        }
        w.mayPark = false;
        w.event = w.spare; // do not keep the caller's event reachable
        if (w.outcome() == EqWaiter.CANCELLED) {
            throw new PortalsException(ReturnCode.INV_EQ,
                    "the event queue was freed (or its interface finalised) while waiting");
        }
        return w.result();
    }

    /** An interrupted waiter leaves {@code q}'s waiters; false if an event (or the queue's end) reached it first. */
    private boolean leftWaiting(EventQueueState q, EqWaiter w) {
        lock.lock(); // not acquire(): this must not fail, and this thread runs no handler
        try {
            return !w.isOver() && q.removeWaiter(w);
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    /**
     * The calling thread's waiter. The last one used is kept in a field: a rank's thread usually waits
     * again and again, and comparing its thread is cheaper than a {@link ThreadLocal} lookup.
     */
    private EqWaiter waiter() {
        EqWaiter w = recentWaiter;
        Thread me = Thread.currentThread();
        if (w != null && w.thread == me) {
            return w;
        }
        w = waiters.get();
        if (w == null) {
            w = new EqWaiter(me);
            waiters.set(w);
        }
        recentWaiter = w; // a benign race: any thread's waiter may be here; its thread is checked
        return w;
    }

    /**
     * Portals 3.3 PtlEQPoll (3.3 &sect;3.11; reference implementation {@code p3api/eq.c}): takes the next
     * event from the first of {@code queues}, in the order given, that has one, waiting up to
     * {@code timeoutMillis} ({@code PTL_TIME_FOREVER} = -1: without limit; 0: not at all).
     *
     * <p>As in the reference implementation, an empty list and queues of different interfaces are
     * PTL_INV_EQ (its PTL_EQ_INVALID), as is a queue that is not live, or is freed while waiting. It waits
     * as {@link #eqWait} does: spinning briefly while driving the network, then with the configured idle
     * strategy, woken by the thread that logs an event into one of the interface's queues. Threads in
     * {@link #eqWait} on a queue are served first (they take events as they come, A-19); a poller takes
     * what stays in the queue.
     *
     * @return the code (OK, EQ_DROPPED, or EQ_EMPTY after the timeout) and which queue the event came from
     */
    EqPollResult eqPoll(EqHandle[] queues, long timeoutMillis, Event into) {
        if (timeoutMillis < TIME_FOREVER) {
            throw new IllegalArgumentException("timeout " + timeoutMillis + " ms is negative (PTL_TIME_FOREVER is "
                    + TIME_FOREVER + ")");
        }
        EqPollResult now = pollNow(queues, into, null);
        if (now != null) {
            return now;
        }
        if (timeoutMillis == 0) {
            // Like PtlEQGet: let this thread take what the network holds, without waiting.
            if (library.polling.poll()) {
                now = pollNow(queues, into, null);
            }
            return now != null ? now : EqPollResult.EMPTY;
        }
        PollWait p = pollWait();
        PollWaiter w = p.waiter;
        w.signalled = false;
        now = pollNow(queues, into, w); // registers w if nothing is there yet
        if (now != null) {
            return now;
        }
        try {
            p.arm(queues, into);
            long timeout = timeoutMillis == TIME_FOREVER
                    ? AwaitLoop.FOREVER : TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            // As in eqWait; the strategy parks at most IdleMode.PARK_NANOS, so the deadline is looked at again soon.
            if (awaitLoop.await(p, idler(), timeout)) {
                return p.result();
            }
            now = pollNow(queues, into, null);
            return now != null ? now : EqPollResult.EMPTY;
        } finally {
            w.mayPark = false;
            p.disarm();
            lock.lock(); // not acquire(): this must not fail, and this thread runs no handler
            try {
                NetworkInterfaceState on = w.registeredOn;
                if (on != null) {
                    on.removePoller(w);
                }
            } finally {
                LibraryState.release(wakeups, lock);
            }
        }
    }

    /** The calling thread's idle strategy, of the configured mode. */
    private IdleStrategy idler() {
        IdleStrategy idle = idlers.get();
        if (idle == null) {
            idle = library.config.idle().newStrategy(library.config.oversubscribed());
            idlers.set(idle);
        }
        return idle;
    }

    /** The calling thread's PtlEQPoll wait. */
    private PollWait pollWait() {
        PollWait p = pollers.get();
        if (p == null) {
            p = new PollWait(new PollWaiter(Thread.currentThread()));
            pollers.set(p);
        }
        return p;
    }

    /**
     * One thread's PtlEQPoll wait: over once a signalled look at the queues takes an event. The signal is cleared
     * before looking, so that an event logged meanwhile signals again.
     */
    private final class PollWait implements AwaitLoop.Wait {
        private static final EqHandle[] NO_QUEUES = new EqHandle[0];
        final PollWaiter waiter;
        private final Event spare = new Event();
        private EqHandle[] queues = NO_QUEUES;
        private Event into = spare;
        private @Nullable EqPollResult result;

        PollWait(PollWaiter waiter) {
            this.waiter = waiter;
        }

        void arm(EqHandle[] queues, Event into) {
            this.queues = queues;
            this.into = into;
            this.result = null;
        }

        /** Forgets the caller's arguments (not to keep them reachable). */
        void disarm() {
            queues = NO_QUEUES;
            into = spare;
            result = null;
        }

        EqPollResult result() {
            EqPollResult r = result;
            if (r == null) {
                throw new IllegalStateException("PtlEQPoll's wait ended without an event");
            }
            return r;
        }

        @Override
        public boolean isOver() {
            if (!waiter.signalled) {
                return false;
            }
            waiter.signalled = false;
            result = pollNow(queues, into, null);
            return result != null;
        }

        @Override
        public void parking() {
            waiter.mayPark = true;
        }
    }

    /**
     * One look at {@code queues}, under the lock: checks them (PTL_INV_EQ), takes from the first that has
     * an event, or, if none has and {@code register} is given, puts it on the interface's poller list.
     */
    private @Nullable EqPollResult pollNow(EqHandle[] queues, Event into, @Nullable PollWaiter register) {
        LibraryState.acquire(handlers, lock);
        try {
            library.requireInit();
            if (queues.length == 0) {
                throw new PortalsException(ReturnCode.INV_EQ, "PtlEQPoll needs at least one event queue");
            }
            NetworkInterfaceState ni = library.niOf(queues[0].value(), HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
            for (int i = 0; i < queues.length; i++) {
                long h = queues[i].value();
                NetworkInterfaceState of = library.niOf(h, HandleCodec.KIND_EQ, ReturnCode.INV_EQ);
                if (of != ni) {
                    throw new PortalsException(ReturnCode.INV_EQ, "queue " + i + " belongs to interface " + of.index
                            + ", queue 0 to interface " + ni.index + ": PtlEQPoll's queues share one interface");
                }
                requireEq(of, h);
            }
            for (int i = 0; i < queues.length; i++) {
                EventQueueState q = requireEq(ni, queues[i].value());
                ReturnCode rc = q.take(into);
                if (rc != ReturnCode.EQ_EMPTY) {
                    return EqPollResult.of(rc, i);
                }
            }
            if (register != null) {
                ni.addPoller(register);
            }
            return null;
        } finally {
            LibraryState.release(wakeups, lock);
        }
    }

    private static EventQueueState requireEq(NetworkInterfaceState ni, long eqHandle) {
        EventQueueState q = ni.lookupEq(eqHandle);
        if (q == null) {
            throw new PortalsException(ReturnCode.INV_EQ, "no live event queue has handle 0x"
                    + Long.toHexString(eqHandle));
        }
        return q;
    }
}
