package org.portals3j.portals.internal.engine;

import java.util.concurrent.locks.LockSupport;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.ReturnCode;
import org.portals3j.transport.internal.AwaitLoop;

/**
 * A thread blocked in {@code PtlEQWait}; one per thread and engine, reused.
 *
 * <p>The thread {@linkplain #arm arms} it under the engine lock for one wait, which gets a new
 * ticket, and then watches {@link EqWaiterSignal#signal}; whoever hands it an event (or cancels the
 * wait) writes the ticket and the outcome there, the only store the two threads make to that cache
 * line per wait. The waiting thread never writes it back: a flag it reset itself would cost a second
 * transfer of the line on every wait.
 *
 * <p>The fields after the padding (registration, under the engine lock) are on other cache lines
 * than the signal, which the waiting thread reads in a loop.
 */
final class EqWaiter extends EqWaiterSignal implements AwaitLoop.Wait {
    static final int OK = 1;
    static final int DROPPED = 2;
    static final int CANCELLED = 3;

    long q0, q1, q2, q3, q4, q5, q6, q7;
    final Thread thread;
    /** Parks {@link #event} when no caller's event is being filled. */
    final Event spare = new Event();
    /** Where the handed-over event is written: the caller's, while armed. */
    Event event = spare;
    /** The current wait's ticket (written by the waiting thread under the lock). */
    private long ticket;
    /** The signal a deferred wake will write ({@link Wakeups}). */
    long pendingSignal;
    /** Whether an interrupt ends the current wait ({@link #endsOnInterrupt}). */
    boolean interruptible;
    /** The next waiter of the queue's FIFO. */
    @Nullable EqWaiter next;
    /** The next waiter of a {@link Wakeups} list. */
    @Nullable EqWaiter nextWake;

    EqWaiter(Thread thread) {
        this.thread = thread;
    }

    /** Starts a wait for an event to be written into {@code into}; under the engine lock. Returns its ticket. */
    long arm(Event into) {
        event = into;
        return ++ticket;
    }

    /** The current wait's ticket (under the engine lock). */
    long ticket() {
        return ticket;
    }

    /** The signal that ends the current wait with {@code outcome}. */
    long signalFor(int outcome) {
        return ticket << 2 | outcome;
    }

    /** True once the wait with {@code myTicket} has ended. */
    boolean ended(long myTicket) {
        return signal >>> 2 == myTicket;
    }

    /** The wait's condition in {@link AwaitLoop}: the current wait has ended (read by the waiting thread). */
    @Override
    public boolean isOver() {
        return ended(ticket);
    }

    /** From now on a waker unparks this thread ({@link #wake}). */
    @Override
    public void parking() {
        mayPark = true;
    }

    @Override
    public boolean endsOnInterrupt() {
        return interruptible;
    }

    /** How the ended wait ended: {@link #OK}, {@link #DROPPED} or {@link #CANCELLED}. */
    int outcome() {
        return (int) (signal & 3);
    }

    /** The return code of an event handed over ({@link #OK} or {@link #DROPPED}). */
    ReturnCode result() {
        return outcome() == DROPPED ? ReturnCode.EQ_DROPPED : ReturnCode.OK;
    }

    /** Ends the wait: writes {@code value} ({@link #signalFor}) and unparks the thread if it may be parked. */
    void wake(long value) {
        // signal then mayPark here, mayPark then signal in the waiter: one of the two sees the other.
        signal = value;
        if (mayPark) {
            LockSupport.unpark(thread);
        }
    }
}
