package org.portals3j.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * {@code eqWaitInterruptibly}: an interrupt before or during the wait ends it with InterruptedException and takes
 * no event (the next event stays for the next taker, or goes to the next waiter); {@code eqWait} ignores interrupts.
 */
class InterruptibleWaitTest {
    private static final int PORTAL = 4;

    private final List<Transport> endpoints;
    private final Arena arena = Arena.ofShared();
    private final Portals sender;
    private final Portals receiver;
    private final EqHandle eq;
    private final MdHandle source;
    private final ProcessId target;

    InterruptibleWaitTest() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        sender = Portals.create(job, endpoints.get(0));
        receiver = Portals.create(job, endpoints.get(1));
        sender.init();
        receiver.init();
        NiHandle ns = sender.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        NiHandle nr = receiver.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        eq = receiver.eqAlloc(nr, 16);
        MeHandle me = receiver.meAttach(nr, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        receiver.mdAttach(me, MemoryDescriptor.of(arena.allocate(64)).withOptions(MdOption.OP_PUT,
                MdOption.MANAGE_REMOTE).withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
        source = sender.mdBind(ns, MemoryDescriptor.of(arena.allocate(8)));
        target = receiver.getId(nr);
    }

    @AfterEach
    void tearDown() {
        sender.fini();
        receiver.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }

    /** One put to the receiver, whose queue gets PUT_START and PUT_END. */
    private void putOne(long hdrData) {
        sender.put(source, AckRequest.NOACK_REQ, target, PORTAL, 0, 0, 0, hdrData);
    }

    @Test
    void anInterruptBeforeTheWaitEndsItWithoutTakingAnEvent() throws Exception {
        putOne(7);
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
        putOne(8);
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
        putOne(9);

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
        putOne(10);

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
