package org.portals3j.portals.internal.engine;

import java.util.concurrent.locks.LockSupport;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A thread blocked in Portals 3.3 {@code PtlEQPoll}; one per thread, reused. While it waits it is on
 * its interface's list of pollers ({@link NetworkInterfaceState#addPoller}); every event that lands in
 * one of that interface's queues signals it, and it then looks at its own queues again.
 *
 * <p>Signalling the interface, not each queue, keeps registration allocation-free whatever the number
 * of queues polled (3.3 requires them all to be on one interface); a poller woken by another queue's
 * event finds nothing and waits on.
 */
final class PollWaiter {
    final Thread thread;
    /** Set by the logging thread when an event lands; cleared by the poller before it looks. */
    volatile boolean signalled;
    /** Set by the poller once it may park; only then does {@link #signal} pay for an unpark. */
    volatile boolean mayPark;
    // The interface's list of pollers (under the engine lock).
    @Nullable NetworkInterfaceState registeredOn;
    @Nullable PollWaiter prev;
    @Nullable PollWaiter next;

    PollWaiter(Thread thread) {
        this.thread = thread;
    }

    void signal() {
        // signalled then mayPark here, mayPark then signalled in the poller: one sees the other.
        signalled = true;
        if (mayPark) {
            LockSupport.unpark(thread);
        }
    }
}
