package org.portals3j.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code eqWaitInterruptibly}: an interrupt before or during the wait ends it with InterruptedException and takes
 * no event (the next event stays for the next taker, or goes to the next waiter); {@code eqWait} ignores interrupts.
 */
class InterruptibleWaitTest {
    private final PutReceiverFixture fixture;
    private final Portals receiver;
    private final EqHandle eq;

    InterruptibleWaitTest() throws Exception {
        fixture = new PutReceiverFixture();
        receiver = fixture.receiver;
        eq = fixture.attachPutBuffer(receiver.eqAlloc(fixture.nr, 16));
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    void anInterruptBeforeTheWaitEndsItWithoutTakingAnEvent() throws Exception {
        fixture.putOne(7);
        Event e = new Event();
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> receiver.eqWaitInterruptibly(eq, e)).isInstanceOf(InterruptedException.class);

        assertThat(Thread.interrupted()).as("status cleared, as InterruptedException says").isFalse();
        assertThat(receiver.eqWaitInterruptibly(eq, e)).isEqualTo(ReturnCode.OK);
        assertThat(e.type()).isEqualTo(EventKind.PUT_START);
        assertThat(e.hdrData()).isEqualTo(7);
    }

    @Test
    void anInterruptWhileWaitingEndsTheWaitAndTheNextEventStaysInTheQueue() throws Exception {
        Event e = new Event();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                receiver.eqWaitInterruptibly(eq, e);
                outcome.complete(new AssertionError("returned an event (type " + e.type() + ")"));
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        awaitParked(waiter);

        waiter.interrupt();

        assertThat(outcome.get(60, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        waiter.join();
        fixture.putOne(8);
        Event next = new Event();
        assertThat(receiver.eqGet(eq, next)).isEqualTo(ReturnCode.OK);
        assertThat(next.type()).isEqualTo(EventKind.PUT_START);
        assertThat(next.hdrData()).isEqualTo(8);
    }

    @Test
    void anInterruptedWaiterLeavesTheEventToTheWaiterBehindIt() throws Exception {
        CompletableFuture<Throwable> first = new CompletableFuture<>();
        Thread interrupted = Thread.ofPlatform().start(() -> {
            try {
                receiver.eqWaitInterruptibly(eq, new Event());
                first.complete(new AssertionError("the interrupted waiter got an event"));
            } catch (Throwable t) {
                first.complete(t);
            }
        });
        awaitParked(interrupted);
        Event e = new Event();
        CompletableFuture<ReturnCode> second = new CompletableFuture<>();
        awaitParked(Thread.ofPlatform().start(() -> second.complete(receiver.eqWait(eq, e))));

        interrupted.interrupt();
        assertThat(first.get(60, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        fixture.putOne(9);

        assertThat(second.get(60, TimeUnit.SECONDS)).isEqualTo(ReturnCode.OK);
        assertThat(e.type()).isEqualTo(EventKind.PUT_START);
        assertThat(e.hdrData()).isEqualTo(9);
    }

    @Test
    void eqWaitIgnoresAnInterruptAndKeepsTheStatusForTheCaller() throws Exception {
        Event e = new Event();
        CompletableFuture<Boolean> statusAfter = new CompletableFuture<>();
        CompletableFuture<ReturnCode> rc = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            rc.complete(receiver.eqWait(eq, e));
            statusAfter.complete(Thread.currentThread().isInterrupted());
        });
        awaitParked(waiter);

        waiter.interrupt();
        fixture.putOne(10);

        assertThat(rc.get(60, TimeUnit.SECONDS)).isEqualTo(ReturnCode.OK);
        assertThat(e.hdrData()).isEqualTo(10);
        assertThat(statusAfter.get(60, TimeUnit.SECONDS)).isTrue();
    }

    /** Until {@code t} parks: the wait has gone past its spinning, with its waiter queued. */
    private static void awaitParked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime()).as("thread parked within 60 s").isLessThan(deadline);
            Thread.sleep(1);
        }
    }
}
