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
final class EventQueueState extends EqWaiterSide {
    // Padding after the waiter fields.
    long e0, e1, e2, e3, e4, e5, e6, e7;

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
        headIndex = 0;
        tail = 0;
        tailIndex = 0;
        seenHead = 0;
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
        return head == tail;
    }

    /** True if an event logged now would be lost (no waiter to take it, no room). */
    boolean full() {
        return firstWaiter == null && tail - head == ring.length;
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
        Event[] r = ring;
        if (tail - seenHead == r.length) {
            seenHead = head; // the taker's line, read only when the ring looked full
            if (tail - seenHead == r.length) {
                dropped = true;
                return null;
            }
        }
        return r[(int) tailIndex];
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
            if (dropped) {
                dropped = false; // no store otherwise: the flag shares the line every side reads
            }
            return false;
        }
        long next = tailIndex + 1;
        tailIndex = next == ring.length ? 0 : next; // a comparison wraps it: no division on the hot path
        tail++;
        return true;
    }

    /** Takes the next event into {@code into}: {@code OK}, {@code EQ_DROPPED} or {@code EQ_EMPTY}. */
    ReturnCode take(Event into) {
        if (head == tail) {
            return ReturnCode.EQ_EMPTY;
        }
        int at = (int) headIndex; // the taker's own line: the slot is fetched while tail still is
        into.copyFrom(ring[at]);
        int next = at + 1;
        headIndex = next == ring.length ? 0 : next;
        head++;
        if (dropped) {
            dropped = false;
            return ReturnCode.EQ_DROPPED;
        }
        return ReturnCode.OK;
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

/**
 * What every side of an {@link EventQueueState} reads and seldom writes: the ring, the 3.3 settings.
 * The sides that change with every event follow on cache lines of their own, so that the thread that
 * logs events and the thread that takes them each write lines the other only reads: the logger
 * {@link EqLoggerSide}, the taker {@link EqTakerSide}, and both, one per wait, {@link EqWaiterSide}.
 */
abstract class EqSharedSide extends Slotted {
    Event[] ring = new Event[0];
    /** Portals 3.3 handler, or null ({@code PTL_EQ_HANDLER_NONE}). */
    @Nullable EventHandler handler;
    /** Where an event goes for the handler alone when the ring is full (allocated with the handler). */
    @Nullable Event handlerScratch;
    /** Portals 3.3: events get their sequence from {@link #nextSequence}, not from the interface. */
    boolean ownSequence;
    /**
     * Takes the 4 bytes left after the references: HotSpot would otherwise put a field of a subclass
     * there, on this line, away from the side it belongs to (the indexes below are longs for the same
     * reason).
     */
    int gap;

    EqSharedSide(int slot) {
        super(slot);
    }
}

/** Written by the thread logging events (padding first: a class's longs are laid out in order). */
abstract class EqLoggerSide extends EqSharedSide {
    long l0, l1, l2, l3, l4, l5, l6, l7;
    /** Events ever put in the ring. */
    long tail;
    /** {@link EqTakerSide#head} as last read: the ring is full only if it looks full with this. */
    long seenHead;
    /** The next event's sequence when {@link #ownSequence}; starts at 1, so 0 never names an event. */
    long nextSequence = 1;
    /** Where the next event goes in the ring. */
    long tailIndex;
    /** Events were lost since the last take: the next one taken says PTL_EQ_DROPPED. */
    boolean dropped;

    EqLoggerSide(int slot) {
        super(slot);
    }
}

/** Written by the threads taking events. */
abstract class EqTakerSide extends EqLoggerSide {
    long t0, t1, t2, t3, t4, t5, t6, t7;
    /** Events ever taken; {@code tail - head} are in the ring. */
    long head;
    /** Where the next event is taken from. */
    long headIndex;

    EqTakerSide(int slot) {
        super(slot);
    }
}

/** The FIFO of threads in PtlEQWait: armed by the waiting thread, emptied by the logging one. */
abstract class EqWaiterSide extends EqTakerSide {
    long w0, w1, w2, w3, w4, w5, w6, w7;
    /**
     * The first waiter's ticket, and its event below, copied here when it becomes first: the thread
     * that logs an event reads this line anyway, and the waiter's own fields, which its thread wrote
     * last, would be one more cache line to fetch before it can write the event.
     */
    long firstTicket;
    @Nullable EqWaiter firstWaiter;
    @Nullable EqWaiter lastWaiter;
    @Nullable Event firstEvent;

    EqWaiterSide(int slot) {
        super(slot);
    }
}
