package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AnyHandle;
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
import org.portals3j.portals.NiInit;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.Resolves;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.transport.Job;

/**
 * PtlNIInit, PtlNIFini, PtlNIStatus, PtlNIDist and PtlNIHandle (Portals 3.2 spec §3.3.2 to
 * §3.4.5.2).
 */
@DisplayName("Network interfaces")
class NetworkInterfaceTest {

    private static final long BITS = 0x5EED_0000_0000_0001L;

    // ==== PtlNIInit ==============================================================================

    @Test
    @SpecAssertion({"P-007", "P-010"})
    void niInitWithoutDesiredLimitsGivesAUsableInterface() {
        try (TckJob job = TckJob.builder(2).uninitialised().start()) {
            Portals p0 = job.rank(0).ptl();
            Portals p1 = job.rank(1).ptl();
            p0.init();
            p1.init();
            NiHandle ni0 = p0.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            NiHandle ni1 = p1.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();

            // Usable: objects can be made on it and a put travels between the two interfaces.
            MemorySegment buffer = job.allocate(8);
            EqHandle targetEq = p1.eqAlloc(ni1, 8);
            attach(p1, ni1, 0, BITS, buffer, targetEq);
            EqHandle sendEq = p0.eqAlloc(ni0, 8);
            MdHandle src = p0.mdBind(ni0, MemoryDescriptor.of(job.pattern(8, 3)).withEventQueue(sendEq));
            p0.put(src, AckRequest.NOACK_REQ, p1.getId(ni1), 0, 0, BITS, 0, 0);

            job.rank(0).next(sendEq, EventKind.SEND_START);
            job.rank(0).next(sendEq, EventKind.SEND_END);
            job.rank(1).next(targetEq, EventKind.PUT_START);
            assertThat(job.rank(1).next(targetEq, EventKind.PUT_END).mlength()).isEqualTo(8);
            assertThat(buffer.toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(job.pattern(8, 3).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    @SpecAssertion({"P-008", "P-009", "P-010"})
    void actualLimitsWithoutDesiredAreTheDefaultsAndBoundTheTables() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiInit r = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null);
            NiLimits actual = r.actual();
            assertThat(actual.maxPtableIndex()).isGreaterThanOrEqualTo(0);
            assertThat(actual.maxAtableIndex()).isGreaterThanOrEqualTo(0);
            assertThat(actual.maxMatchEntries()).isGreaterThanOrEqualTo(1);
            assertThat(actual.maxMemDescriptors()).isGreaterThanOrEqualTo(1);
            assertThat(actual.maxEventQueues()).isGreaterThanOrEqualTo(1);
            // This implementation's choice for desired == NULL.
            assertThat(actual).isEqualTo(NiLimits.DEFAULT);

            // The indexes are inclusive bounds of the tables.
            NiHandle ni = r.handle();
            p.meAttach(ni, actual.maxPtableIndex(), ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            assertCode(ReturnCode.INV_PTINDEX, () -> p.meAttach(ni, actual.maxPtableIndex() + 1, ProcessId.ANY, 0, 0,
                    Unlink.RETAIN, InsertPosition.AFTER));
            p.acEntry(ni, actual.maxAtableIndex(), ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            assertCode(ReturnCode.AC_INV_INDEX, () -> p.acEntry(ni, actual.maxAtableIndex() + 1, ProcessId.ANY,
                    Portals.UID_ANY, Portals.PT_INDEX_ANY));
        }
    }

    /**
     * An implementation may honour desired limits or ignore them (Portals 3.2 spec §3.4.1.2): either way the call
     * succeeds, and the limits it reports are the ones the interface keeps. Which of the two this library does is
     * pinned by {@link #desiredLimitsAreHonoured} ({@code @Resolves("I-02")}).
     */
    @Test
    @SpecAssertion({"P-008", "P-009", "P-011"})
    void aNonNullDesiredIsAcceptedAndTheInterfaceKeepsTheLimitsItReports() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiInit r = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(10, 20, 3, 5, 7));
            NiLimits actual = r.actual();
            assertThat(actual.maxPtableIndex()).isNotNegative();
            assertThat(actual.maxAtableIndex()).isNotNegative();
            assertThat(actual.maxMatchEntries()).isPositive();
            assertThat(actual.maxMemDescriptors()).isPositive();
            assertThat(actual.maxEventQueues()).isPositive();

            NiHandle ni = r.handle();
            int pt = actual.maxPtableIndex();
            p.meAttach(ni, pt, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            assertCode(ReturnCode.INV_PTINDEX,
                    () -> p.meAttach(ni, pt + 1, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER));
            int ac = actual.maxAtableIndex();
            p.acEntry(ni, ac, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            assertCode(ReturnCode.AC_INV_INDEX,
                    () -> p.acEntry(ni, ac + 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
        }
    }

    /** This library honours desired limits within its maximum (I-02: the spec lets it ignore them). */
    @Test
    @Resolves("I-02")
    void desiredLimitsAreHonoured() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiLimits desired = new NiLimits(10, 20, 3, 5, 7);
            NiInit r = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, desired);
            assertThat(r.actual()).isEqualTo(desired);

            NiHandle ni = r.handle();
            p.meAttach(ni, 7, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            assertCode(ReturnCode.INV_PTINDEX,
                    () -> p.meAttach(ni, 8, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER));
            p.acEntry(ni, 5, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            assertCode(ReturnCode.AC_INV_INDEX,
                    () -> p.acEntry(ni, 6, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
        }
    }

    /** Desired limits above this library's maximum are clamped to it (I-02). */
    @Test
    @Resolves("I-02")
    void desiredLimitsAboveTheMaximumAreClampedToIt() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            int big = Integer.MAX_VALUE;
            NiInit r = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(big, big, big, big, big));
            assertThat(r.actual()).isEqualTo(NiLimits.MAXIMUM);
            int top = NiLimits.MAXIMUM.maxPtableIndex();
            p.meAttach(r.handle(), top, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            assertCode(ReturnCode.INV_PTINDEX,
                    () -> p.meAttach(r.handle(), top + 1, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER));
        }
    }

    @Test
    @Resolves("A-08")
    void negativeDesiredAccessControlTableIsInvAsize() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            assertCode(ReturnCode.INV_ASIZE,
                    () -> p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(10, 10, 10, -1, 10)));
            // The refused call initialised nothing: a later call may still choose its limits.
            NiLimits desired = new NiLimits(10, 10, 10, 2, 10);
            assertThat(p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, desired).actual()).isEqualTo(desired);
        }
    }

    @Test
    @SpecAssertion("P-012")
    void secondNiInitReturnsTheSameHandle() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            NiHandle first = r.ni();
            assertThat(p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle()).isEqualTo(first);
            // The same explicit pid as the one in force is a repeat too.
            int pid = r.id().pid();
            assertThat(p.niInit(InterfaceId.DEFAULT, pid, null).handle()).isEqualTo(first);
            assertThat(p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle()).isEqualTo(first);

            // Per interface: interface 1 gets its own handle, stable over repeats.
            NiHandle other = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            assertThat(other).isNotEqualTo(first);
            assertThat(p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle()).isEqualTo(other);
            // The repeats did not reset the interface: objects made before still live.
            EqHandle eq = r.eq(4);
            p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null);
            assertThat(p.niHandle(eq)).isEqualTo(first);
        }
    }

    @Test
    @SpecAssertion("P-012")
    void repeatNiInitAskingForAnotherExplicitPidIsInitDup() {
        // a repeat is PTL_OK with the same pid or PTL_PID_ANY; another explicit pid is PTL_INIT_DUP.
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            int pid = r.id().pid();
            assertCode(ReturnCode.INIT_DUP, () -> r.ptl().niInit(InterfaceId.DEFAULT, pid + 7, null));
            assertThat(r.id().pid()).isEqualTo(pid);
            assertThat(r.ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle()).isEqualTo(r.ni());
        }
    }

    @Test
    @SpecAssertion("P-013")
    void secondNiInitIgnoresDesiredAndReportsTheFirstLimits() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiLimits firstDesired = new NiLimits(100, 100, 10, 3, 4);
            NiInit first = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, firstDesired);
            NiInit second = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(200, 200, 20, 30, 40));
            assertThat(second.handle()).isEqualTo(first.handle());
            assertThat(second.actual()).isEqualTo(first.actual());
            NiInit third = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null);
            assertThat(third.actual()).isEqualTo(first.actual());
            // The limits in force are still the first ones.
            assertCode(ReturnCode.INV_PTINDEX, () -> p.meAttach(first.handle(), first.actual().maxPtableIndex() + 1,
                    ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER));
        }
    }

    @Test
    @SpecAssertion("P-014")
    void niInitFromAnotherThreadReturnsTheSameHandle() throws Exception {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            NiInit mine = r.ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                NiInit theirs = pool.submit(() -> r.ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY,
                        new NiLimits(1, 1, 1, 0, 0))).get(30, TimeUnit.SECONDS);
                assertThat(theirs.handle()).isEqualTo(r.ni());
                assertThat(theirs.actual()).isEqualTo(mine.actual());
                // The handle belongs to the process: an EQ made by the other thread is on the same NI.
                EqHandle eq = pool.submit(() -> r.ptl().eqAlloc(theirs.handle(), 4)).get(30, TimeUnit.SECONDS);
                assertThat(r.ptl().niHandle(eq)).isEqualTo(r.ni());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    @SpecAssertion("P-014")
    void concurrentNiInitsFromSeveralThreadsAgreeOnOneHandle() throws Exception {
        int threads = 4;
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CyclicBarrier barrier = new CyclicBarrier(threads);
                List<Future<NiInit>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int limit = 10 + t;
                    results.add(pool.submit(() -> {
                        barrier.await(30, TimeUnit.SECONDS);
                        return p.niInit(InterfaceId.of(2), ProcessId.PID_ANY, new NiLimits(limit, limit, limit, 3, 3));
                    }));
                }
                Set<NiHandle> handles = new HashSet<>();
                Set<NiLimits> limits = new HashSet<>();
                for (Future<NiInit> f : results) {
                    NiInit r = f.get(30, TimeUnit.SECONDS);
                    handles.add(r.handle());
                    limits.add(r.actual());
                }
                assertThat(handles).hasSize(1);
                assertThat(limits).hasSize(1);
                NiHandle ni = handles.iterator().next();
                assertThat(p.niHandle(ni)).isEqualTo(ni);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    @SpecAssertion("P-015")
    void invalidInterfaceIsInitInv() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            int max = p.init();
            Set<NiHandle> handles = new HashSet<>();
            for (int i = 0; i < max; i++) {
                handles.add(p.niInit(InterfaceId.of(i), ProcessId.PID_ANY, null).handle());
            }
            assertThat(handles).hasSize(max);
            for (int bad : new int[] {max, max + 1, -1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
                assertCode(ReturnCode.INIT_INV, () -> p.niInit(InterfaceId.of(bad), ProcessId.PID_ANY, null));
            }
        }
    }

    @Test
    @SpecAssertion("P-015")
    void interfacesBeyondTheConfiguredCountAreInitInv() {
        try (TckJob job = TckJob.builder(1).config(PortalsConfig.DEFAULT.withInterfaces(2)).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            assertThat(p.init()).isEqualTo(2);
            p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null);
            assertCode(ReturnCode.INIT_INV, () -> p.niInit(InterfaceId.of(2), ProcessId.PID_ANY, null));
        }
    }

    @Test
    @SpecAssertion("P-018")
    void invalidPidIsInvProc() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            for (int bad : new int[] {-2, -100, Integer.MIN_VALUE}) {
                assertCode(ReturnCode.INV_PROC, () -> p.niInit(InterfaceId.DEFAULT, bad, null));
            }
            // Nothing was initialised by the refused calls.
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            assertThat(p.getId(ni).pid()).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    @SpecAssertion("P-019")
    void pidAnyGetsAPidAssignedByTheLibrary() {
        try (TckJob job = TckJob.start(3)) {
            for (int r = 0; r < 3; r++) {
                ProcessId id = job.rank(r).id();
                assertThat(id.pid()).isNotEqualTo(ProcessId.PID_ANY).isGreaterThanOrEqualTo(0);
                // This implementation's choice: the pid the job gave the rank.
                assertThat(id.pid()).isEqualTo(Job.DEFAULT_PID);
                assertThat(id.nid()).isEqualTo(r);
            }
        }
    }

    @Test
    @SpecAssertion("P-020")
    void explicitPidBecomesTheProcessIdAndIsWhereMessagesGo() {
        int wellKnown = 42;
        try (TckJob job = TckJob.builder(2).uninitialised().start()) {
            Portals p0 = job.rank(0).ptl();
            Portals p1 = job.rank(1).ptl();
            p0.init();
            p1.init();
            NiHandle ni0 = p0.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            NiHandle ni1 = p1.niInit(InterfaceId.DEFAULT, wellKnown, null).handle();
            assertThat(p1.getId(ni1)).isEqualTo(ProcessId.of(1, wellKnown));
            // Repeats with the same pid or PTL_PID_ANY keep it.
            assertThat(p1.niInit(InterfaceId.DEFAULT, wellKnown, null).handle()).isEqualTo(ni1);
            assertThat(p1.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle()).isEqualTo(ni1);
            assertThat(p1.getId(ni1).pid()).isEqualTo(wellKnown);

            MemorySegment buffer = job.allocate(4);
            EqHandle targetEq = p1.eqAlloc(ni1, 8);
            attach(p1, ni1, 0, BITS, buffer, targetEq);
            EqHandle sendEq = p0.eqAlloc(ni0, 8);
            MdHandle src = p0.mdBind(ni0, MemoryDescriptor.of(job.pattern(4, 1)).withEventQueue(sendEq));

            // A put to the well-known id lands...
            p0.put(src, AckRequest.NOACK_REQ, ProcessId.of(1, wellKnown), 0, 0, BITS, 0, 0);
            job.rank(0).next(sendEq, EventKind.SEND_START);
            job.rank(0).next(sendEq, EventKind.SEND_END);
            job.rank(1).next(targetEq, EventKind.PUT_START);
            assertThat(job.rank(1).next(targetEq, EventKind.PUT_END).initiator()).isEqualTo(p0.getId(ni0));

            // ...a put to the pid the job would have assigned does not (Portals 3.2 spec §4.2).
            p0.put(src, AckRequest.NOACK_REQ, ProcessId.of(1, Job.DEFAULT_PID), 0, 0, BITS, 0, 0);
            job.rank(0).next(sendEq, EventKind.SEND_START);
            job.rank(0).next(sendEq, EventKind.SEND_END);
            awaitRegister(p1, ni1, StatusRegister.DROP_COUNT, 1);
            assertThat(p1.niStatus(ni1, StatusRegister.DROP_WRONG_PID)).isEqualTo(1);
            job.rank(1).expectNoEvent(targetEq);
        }
    }

    @Test
    @SpecAssertion("P-020")
    void eachInterfaceHasTheExplicitPidItWasInitialisedWith() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiHandle a = p.niInit(InterfaceId.of(1), 7, null).handle();
            NiHandle b = p.niInit(InterfaceId.of(2), 9, null).handle();
            NiHandle c = p.niInit(InterfaceId.of(3), ProcessId.PID_ANY, null).handle();
            assertThat(p.getId(a).pid()).isEqualTo(7);
            assertThat(p.getId(b).pid()).isEqualTo(9);
            assertThat(p.getId(c).pid()).isEqualTo(Job.DEFAULT_PID);
        }
    }

    @Test
    @SpecAssertion("P-021")
    void eventQueuesBeyondTheLimitAreNoSpace() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(100, 100, 2, 7, 7)).handle();
            EqHandle first = p.eqAlloc(ni, 4);
            p.eqAlloc(ni, 4);
            assertCode(ReturnCode.NOSPACE, () -> p.eqAlloc(ni, 4));
            assertCode(ReturnCode.NOSPACE, () -> p.eqAlloc(ni, 1));
            // The limit is on queues existing at one time: freeing one makes room for one.
            p.eqFree(first);
            p.eqAlloc(ni, 4);
            assertCode(ReturnCode.NOSPACE, () -> p.eqAlloc(ni, 4));
        }
    }

    @Test
    @SpecAssertion("P-022")
    void memoryDescriptorsBeyondTheLimitAreNoSpace() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(100, 3, 100, 7, 7)).handle();
            MemoryDescriptor md = MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT);
            MdHandle bound = p.mdBind(ni, md);
            p.mdBind(ni, md);
            MeHandle me1 = newMe(p, ni, 0);
            p.mdAttach(me1, md, Unlink.RETAIN, Unlink.RETAIN);
            // Bound and attached MDs count together.
            MeHandle me2 = newMe(p, ni, 0);
            assertCode(ReturnCode.NOSPACE, () -> p.mdBind(ni, md));
            assertCode(ReturnCode.NOSPACE, () -> p.mdAttach(me2, md, Unlink.RETAIN, Unlink.RETAIN));

            // Unlinking a bound MD makes room...
            p.mdUnlink(bound);
            p.mdAttach(me2, md, Unlink.RETAIN, Unlink.RETAIN);
            assertCode(ReturnCode.NOSPACE, () -> p.mdBind(ni, md));
            // ...and so does PtlMEUnlink, which releases the attached MD.
            p.meUnlink(me1);
            p.mdBind(ni, md);
            assertCode(ReturnCode.NOSPACE, () -> p.mdBind(ni, md));
        }
    }

    @Test
    @SpecAssertion("P-023")
    void matchEntriesBeyondTheLimitAreNoSpace() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(3, 100, 100, 7, 7)).handle();
            MeHandle a = newMe(p, ni, 0);
            p.meInsert(a, ProcessId.ANY, 1, 0, Unlink.RETAIN, InsertPosition.AFTER);
            p.meAttachAny(ni, ProcessId.ANY, 2, 0, Unlink.RETAIN);
            assertCode(ReturnCode.NOSPACE, () -> newMe(p, ni, 1));
            assertCode(ReturnCode.NOSPACE, () -> p.meInsert(a, ProcessId.ANY, 3, 0, InsertPosition.BEFORE));
            assertCode(ReturnCode.NOSPACE,
                    () -> p.meInsert(a, ProcessId.ANY, 3, 0, Unlink.RETAIN, InsertPosition.AFTER));
            assertCode(ReturnCode.NOSPACE, () -> p.meAttachAny(ni, ProcessId.ANY, 4, 0, Unlink.RETAIN));

            // The limit is on entries existing at one time.
            p.meUnlink(a);
            MeHandle b = newMe(p, ni, 5);
            assertCode(ReturnCode.NOSPACE, () -> p.meInsert(b, ProcessId.ANY, 3, 0, InsertPosition.BEFORE));
        }
    }

    @Test
    @SpecAssertion({"P-021", "P-022", "P-023"})
    void configuredDefaultLimitsApplyToAnInterfaceInitialisedWithoutDesired() {
        NiLimits small = new NiLimits(2, 2, 2, 3, 3);
        try (TckJob job = TckJob.builder(1).config(PortalsConfig.DEFAULT.withDefaultLimits(small)).start()) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            assertThat(p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).actual()).isEqualTo(small);
            EqHandle eq = r.eq(4);
            r.eq(4);
            assertCode(ReturnCode.NOSPACE, () -> r.eq(4));
            r.bind(job.allocate(4), eq);
            r.bind(job.allocate(4), eq);
            assertCode(ReturnCode.NOSPACE, () -> r.bind(job.allocate(4), eq));
            newMe(p, r.ni(), 0);
            newMe(p, r.ni(), 1);
            assertCode(ReturnCode.NOSPACE, () -> newMe(p, r.ni(), 2));
        }
    }

    // ==== PtlNIFini ==============================================================================

    @Test
    @SpecAssertion("P-024")
    void niFiniOfAValidInterfaceSucceedsAndTheInterfaceCanBeInitialisedAgain() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            NiHandle old = r.ni();
            r.eq(4);
            p.niFini(old);
            NiHandle fresh = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            assertThat(fresh).isNotEqualTo(old);
            assertThat(p.niStatus(fresh, StatusRegister.DROP_COUNT)).isZero();
            assertThat(p.niHandle(p.eqAlloc(fresh, 4))).isEqualTo(fresh);
            p.niFini(fresh);
        }
    }

    @Test
    @SpecAssertion({"P-024", "P-026"})
    void niFiniOfOneInterfaceLeavesTheOthersAlone() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            NiHandle ni1 = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            EqHandle eq0 = r.eq(4);
            EqHandle eq1 = p.eqAlloc(ni1, 4);
            MeHandle me0 = newMe(p, r.ni(), 0);
            p.niFini(ni1);
            assertCode(ReturnCode.INV_NI, () -> p.niStatus(ni1, StatusRegister.DROP_COUNT));
            assertCode(ReturnCode.INV_EQ, () -> p.eqGet(eq1, new Event()));
            // Interface 0 and its objects are untouched.
            assertThat(p.niStatus(r.ni(), StatusRegister.DROP_COUNT)).isZero();
            assertThat(p.eqGet(eq0, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
            assertThat(p.niHandle(me0)).isEqualTo(r.ni());
            // ...and interface 1 can come back, here with a well-known pid.
            NiHandle again = p.niInit(InterfaceId.of(1), 11, null).handle();
            assertThat(again).isNotEqualTo(ni1);
            assertThat(p.getId(again)).isEqualTo(ProcessId.of(0, 11));
            assertThat(p.getId(r.ni())).isEqualTo(ProcessId.of(0, Job.DEFAULT_PID));
        }
    }

    @Test
    @SpecAssertion("P-025")
    void niFiniWithAGarbageHandleIsInvNi() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            EqHandle eq = r.eq(4);
            MeHandle me = newMe(p, r.ni(), 0);
            List<NiHandle> garbage = List.of(new NiHandle(0), new NiHandle(123), new NiHandle(-1),
                    new NiHandle(Long.MIN_VALUE), NiHandle.of(eq), NiHandle.of(me),
                    job.rank(1).ni() /* another process's interface */);
            for (NiHandle bad : garbage) {
                assertCode(ReturnCode.INV_NI, () -> p.niFini(bad));
            }
            // The real interface was left alone.
            assertThat(p.niHandle(eq)).isEqualTo(r.ni());
            assertThat(p.niStatus(r.ni(), StatusRegister.DROP_COUNT)).isZero();
        }
    }

    @Test
    @SpecAssertion("P-026")
    void handlesOfAFinalisedInterfaceAreInvalid() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            NiHandle ni = r.ni();
            EqHandle eq = r.eq(4);
            MeHandle me = newMe(p, ni, 0);
            MdHandle attached = p.mdAttach(me, MemoryDescriptor.of(job.allocate(4)), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle bound = r.bind(job.allocate(4), eq);
            p.niFini(ni);

            assertOldInterfaceHandlesAreDead(job, p, ni, eq, me, attached, bound);

            // Initialising the interface again makes a new interface; the old handles stay dead even
            // when the new interface has objects again.
            NiHandle fresh = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            EqHandle eq2 = p.eqAlloc(fresh, 4);
            MeHandle me2 = newMe(p, fresh, 0);
            MdHandle attached2 = p.mdAttach(me2, MemoryDescriptor.of(job.allocate(4)), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle bound2 = p.mdBind(fresh, MemoryDescriptor.of(job.allocate(4)).withEventQueue(eq2));
            assertOldInterfaceHandlesAreDead(job, p, ni, eq, me, attached, bound);
            for (Handle h : List.of(eq2, me2, attached2, bound2)) {
                assertThat(p.niHandle(h)).isEqualTo(fresh);
            }
        }
    }

    private static void assertOldInterfaceHandlesAreDead(TckJob job, Portals p, NiHandle ni, EqHandle eq, MeHandle me,
                                                         MdHandle attached, MdHandle bound) {
        MemoryDescriptor md = MemoryDescriptor.of(job.allocate(4));
        assertCode(ReturnCode.INV_NI, () -> p.niStatus(ni, StatusRegister.DROP_COUNT));
        assertCode(ReturnCode.INV_NI, () -> p.eqAlloc(ni, 4));
        assertCode(ReturnCode.INV_NI, () -> p.mdBind(ni, md));
        assertCode(ReturnCode.INV_NI, () -> newMe(p, ni, 0));
        assertCode(ReturnCode.INV_NI, () -> p.meAttachAny(ni, ProcessId.ANY, 0, 0, Unlink.RETAIN));
        assertCode(ReturnCode.INV_NI, () -> p.niDist(ni, ProcessId.of(1, 0)));
        assertCode(ReturnCode.INV_NI, () -> p.getId(ni));
        assertCode(ReturnCode.INV_NI, () -> p.getUid(ni));
        assertCode(ReturnCode.INV_NI, () -> p.acEntry(ni, 0, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
        assertCode(ReturnCode.INV_NI, () -> p.niFini(ni));
        // the interface's objects died with it.
        assertCode(ReturnCode.INV_EQ, () -> p.eqGet(eq, new Event()));
        assertCode(ReturnCode.INV_EQ, () -> p.eqFree(eq));
        assertCode(ReturnCode.INV_ME, () -> p.meInsert(me, ProcessId.ANY, 0, 0, InsertPosition.AFTER));
        assertCode(ReturnCode.INV_ME, () -> p.meUnlink(me));
        assertCode(ReturnCode.INV_MD, () -> p.mdUnlink(attached));
        assertCode(ReturnCode.INV_MD, () -> p.mdUnlink(bound));
        assertCode(ReturnCode.INV_MD,
                () -> p.put(bound, AckRequest.NOACK_REQ, ProcessId.of(1, 0), 0, 0, 0, 0, 0));
        for (Handle h : List.of(ni, eq, me, attached, bound)) {
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(h));
        }
    }

    // ==== PtlNIStatus ============================================================================

    @Test
    @SpecAssertion({"P-027", "P-028"})
    void everyStatusRegisterIsReadableAndStartsAtZero() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            NiHandle other = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            assertThat(p.niStatus(r.ni(), StatusRegister.DROP_COUNT)).isZero();
            for (int i = 0; i < StatusRegister.COUNT; i++) {
                StatusRegister register = new StatusRegister(i);
                assertThat(p.niStatus(r.ni(), register)).as(register.specName()).isZero();
                assertThat(p.niStatus(other, register)).as(register.specName()).isZero();
            }
        }
    }

    @Test
    @SpecAssertion({"P-027", "P-028"})
    void dropCountCountsADropAndStartsAtZeroAgainOnANewInterface() {
        try (TckJob job = TckJob.start(2)) {
            Rank target = job.rank(1);
            Portals p = target.ptl();
            // Nothing is attached on portal 0: the put is dropped.
            putFrom(job.rank(0), target.id(), 0, BITS, job.pattern(4, 0));
            target.awaitDrops(1);
            assertThat(p.niStatus(target.ni(), StatusRegister.DROP_NO_MATCH)).isEqualTo(1);
            p.niFini(target.ni());
            NiHandle fresh = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            for (int i = 0; i < StatusRegister.COUNT; i++) {
                assertThat(p.niStatus(fresh, new StatusRegister(i))).as(new StatusRegister(i).specName()).isZero();
            }
        }
    }

    @Test
    @SpecAssertion("P-029")
    void invalidStatusRegisterIsInvSrIndx() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            for (int bad : new int[] {StatusRegister.COUNT, StatusRegister.COUNT + 1, -1, Integer.MAX_VALUE,
                                      Integer.MIN_VALUE}) {
                assertCode(ReturnCode.INV_SR_INDX, () -> r.ptl().niStatus(r.ni(), new StatusRegister(bad)));
            }
            assertThat(r.ptl().niStatus(r.ni(), new StatusRegister(StatusRegister.COUNT - 1))).isZero();
        }
    }

    @Test
    @SpecAssertion("P-031")
    void niStatusWithAnInvalidInterfaceIsInvNi() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            EqHandle eq = r.eq(4);
            for (NiHandle bad : List.of(new NiHandle(0), new NiHandle(77), NiHandle.of(eq), job.rank(1).ni())) {
                assertCode(ReturnCode.INV_NI, () -> p.niStatus(bad, StatusRegister.DROP_COUNT));
            }
        }
    }

    // ==== PtlNIDist ==============================================================================

    @Test
    @SpecAssertion({"P-032", "P-033"})
    void distanceToAPeerIsAStaticMeasure() {
        try (TckJob job = TckJob.start(3)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            long toOne = p.niDist(r.ni(), job.rank(1).id());
            long toTwo = p.niDist(r.ni(), job.rank(2).id());
            // This implementation: 1 to any other process, 0 to itself.
            assertThat(toOne).isEqualTo(1);
            assertThat(toTwo).isEqualTo(1);
            assertThat(p.niDist(r.ni(), r.id())).isZero();
            // Static: traffic in between changes nothing.
            putFrom(r, job.rank(1).id(), 0, BITS, job.pattern(4, 0));
            job.rank(1).awaitDrops(1);
            for (int i = 0; i < 3; i++) {
                assertThat(p.niDist(r.ni(), job.rank(1).id())).isEqualTo(toOne);
                assertThat(p.niDist(r.ni(), job.rank(2).id())).isEqualTo(toTwo);
            }
        }
    }

    @Test
    @SpecAssertion("P-035")
    void distanceToAnInvalidProcessIsInvProc() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            List<ProcessId> bad = List.of(ProcessId.ANY, ProcessId.of(ProcessId.NID_ANY, 0),
                    ProcessId.of(1, ProcessId.PID_ANY), ProcessId.of(-2, 0), ProcessId.of(0, -2),
                    ProcessId.of(Integer.MIN_VALUE, Integer.MIN_VALUE),
                    ProcessId.of(2, 0) /* no such node in a job of two */, ProcessId.of(Integer.MAX_VALUE, 0));
            for (ProcessId id : bad) {
                assertCode(ReturnCode.INV_PROC, () -> p.niDist(r.ni(), id));
            }
        }
    }

    @Test
    @SpecAssertion("P-036")
    void distanceWithAnInvalidInterfaceIsInvNi() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            EqHandle eq = r.eq(4);
            ProcessId peer = job.rank(1).id();
            for (NiHandle bad : List.of(new NiHandle(0), new NiHandle(99), NiHandle.of(eq), job.rank(1).ni())) {
                assertCode(ReturnCode.INV_NI, () -> p.niDist(bad, peer));
            }
        }
    }

    // ==== PtlNIHandle ============================================================================

    @Test
    @SpecAssertion({"P-037", "P-038", "P-039", "P-040", "P-041"})
    void niHandleOfEachKindOfObjectIsItsInterface() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            NiHandle ni = r.ni();
            assertThat(p.niHandle(ni)).isEqualTo(ni);
            assertThat(p.niHandle(ni.toAny())).isEqualTo(ni);
            assertThat(p.niHandle(new AnyHandle(ni.value()))).isEqualTo(ni);

            MeHandle me = newMe(p, ni, 3);
            assertThat(p.niHandle(me)).isEqualTo(ni);
            assertThat(p.niHandle(me.toAny())).isEqualTo(ni);

            MdHandle attached = p.mdAttach(me, MemoryDescriptor.of(job.allocate(4)), Unlink.RETAIN, Unlink.RETAIN);
            assertThat(p.niHandle(attached)).isEqualTo(ni);

            EqHandle eq = p.eqAlloc(ni, 4);
            assertThat(p.niHandle(eq)).isEqualTo(ni);
            assertThat(p.niHandle(eq.toAny())).isEqualTo(ni);

            MdHandle bound = p.mdBind(ni, MemoryDescriptor.of(job.allocate(4)).withEventQueue(eq));
            assertThat(p.niHandle(bound)).isEqualTo(ni);
            assertThat(p.niHandle(bound.toAny())).isEqualTo(ni);

            // A handle converts to ptl_handle_any_t and back without loss (Portals 3.2 spec §3.2.2).
            assertThat(MdHandle.of(bound.toAny())).isEqualTo(bound);
        }
    }

    @Test
    @SpecAssertion("P-042")
    void niHandleOfAGarbageHandleIsInvHandle() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            EqHandle peerEq = job.rank(1).eq(4);
            List<AnyHandle> garbage = List.of(new AnyHandle(0), new AnyHandle(1), new AnyHandle(123),
                    new AnyHandle(-1), new AnyHandle(Long.MAX_VALUE), new AnyHandle(Long.MIN_VALUE),
                    EqHandle.NONE.toAny(), MdHandle.NONE.toAny(),
                    job.rank(1).ni().toAny() /* another process's objects */, peerEq.toAny());
            for (AnyHandle bad : garbage) {
                assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(bad));
            }
        }
    }

    @Test
    @SpecAssertion("P-043")
    void niHandleOfAnUnlinkedMemoryDescriptorIsInvHandle() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            EqHandle eq = r.eq(4);
            MeHandle me = newMe(p, r.ni(), 0);
            MdHandle attached = p.mdAttach(me, MemoryDescriptor.of(job.allocate(4)), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle bound = r.bind(job.allocate(4), eq);
            assertThat(p.niHandle(attached)).isEqualTo(r.ni());
            assertThat(p.niHandle(bound)).isEqualTo(r.ni());

            p.mdUnlink(attached);
            p.mdUnlink(bound);
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(attached));
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(bound));
            // The retained entry is still there, and a new MD in the freed slot does not revive the old handle.
            MdHandle again = p.mdAttach(me, MemoryDescriptor.of(job.allocate(4)), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle rebound = r.bind(job.allocate(4), eq);
            assertThat(p.niHandle(again)).isEqualTo(r.ni());
            assertThat(p.niHandle(rebound)).isEqualTo(r.ni());
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(attached));
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(bound));
        }
    }

    @Test
    @SpecAssertion("P-043")
    void niHandleOfAnAutomaticallyUnlinkedMemoryDescriptorIsInvHandle() {
        try (TckJob job = TckJob.start(2)) {
            Rank target = job.rank(1);
            Portals p = target.ptl();
            EqHandle eq = target.eq(8);
            MeHandle me = newMe(p, target.ni(), 0, BITS);
            MdHandle md = p.mdAttach(me, MemoryDescriptor.of(job.allocate(4)).withOptions(MdOption.OP_PUT)
                    .withThreshold(1).withEventQueue(eq), Unlink.UNLINK, Unlink.RETAIN);
            putFrom(job.rank(0), target.id(), 0, BITS, job.pattern(4, 0));
            target.next(eq, EventKind.PUT_START);
            target.next(eq, EventKind.PUT_END);
            target.next(eq, EventKind.UNLINK);
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(md));
            // The entry (PTL_RETAIN) is still there.
            assertThat(p.niHandle(me)).isEqualTo(target.ni());
        }
    }

    @Test
    @SpecAssertion("P-043")
    void niHandleOfOtherDeadObjectsIsInvHandle() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            MeHandle me = newMe(p, r.ni(), 0);
            MdHandle md = p.mdAttach(me, MemoryDescriptor.of(job.allocate(4)), Unlink.RETAIN, Unlink.RETAIN);
            EqHandle eq = r.eq(4);
            p.meUnlink(me);
            p.eqFree(eq);
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(me));
            // released with its entry (Portals 3.2 spec §3.7.4)
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(md));
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(eq));
        }
    }

    @Test
    @SpecAssertion({"P-045", "P-038", "P-039", "P-040", "P-041"})
    void objectsOfTwoInterfacesReportTheirOwnInterface() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            NiHandle ni0 = r.ni();
            NiHandle ni1 = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            assertThat(ni1).isNotEqualTo(ni0);
            assertThat(p.niHandle(ni1)).isEqualTo(ni1);
            for (NiHandle ni : List.of(ni0, ni1, ni0)) {
                EqHandle eq = p.eqAlloc(ni, 4);
                MeHandle me = newMe(p, ni, 0);
                MeHandle inserted = p.meInsert(me, ProcessId.ANY, 0, 0, InsertPosition.BEFORE);
                MeHandle any = p.meAttachAny(ni, ProcessId.ANY, 0, 0, Unlink.RETAIN).handle();
                MdHandle attached = p.mdAttach(me, MemoryDescriptor.of(job.allocate(4)).withEventQueue(eq),
                        Unlink.RETAIN, Unlink.RETAIN);
                MdHandle bound = p.mdBind(ni, MemoryDescriptor.of(job.allocate(4)).withEventQueue(eq));
                for (Handle h : List.of(eq, me, inserted, any, attached, bound)) {
                    assertThat(p.niHandle(h)).as("PtlNIHandle(%s)", h).isEqualTo(ni);
                }
            }
        }
    }

    // ==== helpers ================================================================================

    private static MeHandle newMe(Portals p, NiHandle ni, int portal) {
        return newMe(p, ni, portal, 0L);
    }

    private static MeHandle newMe(Portals p, NiHandle ni, int portal, long bits) {
        return p.meAttach(ni, portal, ProcessId.ANY, bits, 0L, Unlink.RETAIN, InsertPosition.AFTER);
    }

    /** An entry for {@code bits} on {@code portal} with a put MD over {@code buffer} logging to {@code eq}. */
    private static MdHandle attach(Portals p, NiHandle ni, int portal, long bits, MemorySegment buffer, EqHandle eq) {
        MeHandle me = newMe(p, ni, portal, bits);
        return p.mdAttach(me, MemoryDescriptor.of(buffer).withOptions(MdOption.OP_PUT).withEventQueue(eq),
                Unlink.RETAIN, Unlink.RETAIN);
    }

    /** A put of {@code data} from {@code from}'s default interface, waited for until SEND_END. */
    private static void putFrom(Rank from, ProcessId target, int portal, long bits, MemorySegment data) {
        EqHandle eq = from.eq(4);
        MdHandle md = from.bind(data, eq);
        from.ptl().put(md, AckRequest.NOACK_REQ, target, portal, 0, bits, 0, 0);
        from.next(eq, EventKind.SEND_START);
        from.next(eq, EventKind.SEND_END);
    }

    /** Waits until {@code register} reaches {@code expected}, then checks it stays there. */
    private static void awaitRegister(Portals p, NiHandle ni, StatusRegister register, long expected) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (p.niStatus(ni, register) < expected && System.nanoTime() < deadline) {
            Thread.yield();
        }
        Rank.sleep(TckTransport.quietPeriod());
        assertThat(p.niStatus(ni, register)).as(register.specName()).isEqualTo(expected);
    }
}
