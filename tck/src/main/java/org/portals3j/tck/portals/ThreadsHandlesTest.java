package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AnyHandle;
import org.portals3j.portals.AttachedEntry;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.Handle;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.transport.JobMember;

/** Threads, atomicity and handles (Portals 3.2 spec §2.4, §3.2.2). */
@DisplayName("Threads, atomicity, handles (P-257..P-262)")
class ThreadsHandlesTest {
    private static final int PT = 2;
    private static final Duration HARD_LIMIT = Duration.ofSeconds(20);

    // ---- P-257 ----------------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-257")
    void noCallButEqWaitBlocksWhileThePeerIsIdle() {
        // The peer is a rank that never even starts receiving: nothing it is sent is processed.
        try (TckJob job = TckJob.builder(2).raw(1).start()) {
            Rank a = job.rank(0);
            JobMember idle = job.job().peers().member(1);
            ProcessId peer = new ProcessId(idle.nid(), idle.pid());
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                Portals p = a.ptl();
                NiHandle ni = a.ni();
                p.init();
                assertThat(p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle()).isEqualTo(ni);
                p.niStatus(ni, StatusRegister.DROP_COUNT);
                assertThat(p.niDist(ni, peer)).isPositive();
                p.getUid(ni);
                p.getId(ni);
                p.acEntry(ni, 1, ProcessId.ANY, Portals.UID_ANY, PT);
                EqHandle eq = p.eqAlloc(ni, 8);
                assertThat(p.niHandle(eq)).isEqualTo(ni);
                MeHandle me = p.meAttach(ni, PT, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
                AttachedEntry any = p.meAttachAny(ni, ProcessId.ANY, 0, ~0L, Unlink.RETAIN);
                MeHandle inserted = p.meInsert(me, ProcessId.ANY, 1, 0, Unlink.RETAIN, InsertPosition.BEFORE);
                MdHandle attached = p.mdAttach(me, MemoryDescriptor.of(job.allocate(8)).withEventQueue(eq),
                        Unlink.RETAIN, Unlink.RETAIN);
                p.mdUpdate(attached, MemoryDescriptor.of(job.allocate(8)), eq);

                // Operations towards the idle peer return at once; their completion is what waits.
                MdHandle src = p.mdBind(ni, MemoryDescriptor.of(job.pattern(8, 1)).withEventQueue(eq));
                p.put(src, AckRequest.ACK_REQ, peer, PT, 0, 0, 0, 0);
                MdHandle dst = p.mdBind(ni, MemoryDescriptor.of(job.allocate(8)).withEventQueue(eq));
                p.get(dst, peer, PT, 0, 0, 0);
                assertCode(ReturnCode.MD_INUSE, () -> p.mdUnlink(dst)); // refuses, does not wait for the reply
                Event e = new Event();
                for (int i = 0; i < 10; i++) {
                    assertThat(p.eqGet(eq, e)).isIn(ReturnCode.OK, ReturnCode.EQ_EMPTY, ReturnCode.EQ_DROPPED);
                }
                assertThat(e.type()).as("the get never started").isNotEqualTo(EventKind.REPLY_START);

                p.mdUnlink(attached);
                p.meUnlink(inserted);
                p.meUnlink(me);
                p.meUnlink(any.handle());
                EqHandle spare = p.eqAlloc(ni, 1);
                p.eqFree(spare);
            });
        }
    }

    // ---- P-258 ----------------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-258")
    void concurrentMeInsertsOnOneListAreAllKept() throws Exception {
        int perThread = 300;
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MeHandle anchor = b.ptl().meAttach(b.ni(), PT, ProcessId.ANY, 0xFFFF_0000L, 0, Unlink.RETAIN,
                    InsertPosition.AFTER);
            MemorySegment[] regions = {job.allocate(perThread), job.allocate(perThread)};
            CyclicBarrier go = new CyclicBarrier(2);
            Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
            Thread[] threads = new Thread[2];
            for (int t = 0; t < 2; t++) {
                int thread = t;
                threads[t] = new Thread(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < perThread; i++) {
                            // Thread 0: exact bits; thread 1: bits with ignored low bits (a wildcard entry).
                            long bits = thread == 0 ? 0x1000L + i : (0x2000L + i) << 8;
                            long ignore = thread == 0 ? 0 : 0xFF;
                            MeHandle me = b.ptl().meInsert(anchor, ProcessId.ANY, bits, ignore, Unlink.RETAIN,
                                    i % 2 == 0 ? InsertPosition.AFTER : InsertPosition.BEFORE);
                            b.ptl().mdAttach(me, MemoryDescriptor.of(regions[thread].asSlice(i, 1)).withThreshold(1)
                                    .withOptions(MdOption.OP_PUT), Unlink.RETAIN, Unlink.RETAIN);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "inserter-" + t);
                threads[t].start();
            }
            joinAll(threads);
            assertThat(errors).isEmpty();

            // Every entry is on the list: a put with its bits lands in its own byte.
            EqHandle eq = a.eq(4);
            for (int t = 0; t < 2; t++) {
                for (int i = 0; i < perThread; i++) {
                    long bits = t == 0 ? 0x1000L + i : ((0x2000L + i) << 8) | 0x5A;
                    MdHandle md = a.bind(job.pattern(1, i + 1), eq);
                    a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PT, 0, bits, 0, 0);
                    a.next(eq, EventKind.SEND_START);
                    a.next(eq, EventKind.SEND_END);
                    a.ptl().mdUnlink(md);
                }
            }
            for (int t = 0; t < 2; t++) {
                for (int i = 0; i < perThread; i++) {
                    ReceiveAcceptanceTest.awaitByte(regions[t], i, (byte) (i + 1));
                }
            }
            assertThat(b.drops()).isZero();
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.PUTS_RECEIVED)).isEqualTo(2L * perThread);
        }
    }

    // ---- P-259 ----------------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-259")
    void putsInterleavedWithMdUpdateSeeOnlyWholeDescriptors() throws Exception {
        int minPuts = 400;
        int maxPuts = 20_000;
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(2 * maxPuts + 8);
            MemorySegment s1 = job.allocate(64);
            MemorySegment s2 = job.allocate(32);
            MemoryDescriptor x = new MemoryDescriptor(s1, 64, MemoryDescriptor.THRESH_INF, 64,
                    MdOption.bits(MdOption.OP_PUT, MdOption.MANAGE_REMOTE), "X", eqb);
            MemoryDescriptor y = new MemoryDescriptor(s2, 32, MemoryDescriptor.THRESH_INF, 16,
                    MdOption.bits(MdOption.OP_PUT, MdOption.MANAGE_REMOTE, MdOption.TRUNCATE), "Y", eqb);
            MdHandle md = b.attach(PT, ProcessId.ANY, 0, ~0L, x, Unlink.RETAIN, Unlink.RETAIN).md();

            AtomicBoolean done = new AtomicBoolean();
            AtomicInteger updates = new AtomicInteger();
            Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
            Thread updater = new Thread(() -> {
                try {
                    boolean toY = true;
                    while (!done.get()) {
                        MemoryDescriptor before = b.ptl().mdUpdate(md, toY ? y : x, EqHandle.NONE).previous();
                        assertThat(sameDescriptor(before, x) || sameDescriptor(before, y)).as("old_md %s", before)
                                .isTrue();
                        toY = !toY;
                        updates.incrementAndGet();
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "md-updater");
            updater.start();
            int puts = 0;
            int updatesBefore;
            try {
                // The updater must be running before the puts start, and the puts go on (bounded)
                // until updates have demonstrably happened among them: a fast transport could
                // otherwise finish every put before the updater thread is scheduled at all.
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (updates.get() == 0 && System.nanoTime() < deadline && errors.isEmpty()) {
                    Thread.yield();
                }
                updatesBefore = updates.get();
                while (puts < minPuts || (updates.get() - updatesBefore < 20 && puts < maxPuts)) {
                    ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), PT, 0, 0, job.pattern(8, puts));
                    puts++;
                }
            } finally {
                done.set(true);
                joinAll(updater);
            }
            assertThat(errors).isEmpty();
            assertThat(updates.get() - updatesBefore).as("updates made while the puts arrived").isPositive();

            List<Event> events = b.drain(eqb);
            assertThat(events).hasSize(2 * puts);
            for (Event e : events) {
                MemoryDescriptor seen = e.memDesc();
                assertThat(sameDescriptor(seen, x) || sameDescriptor(seen, y)).as("mem_desc of %s", e).isTrue();
                assertThat(e.mlength()).isEqualTo(8);
            }
            // Each region a put reached holds, in its first 8 bytes, the whole of one put.
            assertThat(ReceiveMatchingTest.isZero(s1) && ReceiveMatchingTest.isZero(s2)).isFalse();
            for (MemorySegment s : new MemorySegment[] {s1, s2}) {
                if (ReceiveMatchingTest.isZero(s)) {
                    continue; // no put landed while the MD pointed here
                }
                byte first = s.get(ValueLayout.JAVA_BYTE, 0);
                for (int i = 1; i < 8; i++) {
                    assertThat(s.get(ValueLayout.JAVA_BYTE, i)).isEqualTo((byte) (first + i));
                }
            }
        }
    }

    // ---- P-260..P-262 ---------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-260")
    void everyHandleConvertsToAnyHandleAndBackWithoutLoss() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Portals p = b.ptl();
            NiHandle ni1 = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            List<EqHandle> queues = new ArrayList<>();
            for (NiHandle ni : new NiHandle[] {b.ni(), ni1}) {
                EqHandle eq = p.eqAlloc(ni, 8);
                queues.add(eq);
                MeHandle me = p.meAttach(ni, PT, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
                MdHandle attached = p.mdAttach(me, MemoryDescriptor.of(job.allocate(16))
                        .withOptions(MdOption.OP_PUT).withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
                MdHandle bound = p.mdBind(ni, MemoryDescriptor.of(job.allocate(16)));
                for (Handle h : List.<Handle>of(ni, eq, me, attached, bound)) {
                    AnyHandle any = h.toAny();
                    assertThat(any.value()).isEqualTo(h.value());
                    assertThat(p.niHandle(any)).as("PtlNIHandle(%s)", h).isEqualTo(ni);
                    assertThat(p.niHandle(h)).isEqualTo(ni);
                }
                // Back from ptl_handle_any_t, each handle still names its object.
                assertThat(NiHandle.of(ni.toAny())).isEqualTo(ni);
                assertThat(EqHandle.of(eq.toAny())).isEqualTo(eq);
                assertThat(MeHandle.of(me.toAny())).isEqualTo(me);
                assertThat(MdHandle.of(attached.toAny())).isEqualTo(attached);
                assertThat(p.niStatus(NiHandle.of(ni.toAny()), StatusRegister.DROP_COUNT)).isZero();
                p.meInsert(MeHandle.of(me.toAny()), ProcessId.ANY, 1, 0, Unlink.RETAIN, InsertPosition.AFTER);
                assertThat(p.mdUpdate(MdHandle.of(bound.toAny()), null, EqHandle.of(eq.toAny())).status())
                        .isEqualTo(ReturnCode.OK);
                assertThat(p.eqGet(EqHandle.of(eq.toAny()), new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
                p.mdUnlink(MdHandle.of(bound.toAny()));
            }
            // The round-tripped attached MD on the default interface still receives.
            EqHandle eqa = a.eq(4);
            a.ptl().put(a.bind(job.pattern(8, 1), eqa), AckRequest.NOACK_REQ, b.id(), PT, 0, 0, 0, 0);
            a.next(eqa, EventKind.SEND_START);
            a.next(eqa, EventKind.SEND_END);
            b.next(queues.get(0), EventKind.PUT_START);
            b.next(queues.get(0), EventKind.PUT_END);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-261")
    void staleHandlesAreNotTakenForTheObjectsThatReuseTheirSlots() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Portals p = b.ptl();
            NiHandle ni = b.ni();

            EqHandle eqOld = p.eqAlloc(ni, 4);
            p.eqFree(eqOld);
            EqHandle eqNew = p.eqAlloc(ni, 4);
            assertThat(eqNew).isNotEqualTo(eqOld);
            assertCode(ReturnCode.INV_EQ, () -> p.eqGet(eqOld, new Event()));
            assertCode(ReturnCode.INV_EQ, () -> p.eqFree(eqOld));
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(eqOld));
            assertCode(ReturnCode.INV_EQ, () -> p.mdBind(ni, MemoryDescriptor.empty().withEventQueue(eqOld)));
            assertThat(p.eqGet(eqNew, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);

            MdHandle mdOld = p.mdBind(ni, MemoryDescriptor.of(job.allocate(8)));
            p.mdUnlink(mdOld);
            MdHandle mdNew = p.mdBind(ni, MemoryDescriptor.of(job.allocate(8)));
            assertThat(mdNew).isNotEqualTo(mdOld);
            assertCode(ReturnCode.INV_MD, () -> p.mdUpdate(mdOld, null, EqHandle.NONE));
            assertCode(ReturnCode.INV_MD, () -> p.put(mdOld, AckRequest.NOACK_REQ, a.id(), PT, 0, 0, 0, 0));
            assertCode(ReturnCode.INV_MD, () -> p.mdUnlink(mdOld));
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(mdOld));
            assertThat(p.mdUpdate(mdNew, null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);

            MeHandle meOld = p.meAttach(ni, PT, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            p.meUnlink(meOld);
            MeHandle meNew = p.meAttach(ni, PT, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            assertThat(meNew).isNotEqualTo(meOld);
            assertCode(ReturnCode.INV_ME, () -> p.meInsert(meOld, ProcessId.ANY, 0, 0, InsertPosition.AFTER));
            assertCode(ReturnCode.INV_ME,
                    () -> p.mdAttach(meOld, MemoryDescriptor.empty(), Unlink.RETAIN, Unlink.RETAIN));
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(meOld));
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(meOld));

            // An MD auto-unlinked by a put, replaced on its (retained) entry: the old handle stays dead.
            EqHandle eq = p.eqAlloc(ni, 8);
            MdHandle first = p.mdAttach(meNew, MemoryDescriptor.of(job.allocate(16)).withThreshold(1)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eq), Unlink.UNLINK, Unlink.RETAIN);
            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), PT, 0, 0, job.pattern(8, 1));
            b.next(eq, EventKind.PUT_START);
            b.next(eq, EventKind.PUT_END);
            b.next(eq, EventKind.UNLINK);
            MdHandle second = p.mdAttach(meNew, MemoryDescriptor.of(job.allocate(16))
                    .withOptions(MdOption.OP_PUT).withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
            assertThat(second).isNotEqualTo(first);
            assertCode(ReturnCode.INV_MD, () -> p.mdUpdate(first, null, EqHandle.NONE));
            assertCode(ReturnCode.INV_MD, () -> p.mdUnlink(first));
            assertThat(p.mdUpdate(second, null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
        }
    }

    @Test
    @SpecAssertion("P-262")
    void handlesOfOneInterfaceAreNotTakenForObjectsOfAnother() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Portals p = b.ptl();
            NiHandle ni0 = b.ni();
            NiHandle ni1 = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            EqHandle eq0 = p.eqAlloc(ni0, 16);
            EqHandle eq1 = p.eqAlloc(ni1, 16);
            // The same kind of object, created in the same order, on both interfaces.
            MeHandle me0 = p.meAttach(ni0, PT, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle me1 = p.meAttach(ni1, PT, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
            MdHandle md0 = p.mdAttach(me0, MemoryDescriptor.of(job.allocate(16))
                    .withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE).withEventQueue(eq0), Unlink.RETAIN,
                    Unlink.RETAIN);
            MdHandle md1 = p.mdAttach(me1, MemoryDescriptor.of(job.allocate(16))
                    .withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE).withEventQueue(eq1), Unlink.RETAIN,
                    Unlink.RETAIN);

            // An MD handle of interface 1 is not an entry (of either interface).
            assertCode(ReturnCode.INV_ME, () -> p.meInsert(new MeHandle(md1.value()), ProcessId.ANY, 0, 0,
                    InsertPosition.AFTER));
            // An event queue of the other interface is refused in descriptors of this one.
            assertCode(ReturnCode.ILL_MD, () -> p.mdUpdate(md1, MemoryDescriptor.empty().withEventQueue(eq0),
                    EqHandle.NONE));
            assertCode(ReturnCode.ILL_MD, () -> p.mdUpdate(md0, MemoryDescriptor.empty().withEventQueue(eq1),
                    EqHandle.NONE));
            MeHandle spare0 = p.meInsert(me0, ProcessId.ANY, 7, 0, InsertPosition.AFTER);
            assertCode(ReturnCode.ILL_MD, () -> p.mdAttach(spare0, MemoryDescriptor.empty().withEventQueue(eq1),
                    Unlink.RETAIN, Unlink.RETAIN));
            assertCode(ReturnCode.ILL_MD, () -> p.mdBind(ni0, MemoryDescriptor.empty().withEventQueue(eq1)));

            // Removing interface 1's objects leaves interface 0's alone.
            p.mdUnlink(md1);
            p.meUnlink(me1);
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(me1));
            assertCode(ReturnCode.INV_MD, () -> p.mdUpdate(md1, null, EqHandle.NONE));
            assertThat(p.mdUpdate(md0, null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            assertThat(p.niHandle(me0)).isEqualTo(ni0);
            assertThat(p.niHandle(md0)).isEqualTo(ni0);
            assertThat(p.niHandle(eq1)).isEqualTo(ni1);
            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), PT, 0, 0, job.pattern(8, 1));
            assertThat(b.next(eq0, EventKind.PUT_START).mdHandle()).isEqualTo(md0);
            b.next(eq0, EventKind.PUT_END);
            b.expectNoEvent(eq1);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Whether two descriptor values are equal, comparing memory by address and size. */
    static boolean sameDescriptor(MemoryDescriptor m, MemoryDescriptor n) {
        return m.start().address() == n.start().address() && m.start().byteSize() == n.start().byteSize()
                && m.length() == n.length() && m.threshold() == n.threshold() && m.maxOffset() == n.maxOffset()
                && m.options() == n.options() && m.userPtr() == n.userPtr() && m.eventq().equals(n.eventq());
    }

    /** Joins every thread within {@link #HARD_LIMIT}; a thread still running then is a deadlock. */
    static void joinAll(Thread... threads) throws InterruptedException {
        long deadline = System.nanoTime() + HARD_LIMIT.toNanos();
        for (Thread t : threads) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (t.isAlive()) {
                StringBuilder stack = new StringBuilder();
                for (StackTraceElement frame : t.getStackTrace()) {
                    stack.append("\n\tat ").append(frame);
                }
                throw new AssertionError(t.getName() + " did not finish within " + HARD_LIMIT + ":" + stack);
            }
        }
    }
}
