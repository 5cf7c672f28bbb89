package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.ReturnCode;

/**
 * An event queue (L6223): a ring of {@code count} preallocated events, plus the FIFO of threads blocked
 * in {@code PtlEQWait}. All methods run under the engine lock.
 *
 * <p>Invariant: the ring is empty whenever a thread waits. An event logged while threads wait is handed
 * straight to the longest-waiting one, so exactly one thread wakes per event, in FIFO order (L7124,
 * change log L586), and {@code PtlEQGet} from another thread sees {@code PTL_EQ_EMPTY} (L7005, A-56).
 *
 * <p>Overflow: when the ring is full the <em>new</em> event is discarded; the next event taken
 * comes with {@code PTL_EQ_DROPPED} (L6987). Read literally, L6987 puts the flag on the first event
 * <em>after</em> the gap; with the newest events discarded that event may never come, and the loss
 * would go unreported. Reporting it with the next event taken, as the digest recommends (A-36, P-137),
 * tells the application at once.
 *
 * <p>A queue of a Portals 3.3 library differs in two ways. It numbers its own events
 * ({@link #ownSequence}): 3.3 keeps the sequence counter in the queue (reference implementation,
 * {@code p3lib/msg.c}: the event's sequence is the queue's counter, incremented). And it may have a
 * handler (3.3 &sect;3.11.6), run for every event sent to it, including one the full ring loses.
 */
final class EventQueueState extends Slotted {
    private Event[] ring = new Event[0];
    /** Portals 3.3: events get their sequence from {@link #nextSequence}, not from the interface. */
    boolean ownSequence;
    /** The next event's sequence when {@link #ownSequence}; starts at 1, so 0 never names an event. */
    long nextSequence = 1;
    /** Portals 3.3 handler, or null ({@code PTL_EQ_HANDLER_NONE}). */
    @Nullable EventHandler handler;
    /** Where an event goes for the handler alone when the ring is full (allocated with the handler). */
    private @Nullable Event handlerScratch;
    private int head;
    private int size;
    private boolean dropped;
    private @Nullable EqWaiter firstWaiter;
    private @Nullable EqWaiter lastWaiter;
    /**
     * The first waiter's event and ticket, copied here when it becomes first: the thread that logs an
     * event reads this object anyway, and the waiter's own fields, which that thread wrote last, would
     * be one more cache line to fetch before it can write the event.
     */
    private @Nullable Event firstEvent;
    private long firstTicket;

    EventQueueState(int slot) {
        super(slot);
    }

    void init(int capacity) {
        if (ring.length != capacity) {
            Event[] events = new Event[capacity];
            for (int i = 0; i < capacity; i++) {
                events[i] = i < ring.length ? ring[i] : new Event();
            }
            ring = events;
        }
        head = 0;
        size = 0;
        dropped = false;
        firstWaiter = null;
        lastWaiter = null;
        firstEvent = null;
        ownSequence = false;
        nextSequence = 1;
        handler = null;
    }

    /** Makes this a Portals 3.3 queue: its own sequence numbers, and {@code eqHandler} if not null. */
    void initDialect33(@Nullable EventHandler eqHandler) {
        ownSequence = true;
        handler = eqHandler;
        if (eqHandler != null && handlerScratch == null) {
            handlerScratch = new Event();
        }
    }

    /** The event to fill for the handler alone, when {@link #reserve()} found no room; null without a handler. */
    @Nullable Event handlerScratch() {
        return handler == null ? null : handlerScratch;
    }
    int capacity() {
        return ring.length;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** True if an event logged now would be lost (no waiter to take it, no room). */
    boolean full() {
        return firstWaiter == null && size == ring.length;
    }

    /**
     * Where the next event goes: the longest-waiting thread's event, else the next free ring slot;
     * null if the ring is full (the event is dropped, A-36). The caller fills it and then calls
     * {@link #commit()}. Writing the event in place, instead of building it elsewhere and copying it,
     * keeps the fields in the cache lines the taker will read.
     */
    @Nullable Event reserve() {
        Event waiting = firstEvent;
        if (waiting != null) {
            return waiting;
        }
        if (size == ring.length) {
            dropped = true;
            return null;
        }
        Event[] r = ring;
        int tail = head + size; // < 2 * length: one comparison wraps it (no division on the hot path)
        return r[tail < r.length ? tail : tail - r.length];
    }

    /**
     * Publishes the event {@link #reserve()} handed out: queues its waiter's wake in {@code wakeups}
     * (done once the engine lock is released), or makes it takeable.
     *
     * @return true if it stayed in the ring (no waiter took it), for {@code PtlEQPoll} callers to look at
     */
    boolean commit(Wakeups wakeups) {
        EqWaiter w = firstWaiter;
        if (w != null) {
            long signal = firstTicket << 2 | (dropped ? EqWaiter.DROPPED : EqWaiter.OK);
            if (w == lastWaiter) { // the only waiter: its next is null, no need to read it
                firstWaiter = null;
                lastWaiter = null;
                firstEvent = null;
            } else {
                EqWaiter next = w.next;
                w.next = null;
                becomeFirst(next);
            }
            wakeups.add(w, signal);
            dropped = false;
            return false;
        }
        size++;
        return true;
    }

    /** Takes the next event into {@code into}: {@code OK}, {@code EQ_DROPPED} or {@code EQ_EMPTY}. */
    ReturnCode take(Event into) {
        if (size == 0) {
            return ReturnCode.EQ_EMPTY;
        }
        into.copyFrom(ring[head]);
        int next = head + 1;
        head = next == ring.length ? 0 : next;
        size--;
        ReturnCode result = dropped ? ReturnCode.EQ_DROPPED : ReturnCode.OK;
        dropped = false;
        return result;
    }

    /** Queues {@code w} behind the threads already waiting. */
    void enqueueWaiter(EqWaiter w) {
        w.next = null;
        EqWaiter last = lastWaiter;
        if (last == null) {
            becomeFirst(w);
        } else {
            last.next = w;
        }
        lastWaiter = w;
    }

    private void becomeFirst(@Nullable EqWaiter w) {
        firstWaiter = w;
        firstEvent = w == null ? null : w.event;
        firstTicket = w == null ? 0L : w.ticket();
    }

    /** Wakes every waiter with "queue gone" (freed, or its interface finalised). */
    void cancelWaiters() {
        EqWaiter w = firstWaiter;
        firstWaiter = null;
        lastWaiter = null;
        firstEvent = null;
        while (w != null) {
            EqWaiter next = w.next;
            w.next = null;
            w.wake(w.signalFor(EqWaiter.CANCELLED));
            w = next;
        }
    }
}
