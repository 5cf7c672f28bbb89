package org.portals3j.lapi;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;

/**
 * The context's event queue handler: counts the events deposited and wakes the parked dispatcher thread when one
 * comes while no thread holds the dispatcher's role, so that its handlers run without waiting for a timer.
 */
final class Arrivals implements EventHandler {
    private final AtomicLong deposited = new AtomicLong();
    /** The waiting thread that leads (holds or is taking the role), or null: the engine's, shared. */
    final AtomicReference<@Nullable Thread> leader = new AtomicReference<>();
    /** The dispatcher thread while it is parked, stepped aside; null otherwise. */
    private volatile @Nullable Thread parked;
    /** Events taken from the queue, written only by the role's holder. */
    private volatile long taken;

    /** Runs on the thread that deposits the event, under the Portals library's lock: no Portals call, no block. */
    @Override
    public void handle(Event event) {
        deposited.incrementAndGet();
        // Deposited is written before the leader is read; a leader that gives up the role writes it, then reads
        // deposited (wakeIfPending): one of the two sees the other, so no event is left with nobody to take it.
        if (leader.get() == null) {
            unparkDispatcher();
        }
    }

    /** The role's holder took an event. */
    void took() {
        taken = taken + 1;
    }

    /** How many events were deposited so far (read before a PtlEQGet that may find the queue empty). */
    long deposited() {
        return deposited.get();
    }

    /**
     * The role's holder found the queue empty after reading {@code seen} {@link #deposited()}: every event counted
     * then was taken or lost by a full queue (the handler runs for those too), so none of them is pending any more.
     */
    void settle(long seen) {
        if (taken < seen) {
            taken = seen;
        }
    }

    /** True if an event was deposited that no thread has taken yet (it waits in the queue). */
    boolean pending() {
        return deposited.get() != taken;
    }

    /** The dispatcher thread parks while it has stepped aside: register it first, then test, then park. */
    void parking(@Nullable Thread dispatcher) {
        parked = dispatcher;
    }

    /** A leader gave the role up (after clearing {@link #leader}): wake the dispatcher if an event waits. */
    void wakeIfPending() {
        if (pending()) {
            unparkDispatcher();
        }
    }

    private void unparkDispatcher() {
        Thread d = parked;
        if (d != null) {
            LockSupport.unpark(d);
        }
    }
}
