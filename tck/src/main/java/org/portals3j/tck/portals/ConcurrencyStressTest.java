package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;

/**
 * A bounded multi-threaded run against one interface of a target: several initiator threads put and
 * get concurrently while another thread of the target attaches, inserts, updates and unlinks match
 * entries and MDs on the same match list, and a third drains the target's event queues. Every API call
 * is atomic with respect to other threads and to incoming operations (Portals 3.2 spec §2.4), so nothing may be lost,
 * duplicated, torn or misdirected, and nothing may deadlock.
 */
@DisplayName("Concurrency stress: puts and gets against list churn on one interface")
class ConcurrencyStressTest {
    private static final int WORKERS = 4;
    private static final int PORTAL = 8;
    private static final int SLOTS = 16;
    private static final int SIZE = 64;
    private static final Duration RUN = Duration.ofMillis(2500);
    private static final Duration HARD_LIMIT = Duration.ofSeconds(8);
    private static final long CHURN_BIT = 1L << 63;
    /** Target queue capacity, and how many rounds (4 events each) a worker may run ahead of the drain. */
    private static final int TARGET_EQ = 8192;
    private static final int MAX_BEHIND = 1024;

    /** Worker {@code t}'s match bits; odd workers' entries ignore bits 24..31 (so they sit on the wildcard chain). */
    private static long workerBits(int t, int i) {
        return 0x0100_0000_0000L * (t + 1) | (t % 2 == 1 ? (long) (i & 0xFF) << 24 : 0L);
    }

    private static long workerIgnore(int t) {
        return t % 2 == 1 ? 0xFFL << 24 : 0L;
    }

    /** Fills {@code m} with the bytes of put {@code i} of worker {@code t}. */
    private static void fill(MemorySegment m, int t, int i) {
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, ((long) t << 32) | i);
        for (int k = 8; k < SIZE; k++) {
            m.set(ValueLayout.JAVA_BYTE, k, (byte) (t * 31 + i * 7 + k));
        }
    }

    @Test
    @SpecAssertion({"P-192", "P-206", "P-258", "P-259"})
    void concurrentPutsAndGetsAgainstListChurnLoseNothingAndDoNotDeadlock() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Portals pb = b.ptl();
            ProcessId target = b.id();

            // Target: one entry per worker on the shared portal, each with its own region and event queue.
            MemorySegment[] regions = new MemorySegment[WORKERS];
            EqHandle[] targetEqs = new EqHandle[WORKERS];
            MeHandle[] workerMes = new MeHandle[WORKERS];
            for (int t = 0; t < WORKERS; t++) {
                regions[t] = job.allocate((long) SLOTS * SIZE);
                targetEqs[t] = b.eq(TARGET_EQ);
                workerMes[t] = pb.meAttach(b.ni(), PORTAL, ProcessId.ANY, workerBits(t, 0), workerIgnore(t),
                        Unlink.RETAIN, InsertPosition.AFTER);
                pb.mdAttach(workerMes[t], MemoryDescriptor.of(regions[t])
                        .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE)
                        .withUserPtr("worker-" + t).withEventQueue(targetEqs[t]), Unlink.RETAIN, Unlink.RETAIN);
            }
            EqHandle churnEq = b.eq(1024);

            AtomicBoolean stop = new AtomicBoolean();
            AtomicBoolean workersDone = new AtomicBoolean();
            Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicLongArray puts = new AtomicLongArray(WORKERS);
            AtomicLongArray gets = new AtomicLongArray(WORKERS);
            AtomicLongArray lastWrite = new AtomicLongArray(WORKERS * SLOTS);
            for (int k = 0; k < WORKERS * SLOTS; k++) {
                lastWrite.set(k, -1);
            }
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            TargetDrain drain = new TargetDrain(b, targetEqs);

            for (int w = 0; w < WORKERS; w++) {
                int t = w;
                threads.add(thread("worker-" + t, errors, go,
                        () -> work(a, target, t, stop, puts, gets, lastWrite, drain)));
            }
            threads.add(thread("target-drain", errors, go, () -> drain.run(workersDone, puts, gets)));
            threads.add(thread("list-churn", errors, go, () -> churn(b, workerMes, churnEq, stop)));

            threads.forEach(Thread::start);
            go.countDown();
            Thread.sleep(RUN.toMillis());
            stop.set(true);
            long deadline = System.nanoTime() + HARD_LIMIT.toNanos();
            for (Thread th : threads.subList(0, WORKERS)) {
                joinOrFail(th, deadline);
            }
            workersDone.set(true);
            for (Thread th : threads.subList(WORKERS, threads.size())) {
                joinOrFail(th, deadline);
            }
            assertThat(errors).as("failures in the threads").isEmpty();

            long totalPuts = 0;
            long totalGets = 0;
            for (int t = 0; t < WORKERS; t++) {
                assertThat(puts.get(t)).as("puts by worker %d", t).isGreaterThanOrEqualTo(10);
                assertThat(drain.putEnds.get(t)).as("PUT_END events for worker %d", t).isEqualTo(puts.get(t));
                assertThat(drain.getEnds.get(t)).as("GET_END events for worker %d", t).isEqualTo(gets.get(t));
                assertThat(drain.open.get(t)).as("START events without END for worker %d", t).isEmpty();
                totalPuts += puts.get(t);
                totalGets += gets.get(t);
                // The region holds, in each slot, the whole of the last put into it.
                MemorySegment expected = job.allocate(SIZE);
                for (int s = 0; s < SLOTS; s++) {
                    long i = lastWrite.get(t * SLOTS + s);
                    MemorySegment slot = regions[t].asSlice((long) s * SIZE, SIZE);
                    if (i < 0) {
                        assertThat(ReceiveMatchingTest.isZero(slot)).isTrue();
                    } else {
                        fill(expected, t, (int) i);
                        assertThat(slot.mismatch(expected)).as("worker %d slot %d", t, s).isEqualTo(-1L);
                    }
                }
            }
            assertThat(pb.niStatus(b.ni(), StatusRegister.PUTS_RECEIVED)).isEqualTo(totalPuts);
            assertThat(pb.niStatus(b.ni(), StatusRegister.GETS_RECEIVED)).isEqualTo(totalGets);
            assertThat(b.drops()).as("requests the target dropped").isZero();
            assertThat(a.drops()).as("acks and replies the initiator dropped").isZero();
            assertThat(pb.niStatus(b.ni(), StatusRegister.EVENTS_DROPPED)).isZero();
            assertThat(a.ptl().niStatus(a.ni(), StatusRegister.EVENTS_DROPPED)).isZero();
            assertThat(pb.eqGet(churnEq, new Event())).as("no worker traffic reached a churned MD")
                    .isEqualTo(ReturnCode.EQ_EMPTY);
        }
    }

    // ---- the initiator's workers ----------------------------------------------------------------

    /**
     * One worker: put a fresh pattern into a slot of its region (with an ack, so the data is known to be
     * there), then get the slot back and compare. Its own event queue must show exactly SEND_START,
     * SEND_END, ACK, REPLY_START, REPLY_END for each round, linked in pairs.
     */
    private static void work(Rank a, ProcessId target, int t, AtomicBoolean stop, AtomicLongArray puts,
                             AtomicLongArray gets, AtomicLongArray lastWrite, TargetDrain drain) {
        Portals p = a.ptl();
        EqHandle eq = a.eq(64);
        MemorySegment src = a.job().allocate(SIZE);
        MemorySegment dst = a.job().allocate(SIZE);
        MdHandle put = p.mdBind(a.ni(), MemoryDescriptor.of(src).withEventQueue(eq));
        MdHandle get = p.mdBind(a.ni(), MemoryDescriptor.of(dst).withEventQueue(eq));
        long lastSequence = 0;
        for (int i = 0; !stop.get(); i++) {
            // Back-pressure: stay within what the target's queue holds until the drain catches up.
            while (gets.get(t) - drain.getEnds.get(t) > MAX_BEHIND && !stop.get()) {
                Thread.yield();
            }
            int slot = i % SLOTS;
            long offset = (long) slot * SIZE;
            long bits = workerBits(t, i);
            fill(src, t, i);
            p.put(put, AckRequest.ACK_REQ, target, PORTAL, 0, bits, offset, ((long) t << 32) | i);
            Event start = a.next(eq, EventKind.SEND_START);
            Event end = a.next(eq, EventKind.SEND_END);
            Event ack = a.next(eq, EventKind.ACK);
            assertThat(start.sequence()).isGreaterThan(lastSequence);
            assertThat(end.link()).isEqualTo(start.link()).isEqualTo(start.sequence());
            assertThat(end.sequence()).isGreaterThan(start.sequence());
            assertThat(ack.sequence()).isGreaterThan(end.sequence());
            assertThat(ack.mlength()).isEqualTo(SIZE);
            assertThat(ack.offset()).isEqualTo(offset);
            assertThat(ack.matchBits()).isEqualTo(bits);
            lastWrite.set(t * SLOTS + slot, i);
            puts.incrementAndGet(t);

            dst.fill((byte) 0);
            p.get(get, target, PORTAL, 0, bits, offset);
            Event replyStart = a.next(eq, EventKind.REPLY_START);
            Event replyEnd = a.next(eq, EventKind.REPLY_END);
            assertThat(replyEnd.link()).isEqualTo(replyStart.link()).isEqualTo(replyStart.sequence());
            assertThat(replyEnd.mlength()).isEqualTo(SIZE);
            assertThat(dst.mismatch(src)).as("worker %d round %d read back", t, i).isEqualTo(-1L);
            gets.incrementAndGet(t);
            lastSequence = replyEnd.sequence();
        }
        assertThat(p.eqGet(eq, new Event())).as("no stray events for worker %d", t).isEqualTo(ReturnCode.EQ_EMPTY);
    }

    // ---- the target's event drain ---------------------------------------------------------------

    /** Takes the target's events as they come, pairing every START with its END by link. */
    private static final class TargetDrain {
        final Rank b;
        final EqHandle[] eqs;
        final AtomicLongArray putEnds = new AtomicLongArray(WORKERS);
        final AtomicLongArray getEnds = new AtomicLongArray(WORKERS);
        final List<Map<Long, EventKind>> open = new ArrayList<>();
        final long[] lastSequence = new long[WORKERS];

        TargetDrain(Rank b, EqHandle[] eqs) {
            this.b = b;
            this.eqs = eqs;
            for (int t = 0; t < WORKERS; t++) {
                open.add(new HashMap<>());
            }
        }

        void run(AtomicBoolean workersDone, AtomicLongArray puts, AtomicLongArray gets) {
            Event e = new Event();
            long quietDeadline = Long.MAX_VALUE;
            while (true) {
                boolean any = false;
                for (int t = 0; t < WORKERS; t++) {
                    ReturnCode rc = b.ptl().eqGet(eqs[t], e);
                    if (rc == ReturnCode.EQ_EMPTY) {
                        continue;
                    }
                    assertThat(rc).as("events lost on worker %d's target queue", t).isEqualTo(ReturnCode.OK);
                    any = true;
                    take(t, e);
                }
                if (workersDone.get()) {
                    if (caughtUp(puts, gets)) {
                        return;
                    }
                    if (quietDeadline == Long.MAX_VALUE) {
                        quietDeadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                    } else if (System.nanoTime() > quietDeadline) {
                        return; // the main thread reports the shortfall
                    }
                }
                if (!any) {
                    Thread.yield();
                }
            }
        }

        private boolean caughtUp(AtomicLongArray puts, AtomicLongArray gets) {
            for (int t = 0; t < WORKERS; t++) {
                if (putEnds.get(t) != puts.get(t) || getEnds.get(t) != gets.get(t) || !open.get(t).isEmpty()) {
                    return false;
                }
            }
            return true;
        }

        private void take(int t, Event e) {
            assertThat(e.sequence()).as("sequence on queue %d", t).isGreaterThan(lastSequence[t]);
            lastSequence[t] = e.sequence();
            assertThat(e.userPtr()).isEqualTo("worker-" + t);
            assertThat(e.initiatorNid()).isZero();
            assertThat(e.mlength()).isEqualTo(SIZE);
            long bits = e.matchBits();
            assertThat(bits & ~workerIgnore(t)).as("bits of %s", e).isEqualTo(workerBits(t, 0));
            Map<Long, EventKind> pending = open.get(t);
            switch (e.type()) {
                case PUT_START, GET_START -> {
                    assertThat(e.link()).isEqualTo(e.sequence());
                    boolean fresh = pending.put(e.link(), e.type()) == null;
                    assertThat(fresh).as("duplicate START %s", e).isTrue();
                }
                case PUT_END -> {
                    boolean paired = pending.remove(e.link()) == EventKind.PUT_START;
                    assertThat(paired).as("PUT_END without its PUT_START: %s", e).isTrue();
                    assertThat(e.hdrData() >>> 32).isEqualTo(t);
                    assertThat(e.offset()).isEqualTo((e.hdrData() & 0xFFFF_FFFFL) % SLOTS * SIZE);
                    putEnds.incrementAndGet(t);
                }
                case GET_END -> {
                    boolean paired = pending.remove(e.link()) == EventKind.GET_START;
                    assertThat(paired).as("GET_END without its GET_START: %s", e).isTrue();
                    getEnds.incrementAndGet(t);
                }
                default -> throw new AssertionError("unexpected event on worker " + t + "'s queue: " + e);
            }
        }
    }

    // ---- the target's list churn ----------------------------------------------------------------

    /**
     * Attaches, inserts (next to the workers' own entries too), updates and unlinks entries and MDs on
     * the workers' portal and a neighbour, with bits no worker uses (bit 63 set, never ignored).
     */
    private static void churn(Rank b, MeHandle[] workerMes, EqHandle churnEq, AtomicBoolean stop) {
        Portals p = b.ptl();
        SplittableRandom random = new SplittableRandom(42);
        MemorySegment memory = b.job().allocate(256);
        List<MeHandle> mes = new ArrayList<>();
        List<MdHandle> mds = new ArrayList<>();
        long operations = 0;
        while (!stop.get()) {
            long bits = CHURN_BIT | random.nextLong(1L << 40);
            long ignore = random.nextBoolean() ? 0 : random.nextLong(1L << 16);
            InsertPosition pos = random.nextBoolean() ? InsertPosition.BEFORE : InsertPosition.AFTER;
            Unlink unlink = random.nextBoolean() ? Unlink.UNLINK : Unlink.RETAIN;
            int choice = random.nextInt(10);
            try {
                if (mes.size() > 48 || (choice == 0 && !mes.isEmpty())) {
                    p.meUnlink(mes.remove(random.nextInt(mes.size()))); // also frees its MD, if any
                } else if (choice <= 2) {
                    int portal = random.nextInt(4) == 0 ? PORTAL + 1 : PORTAL;
                    mes.add(p.meAttach(b.ni(), portal, ProcessId.ANY, bits, ignore, unlink, pos));
                } else if (choice <= 4) {
                    MeHandle anchor = random.nextBoolean() || mes.isEmpty()
                            ? workerMes[random.nextInt(workerMes.length)] : mes.get(random.nextInt(mes.size()));
                    mes.add(p.meInsert(anchor, ProcessId.ANY, bits, ignore, unlink, pos));
                } else if (choice <= 6 && !mes.isEmpty()) {
                    MeHandle me = mes.get(random.nextInt(mes.size()));
                    int threshold = random.nextBoolean() ? MemoryDescriptor.THRESH_INF : random.nextInt(3);
                    MemoryDescriptor md = MemoryDescriptor.of(memory.asSlice(random.nextInt(128), 64))
                            .withThreshold(threshold).withOptions(MdOption.OP_PUT, MdOption.OP_GET)
                            .withEventQueue(random.nextBoolean() ? churnEq : EqHandle.NONE);
                    try {
                        mds.add(p.mdAttach(me, md, unlink, Unlink.RETAIN));
                    } catch (PortalsException e) {
                        if (e.code() != ReturnCode.INUSE) {
                            throw e; // INV_ME: handled below
                        }
                    }
                } else if (choice == 7 && !mds.isEmpty()) {
                    MdHandle md = mds.get(random.nextInt(mds.size()));
                    try {
                        p.mdUpdate(md, MemoryDescriptor.of(memory.asSlice(0, 32)).withOptions(MdOption.OP_PUT)
                                .withThreshold(random.nextInt(4)), churnEq);
                    } catch (PortalsException e) {
                        assertThat(e.code()).isEqualTo(ReturnCode.INV_MD); // its entry was unlinked meanwhile
                        mds.remove(md);
                    }
                } else if (choice == 8 && !mds.isEmpty()) {
                    MdHandle md = mds.remove(random.nextInt(mds.size()));
                    try {
                        p.mdUnlink(md);
                    } catch (PortalsException e) {
                        assertThat(e.code()).isEqualTo(ReturnCode.INV_MD);
                    }
                } else {
                    MdHandle bound = p.mdBind(b.ni(), MemoryDescriptor.of(memory));
                    p.mdUnlink(bound);
                }
            } catch (PortalsException e) {
                // An entry chosen as anchor or victim may have gone with its MD (PTL_UNLINK entries).
                assertThat(e.code()).as("churn failure").isEqualTo(ReturnCode.INV_ME);
                mes.removeIf(h -> {
                    try {
                        p.niHandle(h);
                        return false;
                    } catch (PortalsException gone) {
                        return true;
                    }
                });
            }
            operations++;
        }
        for (MeHandle me : mes) {
            try {
                p.meUnlink(me);
            } catch (PortalsException e) {
                assertThat(e.code()).isEqualTo(ReturnCode.INV_ME);
            }
        }
        assertThat(operations).as("churn operations").isGreaterThan(100);
    }

    // ---- threads --------------------------------------------------------------------------------

    private interface Body {
        void run() throws Exception;
    }

    private static Thread thread(String name, Queue<Throwable> errors, CountDownLatch go, Body body) {
        Thread t = new Thread(() -> {
            try {
                go.await();
                body.run();
            } catch (Throwable e) {
                errors.add(new AssertionError(Thread.currentThread().getName() + ": " + e, e));
            }
        }, name);
        t.setDaemon(true); // a deadlocked thread must not keep the test JVM alive
        return t;
    }

    private static void joinOrFail(Thread t, long deadline) throws InterruptedException {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        if (t.isAlive()) {
            StringBuilder stack = new StringBuilder();
            for (StackTraceElement frame : t.getStackTrace()) {
                stack.append("\n\tat ").append(frame);
            }
            throw new AssertionError("deadlock? " + t.getName() + " still runs after " + HARD_LIMIT + ":" + stack);
        }
    }
}
