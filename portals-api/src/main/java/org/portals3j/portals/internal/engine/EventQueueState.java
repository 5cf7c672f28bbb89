package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.ReturnCode;

/**
 * An event queue (Portals 3.2 spec §3.8.5.2): a ring of {@code count} events, plus the FIFO of threads blocked in
 * {@code PtlEQWait}. All methods run under the engine lock.
 *
 * <p>Storage: the ring's events live in chunks of {@link EventStorage#CHUNK} preallocated events. The
 * queue is created with its first chunk ({@link EventStorage}, built before the engine lock is taken);
 * a chunk the logger reaches for the first time is taken from the chunks the taker has left, or
 * allocated then, and a chunk the taker leaves is kept for reuse. So a queue holds as many events in
 * memory as its backlog has ever needed, rounded up to a chunk, never {@code count} up front, and once
 * its backlog has been reached, logging and taking allocate nothing. A chunk the JVM cannot allocate
 * loses the event as a full ring does (below).
 *
 * <p>Invariant: the ring is empty whenever a thread waits. An event logged while threads wait is handed
 * straight to the longest-waiting one, so exactly one thread wakes per event, in FIFO order (Portals 3.2 spec §3.9.8,
 * change log Portals 3.2 spec "Thread Issues"), and {@code PtlEQGet} from another thread sees {@code PTL_EQ_EMPTY}
 * (Portals 3.2 spec §3.9.7.1, A-56).
 *
 * <p>Overflow: when the ring is full the <em>new</em> event is discarded; the next event taken
 * comes with {@code PTL_EQ_DROPPED} (Portals 3.2 spec §3.9.7.1). Read literally, Portals 3.2 spec §3.9.7.1 puts the
 * flag on the first event <em>after</em> the gap; with the newest events discarded that event may never come, and the
 * loss would go unreported. Reporting it with the next event taken, our choice (open point A-36, Portals 3.2 spec
 * §3.9.7; P-137), tells the application at once.
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

    /** Makes this a fresh queue over {@code storage}, which no other queue uses. */
    void init(EventStorage storage) {
        chunks = storage.chunks;
        spares = storage.spares;
        spareCount = 0;
        capacity = storage.capacity;
        allocator = storage.allocator;
        handlerScratch = storage.handlerScratch;
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

    /**
     * Makes this a Portals 3.3 queue: its own sequence numbers, and {@code eqHandler} if not null (its
     * storage then came with a {@link EventStorage#handlerScratch}).
     */
    void initDialect33(@Nullable EventHandler eqHandler) {
        ownSequence = true;
        handler = eqHandler;
    }

    /** The event to fill for the handler alone, when {@link #reserve()} found no room; null without a handler. */
    @Nullable Event handlerScratch() {
        return handler == null ? null : handlerScratch;
    }
    int capacity() {
        return capacity;
    }

    /** Chunks of events this queue holds in memory (in the ring or kept for reuse). */
    int chunksHeld() {
        int n = spareCount;
        for (Event @Nullable [] c : chunks) {
            if (c != null) {
                n++;
            }
        }
        return n;
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** True if an event logged now would be lost (no waiter to take it, no room). */
    boolean full() {
        return firstWaiter == null && tail - head == capacity;
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
        if (tail - seenHead == capacity) {
            seenHead = head; // the taker's line, read only when the ring looked full
            if (tail - seenHead == capacity) {
                dropped = true;
                return null;
            }
        }
        long at = tailIndex;
        Event[] chunk = chunks[(int) (at >>> EventStorage.CHUNK_SHIFT)];
        if (chunk == null) {
            chunk = chunkFor(at);
            if (chunk == null) {
                dropped = true; // no memory for it: lost as from a full ring
                return null;
            }
        }
        return chunk[(int) at & EventStorage.CHUNK_MASK];
    }

    /**
     * The chunk for ring index {@code at}, which the logger reaches for the first time since the taker
     * left it: one the taker left, else a new one (bounded work: one chunk); null if the JVM has no
     * memory for it.
     */
    private Event @Nullable [] chunkFor(long at) {
        Event[] chunk;
        if (spareCount > 0) {
            chunk = spares[--spareCount];
            spares[spareCount] = null;
        } else {
            try {
                chunk = allocator.allocate(EventStorage.CHUNK);
            } catch (OutOfMemoryError e) {
                return null;
            }
        }
        chunks[(int) (at >>> EventStorage.CHUNK_SHIFT)] = chunk;
        return chunk;
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
        tailIndex = next == capacity ? 0 : next; // a comparison wraps it: no division on the hot path
        tail++;
        return true;
    }

    /** Takes the next event into {@code into}: {@code OK}, {@code EQ_DROPPED} or {@code EQ_EMPTY}. */
    ReturnCode take(Event into) {
        if (head == tail) {
            return ReturnCode.EQ_EMPTY;
        }
        long at = headIndex; // the taker's own line: the slot is fetched while tail still is
        Event[] chunk = chunks[(int) (at >>> EventStorage.CHUNK_SHIFT)];
        if (chunk == null) { // never: a chunk holding an event is kept until the taker leaves it
            throw new IllegalStateException("event queue: no chunk at ring index " + at);
        }
        into.copyFrom(chunk[(int) at & EventStorage.CHUNK_MASK]);
        long next = at + 1;
        if (next == capacity) {
            next = 0;
        }
        headIndex = next;
        head++;
        if (((int) next & EventStorage.CHUNK_MASK) == 0 && chunks.length > 1) {
            leave((int) (at >>> EventStorage.CHUNK_SHIFT), chunk); // once per chunk of events
        }
        if (dropped) {
            dropped = false;
            return ReturnCode.EQ_DROPPED;
        }
        return ReturnCode.OK;
    }

    /**
     * The taker has left chunk {@code index}: it holds no event unless the logger has come round to it
     * again (the ring is that full), so it is kept for the next chunk the logger reaches.
     */
    private void leave(int index, Event[] chunk) {
        if ((int) (tailIndex >>> EventStorage.CHUNK_SHIFT) != index) {
            chunks[index] = null;
            spares[spareCount++] = chunk;
        }
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

    /**
     * Takes {@code w} out of the FIFO of waiters (its thread stops waiting). False if it is not there: an event
     * was handed to it, whose wake may still be on its way.
     */
    boolean removeWaiter(EqWaiter w) {
        EqWaiter prev = null;
        for (EqWaiter at = firstWaiter; at != null; prev = at, at = at.next) {
            if (at != w) {
                continue;
            }
            EqWaiter next = w.next;
            w.next = null;
            if (prev == null) {
                becomeFirst(next);
            } else {
                prev.next = next;
            }
            if (lastWaiter == w) {
                lastWaiter = prev;
            }
            return true;
        }
        return false;
    }

    private void becomeFirst(@Nullable EqWaiter w) {
        firstWaiter = w;
        firstEvent = w == null ? null : w.event;
        firstTicket = w == null ? 0L : w.ticket();
    }

    /**
     * The queue is gone (freed, or its interface finalised): wakes every waiter with "queue gone" and
     * lets go of the events, so that their memory, and the user memory they name, can be collected.
     */
    void discard() {
        cancelWaiters();
        chunks = EventStorage.NO_CHUNKS;
        spares = EventStorage.NO_CHUNKS;
        spareCount = 0;
        capacity = 0;
        handlerScratch = null;
        handler = null;
        head = 0;
        tail = 0;
    }

    /** Wakes every waiter with "queue gone". */
    private void cancelWaiters() {
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
 * What every side of an {@link EventQueueState} reads and seldom writes: the ring's chunks, the 3.3
 * settings.
 * The sides that change with every event follow on cache lines of their own, so that the thread that
 * logs events and the thread that takes them each write lines the other only reads: the logger
 * {@link EqLoggerSide}, the taker {@link EqTakerSide}, and both, one per wait, {@link EqWaiterSide}.
 */
abstract class EqSharedSide extends Slotted {
    /** The ring's chunks, by ring index / {@link EventStorage#CHUNK}; null where no chunk is held. */
    Event[] @Nullable [] chunks = EventStorage.NO_CHUNKS;
    /** Chunks the taker has left, for the logger to reuse: {@link #spareCount} of them. */
    Event[] @Nullable [] spares = EventStorage.NO_CHUNKS;
    /** Where a chunk comes from when no spare is left. */
    EventStorage.ChunkAllocator allocator = EventStorage.ChunkAllocator.DEFAULT;
    /** Events the ring holds ({@code count}, or its 3.3 rounding). */
    int capacity;
    int spareCount;
    /** Portals 3.3 handler, or null ({@code PTL_EQ_HANDLER_NONE}). */
    @Nullable EventHandler handler;
    /** Where an event goes for the handler alone when the ring is full (allocated with the storage). */
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
