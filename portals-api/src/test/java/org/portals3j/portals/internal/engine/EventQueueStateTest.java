package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.portals3j.portals.Event;
import org.portals3j.portals.ReturnCode;

/**
 * The ring of an event queue on its own (the engine's lock is not needed here: one thread): order,
 * wrap-around, the full ring that drops the new event and says so with the next one taken, and a
 * full ring that has room again once an event is taken (the logger re-reads the taker's count).
 */
class EventQueueStateTest {
    private final Wakeups wakeups = new Wakeups();

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
        EventQueueState q = new EventQueueState(0);
        q.init(3);
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
        EventQueueState q = new EventQueueState(0);
        q.init(2);
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
        EventQueueState q = new EventQueueState(0);
        q.init(2);
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
}
