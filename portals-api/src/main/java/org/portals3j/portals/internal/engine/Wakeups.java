package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * Waiters handed an event under the engine lock, to be woken once it is released ({@link #add} under
 * the lock, {@link #takeAll} under the lock, {@link #wakeAll} after it).
 *
 * <p>Why after: a waiter woken inside the critical section wakes into a lock that is still held, and
 * its first step, {@code PtlEQWait} for the next event, waits for it and pulls the lock's cache line
 * away from the holder. Woken after, it finds the lock free, and, when the wake is left for the
 * deposit that follows a small message's header ({@link PortalsEngine#onHeader}), it finds the
 * message's END event already there: one wake-up per message, not two. Deferring a wake can only
 * delay it, by what the holder still does, which is never more than a thread being descheduled could
 * add; what the waiter receives is fixed under the lock.
 */
final class Wakeups extends WakeupsFields {
    // Padding after the list (before it: WakeupsFields). The thread delivering to this process writes
    // the list; the fields of the objects around it (allocated with the engine) are read by every
    // thread of the process on every call.
    long q0, q1, q2, q3, q4, q5, q6, q7;

    /**
     * Queues {@code w}'s wake with {@code signal} ({@link EqWaiter#signalFor}), under the lock; {@code w}
     * is armed and on no queue. Only writes {@code w}'s fields: reading them would wait for the cache
     * line its own thread wrote last.
     */
    void add(EqWaiter w, long signal) {
        w.pendingSignal = signal;
        w.nextWake = null;
        EqWaiter tail = last;
        if (tail == null) {
            first = w;
        } else {
            tail.nextWake = w;
        }
        last = w;
    }

    /** Every queued wake, in the order queued; the list is empty afterwards (under the lock). */
    @Nullable EqWaiter takeAll() {
        EqWaiter list = first;
        if (list != null) { // no store when empty: every release asks, and both threads of a rank release
            first = null;
            last = null;
        }
        return list;
    }

    /** Wakes every waiter of a {@link #takeAll} list (after the lock is released). */
    static void wakeAll(@Nullable EqWaiter list) {
        for (EqWaiter w = list; w != null; ) {
            EqWaiter next = w.nextWake; // read first: once woken, the waiter may arm itself again
            w.nextWake = null;
            w.wake(w.pendingSignal);
            w = next;
        }
    }
}

/** The list of {@link Wakeups}, after the padding (superclass fields are laid out first). */
abstract class WakeupsFields extends CacheLinePadding {
    @Nullable EqWaiter first;
    @Nullable EqWaiter last;
}
