package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.tck.SpecAssertion;

/**
 * {@code PtlACEntry} (Portals 3.2 spec §3.10.1) and the access control checks a target applies to
 * every incoming put and get (Portals 3.2 spec §3.9.8.2, §4.2, A-29). Ranks are their node ids; uids are set per
 * rank with {@link TckJob.Builder#uid}; pids other than 0 are obtained by initialising the default
 * interface with an explicit pid.
 */
@DisplayName("Access control (PtlACEntry)")
class AccessControlTest {
    private static final int UID_A = 1000;
    private static final int UID_B = 2000;
    private static final int UID_C = 3000;
    private static final int PORTAL = 4;

    // ---- PtlACEntry return codes ------------------------------------------------------------------

    @Test
    @SpecAssertion("P-147")
    void acEntryWithWildcardsOnIndexOneSucceeds() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            NiLimits limits = limits(r);
            assertThat(limits.maxAtableIndex()).isGreaterThanOrEqualTo(1);
            assertThatCode(() -> r.ptl().acEntry(r.ni(), 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY))
                    .doesNotThrowAnyException();
            // the last valid index and a concrete entry are accepted too
            assertThatCode(() -> r.ptl().acEntry(r.ni(), limits.maxAtableIndex(), ProcessId.of(0, 0), r.uid(),
                    limits.maxPtableIndex())).doesNotThrowAnyException();
        }
    }

    @Test
    @SpecAssertion("P-148")
    void acEntryIndexPastTheTableFailsWithAcInvIndex() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            int max = limits(r).maxAtableIndex();
            assertCode(ReturnCode.AC_INV_INDEX,
                    () -> r.ptl().acEntry(r.ni(), max + 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
            assertCode(ReturnCode.AC_INV_INDEX,
                    () -> r.ptl().acEntry(r.ni(), Integer.MAX_VALUE, ProcessId.ANY, Portals.UID_ANY,
                            Portals.PT_INDEX_ANY));
        }
    }

    @Test
    @SpecAssertion("P-148")
    void acEntryIndexLimitFollowsTheDesiredTableSize() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Rank r = job.rank(0);
            r.ptl().init();
            NiLimits d = NiLimits.DEFAULT;
            NiLimits desired = new NiLimits(d.maxMatchEntries(), d.maxMemDescriptors(), d.maxEventQueues(), 3,
                    d.maxPtableIndex());
            NiHandle ni = r.ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, desired).handle();
            assertThatCode(() -> r.ptl().acEntry(ni, 3, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY))
                    .doesNotThrowAnyException();
            assertCode(ReturnCode.AC_INV_INDEX,
                    () -> r.ptl().acEntry(ni, 4, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
        }
    }

    @Test
    @SpecAssertion("P-149")
    void acEntryNegativeIndexFailsWithAcInvIndex() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            assertCode(ReturnCode.AC_INV_INDEX,
                    () -> r.ptl().acEntry(r.ni(), -1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
            assertCode(ReturnCode.AC_INV_INDEX,
                    () -> r.ptl().acEntry(r.ni(), Integer.MIN_VALUE, ProcessId.ANY, Portals.UID_ANY,
                            Portals.PT_INDEX_ANY));
        }
    }

    @Test
    @SpecAssertion("P-150")
    void acEntryPortalPastTheTableFailsWithPtInvIndex() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            int max = limits(r).maxPtableIndex();
            assertCode(ReturnCode.PT_INV_INDEX,
                    () -> r.ptl().acEntry(r.ni(), 1, ProcessId.ANY, Portals.UID_ANY, max + 1));
            assertCode(ReturnCode.PT_INV_INDEX,
                    () -> r.ptl().acEntry(r.ni(), 1, ProcessId.ANY, Portals.UID_ANY, -2));
            // PTL_PT_INDEX_ANY and the last valid portal are fine
            assertThatCode(() -> r.ptl().acEntry(r.ni(), 1, ProcessId.ANY, Portals.UID_ANY, max))
                    .doesNotThrowAnyException();
        }
    }

    @Test
    @SpecAssertion("P-151")
    void acEntryInvalidMatchIdFailsWithInvProc() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            assertCode(ReturnCode.INV_PROC,
                    () -> r.ptl().acEntry(r.ni(), 1, ProcessId.of(-2, 0), Portals.UID_ANY, Portals.PT_INDEX_ANY));
            assertCode(ReturnCode.INV_PROC,
                    () -> r.ptl().acEntry(r.ni(), 1, ProcessId.of(0, -2), Portals.UID_ANY, Portals.PT_INDEX_ANY));
            assertCode(ReturnCode.INV_PROC,
                    () -> r.ptl().acEntry(r.ni(), 1, ProcessId.of(Integer.MIN_VALUE, Integer.MIN_VALUE),
                            Portals.UID_ANY, Portals.PT_INDEX_ANY));
            // a node outside the job, with a pid or the wildcard
            for (int pid : new int[] {0, ProcessId.PID_ANY}) {
                assertCode(ReturnCode.INV_PROC, () -> r.ptl().acEntry(r.ni(), 1,
                        ProcessId.of(job.nidOutsideTheJob(), pid), Portals.UID_ANY, Portals.PT_INDEX_ANY));
            }
            // the wildcards and the job's own node stay legal
            r.ptl().acEntry(r.ni(), 1, ProcessId.of(ProcessId.NID_ANY, 0), Portals.UID_ANY, Portals.PT_INDEX_ANY);
            r.ptl().acEntry(r.ni(), 1, ProcessId.of(r.id().nid(), ProcessId.PID_ANY), Portals.UID_ANY,
                    Portals.PT_INDEX_ANY);
        }
    }

    @Test
    @SpecAssertion("P-152")
    void acEntryInvalidInterfaceFailsWithInvNi() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            assertCode(ReturnCode.INV_NI,
                    () -> r.ptl().acEntry(new NiHandle(0x5EED_F00DL), 1, ProcessId.ANY, Portals.UID_ANY,
                            Portals.PT_INDEX_ANY));
            // an event queue handle is not an interface handle
            EqHandle eq = r.eq(1);
            assertCode(ReturnCode.INV_NI,
                    () -> r.ptl().acEntry(NiHandle.of(eq), 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
            NiHandle old = r.ni();
            r.ptl().niFini(old);
            assertCode(ReturnCode.INV_NI,
                    () -> r.ptl().acEntry(old, 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY));
        }
    }

    // ---- the default entry 0 --------------------------------------------------------------------

    @Test
    @SpecAssertion("P-153")
    void defaultEntryZeroAdmitsSameUidPeersOnAnyPortal() {
        try (TckJob job = TckJob.builder(2).uid(0, UID_A).uid(1, UID_A).start()) {
            Rank target = job.rank(0);
            Rank peer = job.rank(1);
            int max = limits(target).maxPtableIndex();
            for (int portal : new int[] {0, PORTAL, max}) {
                Landing l = landing(job, target, portal);
                assertAccepted(peer, target, l, portal, 0);
            }
            assertThat(target.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion({"P-154", "P-165"})
    void defaultEntryZeroDropsPeersOfAnotherUid() {
        try (TckJob job = TckJob.builder(3).uid(0, UID_A).uid(1, UID_B).uid(2, UID_A).start()) {
            Rank target = job.rank(0);
            Landing l = landing(job, target, PORTAL);
            assertRejected(job.rank(1), target, l, PORTAL, 0);
            // the same request from a same-uid peer passes: it was the uid that was refused
            assertAccepted(job.rank(2), target, l, PORTAL, 0);
        }
    }

    // ---- cookie, id, portal, uid checks ---------------------------------------------------------

    @Test
    @SpecAssertion({"P-155", "P-165"})
    void cookiePastTheTableIsDropped() {
        try (TckJob job = TckJob.builder(2).uid(0, UID_A).uid(1, UID_A).start()) {
            Rank target = job.rank(0);
            Rank peer = job.rank(1);
            Landing l = landing(job, target, PORTAL);
            int max = limits(target).maxAtableIndex();
            target.ptl().acEntry(target.ni(), max, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            assertAccepted(peer, target, l, PORTAL, max);
            assertRejected(peer, target, l, PORTAL, max + 1);
            assertRejected(peer, target, l, PORTAL, Integer.MAX_VALUE);
        }
    }

    @Test
    @SpecAssertion("P-155")
    void cookieNamingAnEntryNeverSetIsDropped() {
        try (TckJob job = TckJob.builder(2).uid(0, UID_A).uid(1, UID_A).start()) {
            Rank target = job.rank(0);
            Landing l = landing(job, target, PORTAL);
            // entry 1 exists in the table but was never set: it allows nothing
            assertRejected(job.rank(1), target, l, PORTAL, 1);
        }
    }

    @Test
    @SpecAssertion({"P-156", "P-165"})
    void entryWithConcreteIdDropsEveryOtherInitiator() {
        try (TckJob job = TckJob.builder(3).uid(0, UID_A).uid(1, UID_A).uid(2, UID_A).start()) {
            Rank target = job.rank(0);
            Rank one = job.rank(1);
            Rank two = job.rank(2);
            Landing l = landing(job, target, PORTAL);
            target.ptl().acEntry(target.ni(), 1, one.id(), Portals.UID_ANY, Portals.PT_INDEX_ANY);
            // same nid, another pid
            target.ptl().acEntry(target.ni(), 2, ProcessId.of(one.id().nid(), one.id().pid() + 9), Portals.UID_ANY,
                    Portals.PT_INDEX_ANY);
            assertAccepted(one, target, l, PORTAL, 1);
            assertRejected(two, target, l, PORTAL, 1);
            assertRejected(one, target, l, PORTAL, 2);
        }
    }

    @Test
    @SpecAssertion("P-157")
    void entryWithAnyNidAcceptsThatPidFromEveryNode() {
        try (TckJob job = jobWithPids(0, 7, 7, 8)) {
            Rank target = job.rank(0);
            Landing l = landing(job, target, PORTAL);
            target.ptl().acEntry(target.ni(), 1, ProcessId.of(ProcessId.NID_ANY, 7), Portals.UID_ANY,
                    Portals.PT_INDEX_ANY);
            assertThat(job.rank(1).id()).isEqualTo(ProcessId.of(1, 7));
            assertThat(job.rank(2).id()).isEqualTo(ProcessId.of(2, 7));
            assertAccepted(job.rank(1), target, l, PORTAL, 1);
            assertAccepted(job.rank(2), target, l, PORTAL, 1);
            assertRejected(job.rank(3), target, l, PORTAL, 1);
        }
    }

    @Test
    @SpecAssertion("P-158")
    void entryWithAnyPidAcceptsEveryPidOnThatNode() {
        try (TckJob job = jobWithPids(0, 5, 5)) {
            Rank target = job.rank(0);
            Rank one = job.rank(1);
            Landing l = landing(job, target, PORTAL);
            target.ptl().acEntry(target.ni(), 1, ProcessId.of(1, ProcessId.PID_ANY), Portals.UID_ANY,
                    Portals.PT_INDEX_ANY);
            assertAccepted(one, target, l, PORTAL, 1);
            // node 1 comes back with another pid: still admitted
            one.ptl().niFini(one.ni());
            one.ptl().niInit(InterfaceId.DEFAULT, 9, null);
            one.initDefaultInterface();
            assertThat(one.id()).isEqualTo(ProcessId.of(1, 9));
            assertAccepted(one, target, l, PORTAL, 1);
            // the same pid on another node is not
            assertRejected(job.rank(2), target, l, PORTAL, 1);
        }
    }

    @Test
    @SpecAssertion({"P-159", "P-165"})
    void entryForOnePortalDropsRequestsForAnother() {
        try (TckJob job = TckJob.builder(2).uid(0, UID_A).uid(1, UID_A).start()) {
            Rank target = job.rank(0);
            Rank peer = job.rank(1);
            Landing allowed = landing(job, target, PORTAL);
            Landing other = landing(job, target, PORTAL + 1);
            target.ptl().acEntry(target.ni(), 1, ProcessId.ANY, Portals.UID_ANY, PORTAL);
            assertAccepted(peer, target, allowed, PORTAL, 1);
            assertRejected(peer, target, other, PORTAL + 1, 1);
            // cookie 0 (any portal) still reaches the other portal: the match list itself was fine
            assertAccepted(peer, target, other, PORTAL + 1, 0);
        }
    }

    @Test
    @SpecAssertion("P-160")
    void entryForAnyPortalAdmitsEveryValidPortal() {
        try (TckJob job = TckJob.builder(2).uid(0, UID_A).uid(1, UID_A).start()) {
            Rank target = job.rank(0);
            Rank peer = job.rank(1);
            target.ptl().acEntry(target.ni(), 3, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            int max = limits(target).maxPtableIndex();
            for (int portal : new int[] {0, 1, 17, max}) {
                assertAccepted(peer, target, landing(job, target, portal), portal, 3);
            }
        }
    }

    @Test
    @SpecAssertion({"P-161", "P-165"})
    void entryForOneUidDropsOtherUids() {
        try (TckJob job = TckJob.builder(4).uid(0, UID_A).uid(1, UID_B).uid(2, UID_C).uid(3, UID_A).start()) {
            Rank target = job.rank(0);
            Landing l = landing(job, target, PORTAL);
            target.ptl().acEntry(target.ni(), 1, ProcessId.ANY, UID_B, Portals.PT_INDEX_ANY);
            assertAccepted(job.rank(1), target, l, PORTAL, 1);
            assertRejected(job.rank(2), target, l, PORTAL, 1);
            // not even the target's own uid gets through an entry for another uid
            assertRejected(job.rank(3), target, l, PORTAL, 1);
        }
    }

    @Test
    @SpecAssertion("P-162")
    void entryForAnyUidAdmitsEveryUid() {
        try (TckJob job = TckJob.builder(4).uid(0, UID_A).uid(1, UID_B).uid(2, UID_C).uid(3, UID_A).start()) {
            Rank target = job.rank(0);
            Landing l = landing(job, target, PORTAL);
            target.ptl().acEntry(target.ni(), 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            for (int r = 1; r < 4; r++) {
                Event start = assertAccepted(job.rank(r), target, l, PORTAL, 1);
                assertThat(start.uid()).as("uid of the initiator in PUT_START").isEqualTo(job.rank(r).uid());
            }
        }
    }

    @Test
    @SpecAssertion("P-163")
    void overwritingAnEntryTakesEffectAtOnce() {
        try (TckJob job = TckJob.builder(2).uid(0, UID_A).uid(1, UID_A).start()) {
            Rank target = job.rank(0);
            Rank peer = job.rank(1);
            Landing l = landing(job, target, PORTAL);
            target.ptl().acEntry(target.ni(), 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            assertAccepted(peer, target, l, PORTAL, 1);
            target.ptl().acEntry(target.ni(), 1, ProcessId.ANY, Portals.UID_ANY, PORTAL + 1);
            assertRejected(peer, target, l, PORTAL, 1);
            target.ptl().acEntry(target.ni(), 1, peer.id(), UID_A, PORTAL);
            assertAccepted(peer, target, l, PORTAL, 1);
            // entry 0 can be rewritten as well
            target.ptl().acEntry(target.ni(), 0, ProcessId.ANY, UID_B, Portals.PT_INDEX_ANY);
            assertRejected(peer, target, l, PORTAL, 0);
        }
    }

    @Test
    @SpecAssertion({"P-164", "P-165"})
    void getsAreCheckedLikePutsAndARejectedGetGetsNoReply() {
        try (TckJob job = TckJob.builder(3).uid(0, UID_A).uid(1, UID_A).uid(2, UID_B).start()) {
            Rank target = job.rank(0);
            Rank peer = job.rank(1);
            Rank stranger = job.rank(2);
            Landing l = landing(job, target, PORTAL);
            int maxCookie = limits(target).maxAtableIndex();
            target.ptl().acEntry(target.ni(), 2, ProcessId.ANY, Portals.UID_ANY, PORTAL + 1);

            assertGetRejected(peer, target, l, PORTAL, maxCookie + 1); // cookie past the table
            assertGetRejected(peer, target, l, PORTAL, 1);             // entry never set
            assertGetRejected(peer, target, l, PORTAL, 2);             // entry for another portal
            assertGetRejected(stranger, target, l, PORTAL, 0);         // another uid on entry 0
            assertThat(target.ptl().niStatus(target.ni(), StatusRegister.GETS_RECEIVED)).isZero();

            // the same get with a good cookie is answered
            EqHandle eq = peer.eq(8);
            MdHandle md = peer.bind(job.allocate(8), eq);
            peer.ptl().get(md, target.id(), PORTAL, 0, 0L, 0L);
            target.next(l.eq(), EventKind.GET_START);
            target.next(l.eq(), EventKind.GET_END);
            peer.next(eq, EventKind.REPLY_START);
            peer.next(eq, EventKind.REPLY_END);
        }
    }

    @Test
    @SpecAssertion("P-165")
    void rejectedRequestsLeaveEveryTargetQueueEmpty() {
        try (TckJob job = TckJob.builder(2).uid(0, UID_A).uid(1, UID_B).start()) {
            Rank target = job.rank(0);
            Rank stranger = job.rank(1);
            // several queues and entries, one of them a catch-all on the portal
            Landing first = landing(job, target, PORTAL);
            Landing second = landing(job, target, PORTAL);
            Landing elsewhere = landing(job, target, PORTAL + 1);
            EqHandle local = stranger.eq(16);
            MdHandle md = stranger.bind(job.allocate(8), local);
            stranger.ptl().put(md, AckRequest.ACK_REQ, target.id(), PORTAL, 0, 0L, 0L, 0L);
            stranger.ptl().put(md, AckRequest.ACK_REQ, target.id(), PORTAL, 5, 0L, 0L, 0L);
            stranger.ptl().get(md, target.id(), PORTAL, 0, 0L, 0L);
            target.awaitDrops(3);
            target.expectNoEvent(first.eq(), second.eq(), elsewhere.eq());
            // the rejection is silent at the initiator: the sends complete, no ack, no reply
            List<Event> events = List.of(stranger.next(local), stranger.next(local), stranger.next(local),
                    stranger.next(local));
            stranger.expectNoEvent(local);
            PortalsAssertions.assertStartEndPairs(events, EventKind.SEND_START, EventKind.SEND_END, 2);
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** An entry accepting any match bits on {@code portal}, MD of 64 bytes (put and get, remote offsets), own EQ. */
    private record Landing(EqHandle eq, MemorySegment memory, Rank.Attached attached) {
    }

    private static Landing landing(TckJob job, Rank target, int portal) {
        EqHandle eq = target.eq(64);
        MemorySegment memory = job.allocate(64);
        Rank.Attached a = target.attach(portal, 0L, ~0L, memory, eq, MdOption.OP_PUT, MdOption.OP_GET,
                MdOption.MANAGE_REMOTE);
        return new Landing(eq, memory, a);
    }

    private static NiLimits limits(Rank r) {
        return r.ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).actual();
    }

    /** A job whose rank r initialised the default interface with pid {@code pids[r]}. */
    private static TckJob jobWithPids(int... pids) {
        TckJob job = TckJob.builder(pids.length).uninitialised().start();
        try {
            for (int r = 0; r < pids.length; r++) {
                Rank rank = job.rank(r);
                rank.ptl().init();
                rank.ptl().niInit(InterfaceId.DEFAULT, pids[r], null);
                rank.initDefaultInterface(); // a repeat with PTL_PID_ANY returns the same interface
            }
            return job;
        } catch (RuntimeException e) {
            job.close();
            throw e;
        }
    }

    private static void put(Rank from, Rank to, int portal, int cookie) {
        MdHandle md = from.ptl().mdBind(from.ni(), MemoryDescriptor.of(from.job().pattern(8, cookie)));
        from.ptl().put(md, AckRequest.NOACK_REQ, to.id(), portal, cookie, 0L, 0L, 0L);
    }

    /** Puts 8 bytes and checks that the target logs PUT_START and PUT_END from {@code from}; returns PUT_START. */
    private static Event assertAccepted(Rank from, Rank target, Landing l, int portal, int cookie) {
        long drops = target.drops();
        put(from, target, portal, cookie);
        Event start = target.next(l.eq(), EventKind.PUT_START);
        assertThat(start.initiator()).as("initiator of the accepted put").isEqualTo(from.id());
        assertThat(start.portal()).isEqualTo(portal);
        target.next(l.eq(), EventKind.PUT_END);
        assertThat(target.drops()).as("PTL_SR_DROP_COUNT after an accepted put").isEqualTo(drops);
        return start;
    }

    /** Puts 8 bytes and checks that the target drops it, counted as an access control drop, with no event. */
    private static void assertRejected(Rank from, Rank target, Landing l, int portal, int cookie) {
        long drops = target.drops();
        long acl = target.ptl().niStatus(target.ni(), StatusRegister.DROP_ACL);
        put(from, target, portal, cookie);
        target.awaitDrops(drops + 1);
        assertThat(target.ptl().niStatus(target.ni(), StatusRegister.DROP_ACL)).as("PTL_SR_DROP_ACL")
                .isEqualTo(acl + 1);
        target.expectNoEvent(l.eq());
    }

    private static void assertGetRejected(Rank from, Rank target, Landing l, int portal, int cookie) {
        long drops = target.drops();
        long acl = target.ptl().niStatus(target.ni(), StatusRegister.DROP_ACL);
        EqHandle eq = from.eq(8);
        MdHandle md = from.bind(from.job().allocate(8), eq);
        from.ptl().get(md, target.id(), portal, cookie, 0L, 0L);
        target.awaitDrops(drops + 1);
        assertThat(target.ptl().niStatus(target.ni(), StatusRegister.DROP_ACL)).as("PTL_SR_DROP_ACL")
                .isEqualTo(acl + 1);
        Rank.expectNoEvent(target.queue(l.eq()), from.queue(eq)); // and no reply comes back
    }
}
