package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.portals3j.portals.Event;
import org.portals3j.portals.ReturnCode;

/**
 * The ring of an event queue on its own (the engine's lock is not needed here: one thread): order,
 * wrap-around, the full ring that drops the new event and says so with the next one taken, and a
 * full ring that has room again once an event is taken (the logger re-reads the taker's count); the
 * chunks of a long ring, held as the backlog needs them and reused, and a chunk the JVM cannot
 * allocate.
 */
class EventQueueStateTest {
    private final Wakeups wakeups = new Wakeups();

    private static EventQueueState queue(int capacity) {
        return queue(capacity, EventStorage.ChunkAllocator.DEFAULT);
    }

    private static EventQueueState queue(int capacity, EventStorage.ChunkAllocator allocator) {
        EventQueueState q = new EventQueueState(0);
        q.init(EventStorage.allocate(capacity, allocator, false));
        return q;
    }

    /** Logs an event whose sequence is {@code sequence}; false if the ring had no room. */
    private boolean log(EventQueueState q, long sequence) {
        Event e = q.reserve();
        if (e == null) {
            return false;
        }
        e.copyFrom(eventWithSequence(sequence));
        assertThat(q.commit(wakeups)).as("stays in the ring (no waiter)").isTrue();
        return true;
    }

    private static Event eventWithSequence(long sequence) {
        Event e = new Event();
        e.sequence = sequence;
        return e;
    }

    @Test
    void eventsComeOutInOrderAcrossManyWrapArounds() {
        EventQueueState q = queue(3);
        Event into = new Event();
        long next = 1;
        long expected = 1;
        for (int round = 0; round < 100; round++) {
            int burst = 1 + round % 3;
            for (int i = 0; i < burst; i++) {
                assertThat(log(q, next++)).isTrue();
            }
            for (int i = 0; i < burst; i++) {
                assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
                assertThat(into.sequence()).isEqualTo(expected++);
            }
            assertThat(q.isEmpty()).isTrue();
            assertThat(q.take(into)).isEqualTo(ReturnCode.EQ_EMPTY);
        }
    }

    @Test
    void aFullRingDropsTheNewEventReportsItOnceAndTakesEventsAgainAfterATake() {
        EventQueueState q = queue(2);
        Event into = new Event();
        assertThat(log(q, 1)).isTrue();
        assertThat(log(q, 2)).isTrue();
        assertThat(q.full()).isTrue();
        assertThat(log(q, 3)).as("third event into a ring of two").isFalse();

        assertThat(q.take(into)).isEqualTo(ReturnCode.EQ_DROPPED);
        assertThat(into.sequence()).isEqualTo(1);
        assertThat(q.full()).isFalse();
        assertThat(log(q, 4)).as("room again after a take").isTrue();
        assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
        assertThat(into.sequence()).isEqualTo(2);
        assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
        assertThat(into.sequence()).isEqualTo(4);
        assertThat(q.take(into)).isEqualTo(ReturnCode.EQ_EMPTY);
    }

    @Test
    void aWaitingThreadGetsTheEventInsteadOfTheRing() {
        EventQueueState q = queue(2);
        EqWaiter w = new EqWaiter(Thread.currentThread());
        Event waiting = new Event();
        long ticket = w.arm(waiting);
        q.enqueueWaiter(w);
        assertThat(q.reserve()).as("the slot handed out").isSameAs(waiting);
        waiting.copyFrom(eventWithSequence(7));
        assertThat(q.commit(wakeups)).as("handed to the waiter").isFalse();
        assertThat(q.isEmpty()).as("nothing left in the ring").isTrue();
        assertThat(w.ended(ticket)).as("woken only once the wakes are done").isFalse();
        Wakeups.wakeAll(wakeups.takeAll());
        assertThat(w.ended(ticket)).isTrue();
        assertThat(w.result()).isEqualTo(ReturnCode.OK);
        assertThat(waiting.sequence()).isEqualTo(7);
    }

    /** Counts the events of the chunks it allocates; throws OutOfMemoryError while {@link #failing}. */
    private static final class CountingAllocator implements EventStorage.ChunkAllocator {
        long events;
        boolean failing;

        @Override
        public Event[] allocate(int n) {
            if (failing) {
                throw new OutOfMemoryError("test: no memory for a chunk");
            }
            events += n;
            return EventStorage.ChunkAllocator.DEFAULT.allocate(n);
        }
    }

    @Test
    void aHugeQueueStartsWithOneChunkAndHoldsWhatItsBacklogNeeds() {
        CountingAllocator allocator = new CountingAllocator();
        EventQueueState q = queue((int) EventQueues.MAX_EQ_COUNT, allocator);
        assertThat(allocator.events).as("events allocated for a queue of 2^24").isEqualTo(EventStorage.CHUNK);
        Event into = new Event();
        int backlog = 5 * EventStorage.CHUNK + 3;
        for (int i = 1; i <= backlog; i++) {
            assertThat(log(q, i)).isTrue();
        }
        assertThat(q.chunksHeld()).isEqualTo(6);
        for (int i = 1; i <= backlog; i++) {
            assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
            assertThat(into.sequence()).isEqualTo(i);
        }
        assertThat(allocator.events).isEqualTo(6L * EventStorage.CHUNK);
    }

    @Test
    void aLongRingReusesTheChunksItsTakerLeft() {
        CountingAllocator allocator = new CountingAllocator();
        int capacity = 3 * EventStorage.CHUNK + 17; // a last chunk that is only partly used
        EventQueueState q = queue(capacity, allocator);
        Event into = new Event();
        long next = 1;
        long expected = 1;
        // a taker that keeps up, for ten times round the ring: two chunks at most, allocated once
        for (int i = 0; i < 10 * capacity; i++) {
            assertThat(log(q, next++)).isTrue();
            assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
            assertThat(into.sequence()).isEqualTo(expected++);
        }
        assertThat(q.chunksHeld()).isLessThanOrEqualTo(2);
        assertThat(allocator.events).isLessThanOrEqualTo(2L * EventStorage.CHUNK);
        // a full ring, emptied, filled and emptied again round the wrap: every event in order, no drop
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < capacity; i++) {
                assertThat(log(q, next++)).isTrue();
            }
            assertThat(log(q, -1)).as("one more than the ring holds").isFalse();
            assertThat(q.take(into)).isEqualTo(ReturnCode.EQ_DROPPED);
            assertThat(into.sequence()).isEqualTo(expected++);
            for (int i = 1; i < capacity; i++) {
                assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
                assertThat(into.sequence()).isEqualTo(expected++);
            }
            assertThat(q.take(into)).isEqualTo(ReturnCode.EQ_EMPTY);
        }
        long afterFull = allocator.events;
        assertThat(afterFull).isLessThanOrEqualTo(4L * EventStorage.CHUNK);
        for (int i = 0; i < 10 * capacity; i++) {
            assertThat(log(q, next++)).isTrue();
            assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
            assertThat(into.sequence()).isEqualTo(expected++);
        }
        assertThat(allocator.events).as("nothing allocated once the backlog was reached").isEqualTo(afterFull);
    }

    @Test
    void aChunkTheJvmCannotAllocateLosesTheEventAsAFullRingDoesAndTheQueueGoesOn() {
        CountingAllocator allocator = new CountingAllocator();
        EventQueueState q = queue(4 * EventStorage.CHUNK, allocator);
        Event into = new Event();
        allocator.failing = true;
        for (int i = 1; i <= EventStorage.CHUNK; i++) {
            assertThat(log(q, i)).isTrue(); // the first chunk came with the queue
        }
        assertThat(log(q, -1)).as("no memory for the second chunk").isFalse();
        assertThat(q.take(into)).isEqualTo(ReturnCode.EQ_DROPPED);
        assertThat(into.sequence()).isEqualTo(1);
        for (int i = 2; i <= EventStorage.CHUNK; i++) {
            assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
            assertThat(into.sequence()).isEqualTo(i);
        }
        // the first chunk, left by the taker, serves the logger still without memory
        assertThat(log(q, 1000)).isTrue();
        assertThat(q.take(into)).isEqualTo(ReturnCode.OK);
        assertThat(into.sequence()).isEqualTo(1000);
        assertThat(q.take(into)).isEqualTo(ReturnCode.EQ_EMPTY);
    }
}
