package org.portals3j.mpi.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.checkerframework.checker.initialization.qual.NotOnlyInitialized;
import org.checkerframework.checker.initialization.qual.UnderInitialization;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.IdleStrategy;
import org.portals3j.transport.Polling;

/**
 * How the threads of one rank wait for its events: at most one blocks in {@code PtlEQWait} and handles what it wakes
 * for, the others back off; whoever needs the queue to itself recalls the blocker with a 0-byte put to its own rank.
 */
final class RankWaits {
    /** Each thread's waiting state (an idle strategy keeps state, so one per thread). */
    private static final ThreadLocal<@Nullable WaitState> WAITS = new ThreadLocal<>();

    /** How a thread's waits back off, and the {@link #changes} it saw at the end of its last idle round. */
    private static final class WaitState {
        final boolean oversubscribed;
        final IdleStrategy idle;
        int seen;

        WaitState(boolean oversubscribed) {
            this.oversubscribed = oversubscribed;
            this.idle = IdleMode.BACKOFF.newStrategy(oversubscribed);
        }
    }

    /** The engine (which makes this in its constructor, hence under initialization then). */
    private final @NotOnlyInitialized PointToPoint engine;
    /** The rank's lock (the engine's). */
    private final ReentrantLock lock;
    private final Portals lib;
    private final EqHandle eq;
    /** An MD of no memory for the 0-byte put to {@link #self}'s {@link RankPortals#WAKE_PORTAL}. */
    private final MdHandle wakeMd;
    private final ProcessId self;
    private final Polling polling;
    /** Whether the job's ranks on this host outnumber its cores: this rank's waits then spin only briefly. */
    private final boolean oversubscribed;
    /** The event the blocker's {@code PtlEQWait} fills (only the blocker touches it). */
    private final Event blockerEvent = new Event();
    /** The thread blocked in {@code PtlEQWait} for the rank's next event, if one is: it alone takes events then. */
    private volatile @Nullable Thread blocker;
    /** Changes other than by an event ({@link #changedLocally}) so far: a thread about to block must look again. */
    private final AtomicInteger localChanges = new AtomicInteger();
    /**
     * Events handled so far, by any thread (written under the lock): one another thread handled may have completed
     * what a thread about to block waits for, so it must look again too ({@link #changes}).
     */
    private volatile int eventsHandled;
    /** Threads waiting for the blocker to hand the events back ({@link #lockExclusive}); no one blocks meanwhile. */
    private int recalling;
    /** Background iDups under way ({@link #backgroundStarted}); no one blocks meanwhile. */
    private final AtomicInteger background = new AtomicInteger();

    RankWaits(@UnderInitialization PointToPoint engine, ReentrantLock lock, Portals lib, EqHandle eq, MdHandle wakeMd,
            ProcessId self, Polling polling, boolean oversubscribed) {
        this.engine = engine;
        this.lock = lock;
        this.lib = lib;
        this.eq = eq;
        this.wakeMd = wakeMd;
        this.self = self;
        this.polling = polling;
        this.oversubscribed = oversubscribed;
    }

    /** Waits until {@code op} is done, making progress meanwhile (the lock is free between rounds). */
    void await(Operation op) {
        IdleStrategy idle = waitState().idle;
        idle.reset();
        if ((op instanceof SendOperation || op instanceof ReceiveOperation) && engine.collectives().isEmpty()) {
            // Only an event (or a change another thread makes) ends a send or a receive under way, and no schedule
            // needs moving on: block at once. PtlEQWait returns the first event waiting, as a look at the queue would.
            int seen = changes();
            if (op.isDone()) {
                return;
            }
            checkInterrupt();
            if (blockForEvent(seen, op)) {
                idle.reset();
            }
        }
        while (!op.isDone()) {
            int seen = changes();
            int n = engine.progress();
            if (op.isDone()) {
                return;
            }
            checkInterrupt();
            if (n == 0 && blockForEvent(seen, op)) {
                idle.reset();
            } else {
                idleStep(idle, n);
            }
        }
    }

    /**
     * One round of a wait whose caller checks its own condition between rounds: progress, then, if there was nothing
     * to do, a block or an idle step. It blocks only from the second round on, when nothing changed ({@link #changes})
     * since the end of the previous round, before the caller last checked.
     */
    void idleRound(boolean first) {
        WaitState w = waitState();
        if (first) {
            w.idle.reset();
        }
        int n = engine.progress();
        checkInterrupt();
        if (first || n != 0 || !blockForEvent(w.seen, null)) {
            idleStep(w.idle, n);
        } else {
            w.idle.reset();
        }
        w.seen = changes();
    }

    /**
     * Becomes the rank's blocker, unless another thread is: waits in {@code PtlEQWait} (which polls the network, then
     * parks until an event is logged), then handles that event and the ones behind it. Only one thread blocks; the
     * others back off meanwhile and leave the events to it, so that events are handled in the queue's order.
     *
     * @param seen {@link #changes} before the caller last looked at what it waits for
     * @param op what the caller waits for, if one operation: the events behind the one that ends it stay queued
     * @return false if it did not block (another thread is the blocker, or something changed since: an operation may
     *         have completed)
     */
    private boolean blockForEvent(int seen, @Nullable Operation op) {
        lock.lock();
        try {
            if (!claimBlocker(seen)) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        waitAsBlocker(op);
        return true;
    }

    /**
     * Makes the calling thread the blocker, unless another thread is one, a thread is recalling it, a background iDup
     * runs, or something changed since {@code seen}. Under the lock.
     */
    private boolean claimBlocker(int seen) {
        if (engine.isFinished() || blocker != null || recalling > 0 || background.get() > 0) {
            return false;
        }
        blocker = Thread.currentThread();
        if (changes() != seen) { // blocker written, then this read; the reverse in changedLocally
            blocker = null;
            return false;
        }
        return true;
    }

    /** The blocker ({@link #claimBlocker}) waits in {@code PtlEQWait}, then hands back and handles what it got. */
    private void waitAsBlocker(@Nullable Operation op) {
        ReturnCode rc = null;
        try {
            rc = lib.eqWaitInterruptibly(eq, blockerEvent);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's next checkInterrupt ends its wait
        } finally {
            lock.lock();
            try {
                blocker = null;
                if (rc != null) {
                    engine.handleWaited(rc, blockerEvent, op);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * A blocking receive: posts {@code op} ({@link PointToPoint#post}) and, if it is not done and the thread may block
     * at once (as {@link #await} would), becomes the blocker in the same hold of the lock; then waits until it is done.
     */
    void receive(ReceiveOperation op) {
        boolean blocked;
        lock.lock();
        try {
            engine.post(op);
            int seen = changes(); // under the lock, after the events the posting handled
            blocked = !op.isDone() && engine.collectives().isEmpty() && claimBlocker(seen);
        } finally {
            lock.unlock();
        }
        if (blocked) {
            waitAsBlocker(op);
        }
        await(op);
    }

    /**
     * A background iDup's thread starts: until it ends ({@link #backgroundEnded}) every wait of the rank backs off
     * rather than blocks (a blocked thread is woken to do so).
     */
    void backgroundStarted() {
        background.incrementAndGet();
        changedLocally();
    }

    /** A background iDup's thread ends (after its operation completed). */
    void backgroundEnded() {
        background.decrementAndGet();
        changedLocally();
    }

    /**
     * Handles the events waiting, unless another thread is the blocker: while it waits, or holds an event it has not
     * handled yet, a drain here would take later events before that one. It handles them all once it has the lock.
     * Under the lock.
     */
    int drainUnlessBlocked() {
        return mayDrain() ? engine.drain() : 0;
    }

    /** Whether the calling thread may take events from the queue: no other thread is the blocker. */
    boolean mayDrain() {
        Thread b = blocker;
        return b == null || b == Thread.currentThread();
    }

    /**
     * Takes the lock with no other thread blocked in {@code PtlEQWait}: what needs every event so far handled and
     * the queue's emptiness to mean something (posting a receive: Portals 3.2 section 5.3) first wakes the blocker with
     * a 0-byte put to this rank and waits for it to hand back (an event a waiter takes never enters the queue).
     */
    void lockExclusive() {
        lock.lock();
        recall();
    }

    /**
     * {@link #lockExclusive} for a thread that holds the lock: recalls the blocker, if another thread is one, letting
     * the lock go while it waits for it to hand back.
     */
    void recall() {
        Thread b = blocker;
        if (b == null || b == Thread.currentThread()) {
            return;
        }
        recalling++;
        try {
            wake();
            while (blocker != null) {
                lock.unlock();
                Thread.yield(); // the blocker needs the lock to hand back, and maybe this core
                lock.lock();
            }
        } finally {
            recalling--;
        }
    }

    /** Makes an event for the blocker: a 0-byte put to this rank's wake portal. Under the lock. */
    private void wake() {
        if (!engine.isFinished()) {
            lib.put(wakeMd, AckRequest.NOACK_REQ, self, RankPortals.WAKE_PORTAL, RankPortals.COOKIE, 0, 0, 0);
        }
    }

    /**
     * Says that something a thread of this rank may wait for changed other than by an event (an operation cancelled
     * or completed by a background iDup, a context id given up), and wakes the blocker, if another thread is blocked,
     * with a 0-byte put to this rank: what it waits for may be that change.
     */
    void changedLocally() {
        localChanges.incrementAndGet();
        Thread b = blocker;
        if (b == null || b == Thread.currentThread()) {
            return;
        }
        lock.lock();
        try {
            wake();
        } finally {
            lock.unlock();
        }
    }

    /** An event was handled (by whichever thread): a thread about to block must look again. Under the lock. */
    void eventHandled() {
        eventsHandled++; // the only writer: under the lock
    }

    /** The thread blocked in {@code PtlEQWait} for the rank's next event, if one is. */
    @Nullable Thread blocker() {
        return blocker;
    }

    /**
     * What a thread about to block must not have missed, as one number that moves whenever either part does: the
     * changes made other than by an event ({@link #changedLocally}) and the events handled by any thread. A thread
     * that looked at what it waits for, found it not done, and then finds this number moved, looks again rather than
     * blocks: the blocker may have handled the event that completes its operation in between, and no event follows.
     */
    private int changes() {
        return localChanges.get() + eventsHandled;
    }

    /**
     * One step of back-off after a round that did {@code work}. The rounds poll the network through
     * {@code PtlEQGet}, which lets the transport leave its receive path to this thread; before parking, the thread
     * says it stops polling, so that the transport takes the path back at once rather than when it notices.
     */
    private void idleStep(IdleStrategy idle, int work) {
        if (work == 0 && idle.parksNext()) {
            polling.pollingStopped();
        }
        idle.idle(work);
    }

    /**
     * A wait whose thread is interrupted ends with {@code ERR_OTHER} (the interrupt stays set): what lets a runner
     * that stops a job of in-JVM ranks end the ones blocked in MPI (the operation itself stays under way).
     */
    private static void checkInterrupt() {
        if (Thread.currentThread().isInterrupted()) {
            throw new MpiError(ErrorClass.OTHER, "interrupted while waiting for an MPI operation");
        }
    }

    /** The calling thread's back-off. */
    IdleStrategy idle() {
        return waitState().idle;
    }

    /** The calling thread's waiting state, made for this rank's oversubscription (a thread acts for one rank). */
    private WaitState waitState() {
        WaitState w = WAITS.get();
        if (w == null || w.oversubscribed != oversubscribed) {
            w = new WaitState(oversubscribed);
            WAITS.set(w);
        }
        return w;
    }
}
