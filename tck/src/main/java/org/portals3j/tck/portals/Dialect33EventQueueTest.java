package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.EqPollResult;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.portals.Job33.Rank33;

/**
 * Portals 3.3 event queues through {@link Portals33}: {@code PtlEQAlloc} with a handler,
 * {@code PtlEQPoll}, sequence numbers per queue, {@code link}, and failures reported in END events
 * (P-284 to P-290, P-298 to P-300), and the sizes of queues (P-306, P-307).
 *
 * <p>Rank 0 puts 8 bytes at a time from a bound MD; rank 1 has one MD per queue, each on its own
 * match bits ({@code BITS + i}), with {@code MANAGE_REMOTE} so that every put fits.
 */
@DisplayName("Portals 3.3 dialect: event queues")
class Dialect33EventQueueTest {
    private static final int PORTAL = 7;
    private static final long BITS = 0xE300L;

    /** An MD on rank {@code b} for puts with match bits {@code bits}, logging to {@code eq}. */
    private static void target(Job33 job, Rank33 b, long bits, EqHandle eq) {
        b.attach(PORTAL, bits, MemoryDescriptor.of(job.tck().allocate(64)).withEventQueue(eq)
                .withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE), Unlink.RETAIN);
    }

    private static void put(Job33 job, Rank33 a, Rank33 b, long bits, long hdr) {
        MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, (int) hdr)), Unlink.RETAIN);
        a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, bits, 0, hdr);
    }

    /** A handler that keeps a copy of every event it is given. */
    private static final class Recorder implements EventHandler {
        final List<Event> seen = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void handle(Event event) {
            seen.add(new Event().copyFrom(event));
        }

        void awaitCount(int n) {
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (seen.size() < n) {
                if (System.nanoTime() > deadline) {
                    fail("the handler saw " + seen.size() + " events, not " + n + ", within "
                            + TckTransport.patience());
                }
                Thread.yield();
            }
        }

        List<Long> sequences() {
            synchronized (seen) {
                return seen.stream().map(Event::sequence).toList();
            }
        }
    }

    /** {@code {q, NULL}}: a queue list with an illegal address in it. */
    @SuppressWarnings("nullness") // null on purpose: the Java form of an illegal address
    private static EqHandle[] withNullAfter(EqHandle q) {
        return new EqHandle[] {q, null};
    }

    /** Waits until {@code n} events have been lost to full queues on {@code b}'s interface. */
    private static void awaitLostEvents(Rank33 b, long n) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED) < n) {
            if (System.nanoTime() > deadline) {
                fail("fewer than " + n + " events were lost within " + TckTransport.patience());
            }
            Thread.yield();
        }
    }

    // ==== PtlEQAlloc sizes ==========================================================================

    @Test
    @SpecAssertion("P-306")
    void aQueueHoldsItsCountRoundedUpToAPowerOfTwo() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            // count -> events held: 1 -> 2, 3 -> 4, 5 -> 8, 8 -> 8
            long[][] sizes = {{1, 2}, {3, 4}, {5, 8}, {8, 8}};
            for (int i = 0; i < sizes.length; i++) {
                long count = sizes[i][0];
                int held = (int) sizes[i][1];
                long lostBefore = b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED);
                EqHandle eq = b.eq((int) count);
                target(job, b, BITS + 16 + i, eq);
                for (int p = 0; p < held / 2; p++) {
                    put(job, a, b, BITS + 16 + i, p);
                }
                List<Event> events = new ArrayList<>();
                for (int e = 0; e < held; e++) {
                    Event ev = new Event();
                    assertThat(b.await(eq, ev)).as("event %d of a queue of count %d", e + 1, count)
                            .isEqualTo(ReturnCode.OK);
                    events.add(ev);
                }
                assertThat(events).extracting(Event::sequence).as("count %d", count)
                        .isEqualTo(LongStream.rangeClosed(1, held).boxed().toList());
                // one more put into the full queue: both of its events are lost, and counted
                for (int p = 0; p < held / 2; p++) {
                    put(job, a, b, BITS + 16 + i, 100 + p);
                }
                put(job, a, b, BITS + 16 + i, 200);
                awaitLostEvents(b, lostBefore + 2);
                List<Event> rest = b.drain(eq);
                assertThat(rest).as("count %d holds %d events", count, held).hasSize(held);
                assertThat(b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED)).isEqualTo(lostBefore + 2);
            }
        }
    }

    @Test
    @SpecAssertion("P-307")
    void aQueueOfCountZeroIsNoQueue() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle none = b.eq(0);
            assertThat(none).isEqualTo(EqHandle.NONE);
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(none, new Event()));
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqFree(none));
            // an MD that names it logs nothing, and works
            MemoryDescriptor md = MemoryDescriptor.of(job.tck().allocate(8)).withEventQueue(none)
                    .withOptions(MdOption.OP_PUT);
            b.attach(PORTAL, BITS + 32, md, Unlink.RETAIN);
            put(job, a, b, BITS + 32, 1);
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (b.ptl().niStatus(b.ni(), StatusRegister.PUTS_RECEIVED) < 1 && System.nanoTime() < deadline) {
                Thread.yield();
            }
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.PUTS_RECEIVED)).isEqualTo(1);
            assertThat(b.drops()).isZero();
            // a count too large for any queue is still PTL_NO_SPACE
            assertCode(ReturnCode.NOSPACE, () -> b.ptl().eqAlloc(b.ni(), -1L, Portals33.EQ_HANDLER_NONE));
        }
    }

    // ==== PtlEQAlloc with a handler =================================================================

    @Test
    @SpecAssertion("P-284")
    void aHandlerRunsForEveryEventBeforeItCanBeTakenAndTheEventIsAlsoQueued() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            Recorder recorder = new Recorder();
            EqHandle beq = b.eq(16, recorder);
            target(job, b, BITS, beq);
            EqHandle plain = a.eq(16); // PTL_EQ_HANDLER_NONE: a queue as in 3.2
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 1)).withEventQueue(plain),
                    Unlink.RETAIN);
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0xAB);

            List<Event> taken = new ArrayList<>();
            for (EventKind kind : new EventKind[] {EventKind.PUT_START, EventKind.PUT_END}) {
                Event e = b.next(beq, kind);
                assertThat(recorder.sequences()).as("the handler ran before %s could be taken", e)
                        .contains(e.sequence());
                taken.add(e);
            }
            assertThat(recorder.seen).hasSize(2);
            for (int i = 0; i < 2; i++) {
                Event h = recorder.seen.get(i);
                Event e = taken.get(i);
                assertThat(h.type()).isEqualTo(e.type());
                assertThat(h.sequence()).isEqualTo(e.sequence());
                assertThat(h.link()).isEqualTo(e.link());
                assertThat(h.mlength()).isEqualTo(8);
                assertThat(h.hdrData()).isEqualTo(0xAB);
                assertThat(h.initiator()).isEqualTo(a.id());
            }
            a.next(plain, EventKind.SEND_START);
            a.next(plain, EventKind.SEND_END);
        }
    }

    @Test
    @SpecAssertion("P-285")
    void aHandlerSeesEveryEventEvenWhenTheFullQueueLosesIt() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            Recorder recorder = new Recorder();
            EqHandle beq = b.eq(2, recorder);
            target(job, b, BITS, beq);
            for (int i = 0; i < 3; i++) {
                put(job, a, b, BITS, i);
            }
            recorder.awaitCount(6);
            assertThat(recorder.sequences()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
            assertThat(recorder.seen).extracting(Event::type).containsExactly(EventKind.PUT_START, EventKind.PUT_END,
                    EventKind.PUT_START, EventKind.PUT_END, EventKind.PUT_START, EventKind.PUT_END);
            Event e = new Event();
            assertThat(b.ptl().eqGet(beq, e)).as("events were lost after this one").isEqualTo(ReturnCode.EQ_DROPPED);
            assertThat(e.sequence()).isEqualTo(1);
            assertThat(b.ptl().eqGet(beq, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.sequence()).isEqualTo(2);
            assertThat(b.ptl().eqGet(beq, e)).isEqualTo(ReturnCode.EQ_EMPTY);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED)).isEqualTo(4);
        }
    }

    @Test
    @SpecAssertion("P-286")
    void aHandlerCannotCallPortalsFunctionsAndWhatItThrowsDoesNotStopDelivery() throws Exception {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());
        Thread.setDefaultUncaughtExceptionHandler((t, x) -> uncaught.add(x));
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            List<ReturnCode> refused = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean thrown = new AtomicBoolean();
            AtomicInteger calls = new AtomicInteger();
            EqHandle[] beq = new EqHandle[1];
            EventHandler handler = event -> {
                calls.incrementAndGet();
                if (event.type() == EventKind.PUT_START) {
                    for (Runnable call : new Runnable[] {
                        () -> b.ptl().getJid(b.ni()),
                        () -> b.ptl().eqGet(beq[0], new Event()),
                        () -> b.ptl().mdBind(b.ni(), MemoryDescriptor.empty(), Unlink.RETAIN),
                        () -> b.ptl().put(event.mdHandle(), AckRequest.NOACK_REQ, a.id(), PORTAL, 0, 0, 0, 0),
                    }) {
                        try {
                            call.run();
                            refused.add(ReturnCode.OK);
                        } catch (PortalsException x) {
                            refused.add(x.code());
                        }
                    }
                } else if (!thrown.getAndSet(true)) {
                    throw new IllegalStateException("a handler failing on purpose");
                }
            };
            beq[0] = b.eq(16, handler);
            target(job, b, BITS, beq[0]);
            put(job, a, b, BITS, 1);
            b.next(beq[0], EventKind.PUT_START);
            b.next(beq[0], EventKind.PUT_END); // deposited although the handler threw on it
            assertThat(refused).containsExactly(ReturnCode.FAIL, ReturnCode.FAIL, ReturnCode.FAIL, ReturnCode.FAIL);
            assertThat(uncaught).singleElement()
                    .satisfies(x -> assertThat(x).hasMessage("a handler failing on purpose"));

            put(job, a, b, BITS, 2); // the library goes on
            assertThat(b.next(beq[0], EventKind.PUT_START).hdrData()).isEqualTo(2);
            b.next(beq[0], EventKind.PUT_END);
            assertThat(calls.get()).isEqualTo(4);
            assertThat(b.ptl().getJid(b.ni())).as("outside a handler the same call works").isNotEqualTo(-1);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    // ==== PtlEQPoll ==================================================================================

    @Test
    @SpecAssertion("P-287")
    void pollTakesFromTheFirstQueueInArrayOrderThatHasAnEventAndSaysWhich() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            Recorder recorder = new Recorder();
            EqHandle[] queues = {b.eq(8, recorder), b.eq(8, recorder), b.eq(8, recorder)};
            for (int i = 0; i < queues.length; i++) {
                target(job, b, BITS + i, queues[i]);
            }
            put(job, a, b, BITS + 2, 2);
            put(job, a, b, BITS + 1, 1);
            recorder.awaitCount(4); // both puts are in their queues before the first poll

            List<String> got = new ArrayList<>();
            Event e = new Event();
            for (int i = 0; i < 4; i++) {
                EqPollResult r = b.ptl().eqPoll(queues, TckTransport.patience().toMillis(), e);
                assertThat(r.status()).isEqualTo(ReturnCode.OK);
                assertThat(e.hdrData()).as("the event came from the queue 'which' names").isEqualTo(r.which());
                got.add(r.which() + ":" + e.type());
            }
            assertThat(got).containsExactly("1:PUT_START", "1:PUT_END", "2:PUT_START", "2:PUT_END");
            assertThat(b.ptl().eqPoll(queues, 0, e)).isEqualTo(EqPollResult.EMPTY);
        }
    }

    @Test
    @SpecAssertion("P-288")
    void pollReturnsEqEmptyWhenItsTimeoutPassesAndAtOnceWithTimeoutZero() {
        try (Job33 job = Job33.start(1)) {
            Rank33 b = job.rank(0);
            EqHandle[] queues = {b.eq(4), b.eq(4)};
            Event e = new Event();
            long t0 = System.nanoTime();
            assertThat(b.ptl().eqPoll(queues, 0, e)).isEqualTo(EqPollResult.EMPTY);
            Duration zero = Duration.ofNanos(System.nanoTime() - t0);
            Duration timeout = Duration.ofMillis(500);
            t0 = System.nanoTime();
            EqPollResult r = b.ptl().eqPoll(queues, timeout.toMillis(), e);
            Duration waited = Duration.ofNanos(System.nanoTime() - t0);
            assertThat(r.status()).isEqualTo(ReturnCode.EQ_EMPTY);
            assertThat(r.which()).isEqualTo(-1);
            assertThat(waited).as("waited the timeout").isGreaterThanOrEqualTo(timeout)
                    .isLessThan(timeout.plus(TckTransport.patience()));
            assertThat(zero).as("timeout 0 does not wait").isLessThan(timeout);
        }
    }

    @Test
    @SpecAssertion("P-289")
    void pollWithTimeForeverBlocksUntilAnEventArrivesOnAnyOfItsQueues() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle[] queues = {b.eq(8), b.eq(8)};
            target(job, b, BITS, queues[0]);
            target(job, b, BITS + 1, queues[1]);
            Event e = new Event();
            Future<EqPollResult> poll = pool.submit(() -> b.ptl().eqPoll(queues, Portals33.TIME_FOREVER, e));
            Rank.sleep(TckTransport.quietPeriod().plusMillis(100));
            assertThat(poll).as("nothing to take yet: PtlEQPoll waits").isNotDone();
            put(job, a, b, BITS + 1, 9);
            EqPollResult r = poll.get(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS);
            assertThat(r).isEqualTo(EqPollResult.of(ReturnCode.OK, 1));
            assertThat(e.type()).isEqualTo(EventKind.PUT_START);
            assertThat(e.hdrData()).isEqualTo(9);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @SpecAssertion("P-290")
    void pollRefusesNoQueuesQueuesOfTwoInterfacesAndFreedQueues() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Job33 job = Job33.start(1)) {
            Rank33 b = job.rank(0);
            Portals33 p = b.ptl();
            Event e = new Event();
            EqHandle q = b.eq(4);
            assertCode(ReturnCode.INV_EQ, () -> p.eqPoll(new EqHandle[0], 0, e));
            NiHandle other = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            EqHandle elsewhere = p.eqAlloc(other, 4, Portals33.EQ_HANDLER_NONE);
            assertCode(ReturnCode.INV_EQ, () -> p.eqPoll(new EqHandle[] {q, elsewhere}, 0, e));
            assertCode(ReturnCode.SEGV, () -> p.eqPoll(withNullAfter(q), 0, e));
            EqHandle gone = b.eq(4);
            p.eqFree(gone);
            assertCode(ReturnCode.INV_EQ, () -> p.eqPoll(new EqHandle[] {q, gone}, 0, e));

            // freed while a thread polls it
            EqHandle freed = b.eq(4);
            Future<EqPollResult> poll = pool.submit(() -> p.eqPoll(new EqHandle[] {q, freed}, Portals33.TIME_FOREVER,
                    new Event()));
            Rank.sleep(TckTransport.quietPeriod().plusMillis(100));
            assertThat(poll).isNotDone();
            p.eqFree(freed);
            try {
                EqPollResult r = poll.get(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS);
                fail("PtlEQPoll on a freed queue returned " + r);
            } catch (ExecutionException x) {
                if (!(x.getCause() instanceof PortalsException refused)) {
                    throw new AssertionError("PtlEQPoll failed with something other than a Portals code", x);
                }
                assertThat(refused.code()).isEqualTo(ReturnCode.INV_EQ);
            } catch (TimeoutException x) {
                fail("PtlEQPoll did not notice its queue was freed within " + TckTransport.patience());
            }
            p.fini();
            assertCode(ReturnCode.NOINIT, () -> p.eqPoll(new EqHandle[] {q}, 0, e));
        } finally {
            pool.shutdownNow();
        }
    }

    // ==== sequence, link, END with a failure ========================================================

    @Test
    @SpecAssertion("P-298")
    void eachQueueNumbersItsOwnEventsAndALostEventKeepsItsNumber() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle q1 = b.eq(16);
            EqHandle q2 = b.eq(16);
            target(job, b, BITS + 1, q1);
            target(job, b, BITS + 2, q2);
            for (int i = 0; i < 2; i++) {
                put(job, a, b, BITS + 1, i);
                put(job, a, b, BITS + 2, i);
            }
            for (EqHandle q : new EqHandle[] {q1, q2}) {
                List<Long> seq = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    seq.add(b.next(q).sequence());
                }
                assertThat(seq).as("sequences of %s", q).containsExactly(1L, 2L, 3L, 4L);
            }

            EqHandle small = b.eq(2);
            target(job, b, BITS + 3, small);
            put(job, a, b, BITS + 3, 0);
            put(job, a, b, BITS + 3, 1);
            awaitLostEvents(b, 2);
            assertThat(b.next(small).sequence()).isEqualTo(1);
            assertThat(b.next(small).sequence()).isEqualTo(2);
            b.expectNoEvent(small); // events 3 and 4 were lost
            put(job, a, b, BITS + 3, 2);
            assertThat(b.next(small, EventKind.PUT_START).sequence()).as("3 and 4 were taken by the lost events")
                    .isEqualTo(5);
            assertThat(b.next(small, EventKind.PUT_END).sequence()).isEqualTo(6);
        }
    }

    @Test
    @SpecAssertion("P-299")
    void anEndEventLinksToItsStartEventInTheSameQueue() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            target(job, b, BITS, beq);
            EqHandle aeq = a.eq(16);
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 1)).withEventQueue(aeq),
                    Unlink.RETAIN);
            for (int i = 0; i < 2; i++) {
                a.ptl().put(src, AckRequest.ACK_REQ, b.id(), PORTAL, 0, BITS, 8L * i, i);
                Event start = a.next(aeq, EventKind.SEND_START);
                assertThat(start.link()).isEqualTo(start.sequence());
                assertThat(a.next(aeq, EventKind.SEND_END).link()).isEqualTo(start.sequence());
                Event ack = a.next(aeq, EventKind.ACK);
                assertThat(ack.link()).isEqualTo(ack.sequence());
                Event put = b.next(beq, EventKind.PUT_START);
                assertThat(put.link()).isEqualTo(put.sequence());
                assertThat(b.next(beq, EventKind.PUT_END).link()).isEqualTo(put.sequence());
            }
        }
    }

    @Test
    @SpecAssertion("P-300")
    void aFailedOperationEndsWithItsEndEventCarryingTheFailure() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle aeq = a.eq(8);
            MdHandle sink = a.bind(job.tck().allocate(8), aeq);
            a.ptl().get(sink, b.id(), PORTAL, 0, BITS, 0); // nothing on b answers it
            job.tck().kill(1);
            Event start = a.next(aeq, EventKind.REPLY_START);
            Event end = a.next(aeq, EventKind.REPLY_END);
            assertThat(end.niFailType()).as("3.3 has no REPLY_FAIL: the END says why").isNotEqualTo(NiFailType.OK)
                    .isEqualTo(NiFailType.PEER_DEAD);
            assertThat(end.link()).isEqualTo(start.sequence());
            a.expectNoEvent(aeq);
        }
    }
}
