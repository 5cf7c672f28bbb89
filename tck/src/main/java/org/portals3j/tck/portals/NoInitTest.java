package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;

/**
 * P-004 and P-005: before {@code PtlInit} every function but {@code PtlInit}
 * answers {@code PTL_NOINIT} (Portals 3.2 spec §3.4.1.1, §3.12).
 *
 * <p>The calls are made with arguments that would be acceptable to an initialised library (real
 * handles taken from another, initialised job, and raw handle values), so that the only thing wrong
 * with them is the missing {@code PtlInit}. Each test also checks that the same library works once
 * {@code PtlInit} has been called, so a library that refused everything would not pass.
 */
@DisplayName("PTL_NOINIT before PtlInit")
class NoInitTest {

    /** Handles of live objects of an initialised library (not the one under test). */
    private record Borrowed(NiHandle ni, MeHandle me, MdHandle attached, MdHandle bound, EqHandle eq) {
        static Borrowed from(Rank rank, MemorySegment memory) {
            Portals p = rank.ptl();
            EqHandle eq = rank.eq(8);
            MeHandle me = p.meAttach(rank.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            MdHandle attached = p.mdAttach(me, MemoryDescriptor.of(memory).withOptions(MdOption.OP_PUT)
                    .withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle bound = rank.bind(memory, eq);
            return new Borrowed(rank.ni(), me, attached, bound, eq);
        }
    }

    @Test
    @SpecAssertion("P-004")
    void niInitBeforeInitIsNoInit() {
        try (TckJob job = TckJob.builder(2).uninitialised().start()) {
            Portals p = job.rank(0).ptl();
            assertCode(ReturnCode.NOINIT, () -> p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null));
            assertCode(ReturnCode.NOINIT, () -> p.niInit(InterfaceId.DEFAULT, 5, null));
            assertCode(ReturnCode.NOINIT, () -> p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, NiLimits.DEFAULT));
            assertCode(ReturnCode.NOINIT, () -> p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null));
            // The other rank, also before PtlInit, is refused just the same.
            assertCode(ReturnCode.NOINIT, () -> job.rank(1).ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null));

            // The refusals were about PtlInit only: after it the very same calls succeed.
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            assertThat(p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, NiLimits.DEFAULT).handle()).isEqualTo(ni);
            assertThat(p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle()).isNotEqualTo(ni);
            // The rank that did not call PtlInit is still uninitialised: PtlInit is per process.
            assertCode(ReturnCode.NOINIT, () -> job.rank(1).ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null));
        }
    }

    @Test
    @SpecAssertion("P-005")
    void everyOtherFunctionWithHandlesOfAnotherLibraryIsNoInit() {
        try (TckJob live = TckJob.start(2);
             TckJob job = TckJob.builder(2).uninitialised().start()) {
            Borrowed h = Borrowed.from(live.rank(0), live.allocate(16));
            assertEveryCallIsNoInit(job.rank(0).ptl(), h, job.allocate(16));
        }
    }

    @Test
    @SpecAssertion("P-005")
    void everyOtherFunctionWithRawHandleValuesIsNoInit() {
        try (TckJob job = TckJob.builder(2).uninitialised().start()) {
            Borrowed raw = new Borrowed(new NiHandle(123), new MeHandle(456), new MdHandle(789), new MdHandle(790),
                    new EqHandle(1011));
            assertEveryCallIsNoInit(job.rank(0).ptl(), raw, job.allocate(16));
        }
    }

    @Test
    @SpecAssertion("P-005")
    void handlesOfTheSameLibraryAreRefusedByAnotherLibraryBeforeItsInit() {
        // Rank 1 is initialised; rank 0 of the same job is not. Rank 0 must still answer PTL_NOINIT,
        // whatever handle it is given.
        try (TckJob job = TckJob.builder(2).uninitialised().start()) {
            Rank one = job.rank(1);
            one.ptl().init();
            NiHandle ni1 = one.ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            Portals zero = job.rank(0).ptl();
            assertCode(ReturnCode.NOINIT, () -> zero.niStatus(ni1, StatusRegister.DROP_COUNT));
            assertCode(ReturnCode.NOINIT, () -> zero.getId(ni1));
            assertCode(ReturnCode.NOINIT, () -> zero.eqAlloc(ni1, 4));
            // ...while the initialised rank answers normally.
            assertThat(one.ptl().niStatus(ni1, StatusRegister.DROP_COUNT)).isZero();
            assertThat(one.ptl().getId(ni1)).isEqualTo(ProcessId.of(1, 0));
        }
    }

    @Test
    @SpecAssertion("P-005")
    void eqWaitBeforeInitReturnsNoInitWithoutBlocking() {
        try (TckJob live = TckJob.start(1);
             TckJob job = TckJob.builder(1).uninitialised().start()) {
            EqHandle eq = live.rank(0).eq(4);
            Portals p = job.rank(0).ptl();
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                assertCode(ReturnCode.NOINIT, () -> p.eqWait(eq, new Event()));
                assertCode(ReturnCode.NOINIT, () -> p.eqWait(new EqHandle(42), new Event()));
            });
        }
    }

    private static void assertEveryCallIsNoInit(Portals p, Borrowed h, MemorySegment memory) {
        MemoryDescriptor md = MemoryDescriptor.of(memory).withOptions(MdOption.OP_PUT, MdOption.OP_GET);
        MemoryDescriptor mdWithEq = md.withEventQueue(h.eq());
        ProcessId peer = ProcessId.of(1, 0);

        assertCode(ReturnCode.NOINIT, () -> p.niFini(h.ni()));
        assertCode(ReturnCode.NOINIT, () -> p.niStatus(h.ni(), StatusRegister.DROP_COUNT));
        assertCode(ReturnCode.NOINIT, () -> p.niDist(h.ni(), peer));
        assertCode(ReturnCode.NOINIT, () -> p.niHandle(h.ni()));
        assertCode(ReturnCode.NOINIT, () -> p.niHandle(h.me()));
        assertCode(ReturnCode.NOINIT, () -> p.niHandle(h.eq().toAny()));
        assertCode(ReturnCode.NOINIT, () -> p.getUid(h.ni()));
        assertCode(ReturnCode.NOINIT, () -> p.getId(h.ni()));
        assertCode(ReturnCode.NOINIT,
                () -> p.meAttach(h.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER));
        assertCode(ReturnCode.NOINIT, () -> p.meAttachAny(h.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN));
        assertCode(ReturnCode.NOINIT, () -> p.meInsert(h.me(), ProcessId.ANY, 0L, 0L, InsertPosition.AFTER));
        assertCode(ReturnCode.NOINIT,
                () -> p.meInsert(h.me(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.BEFORE));
        assertCode(ReturnCode.NOINIT, () -> p.meUnlink(h.me()));
        assertCode(ReturnCode.NOINIT, () -> p.mdAttach(h.me(), md, Unlink.RETAIN, Unlink.RETAIN));
        assertCode(ReturnCode.NOINIT, () -> p.mdAttach(h.me(), mdWithEq, Unlink.UNLINK, Unlink.UNLINK));
        assertCode(ReturnCode.NOINIT, () -> p.mdBind(h.ni(), md));
        assertCode(ReturnCode.NOINIT, () -> p.mdBind(h.ni(), mdWithEq));
        assertCode(ReturnCode.NOINIT, () -> p.mdUnlink(h.attached()));
        assertCode(ReturnCode.NOINIT, () -> p.mdUnlink(h.bound()));
        assertCode(ReturnCode.NOINIT, () -> p.mdUpdate(h.bound(), null, EqHandle.NONE));
        assertCode(ReturnCode.NOINIT, () -> p.mdUpdate(h.attached(), md, h.eq()));
        assertCode(ReturnCode.NOINIT, () -> p.eqAlloc(h.ni(), 8));
        assertCode(ReturnCode.NOINIT, () -> p.eqFree(h.eq()));
        assertCode(ReturnCode.NOINIT, () -> p.eqGet(h.eq(), new Event()));
        assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertCode(ReturnCode.NOINIT, () -> p.eqWait(h.eq(), new Event())));
        assertCode(ReturnCode.NOINIT, () -> p.acEntry(h.ni(), 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
        assertCode(ReturnCode.NOINIT, () -> p.put(h.bound(), AckRequest.NOACK_REQ, peer, 0, 0, 0L, 0L, 0L));
        assertCode(ReturnCode.NOINIT, () -> p.put(h.bound(), AckRequest.ACK_REQ, peer, 0, 0, 0L, 0L, 0L));
        assertCode(ReturnCode.NOINIT, () -> p.get(h.bound(), peer, 0, 0, 0L, 0L));

        // The same library, once PtlInit has been called, accepts its own objects: the refusals
        // above came from the missing PtlInit, not from the library refusing everything.
        p.init();
        NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        EqHandle eq = p.eqAlloc(ni, 8);
        MeHandle me = p.meAttach(ni, 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
        p.mdAttach(me, md.withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
        assertThat(p.niHandle(me)).isEqualTo(ni);
        assertThat(p.niStatus(ni, StatusRegister.DROP_COUNT)).isZero();
        assertThat(p.eqGet(eq, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
    }
}
