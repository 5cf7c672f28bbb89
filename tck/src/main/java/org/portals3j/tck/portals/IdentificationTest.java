package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.transport.Job;

/** PtlGetUid and PtlGetId (Portals 3.2 spec §3.4.5.2 to §3.6.2.2). */
@DisplayName("User and process identification")
class IdentificationTest {

    private static final long BITS = 0x1D00_0000_0000_00F1L;

    // ==== PtlGetUid ==============================================================================

    @Test
    @SpecAssertion("P-046")
    void getUidIsStableAndIsTheUserTheProcessRunsFor() {
        try (TckJob job = TckJob.builder(2).uid(0, 1001).uid(1, 2002).start()) {
            Rank zero = job.rank(0);
            Rank one = job.rank(1);
            assertThat(zero.ptl().getUid(zero.ni())).isEqualTo(1001);
            assertThat(zero.ptl().getUid(zero.ni())).isEqualTo(1001);
            assertThat(one.ptl().getUid(one.ni())).isEqualTo(2002);
            assertThat(one.ptl().getUid(one.ni())).isEqualTo(2002);
            // The same user on another interface of the process.
            NiHandle other = zero.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            assertThat(zero.ptl().getUid(other)).isEqualTo(1001);
        }
    }

    @Test
    @SpecAssertion("P-046")
    void getUidWithoutAnExplicitUserGivesTheSameValueEveryTime() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            int uid = r.ptl().getUid(r.ni());
            for (int i = 0; i < 5; i++) {
                assertThat(r.ptl().getUid(r.ni())).isEqualTo(uid);
            }
        }
    }

    @Test
    @SpecAssertion("P-047")
    void getUidWithAnInvalidInterfaceIsInvNi() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            for (NiHandle bad : invalidInterfaces(job, r)) {
                assertCode(ReturnCode.INV_NI, () -> p.getUid(bad));
            }
            NiHandle ni = r.ni();
            p.niFini(ni);
            assertCode(ReturnCode.INV_NI, () -> p.getUid(ni));
        }
    }

    // ==== PtlGetId ===============================================================================

    @Test
    @SpecAssertion("P-049")
    void getIdIsStable() {
        try (TckJob job = TckJob.start(2)) {
            for (int r = 0; r < 2; r++) {
                Rank rank = job.rank(r);
                ProcessId first = rank.ptl().getId(rank.ni());
                assertThat(rank.ptl().getId(rank.ni())).isEqualTo(first);
                assertThat(rank.ptl().getId(rank.ni())).isEqualTo(first);
                // This implementation: node id = rank, pid = the job's pid for the rank.
                assertThat(first).isEqualTo(ProcessId.of(r, Job.DEFAULT_PID));
            }
        }
    }

    @Test
    @SpecAssertion("P-050")
    void getIdWithAnInvalidInterfaceIsInvNi() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            for (NiHandle bad : invalidInterfaces(job, r)) {
                assertCode(ReturnCode.INV_NI, () -> p.getId(bad));
            }
            NiHandle ni = r.ni();
            p.niFini(ni);
            assertCode(ReturnCode.INV_NI, () -> p.getId(ni));
        }
    }

    @Test
    @SpecAssertion("P-052")
    void processesOfOneFabricHaveDifferentIds() {
        try (TckJob job = TckJob.start(4)) {
            Set<ProcessId> ids = new HashSet<>();
            for (int r = 0; r < 4; r++) {
                ids.add(job.rank(r).id());
            }
            assertThat(ids).hasSize(4);
        }
    }

    @Test
    @SpecAssertion("P-052")
    void processesWithTheSameWellKnownPidStillHaveDifferentIds() {
        try (TckJob job = TckJob.builder(3).uninitialised().start()) {
            Set<ProcessId> ids = new HashSet<>();
            for (int r = 0; r < 3; r++) {
                Portals p = job.rank(r).ptl();
                p.init();
                NiHandle ni = p.niInit(InterfaceId.DEFAULT, 5, null).handle();
                ProcessId id = p.getId(ni);
                assertThat(id.pid()).isEqualTo(5);
                ids.add(id);
            }
            assertThat(ids).hasSize(3);
        }
    }

    @Test
    @SpecAssertion("P-053")
    void putEventsNameTheInitiatorByItsGetIdResult() {
        try (TckJob job = TckJob.start(3)) {
            Rank target = job.rank(2);
            EqHandle eq = target.eq(16);
            attach(target, BITS, job.allocate(16), eq);
            for (int r = 0; r < 2; r++) {
                Rank initiator = job.rank(r);
                putFrom(initiator, target.id(), 0, BITS);
                Event start = target.next(eq, EventKind.PUT_START);
                Event end = target.next(eq, EventKind.PUT_END);
                ProcessId expected = initiator.ptl().getId(initiator.ni());
                assertThat(start.initiator()).isEqualTo(expected);
                assertThat(end.initiator()).isEqualTo(expected);
                assertThat(end.initiatorNid()).isEqualTo(expected.nid());
                assertThat(end.initiatorPid()).isEqualTo(expected.pid());
            }
        }
    }

    @Test
    @SpecAssertion("P-053")
    void putEventsNameAnInitiatorWithAWellKnownPidAndItsUser() {
        try (TckJob job = TckJob.builder(2).uid(0, 4242).uid(1, 5151).uninitialised().start()) {
            Portals p0 = job.rank(0).ptl();
            Portals p1 = job.rank(1).ptl();
            p0.init();
            p1.init();
            NiHandle ni0 = p0.niInit(InterfaceId.DEFAULT, 9, null).handle();
            NiHandle ni1 = p1.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            // Another user: entry 0 (same uid only) would refuse the put, so open entry 1 to any user.
            p1.acEntry(ni1, 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            EqHandle eq = p1.eqAlloc(ni1, 8);
            MeHandle me = p1.meAttach(ni1, 0, ProcessId.ANY, BITS, 0, Unlink.RETAIN, InsertPosition.AFTER);
            p1.mdAttach(me, MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT).withEventQueue(eq),
                    Unlink.RETAIN, Unlink.RETAIN);

            EqHandle sendEq = p0.eqAlloc(ni0, 8);
            MdHandle src = p0.mdBind(ni0, MemoryDescriptor.of(job.pattern(8, 0)).withEventQueue(sendEq));
            p0.put(src, AckRequest.NOACK_REQ, p1.getId(ni1), 0, 1, BITS, 0, 0);
            job.rank(0).next(sendEq, EventKind.SEND_START);
            job.rank(0).next(sendEq, EventKind.SEND_END);

            job.rank(1).next(eq, EventKind.PUT_START);
            Event end = job.rank(1).next(eq, EventKind.PUT_END);
            assertThat(end.initiator()).isEqualTo(p0.getId(ni0)).isEqualTo(ProcessId.of(0, 9));
            assertThat(end.uid()).isEqualTo(p0.getUid(ni0)).isEqualTo(4242);
        }
    }

    // ==== helpers ================================================================================

    private static List<NiHandle> invalidInterfaces(TckJob job, Rank r) {
        EqHandle eq = r.eq(4);
        return List.of(new NiHandle(0), new NiHandle(31), new NiHandle(-1), NiHandle.of(eq), job.rank(1).ni());
    }

    private static void attach(Rank target, long bits, MemorySegment buffer, EqHandle eq) {
        Portals p = target.ptl();
        MeHandle me = p.meAttach(target.ni(), 0, ProcessId.ANY, bits, 0, Unlink.RETAIN, InsertPosition.AFTER);
        p.mdAttach(me, MemoryDescriptor.of(buffer).withOptions(MdOption.OP_PUT).withEventQueue(eq),
                Unlink.RETAIN, Unlink.RETAIN);
    }

    private static void putFrom(Rank from, ProcessId target, int portal, long bits) {
        EqHandle eq = from.eq(4);
        MdHandle md = from.bind(from.job().pattern(8, from.ptl().rank()), eq);
        from.ptl().put(md, AckRequest.NOACK_REQ, target, portal, 0, bits, 0, 0);
        from.next(eq, EventKind.SEND_START);
        from.next(eq, EventKind.SEND_END);
    }
}
