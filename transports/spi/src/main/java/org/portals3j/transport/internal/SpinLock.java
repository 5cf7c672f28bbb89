package org.portals3j.transport.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A mutual-exclusion lock for critical sections of a few hundred nanoseconds: the Portals engine's lock and
 * a send channel's. Not reentrant. Internal, like the rest of this package.
 *
 * <p>Why not {@link java.util.concurrent.locks.ReentrantLock}: its {@code unlock} is a volatile store
 * (a full fence on x86), and a put with its events takes a lock eight times; here {@link #unlock} is
 * a release store, which costs nothing on x86, and the uncontended {@link #lock} is one
 * compare-and-set. A waiter spins briefly, then yields, then parks for a period doubling from 1 to
 * {@value #MAX_PARK_NANOS} ns: the holder is usually running on the other core and done within a
 * microsecond, and on a machine with two cores a holder that has been descheduled must get the core
 * back (so a waiter never spins for long). No one is unparked on {@code unlock}: parking is the rare
 * case, and a holder then pays nothing for it.
 *
 * <p>The lock word sits alone on its cache line (padding on both sides): the threads that take it
 * do not also invalidate the fields next to it.
 */
public final class SpinLock extends SpinLockFields {
    private static final int SPINS = 200;
    private static final int YIELDS = 20;
    private static final long MIN_PARK_NANOS = 1_000L;
    static final long MAX_PARK_NANOS = 100_000L;
    /** Doublings from the first park period to one at least {@link #MAX_PARK_NANOS}. */
    private static final int MAX_DOUBLINGS = 7;

    long q0, q1, q2, q3, q4, q5, q6, q7;

    /** True if the lock was free and is now held by the caller. */
    public boolean tryLock() {
        if (STATE.compareAndSet(this, 0, 1)) {
            owner = Thread.currentThread();
            return true;
        }
        return false;
    }

    /**
     * Takes the lock, waiting as long as it takes.
     *
     * @throws IllegalStateException if the calling thread holds it already (it would wait for ever)
     */
    public void lock() {
        if (!tryLock()) {
            lockSlowly();
        }
    }

    private void lockSlowly() {
        Thread self = Thread.currentThread();
        if (owner == self) {
            throw new IllegalStateException("the lock is not reentrant and this thread holds it already");
        }
        int round = 0;
        do {
            round = backOff(this, round);
        } while (state != 0 || !tryLock());
    }

    /**
     * Round {@code round} (from 0) of a wait for a holder that is usually running on the other core, as this lock's
     * waiters wait: spin, then yield, then park on {@code blocker} for a period doubling from 1 us to
     * {@value #MAX_PARK_NANOS} ns. Also the wait of a request for its turn to send.
     *
     * @return the next round (it stops growing once the park period is at its longest)
     */
    public static int backOff(Object blocker, int round) {
        if (round < SPINS) {
            Thread.onSpinWait();
        } else if (round < SPINS + YIELDS) {
            Thread.yield();
        } else {
            int doublings = Math.min(round - SPINS - YIELDS, MAX_DOUBLINGS);
            LockSupport.parkNanos(blocker, Math.min(MIN_PARK_NANOS << doublings, MAX_PARK_NANOS));
        }
        return Math.min(round + 1, SPINS + YIELDS + MAX_DOUBLINGS);
    }

    /** Lets go of the lock; only its holder may call this. */
    public void unlock() {
        owner = null;
        STATE.setRelease(this, 0);
    }

    /** True if the calling thread holds the lock (for assertions and tests). */
    public boolean isHeldByCurrentThread() {
        return owner == Thread.currentThread();
    }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SpinLockFields.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
