package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.Resolves;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * Event queues. {@code PtlEQAlloc}, {@code PtlEQFree}, {@code PtlEQGet} and
 * {@code PtlEQWait} (Portals 3.2 spec §3.8.5.2 to §3.9.8.2). The spec leaves open which events an overflow loses
 * the tests of P-137 and P-144 accept either, and the {@code @Resolves("A-36")} tests pin this implementation's
 * choice (the newest event is lost; the next Get/Wait reports {@code PTL_EQ_DROPPED}).
 *
 * <p>Rank 0 puts, rank 1 logs. Every put is 8 bytes into a {@code MANAGE_REMOTE} MD (so each one
 * fits) and logs {@code PUT_START} and {@code PUT_END}. Threads blocked in {@code PtlEQWait} are always
 * released: by events, or by freeing the queue (which wakes them with {@code PTL_INV_EQ}).
 *
 * <p>Not applicable to the Java binding: P-127 ({@code PtlEQAlloc} with a NULL {@code handle}): the
 * out-argument is the return value.
 */
@DisplayName("Event queues: PtlEQAlloc / PtlEQFree / PtlEQGet / PtlEQWait")
class EventQueueTest {
    private static final int PORTAL = 6;
    private static final long BITS = 0xE0E0L;
    private static final long LEN = 8;

    // ==== PtlEQAlloc / PtlEQFree ====================================================================

    @Test
    @SpecAssertion("P-126")
    void allocOfEightReturnsAnEmptyUsableQueue() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.ptl().eqAlloc(b.ni(), 8);
            assertThat(eq).isNotEqualTo(EqHandle.NONE);
            assertThat(b.ptl().niHandle(eq)).isEqualTo(b.ni());
            assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);

            target(job, b, eq, BITS);
            put(job, a, b, BITS, 1);
            assertThat(b.next(eq, EventKind.PUT_START).hdrData()).isEqualTo(1);
            b.next(eq, EventKind.PUT_END);
        }
    }

    @Test
    @SpecAssertion("P-128")
    void allocOnAnInvalidInterfaceIsInvNi() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            assertCode(ReturnCode.INV_NI, () -> b.ptl().eqAlloc(new NiHandle(0x7123_4567_89ABL), 8));
            EqHandle eq = b.eq(8);
            assertCode(ReturnCode.INV_NI, () -> b.ptl().eqAlloc(NiHandle.of(eq), 8));
            NiHandle other = b.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            b.ptl().niFini(other);
            assertCode(ReturnCode.INV_NI, () -> b.ptl().eqAlloc(other, 8));
        }
    }

    @Test
    @SpecAssertion("P-129")
    void queueOfCountNHoldsNEvents() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            for (int n : new int[] {2, 8, 64}) {
                EqHandle eq = b.eq(n);
                long bits = BITS + n;
                target(job, b, eq, bits);
                for (int i = 0; i < n / 2; i++) {
                    deliver(job, a, b, bits, i);
                }
                Rank.sleep(TckTransport.quietPeriod());
                List<Event> events = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    Event e = new Event();
                    assertThat(b.ptl().eqGet(eq, e)).as("PtlEQGet %d of %d on a queue of %d", i + 1, n, n)
                            .isEqualTo(ReturnCode.OK);
                    events.add(e);
                }
                assertThat(events).filteredOn(e -> e.type() == EventKind.PUT_START).hasSize(n / 2);
                assertThat(events).filteredOn(e -> e.type() == EventKind.PUT_END).hasSize(n / 2);
                assertThat(events).extracting(Event::sequence).doesNotHaveDuplicates();
                assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
            }
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED)).isZero();
        }
    }

    @Test
    @SpecAssertion({"P-130", "P-131"})
    void freedQueueIsInvalid() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle empty = b.eq(4);
            b.ptl().eqFree(empty);
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqFree(empty));
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(empty, new Event()));

            // a queue freed while it still holds events
            EqHandle full = b.eq(4);
            Rank.Attached t = target(job, b, full, BITS);
            deliver(job, a, b, BITS, 1);
            b.ptl().mdUnlink(t.md());
            b.ptl().eqFree(full);
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(full, new Event()));
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqFree(full));
            assertCode(ReturnCode.INV_HANDLE, () -> b.ptl().niHandle(full));
            // a new queue is not reachable through the old handles
            EqHandle fresh = b.eq(4);
            assertThat(fresh).isNotEqualTo(full).isNotEqualTo(empty);
            assertThat(b.ptl().eqGet(fresh, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(full, new Event()));
        }
    }

    // ==== PtlEQGet ==================================================================================

    @Test
    @SpecAssertion("P-132")
    void newQueueIsEmptyAndTheEventIsLeftUntouched() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle used = b.eq(4);
            target(job, b, used, BITS);
            put(job, a, b, BITS, 0x77);
            Event e = b.next(used, EventKind.PUT_START);
            String before = e.toString();
            long sequence = e.sequence();

            EqHandle fresh = b.eq(4);
            assertThat(b.ptl().eqGet(fresh, e)).isEqualTo(ReturnCode.EQ_EMPTY);
            assertThat(e.sequence()).isEqualTo(sequence);
            assertThat(e.type()).isEqualTo(EventKind.PUT_START);
            assertThat(e.hdrData()).isEqualTo(0x77);
            assertThat(e.toString()).isEqualTo(before);
        }
    }

    @Test
    @SpecAssertion("P-133")
    void getTakesTheEventOffTheQueue() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(8);
            target(job, b, eq, BITS);
            deliver(job, a, b, BITS, 5);

            Event first = new Event();
            assertThat(b.ptl().eqGet(eq, first)).isEqualTo(ReturnCode.OK);
            assertThat(first.type()).isEqualTo(EventKind.PUT_START);
            Event second = new Event();
            assertThat(b.ptl().eqGet(eq, second)).isEqualTo(ReturnCode.OK);
            assertThat(second.type()).isEqualTo(EventKind.PUT_END);
            assertThat(second.sequence()).isNotEqualTo(first.sequence());
            assertThat(second.link()).isEqualTo(first.sequence());
            assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
            assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
        }
    }

    @Test
    @SpecAssertion({"P-134", "P-139"})
    void eventsComeOutInTheOrderTheyWereLogged() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(16);
            target(job, b, eq, BITS);
            // a second MD on the same queue, so that two MDs interleave on it
            target(job, b, eq, BITS + 1);
            for (int i = 1; i <= 6; i++) {
                deliver(job, a, b, i % 2 == 0 ? BITS : BITS + 1, i);
            }
            List<Event> events = b.drain(eq);
            assertThat(events).hasSize(12);
            List<Long> startOrder = new ArrayList<>();
            Set<Long> started = new HashSet<>();
            long last = 0;
            for (Event e : events) {
                assertThat(e.sequence()).as("sequence of %s after %d", e, last).isGreaterThan(last);
                last = e.sequence();
                if (e.type() == EventKind.PUT_START) {
                    startOrder.add(e.hdrData());
                    started.add(e.sequence());
                } else {
                    assertThat(e.type()).isEqualTo(EventKind.PUT_END);
                    assertThat(started).as("the START of %s came out before it", e).contains(e.link());
                }
            }
            assertThat(startOrder).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        }
    }

    @Test
    @SpecAssertion("P-135")
    @SuppressWarnings("nullness") // passes null on purpose: the Java form of an illegal address
    void getIntoNullIsSegv() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            EqHandle eq = b.eq(4);
            assertCode(ReturnCode.SEGV, () -> b.ptl().eqGet(eq, null));
        }
    }

    @Test
    @SpecAssertion("P-136")
    void getOnAnInvalidQueueIsInvEq() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(new EqHandle(0x7BAD_0000_0042L), new Event()));
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(EqHandle.NONE, new Event()));
            MdHandle md = b.ptl().mdBind(b.ni(), MemoryDescriptor.empty());
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(EqHandle.of(md), new Event()));
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().eqGet(EqHandle.of(b.ni()), new Event()));
        }
    }

    /**
     * The spec leaves open which events an overflow loses: the newest, or the oldest, overwritten. Either
     * way the queue then holds {@code count} events, the first one taken comes with {@code PTL_EQ_DROPPED}, and no
     * event is handed out twice. Which ones survive is {@link #overflowLosesTheNewestEvents}'s.
     */
    @Test
    @SpecAssertion({"P-137", "P-139"})
    void overflowIsReportedWithAValidEventWhicheverEventsWereLost() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(4);
            target(job, b, eq, BITS);
            for (int i = 1; i <= 4; i++) {
                deliver(job, a, b, BITS, i);
            }
            // 8 events were logged into room for 4, whichever 4 were lost (this library counts them)
            awaitStatus(b, StatusRegister.EVENTS_DROPPED, 4);
            // the puts themselves were not refused (Portals 3.2 spec "Summary of Changes for Revision 1.1")
            assertThat(b.drops()).isZero();

            List<ReturnCode> codes = new ArrayList<>();
            List<Event> events = new ArrayList<>();
            drain(b, eq, codes, events);
            assertThat(codes).containsExactly(ReturnCode.EQ_DROPPED, ReturnCode.OK, ReturnCode.OK, ReturnCode.OK);
            assertThat(events).extracting(Event::type).containsExactly(EventKind.PUT_START, EventKind.PUT_END,
                    EventKind.PUT_START, EventKind.PUT_END);
            assertThat(events).as("the events kept are two whole puts, in order, of the four").allSatisfy(
                    e -> assertThat(e.hdrData()).isBetween(1L, 4L));
            assertThat(events.get(1).hdrData()).isEqualTo(events.get(0).hdrData());
            assertThat(events.get(3).hdrData()).isEqualTo(events.get(2).hdrData())
                    .isGreaterThan(events.get(0).hdrData());
            assertThat(events).extracting(Event::sequence).doesNotHaveDuplicates();
        }
    }

    /** This library's resolution of A-36: a full queue loses the newest event and keeps what it holds. */
    @Test
    @Resolves("A-36")
    void overflowLosesTheNewestEvents() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(4);
            target(job, b, eq, BITS);
            for (int i = 1; i <= 4; i++) {
                deliver(job, a, b, BITS, i);
            }
            awaitStatus(b, StatusRegister.EVENTS_DROPPED, 4);
            List<ReturnCode> codes = new ArrayList<>();
            List<Event> events = new ArrayList<>();
            drain(b, eq, codes, events);
            assertThat(codes).containsExactly(ReturnCode.EQ_DROPPED, ReturnCode.OK, ReturnCode.OK, ReturnCode.OK);
            assertThat(events).extracting(Event::hdrData).as("the first two puts' events: the last two puts' were lost")
                    .containsExactly(1L, 1L, 2L, 2L);
        }
    }

    /** Takes every event of {@code eq} with PtlEQGet, with its return code, until it is empty. */
    private static void drain(Rank b, EqHandle eq, List<ReturnCode> codes, List<Event> events) {
        while (true) {
            Event e = new Event();
            ReturnCode rc = b.ptl().eqGet(eq, e);
            if (rc == ReturnCode.EQ_EMPTY) {
                return;
            }
            codes.add(rc);
            events.add(e);
        }
    }

    @Test
    @SpecAssertion({"P-138", "P-139"})
    void droppedIsReportedOncePerGap() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(4);
            target(job, b, eq, BITS);
            List<Event> taken = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                deliver(job, a, b, BITS, i); // 6 events, room for 4: 2 lost
            }
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.EQ_DROPPED);
            // a second gap before the next Get: one more event fits, its END is lost
            deliver(job, a, b, BITS, 4);
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.EQ_DROPPED);
            // no loss since: the rest come with PTL_OK
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.OK);
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.OK);
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.OK);
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.EQ_EMPTY);
            // a put that fits: no PTL_EQ_DROPPED any more
            deliver(job, a, b, BITS, 5);
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.OK);
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.OK);
            assertThat(take(b, eq, taken)).isEqualTo(ReturnCode.EQ_EMPTY);

            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED)).isEqualTo(3);
            assertThat(taken).extracting(Event::hdrData).containsExactly(1L, 1L, 2L, 2L, 4L, 5L, 5L);
            assertThat(taken).extracting(Event::sequence).doesNotHaveDuplicates();
        }
    }

    @Test
    @SpecAssertion("P-140")
    void getOnAnEmptyQueueReturnsAtOnce() throws Exception {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            EqHandle eq = b.eq(4);
            int empties = bounded("1000 PtlEQGet calls on an empty queue", () -> {
                int n = 0;
                Event e = new Event();
                for (int i = 0; i < 1000; i++) {
                    if (b.ptl().eqGet(eq, e) == ReturnCode.EQ_EMPTY) {
                        n++;
                    }
                }
                return n;
            });
            assertThat(empties).isEqualTo(1000);
        }
    }

    // ==== PtlEQWait =================================================================================

    @Test
    @SpecAssertion("P-141")
    void waitWithAnEventPresentReturnsItAtOnce() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(8);
            target(job, b, eq, BITS);
            deliver(job, a, b, BITS, 41);

            Event start = new Event();
            assertThat(bounded("PtlEQWait on a queue holding events", () -> b.ptl().eqWait(eq, start)))
                    .isEqualTo(ReturnCode.OK);
            assertThat(start.type()).isEqualTo(EventKind.PUT_START);
            assertThat(start.hdrData()).isEqualTo(41);
            Event end = new Event();
            assertThat(bounded("PtlEQWait on a queue holding events", () -> b.ptl().eqWait(eq, end)))
                    .isEqualTo(ReturnCode.OK);
            assertThat(end.type()).isEqualTo(EventKind.PUT_END);
            assertThat(end.link()).isEqualTo(start.sequence());
            assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
        }
    }

    @Test
    @SpecAssertion("P-142")
    void waitOnAnEmptyQueueBlocksUntilAnEventArrives() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(8);
            target(job, b, eq, BITS);
            List<Waiter> waiters = new ArrayList<>();
            try {
                Waiter w = Waiter.launch(b.ptl(), eq, "eqwait-1", waiters);
                w.awaitBlocked();
                Rank.sleep(Duration.ofMillis(100));
                assertThat(w.isAlive()).as("PtlEQWait returned with nothing to return").isTrue();

                put(job, a, b, BITS, 42);
                assertThat(w.finish()).as("PtlEQWait woke up for the event").isTrue();
                w.assertReturned(ReturnCode.OK);
                assertThat(w.event.type()).isEqualTo(EventKind.PUT_START);
                assertThat(w.event.hdrData()).isEqualTo(42);
                // the event after it is on the queue
                Event end = b.next(eq, EventKind.PUT_END);
                assertThat(end.link()).isEqualTo(w.event.sequence());
            } finally {
                release(b, eq, waiters);
            }
        }
    }

    @Test
    @SpecAssertion("P-143")
    void oneEventWakesExactlyOneOfTwoWaiters() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(8);
            EqHandle sink = b.eq(64);
            target(job, b, sink, BITS);
            List<Waiter> waiters = new ArrayList<>();
            try {
                Waiter w1 = Waiter.launch(b.ptl(), eq, "eqwait-1", waiters);
                Waiter w2 = Waiter.launch(b.ptl(), eq, "eqwait-2", waiters);
                w1.awaitBlocked();
                w2.awaitBlocked();

                // one put logs exactly one event on eq: the UNLINK of an MD it did not fit
                singleEvent(job, a, b, eq, sink, 1);
                Waiter first = awaitOneDone(waiters);
                Rank.sleep(Duration.ofMillis(100));
                assertThat(waiters).filteredOn(Thread::isAlive).as("waiters still blocked").hasSize(1);
                first.assertReturned(ReturnCode.OK);
                assertThat(first.event.type()).isEqualTo(EventKind.UNLINK);
                Waiter other = first == w1 ? w2 : w1;

                // a second event wakes the other one
                singleEvent(job, a, b, eq, sink, 2);
                assertThat(other.finish()).as("the second waiter woke for the second event").isTrue();
                other.assertReturned(ReturnCode.OK);
                assertThat(other.event.type()).isEqualTo(EventKind.UNLINK);
                assertThat(other.event.sequence()).isNotEqualTo(first.event.sequence());
                // each event went to one waiter, none to the queue
                assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
            } finally {
                release(b, eq, waiters);
            }
        }
    }

    @Test
    @SpecAssertion("P-143")
    void twoEventsWakeExactlyTwoOfThreeWaiters() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(8);
            target(job, b, eq, BITS);
            List<Waiter> waiters = new ArrayList<>();
            try {
                for (int i = 1; i <= 3; i++) {
                    Waiter.launch(b.ptl(), eq, "eqwait-" + i, waiters);
                }
                for (Waiter w : waiters) {
                    w.awaitBlocked();
                }

                deliver(job, a, b, BITS, 1); // PUT_START and PUT_END
                long deadline = System.nanoTime() + TckTransport.patience().toNanos();
                while (waiters.stream().filter(Thread::isAlive).count() > 1 && System.nanoTime() < deadline) {
                    Rank.sleep(Duration.ofMillis(1));
                }
                Rank.sleep(Duration.ofMillis(100));
                List<Waiter> done = waiters.stream().filter(w -> !w.isAlive()).toList();
                assertThat(done).as("waiters woken by two events").hasSize(2);
                for (Waiter w : done) {
                    w.assertReturned(ReturnCode.OK);
                }
                assertThat(done).extracting(w -> w.event.type())
                        .containsExactlyInAnyOrder(EventKind.PUT_START, EventKind.PUT_END);
                assertThat(done).extracting(w -> w.event.sequence()).doesNotHaveDuplicates();
                assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);

                Waiter last = waiters.stream().filter(Thread::isAlive).findFirst().orElseThrow();
                put(job, a, b, BITS, 2);
                assertThat(last.finish()).isTrue();
                last.assertReturned(ReturnCode.OK);
                assertThat(last.event.type()).isEqualTo(EventKind.PUT_START);
                assertThat(last.event.hdrData()).isEqualTo(2);
                assertThat(b.next(eq, EventKind.PUT_END).link()).isEqualTo(last.event.sequence());
            } finally {
                release(b, eq, waiters);
            }
        }
    }

    @Test
    @SpecAssertion("P-144")
    void waitAfterOverflowReportsDroppedWithAValidEvent() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(2);
            target(job, b, eq, BITS);
            deliver(job, a, b, BITS, 1);
            deliver(job, a, b, BITS, 2);
            awaitStatus(b, StatusRegister.EVENTS_DROPPED, 2);

            // one of the two puts' START and END, whichever an overflow keeps
            Event first = new Event();
            assertThat(bounded("PtlEQWait after an overflow", () -> b.ptl().eqWait(eq, first)))
                    .isEqualTo(ReturnCode.EQ_DROPPED);
            assertThat(first.type()).isEqualTo(EventKind.PUT_START);
            assertThat(first.hdrData()).isIn(1L, 2L);
            Event second = new Event();
            assertThat(bounded("PtlEQWait after an overflow", () -> b.ptl().eqWait(eq, second)))
                    .isEqualTo(ReturnCode.OK);
            assertThat(second.type()).isEqualTo(EventKind.PUT_END);
            assertThat(second.hdrData()).isEqualTo(first.hdrData());
            assertThat(second.link()).isEqualTo(first.sequence());
        }
    }

    /** A-36 as this library resolves it, seen through PtlEQWait: the first put's events are the ones kept. */
    @Test
    @Resolves("A-36")
    void waitAfterOverflowTakesTheOldestEventsKept() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(2);
            target(job, b, eq, BITS);
            deliver(job, a, b, BITS, 1);
            deliver(job, a, b, BITS, 2);
            awaitStatus(b, StatusRegister.EVENTS_DROPPED, 2);
            Event first = new Event();
            assertThat(bounded("PtlEQWait after an overflow", () -> b.ptl().eqWait(eq, first)))
                    .isEqualTo(ReturnCode.EQ_DROPPED);
            assertThat(first.hdrData()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-145")
    @SuppressWarnings("nullness") // passes null on purpose: the Java form of an illegal address
    void waitIntoNullIsSegvAndOnAnInvalidQueueIsInvEq() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            EqHandle eq = b.eq(4);
            assertCode(ReturnCode.SEGV, () -> bounded("PtlEQWait(eq, NULL)", () -> b.ptl().eqWait(eq, null)));
            assertCode(ReturnCode.INV_EQ, () -> bounded("PtlEQWait on garbage",
                    () -> b.ptl().eqWait(new EqHandle(0x7BAD_0000_0042L), new Event())));
            assertCode(ReturnCode.INV_EQ, () -> bounded("PtlEQWait on PTL_EQ_NONE",
                    () -> b.ptl().eqWait(EqHandle.NONE, new Event())));
            EqHandle freed = b.eq(4);
            b.ptl().eqFree(freed);
            assertCode(ReturnCode.INV_EQ, () -> bounded("PtlEQWait on a freed queue",
                    () -> b.ptl().eqWait(freed, new Event())));
        }
    }

    @Test
    @SpecAssertion("P-145")
    void freeingTheQueueWakesBlockedWaitersWithInvEq() throws Exception {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            EqHandle eq = b.eq(4);
            List<Waiter> waiters = new ArrayList<>();
            try {
                Waiter w1 = Waiter.launch(b.ptl(), eq, "eqwait-1", waiters);
                Waiter w2 = Waiter.launch(b.ptl(), eq, "eqwait-2", waiters);
                w1.awaitBlocked();
                w2.awaitBlocked();
                b.ptl().eqFree(eq);
                assertThat(w1.finish()).isTrue();
                assertThat(w2.finish()).isTrue();
                w1.assertFailed(ReturnCode.INV_EQ);
                w2.assertFailed(ReturnCode.INV_EQ);
            } finally {
                release(b, eq, waiters);
            }
        }
    }

    @Test
    @SpecAssertion("P-146")
    void getWhileAnotherThreadWaitsIsEmpty() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(8);
            EqHandle sink = b.eq(64);
            target(job, b, sink, BITS);
            List<Waiter> waiters = new ArrayList<>();
            try {
                Waiter w = Waiter.launch(b.ptl(), eq, "eqwait-1", waiters);
                w.awaitBlocked();
                for (int i = 0; i < 100; i++) {
                    assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
                }
                assertThat(w.isAlive()).isTrue();

                // an event logged now goes to the waiter; PtlEQGet never sees it
                singleEvent(job, a, b, eq, sink, 1);
                assertThat(w.finish()).isTrue();
                w.assertReturned(ReturnCode.OK);
                assertThat(w.event.type()).isEqualTo(EventKind.UNLINK);
                assertThat(b.ptl().eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
            } finally {
                release(b, eq, waiters);
            }
        }
    }

    // ==== helpers ===================================================================================

    /** An MD on {@link #PORTAL} of {@code b} matching {@code bits}, OP_PUT and MANAGE_REMOTE, logging to {@code eq}. */
    private static Rank.Attached target(TckJob job, Rank b, EqHandle eq, long bits) {
        return b.attach(PORTAL, bits, 0, job.allocate(LEN), eq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
    }

    /**
     * An 8-byte put from {@code a} to {@code b}'s {@link #PORTAL}, no ack, carrying {@code hdrData}; returns once sent.
     */
    private static void put(TckJob job, Rank a, Rank b, long bits, long hdrData) {
        EqHandle eq = a.eq(4);
        MdHandle md = a.bind(job.pattern(LEN, (int) hdrData), eq);
        a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, bits, 0, hdrData);
        a.next(eq, EventKind.SEND_START);
        a.next(eq, EventKind.SEND_END);
        a.ptl().mdUnlink(md);
        a.ptl().eqFree(eq);
    }

    /** {@link #put}, then waits until the target has logged the whole put (its payload has landed). */
    private static void deliver(TckJob job, Rank a, Rank b, long bits, long hdrData) {
        long before = b.ptl().niStatus(b.ni(), StatusRegister.BYTES_RECEIVED);
        put(job, a, b, bits, hdrData);
        awaitStatus(b, StatusRegister.BYTES_RECEIVED, before + LEN);
    }

    /**
     * Makes a put log exactly one event on {@code eq}: an MD of length 0 without TRUNCATE, with
     * {@code unlink_nofit = PTL_UNLINK} and logging to {@code eq}, is put at the head of the list; the
     * put does not fit, so that MD is unlinked (UNLINK on {@code eq}) and the put goes on to the
     * {@code sink} MD behind it. Waits until the sink has logged the put.
     */
    private static void singleEvent(TckJob job, Rank a, Rank b, EqHandle eq, EqHandle sink, long hdrData) {
        MeHandle me = b.ptl().meAttach(b.ni(), PORTAL, ProcessId.ANY, BITS, 0, Unlink.UNLINK, InsertPosition.BEFORE);
        b.ptl().mdAttach(me, MemoryDescriptor.empty().withOptions(MdOption.OP_PUT).withEventQueue(eq),
                Unlink.RETAIN, Unlink.UNLINK);
        put(job, a, b, BITS, hdrData);
        b.next(sink, EventKind.PUT_START);
        b.next(sink, EventKind.PUT_END);
    }

    private static ReturnCode take(Rank b, EqHandle eq, List<Event> into) {
        Event e = new Event();
        ReturnCode rc = b.ptl().eqGet(eq, e);
        if (rc != ReturnCode.EQ_EMPTY) {
            into.add(e);
        }
        return rc;
    }

    /** Waits (within the transport's patience) until {@code reg} of {@code r} reaches {@code expected}; checks it. */
    static void awaitStatus(Rank r, StatusRegister reg, long expected) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (r.ptl().niStatus(r.ni(), reg) < expected && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertThat(r.ptl().niStatus(r.ni(), reg)).as(reg.specName()).isEqualTo(expected);
    }

    /** Runs {@code call} on another thread and fails the test if it does not return within the patience. */
    private static <T> T bounded(String what, Callable<T> call) throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().factory());
        try {
            Future<T> result = executor.submit(call);
            try {
                return result.get(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                return fail(what + " did not return within " + TckTransport.patience());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
        } finally {
            executor.shutdownNow();
        }
    }

    /** Waits until one of {@code waiters} has returned; fails after the patience. */
    private static Waiter awaitOneDone(List<Waiter> waiters) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (System.nanoTime() < deadline) {
            for (Waiter w : waiters) {
                if (!w.isAlive()) {
                    return w;
                }
            }
            Rank.sleep(Duration.ofMillis(1));
        }
        return fail("no PtlEQWait returned within " + TckTransport.patience());
    }

    /** Makes sure every waiter ends: frees the queue if one is still blocked (it wakes with PTL_INV_EQ). */
    private static void release(Rank b, EqHandle eq, List<Waiter> waiters) throws InterruptedException {
        if (waiters.stream().anyMatch(Thread::isAlive)) {
            try {
                b.ptl().eqFree(eq);
            } catch (PortalsException alreadyFreed) {
                // nothing to wake
            }
        }
        for (Waiter w : waiters) {
            w.join(TckTransport.patience().toMillis());
        }
        assertThat(waiters).filteredOn(Thread::isAlive).as("threads left blocked in PtlEQWait").isEmpty();
    }

    /** A thread blocked in {@code PtlEQWait}. */
    private static final class Waiter extends Thread {
        private final Portals ptl;
        private final EqHandle eq;
        private final CountDownLatch calling = new CountDownLatch(1);
        final Event event = new Event();
        private volatile @Nullable ReturnCode result;
        private volatile @Nullable Throwable failure;

        private Waiter(Portals ptl, EqHandle eq, String name) {
            super(name);
            this.ptl = ptl;
            this.eq = eq;
        }

        static Waiter launch(Portals ptl, EqHandle eq, String name, List<Waiter> all) {
            Waiter w = new Waiter(ptl, eq, name);
            w.setDaemon(true);
            all.add(w);
            w.start();
            return w;
        }

        @Override
        public void run() {
            calling.countDown();
            try {
                result = ptl.eqWait(eq, event);
            } catch (Throwable t) {
                failure = t;
            }
        }

        /** Waits until the thread is inside PtlEQWait and idling there, and checks it has not returned. */
        void awaitBlocked() throws InterruptedException {
            assertThat(calling.await(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < deadline) {
                State s = getState();
                if (s == State.WAITING || s == State.TIMED_WAITING || s == State.TERMINATED) {
                    break;
                }
                Thread.sleep(1);
            }
            Rank.sleep(TckTransport.quietPeriod());
            assertThat(isAlive()).as("%s is blocked in PtlEQWait (result %s, failure %s)", getName(),
                            String.valueOf(result), String.valueOf(failure))
                    .isTrue();
        }

        /** Waits for the thread to end; true if it did within the patience. */
        boolean finish() throws InterruptedException {
            join(TckTransport.patience().toMillis());
            return !isAlive();
        }

        void assertReturned(ReturnCode expected) {
            Throwable t = failure;
            ReturnCode r = result;
            if (t != null || r == null) {
                fail(getName() + "'s PtlEQWait returned no code: it threw " + t);
                return;
            }
            assertThat(r).as("%s's PtlEQWait result", getName()).isEqualTo(expected);
        }

        void assertFailed(ReturnCode expected) {
            Throwable t = failure;
            if (!(t instanceof PortalsException e)) {
                fail(getName() + "'s PtlEQWait did not fail with a PortalsException: result " + result + ", " + t);
                return;
            }
            assertThat(e.code()).as("%s's PtlEQWait failure", getName()).isEqualTo(expected);
        }
    }
}
