package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AttachedEntry;
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
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * PtlMEAttach, PtlMEAttachAny, PtlMEInsert and PtlMEUnlink (Portals 3.2 spec §3.6.2.2 to §3.7.4.2).
 *
 * <p>The order of a match list is observed, never assumed: every entry gets its own memory descriptor,
 * with its own buffer and event queue (a {@link Probe}), and a test looks at which of them a put lands
 * in. Two ways are used:
 * <ul>
 *   <li><em>consumption order</em>: every entry matches the puts and its MD has threshold 1, so the
 *       k-th put lands in the k-th entry of the list (an MD with threshold 0 is inactive and skipped,
 *       Portals 3.2 spec §3.8.1.1); a put after the last one is dropped;</li>
 *   <li><em>pairs</em>: entry i ignores the bits of the pairs it belongs to, so a put carrying the bit
 *       of pair (i, j) matches exactly entries i and j, and lands in whichever comes first.</li>
 * </ul>
 */
@DisplayName("Match list entries")
class MatchEntryTest {

    private static final long BITS = 0x0ACE_0000_0000_0042L;
    private static final long OTHER_BITS = 0x0ACE_0000_0000_0043L;

    // ==== PtlMEAttach ============================================================================

    @Test
    @SpecAssertion("P-054")
    void meAttachWithAWildcardIdOnPortalZeroSucceeds() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle me = p.meAttach(link.to.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            assertThat(p.niHandle(me)).isEqualTo(link.to.ni());
            Probe probe = link.probe("me", me, MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(0, 0L, List.of(probe))).isEqualTo("me");
        }
    }

    @Test
    @SpecAssertion("P-055")
    void largestPortalIndexIsAcceptedAndTheNextIsInvPtindex() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            int max = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).actual().maxPtableIndex();
            MeHandle me = p.meAttach(link.to.ni(), max, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            assertCode(ReturnCode.INV_PTINDEX, () -> p.meAttach(link.to.ni(), max + 1, ProcessId.ANY, BITS, 0L,
                    Unlink.RETAIN, InsertPosition.AFTER));
            Probe probe = link.probe("top", me, MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(max, BITS, List.of(probe))).isEqualTo("top");
        }
    }

    @Test
    @SpecAssertion("P-055")
    void portalIndexBoundFollowsTheInterfaceLimits() {
        NiLimits small = new NiLimits(100, 100, 100, 3, 2);
        try (TckJob job = TckJob.builder(2).config(PortalsConfig.DEFAULT.withDefaultLimits(small)).start()) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle me = p.meAttach(link.to.ni(), 2, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.BEFORE);
            for (InsertPosition pos : InsertPosition.values()) {
                assertCode(ReturnCode.INV_PTINDEX,
                        () -> p.meAttach(link.to.ni(), 3, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, pos));
            }
            Probe probe = link.probe("two", me, MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(2, BITS, List.of(probe))).isEqualTo("two");
        }
    }

    @Test
    @SpecAssertion("P-056")
    void negativePortalIndexIsInvPtindex() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            for (int bad : new int[] {-2, -64, Integer.MIN_VALUE}) {
                for (InsertPosition pos : InsertPosition.values()) {
                    assertCode(ReturnCode.INV_PTINDEX,
                            () -> r.ptl().meAttach(r.ni(), bad, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, pos));
                }
            }
        }
    }

    @Test
    @SpecAssertion("P-057")
    void portalIndexAnyIsInvPtindex() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            for (InsertPosition pos : InsertPosition.values()) {
                assertCode(ReturnCode.INV_PTINDEX, () -> r.ptl().meAttach(r.ni(), Portals.PT_INDEX_ANY, ProcessId.ANY,
                        0L, 0L, Unlink.RETAIN, pos));
            }
            // Nothing was attached anywhere: PtlMEAttachAny still finds portal 0 empty.
            assertThat(r.ptl().meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN).portalIndex()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-058")
    void meAttachWithAnInvalidInterfaceIsInvNi() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            for (NiHandle bad : invalidInterfaces(job, r)) {
                assertCode(ReturnCode.INV_NI,
                        () -> p.meAttach(bad, 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER));
            }
            NiHandle ni = r.ni();
            p.niFini(ni);
            assertCode(ReturnCode.INV_NI,
                    () -> p.meAttach(ni, 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER));
        }
    }

    @Test
    @SpecAssertion("P-059")
    void meAttachWithAnInvalidMatchIdIsInvProc() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            for (ProcessId bad : invalidMatchIds(job)) {
                assertCode(ReturnCode.INV_PROC,
                        () -> r.ptl().meAttach(r.ni(), 0, bad, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER));
            }
            // The refused calls left portal 0 empty.
            assertThat(r.ptl().meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN).portalIndex()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-060")
    void wildcardMatchIdIsAcceptedAndMatchesEveryProcess() {
        try (TckJob job = TckJob.start(3)) {
            Link from0 = new Link(job, 0, 1);
            Link from2 = new Link(job, 2, 1);
            Portals p = from0.to.ptl();
            MeHandle me = p.meAttach(from0.to.ni(), 0, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            Probe any = from0.probe("any", me, MemoryDescriptor.THRESH_INF);
            assertThat(from0.landedIn(0, BITS, List.of(any))).isEqualTo("any");
            assertThat(from2.landedIn(0, BITS, List.of(any))).isEqualTo("any");
        }
    }

    @Test
    @SpecAssertion("P-060")
    void partlyWildcardMatchIdsAreAcceptedAndWildcardOneField() {
        try (TckJob job = TckJob.start(3)) {
            Link from0 = new Link(job, 0, 1);
            Link from2 = new Link(job, 2, 1);
            Rank t = from0.to;
            Portals p = t.ptl();
            // Head: only node 2, any pid. Then: any node, pid 0. Then: node 0, any pid.
            MeHandle nodeTwo = p.meAttach(t.ni(), 0, ProcessId.of(2, ProcessId.PID_ANY), BITS, 0L, Unlink.RETAIN,
                    InsertPosition.AFTER);
            MeHandle pidZero = p.meAttach(t.ni(), 0, ProcessId.of(ProcessId.NID_ANY, 0), BITS, 0L, Unlink.RETAIN,
                    InsertPosition.AFTER);
            MeHandle nodeZero = p.meAttach(t.ni(), 1, ProcessId.of(0, ProcessId.PID_ANY), BITS, 0L, Unlink.RETAIN,
                    InsertPosition.AFTER);
            List<Probe> portal0 = List.of(from0.probe("node2", nodeTwo, MemoryDescriptor.THRESH_INF),
                    from0.probe("pid0", pidZero, MemoryDescriptor.THRESH_INF));
            List<Probe> portal1 = List.of(from0.probe("node0", nodeZero, MemoryDescriptor.THRESH_INF));
            assertThat(from0.landedIn(0, BITS, portal0)).isEqualTo("pid0");
            assertThat(from2.landedIn(0, BITS, portal0)).isEqualTo("node2");
            assertThat(from0.landedIn(1, BITS, portal1)).isEqualTo("node0");
            // Node 2 matches no entry of portal 1.
            from2.putDropped(1, BITS, portal1);
        }
    }

    @Test
    @SpecAssertion("P-061")
    void attachBeforeMakesTheNewEntryTheHead() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Probe old = link.probe("old", link.attach(0, BITS, InsertPosition.AFTER), MemoryDescriptor.THRESH_INF);
            Probe head = link.probe("new", link.attach(0, BITS, InsertPosition.BEFORE), MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(0, BITS, List.of(old, head))).isEqualTo("new");
            assertThat(link.landedIn(0, BITS, List.of(old, head))).isEqualTo("new");
        }
    }

    @Test
    @SpecAssertion("P-061")
    void repeatedAttachBeforeBuildsTheListFromTheHead() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            List<Probe> probes = new ArrayList<>();
            for (String name : List.of("a", "b", "c", "d")) {
                probes.add(link.probe(name, link.attach(0, BITS, InsertPosition.BEFORE), 1));
            }
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactly("d", "c", "b", "a");
        }
    }

    @Test
    @SpecAssertion("P-062")
    void attachAfterMakesTheNewEntryTheTail() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Probe old = link.probe("old", link.attach(0, BITS, InsertPosition.AFTER), 1);
            Probe tail = link.probe("new", link.attach(0, BITS, InsertPosition.AFTER), 1);
            // The first put lands in the old entry; the new one is behind it.
            assertThat(link.consumptionOrder(0, BITS, List.of(old, tail))).containsExactly("old", "new");
        }
    }

    @Test
    @SpecAssertion({"P-061", "P-062"})
    void attachPositionsMixKeepHeadAndTailSemantics() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            List<Probe> probes = new ArrayList<>();
            probes.add(link.probe("m", link.attach(0, BITS, InsertPosition.AFTER), 1));
            probes.add(link.probe("t1", link.attach(0, BITS, InsertPosition.AFTER), 1));
            probes.add(link.probe("h1", link.attachWildcard(0, InsertPosition.BEFORE), 1));
            probes.add(link.probe("t2", link.attachWildcard(0, InsertPosition.AFTER), 1));
            probes.add(link.probe("h2", link.attach(0, BITS, InsertPosition.BEFORE), 1));
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactly("h2", "h1", "m", "t1", "t2");
        }
    }

    @Test
    @SpecAssertion("P-063")
    void eitherPositionOnAnEmptyPortalGivesAOneEntryList() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Probe before = link.probe("before", link.attach(3, BITS, InsertPosition.BEFORE), 1);
            Probe after = link.probe("after", link.attach(4, BITS, InsertPosition.AFTER), 1);
            assertThat(link.consumptionOrder(3, BITS, List.of(before))).containsExactly("before");
            assertThat(link.consumptionOrder(4, BITS, List.of(after))).containsExactly("after");
        }
    }

    @Test
    @SpecAssertion("P-064")
    void entryWithoutAMemoryDescriptorNeverMatches() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Rank t = link.to;
            MeHandle bare = link.attach(0, BITS, InsertPosition.AFTER);
            long drops = t.drops();
            link.putDropped(0, BITS, List.of());
            assertThat(t.drops()).isEqualTo(drops + 1);
            assertThat(t.ptl().niStatus(t.ni(), StatusRegister.DROP_NO_MATCH)).isEqualTo(1);

            // The walk goes past it to an entry that has an MD...
            Probe behind = link.probe("behind", link.attach(0, BITS, InsertPosition.AFTER),
                    MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(0, BITS, List.of(behind))).isEqualTo("behind");
            // ...until the bare entry, at the head, gets an MD of its own.
            Probe head = link.probe("head", bare, MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(0, BITS, List.of(head, behind))).isEqualTo("head");
        }
    }

    @Test
    @SpecAssertion("P-065")
    void matchListLongerThanTheConfiguredLimitIsMlTooLong() {
        try (TckJob job = TckJob.builder(2).config(PortalsConfig.DEFAULT.withMaxMatchListLength(3)).start()) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            NiHandle ni = link.to.ni();
            MeHandle a = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle b = link.attach(0, BITS, InsertPosition.BEFORE);
            MeHandle c = link.attach(0, BITS, InsertPosition.AFTER);
            for (InsertPosition pos : InsertPosition.values()) {
                assertCode(ReturnCode.ML_TOOLONG, () -> p.meAttach(ni, 0, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, pos));
            }
            // The limit is per list: another portal has room.
            link.attach(1, BITS, InsertPosition.AFTER);
            // The refused calls left the list as it was: b, a, c.
            List<Probe> probes = List.of(link.probe("a", a, 1), link.probe("b", b, 1), link.probe("c", c, 1));
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactly("b", "a", "c");
            // Unlinking an entry makes room for one more.
            p.meUnlink(a);
            link.attach(0, BITS, InsertPosition.AFTER);
            assertCode(ReturnCode.ML_TOOLONG,
                    () -> p.meAttach(ni, 0, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER));
        }
    }

    @Test
    @SpecAssertion("P-065")
    void withoutAConfiguredLimitLongListsAreAccepted() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            for (int i = 0; i < 500; i++) {
                r.ptl().meAttach(r.ni(), 0, ProcessId.ANY, i, 0L, Unlink.RETAIN,
                        i % 2 == 0 ? InsertPosition.AFTER : InsertPosition.BEFORE);
            }
        }
    }

    // ==== PtlMEAttachAny =========================================================================

    @Test
    @SpecAssertion("P-066")
    void attachAnyReturnsAnEmptyPortalWithinTheTable() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            int max = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).actual().maxPtableIndex();
            p.meAttach(r.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            p.meAttach(r.ni(), 1, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            AttachedEntry e = p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN);
            assertThat(e.portalIndex()).isBetween(0, max).isNotIn(0, 1);
            // This implementation: the lowest empty index.
            assertThat(e.portalIndex()).isEqualTo(2);
            assertThat(p.niHandle(e.handle())).isEqualTo(r.ni());
        }
    }

    @Test
    @SpecAssertion("P-067")
    void successiveAttachAnyCallsReturnDifferentPortals() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            AttachedEntry first = p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN);
            AttachedEntry second = p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN);
            assertThat(second.portalIndex()).isNotEqualTo(first.portalIndex());
            assertThat(second.handle()).isNotEqualTo(first.handle());
        }
    }

    @Test
    @SpecAssertion("P-068")
    void attachAnyNeverChoosesAPortalThatHasAList() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            Set<Integer> used = Set.of(0, 2, 4);
            MeHandle zero = p.meAttach(r.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            p.mdAttach(zero, MemoryDescriptor.of(job.allocate(4)), Unlink.RETAIN, Unlink.RETAIN);
            p.meAttach(r.ni(), 2, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.BEFORE);
            p.meAttach(r.ni(), 4, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER); // no MD: still a list
            Set<Integer> chosen = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                chosen.add(p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN).portalIndex());
            }
            assertThat(chosen).hasSize(5).doesNotContainAnyElementsOf(used);
            // This implementation: "used" means "has a non-empty list"; emptied lists are free again.
            p.meUnlink(zero);
            assertThat(p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN).portalIndex()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-069")
    void attachAnyOnAFullPortalTableIsPtFull() {
        NiLimits small = new NiLimits(100, 100, 100, 3, 3);
        try (TckJob job = TckJob.builder(1).config(PortalsConfig.DEFAULT.withDefaultLimits(small)).start()) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            Set<Integer> chosen = new HashSet<>();
            List<MeHandle> entries = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                AttachedEntry e = p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN);
                chosen.add(e.portalIndex());
                entries.add(e.handle());
            }
            assertThat(chosen).containsExactlyInAnyOrder(0, 1, 2, 3);
            assertCode(ReturnCode.PT_FULL, () -> p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN));
            // PtlMEAttach may still add to an existing list.
            p.meAttach(r.ni(), 1, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            assertCode(ReturnCode.PT_FULL, () -> p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN));
        }
    }

    @Test
    @SpecAssertion("P-069")
    void attachAnyWithEveryDefaultPortalTakenIsPtFull() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            int max = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).actual().maxPtableIndex();
            for (int i = 0; i <= max; i++) {
                p.meAttach(r.ni(), i, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            }
            assertCode(ReturnCode.PT_FULL, () -> p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN));
        }
    }

    @Test
    @SpecAssertion("P-070")
    void putToThePortalAttachAnyChoseReachesTheNewEntry() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            p.meAttach(link.to.ni(), 0, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            AttachedEntry e = p.meAttachAny(link.to.ni(), ProcessId.ANY, BITS, 0L, Unlink.RETAIN);
            Probe probe = link.probe("any", e.handle(), MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(e.portalIndex(), BITS, List.of(probe))).isEqualTo("any");
            // Its match bits are honoured.
            link.putDropped(e.portalIndex(), OTHER_BITS, List.of(probe));
        }
    }

    @Test
    @SpecAssertion("P-071")
    void attachAnyWithAnInvalidInterfaceOrMatchIdFails() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            for (NiHandle bad : invalidInterfaces(job, r)) {
                assertCode(ReturnCode.INV_NI, () -> p.meAttachAny(bad, ProcessId.ANY, 0L, 0L, Unlink.RETAIN));
            }
            for (ProcessId bad : invalidMatchIds(job)) {
                assertCode(ReturnCode.INV_PROC, () -> p.meAttachAny(r.ni(), bad, 0L, 0L, Unlink.UNLINK));
            }
            // Nothing was taken by the refused calls.
            assertThat(p.meAttachAny(r.ni(), ProcessId.ANY, 0L, 0L, Unlink.RETAIN).portalIndex()).isZero();
        }
    }

    // ==== PtlMEInsert ============================================================================

    @Test
    @SpecAssertion("P-072")
    void insertBeforeTheOnlyEntryPutsTheNewEntryFirst() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            MeHandle cur = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle x = link.to.ptl().meInsert(cur, ProcessId.ANY, BITS, 0L, InsertPosition.BEFORE);
            List<Probe> probes = List.of(link.probe("cur", cur, MemoryDescriptor.THRESH_INF),
                    link.probe("new", x, MemoryDescriptor.THRESH_INF));
            assertThat(link.landedIn(0, BITS, probes)).isEqualTo("new");
        }
    }

    @Test
    @SpecAssertion("P-072")
    void insertBeforeAMiddleEntryPutsTheNewEntryImmediatelyBeforeIt() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            MeHandle a = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle b = link.attachWildcard(0, InsertPosition.AFTER);
            MeHandle c = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle x = link.to.ptl().meInsert(b, ProcessId.ANY, BITS, 0L, InsertPosition.BEFORE);
            List<Probe> probes = List.of(link.probe("a", a, 1), link.probe("b", b, 1), link.probe("c", c, 1),
                    link.probe("x", x, 1));
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactly("a", "x", "b", "c");
        }
    }

    @Test
    @SpecAssertion("P-073")
    void insertAfterTheOnlyEntryPutsTheNewEntrySecond() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            MeHandle cur = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle x = link.to.ptl().meInsert(cur, ProcessId.ANY, BITS, 0L, InsertPosition.AFTER);
            Probe curProbe = link.probe("cur", cur, 1);
            Probe newProbe = link.probe("new", x, 1);
            assertThat(link.consumptionOrder(0, BITS, List.of(curProbe, newProbe))).containsExactly("cur", "new");
        }
    }

    @Test
    @SpecAssertion("P-073")
    void insertAfterAMiddleEntryPutsTheNewEntryImmediatelyAfterIt() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            MeHandle a = link.attachWildcard(0, InsertPosition.AFTER);
            MeHandle b = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle c = link.attachWildcard(0, InsertPosition.AFTER);
            MeHandle x = link.to.ptl().meInsert(b, ProcessId.ANY, 0L, -1L, Unlink.RETAIN, InsertPosition.AFTER);
            List<Probe> probes = List.of(link.probe("a", a, 1), link.probe("b", b, 1), link.probe("c", c, 1),
                    link.probe("x", x, 1));
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactly("a", "b", "x", "c");
        }
    }

    @Test
    @SpecAssertion("P-073")
    void insertAfterTheTailMakesTheNewEntryTheTail() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            MeHandle a = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle b = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle x = link.to.ptl().meInsert(b, ProcessId.ANY, BITS, 0L, InsertPosition.AFTER);
            MeHandle y = link.attach(0, BITS, InsertPosition.AFTER); // the tail is now x: y goes after it
            List<Probe> probes = List.of(link.probe("a", a, 1), link.probe("b", b, 1), link.probe("x", x, 1),
                    link.probe("y", y, 1));
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactly("a", "b", "x", "y");
        }
    }

    @Test
    @SpecAssertion("P-074")
    void insertingAfterTheHeadOfABCGivesAXBCByMatchBitPairs() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            // Entry i ignores the bits of the pairs it is in, so pair bit (i, j) matches only i and j.
            List<String> names = List.of("A", "X", "B", "C");
            int[] pairBit = {0, 7, 20, 33, 50, 63};
            long[] mask = new long[4];
            List<int[]> pairs = new ArrayList<>();
            int k = 0;
            for (int i = 0; i < 4; i++) {
                for (int j = i + 1; j < 4; j++) {
                    long bit = 1L << pairBit[k++];
                    mask[i] |= bit;
                    mask[j] |= bit;
                    pairs.add(new int[] {i, j});
                }
            }
            MeHandle a = p.meAttach(link.to.ni(), 0, ProcessId.ANY, 0L, mask[0], Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle b = p.meAttach(link.to.ni(), 0, ProcessId.ANY, 0L, mask[2], Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle c = p.meAttach(link.to.ni(), 0, ProcessId.ANY, 0L, mask[3], Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle x = p.meInsert(a, ProcessId.ANY, 0L, mask[1], InsertPosition.AFTER);
            List<Probe> probes = List.of(link.probe("A", a, MemoryDescriptor.THRESH_INF),
                    link.probe("X", x, MemoryDescriptor.THRESH_INF), link.probe("B", b, MemoryDescriptor.THRESH_INF),
                    link.probe("C", c, MemoryDescriptor.THRESH_INF));
            for (int n = 0; n < pairs.size(); n++) {
                int[] pair = pairs.get(n);
                long bits = 1L << pairBit[n];
                // names are in expected walk order, so the first of the pair is the expected landing.
                assertThat(link.landedIn(0, bits, probes))
                        .as("put with bits of pair %s/%s", names.get(pair[0]), names.get(pair[1]))
                        .isEqualTo(names.get(pair[0]));
            }
            // A bit no entry ignores matches none of them.
            link.putDropped(0, 1L << 1, probes);
        }
    }

    @Test
    @SpecAssertion("P-074")
    void insertingAfterTheHeadOfABCGivesAXBCByConsumption() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            MeHandle a = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle b = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle c = link.attachWildcard(0, InsertPosition.AFTER);
            MeHandle x = link.to.ptl().meInsert(a, ProcessId.ANY, BITS, 0L, InsertPosition.AFTER);
            List<Probe> probes = List.of(link.probe("a", a, 1), link.probe("b", b, 1), link.probe("c", c, 1),
                    link.probe("x", x, 1));
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactly("a", "x", "b", "c");
        }
    }

    @Test
    @SpecAssertion({"P-072", "P-073", "P-074"})
    void manyInsertionsAtOnePlaceKeepTheListOrder() {
        // Forty insertions right after the head and forty right before the tail, alternating entries
        // without ignore bits and entries that ignore every bit: the walk must still be list order.
        int n = 40;
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle head = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle tail = link.attachWildcard(0, InsertPosition.AFTER);
            List<Probe> probes = new ArrayList<>();
            probes.add(link.probe("head", head, 1));
            probes.add(link.probe("tail", tail, 1));
            List<String> expected = new ArrayList<>();
            expected.add("head");
            List<String> afterHead = new ArrayList<>();
            List<String> beforeTail = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long ignore = i % 2 == 0 ? 0L : -1L;
                MeHandle x = p.meInsert(head, ProcessId.ANY, BITS, ignore, Unlink.RETAIN, InsertPosition.AFTER);
                probes.add(link.probe("x" + i, x, 1));
                afterHead.add(0, "x" + i);
                MeHandle y = p.meInsert(tail, ProcessId.ANY, BITS, -1L - ignore, Unlink.RETAIN, InsertPosition.BEFORE);
                probes.add(link.probe("y" + i, y, 1));
                beforeTail.add("y" + i);
            }
            expected.addAll(afterHead);
            expected.addAll(beforeTail);
            expected.add("tail");
            assertThat(link.consumptionOrder(0, BITS, probes)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    @SpecAssertion("P-075")
    void insertWithAnInvalidCurrentIsInvMe() {
        try (TckJob job = TckJob.start(2)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            EqHandle eq = r.eq(4);
            MdHandle md = r.bind(job.allocate(4), eq);
            MeHandle peerMe = job.rank(1).ptl().meAttach(job.rank(1).ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN,
                    InsertPosition.AFTER);
            List<MeHandle> bad = List.of(new MeHandle(0), new MeHandle(123), new MeHandle(-1),
                    new MeHandle(Long.MAX_VALUE), MeHandle.of(md), MeHandle.of(eq), MeHandle.of(r.ni()),
                    peerMe /* another process's entry */);
            for (MeHandle cur : bad) {
                for (InsertPosition pos : InsertPosition.values()) {
                    assertCode(ReturnCode.INV_ME, () -> p.meInsert(cur, ProcessId.ANY, 0L, 0L, pos));
                    assertCode(ReturnCode.INV_ME, () -> p.meInsert(cur, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, pos));
                }
            }
        }
    }

    @Test
    @SpecAssertion("P-076")
    void insertAtAnExplicitlyUnlinkedEntryIsInvMe() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            MeHandle cur = p.meAttach(r.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            p.meUnlink(cur);
            for (InsertPosition pos : InsertPosition.values()) {
                assertCode(ReturnCode.INV_ME, () -> p.meInsert(cur, ProcessId.ANY, 0L, 0L, pos));
            }
            // A new entry in the freed slot does not bring the old handle back.
            MeHandle fresh = p.meAttach(r.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            assertThat(fresh).isNotEqualTo(cur);
            assertCode(ReturnCode.INV_ME, () -> p.meInsert(cur, ProcessId.ANY, 0L, 0L, InsertPosition.AFTER));
            p.meInsert(fresh, ProcessId.ANY, 0L, 0L, InsertPosition.AFTER);
        }
    }

    @Test
    @SpecAssertion("P-076")
    void insertAtAnEntryRemovedWithItsMemoryDescriptorIsInvMe() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle anchor = link.attach(0, OTHER_BITS, InsertPosition.AFTER);
            // meInsert without an unlink argument makes a PTL_UNLINK entry; the explicit RETAIN one stays.
            MeHandle unlinking = p.meInsert(anchor, ProcessId.ANY, BITS, 0L, InsertPosition.AFTER);
            MeHandle retained = p.meInsert(anchor, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            // list: anchor, retained, unlinking. Both get a threshold-1 MD that unlinks when used up.
            Probe r = link.probe("retained", retained, 1, Unlink.UNLINK);
            Probe u = link.probe("unlinking", unlinking, 1, Unlink.UNLINK);
            assertThat(link.landedIn(0, BITS, List.of(r, u))).isEqualTo("retained");
            link.to.next(r.eq, EventKind.UNLINK);
            assertThat(link.landedIn(0, BITS, List.of(r, u))).isEqualTo("unlinking");
            link.to.next(u.eq, EventKind.UNLINK);

            assertCode(ReturnCode.INV_ME, () -> p.meInsert(unlinking, ProcessId.ANY, 0L, 0L, InsertPosition.AFTER));
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(unlinking));
            // The PTL_RETAIN entry is still on the list, without an MD.
            p.meInsert(retained, ProcessId.ANY, 0L, 0L, InsertPosition.AFTER);
            link.putDropped(0, BITS, List.of(r, u));
        }
    }

    @Test
    @SpecAssertion("P-077")
    void insertWithAnInvalidMatchIdIsInvProc() {
        try (TckJob job = TckJob.start(1)) {
            Rank r = job.rank(0);
            Portals p = r.ptl();
            MeHandle cur = p.meAttach(r.ni(), 0, ProcessId.ANY, 0L, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            for (ProcessId bad : invalidMatchIds(job)) {
                for (InsertPosition pos : InsertPosition.values()) {
                    assertCode(ReturnCode.INV_PROC, () -> p.meInsert(cur, bad, 0L, 0L, pos));
                    assertCode(ReturnCode.INV_PROC, () -> p.meInsert(cur, bad, 0L, 0L, Unlink.RETAIN, pos));
                }
            }
            p.meInsert(cur, ProcessId.of(ProcessId.NID_ANY, 3), 0L, 0L, InsertPosition.AFTER);
        }
    }

    @Test
    @SpecAssertion("P-078")
    void insertedEntryIsOnTheSameInterfaceAndPortalAsCurrent() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle cur = link.attach(5, OTHER_BITS, InsertPosition.AFTER);
            MeHandle before = p.meInsert(cur, ProcessId.ANY, BITS, 0L, InsertPosition.BEFORE);
            MeHandle after = p.meInsert(cur, ProcessId.ANY, BITS + 1, 0L, InsertPosition.AFTER);
            assertThat(p.niHandle(before)).isEqualTo(link.to.ni());
            assertThat(p.niHandle(after)).isEqualTo(link.to.ni());
            Probe b = link.probe("before", before, MemoryDescriptor.THRESH_INF);
            Probe a = link.probe("after", after, MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(5, BITS, List.of(a, b))).isEqualTo("before");
            assertThat(link.landedIn(5, BITS + 1, List.of(a, b))).isEqualTo("after");
            // Not on another portal.
            link.putDropped(6, BITS, List.of(a, b));
        }
    }

    @Test
    @SpecAssertion("P-078")
    void insertedEntryIsOnTheInterfaceOfCurrent() {
        try (TckJob job = TckJob.start(2)) {
            Rank from = job.rank(0);
            Rank t = job.rank(1);
            Portals p = t.ptl();
            NiHandle ni1 = p.niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            NiHandle from1 = from.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            MeHandle cur = p.meAttach(ni1, 2, ProcessId.ANY, OTHER_BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle x = p.meInsert(cur, ProcessId.ANY, BITS, 0L, InsertPosition.AFTER);
            assertThat(p.niHandle(x)).isEqualTo(ni1).isNotEqualTo(t.ni());

            EqHandle eq = p.eqAlloc(ni1, 8);
            MemorySegment buffer = job.allocate(8);
            p.mdAttach(x, MemoryDescriptor.of(buffer).withOptions(MdOption.OP_PUT).withEventQueue(eq),
                    Unlink.RETAIN, Unlink.RETAIN);
            EqHandle sendEq = from.ptl().eqAlloc(from1, 8);
            MdHandle src = from.ptl().mdBind(from1, MemoryDescriptor.of(job.pattern(8, 9)).withEventQueue(sendEq));
            from.ptl().put(src, AckRequest.NOACK_REQ, p.getId(ni1), 2, 0, BITS, 0, 0);
            from.next(sendEq, EventKind.SEND_START);
            from.next(sendEq, EventKind.SEND_END);
            t.next(eq, EventKind.PUT_START);
            Event end = t.next(eq, EventKind.PUT_END);
            assertThat(end.portal()).isEqualTo(2);
            assertThat(buffer.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 9);
        }
    }

    @Test
    @SpecAssertion("P-079")
    void insertIntoAListAtTheConfiguredLimitIsMlTooLong() {
        try (TckJob job = TckJob.builder(2).config(PortalsConfig.DEFAULT.withMaxMatchListLength(2)).start()) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle a = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle b = p.meInsert(a, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.BEFORE);
            for (InsertPosition pos : InsertPosition.values()) {
                assertCode(ReturnCode.ML_TOOLONG, () -> p.meInsert(a, ProcessId.ANY, BITS, 0L, pos));
                assertCode(ReturnCode.ML_TOOLONG, () -> p.meInsert(b, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, pos));
            }
            // The list is unchanged: b, a.
            assertThat(link.consumptionOrder(0, BITS, List.of(link.probe("a", a, 1), link.probe("b", b, 1))))
                    .containsExactly("b", "a");
            // Unlinking one makes room for one.
            p.meUnlink(b);
            p.meInsert(a, ProcessId.ANY, BITS, 0L, InsertPosition.AFTER);
            assertCode(ReturnCode.ML_TOOLONG, () -> p.meInsert(a, ProcessId.ANY, BITS, 0L, InsertPosition.AFTER));
        }
    }

    // ==== PtlMEUnlink ============================================================================

    @Test
    @SpecAssertion("P-080")
    void putsForAnUnlinkedEntryAreDropped() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle gone = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle stays = link.attach(0, OTHER_BITS, InsertPosition.AFTER);
            Probe g = link.probe("gone", gone, MemoryDescriptor.THRESH_INF);
            Probe s = link.probe("stays", stays, MemoryDescriptor.THRESH_INF);
            assertThat(link.landedIn(0, BITS, List.of(g, s))).isEqualTo("gone");
            p.meUnlink(gone);
            link.putDropped(0, BITS, List.of(g, s));
            link.putDropped(0, BITS, List.of(g, s));
            assertThat(link.landedIn(0, OTHER_BITS, List.of(g, s))).isEqualTo("stays");
        }
    }

    @Test
    @SpecAssertion("P-081")
    void meUnlinkReleasesTheAttachedMemoryDescriptor() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle me = link.attach(0, BITS, InsertPosition.AFTER);
            Probe probe = link.probe("md", me, MemoryDescriptor.THRESH_INF);
            p.meUnlink(me);
            assertCode(ReturnCode.INV_MD, () -> p.mdUnlink(probe.md));
            assertCode(ReturnCode.INV_MD, () -> p.mdUpdate(probe.md, null, EqHandle.NONE));
            assertCode(ReturnCode.INV_HANDLE, () -> p.niHandle(probe.md));
        }
    }

    @Test
    @SpecAssertion("P-082")
    void secondMeUnlinkIsInvMe() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            MeHandle withMd = link.attach(0, BITS, InsertPosition.AFTER);
            link.probe("md", withMd, MemoryDescriptor.THRESH_INF);
            MeHandle bare = link.attach(0, BITS, InsertPosition.AFTER);
            p.meUnlink(withMd);
            p.meUnlink(bare);
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(withMd));
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(bare));
            // Still invalid once new entries reuse the slots.
            link.attach(0, BITS, InsertPosition.AFTER);
            link.attach(0, BITS, InsertPosition.AFTER);
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(withMd));
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(bare));
            for (MeHandle garbage : List.of(new MeHandle(0), new MeHandle(99), MeHandle.of(link.to.ni()))) {
                assertCode(ReturnCode.INV_ME, () -> p.meUnlink(garbage));
            }
        }
    }

    @Test
    @SpecAssertion("P-083")
    void unlinkingTheMiddleOfABCLeavesAC() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            MeHandle a = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle b = link.attachWildcard(0, InsertPosition.AFTER);
            MeHandle c = link.attach(0, BITS, InsertPosition.AFTER);
            List<Probe> probes = List.of(link.probe("a", a, 1), link.probe("b", b, 1), link.probe("c", c, 1));
            link.to.ptl().meUnlink(b);
            assertThat(link.consumptionOrder(0, BITS, probes, 2)).containsExactly("a", "c");
        }
    }

    @Test
    @SpecAssertion("P-083")
    void unlinkingTheMiddleOfABCLeavesACByMatchBitPairs() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            long ab = 1L << 3;
            long ac = 1L << 40;
            long bc = 1L << 63;
            MeHandle a = p.meAttach(link.to.ni(), 0, ProcessId.ANY, 0L, ab | ac, Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle b = p.meAttach(link.to.ni(), 0, ProcessId.ANY, 0L, ab | bc, Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle c = p.meAttach(link.to.ni(), 0, ProcessId.ANY, 0L, ac | bc, Unlink.RETAIN, InsertPosition.AFTER);
            List<Probe> probes = List.of(link.probe("a", a, MemoryDescriptor.THRESH_INF),
                    link.probe("b", b, MemoryDescriptor.THRESH_INF), link.probe("c", c, MemoryDescriptor.THRESH_INF));
            assertThat(link.landedIn(0, bc, probes)).isEqualTo("b");
            p.meUnlink(b);
            assertThat(link.landedIn(0, ab, probes)).isEqualTo("a");
            assertThat(link.landedIn(0, ac, probes)).isEqualTo("a");
            assertThat(link.landedIn(0, bc, probes)).isEqualTo("c");
        }
    }

    @Test
    @SpecAssertion("P-084")
    void meUnlinkPostsNoUnlinkEvent() {
        try (TckJob job = TckJob.start(2)) {
            Link link = new Link(job, 0, 1);
            Portals p = link.to.ptl();
            // One entry of each unlink flag, each MD with an event queue that has seen traffic.
            MeHandle retained = link.attach(0, BITS, InsertPosition.AFTER);
            MeHandle unlinking = p.meAttach(link.to.ni(), 0, ProcessId.ANY, OTHER_BITS, 0L, Unlink.UNLINK,
                    InsertPosition.AFTER);
            Probe r = link.probe("retained", retained, MemoryDescriptor.THRESH_INF, Unlink.UNLINK);
            Probe u = link.probe("unlinking", unlinking, 5, Unlink.UNLINK);
            assertThat(link.landedIn(0, BITS, List.of(r, u))).isEqualTo("retained");
            assertThat(link.landedIn(0, OTHER_BITS, List.of(r, u))).isEqualTo("unlinking");
            p.meUnlink(retained);
            p.meUnlink(unlinking);
            link.to.expectNoEvent(r.eq, u.eq);
        }
    }

    // ==== helpers ================================================================================

    private static List<NiHandle> invalidInterfaces(TckJob job, Rank r) {
        EqHandle eq = r.eq(4);
        return List.of(new NiHandle(0), new NiHandle(31), new NiHandle(-1), NiHandle.of(eq), job.rank(1).ni());
    }

    /** Malformed match ids, and ids of a node outside the job, with a pid or the wildcard. */
    private static List<ProcessId> invalidMatchIds(TckJob job) {
        int outside = job.nidOutsideTheJob();
        return List.of(ProcessId.of(-2, 0), ProcessId.of(0, -2), ProcessId.of(-2, -2),
                ProcessId.of(Integer.MIN_VALUE, ProcessId.PID_ANY), ProcessId.of(ProcessId.NID_ANY, Integer.MIN_VALUE),
                ProcessId.of(outside, 0), ProcessId.of(outside, ProcessId.PID_ANY),
                ProcessId.of(Integer.MAX_VALUE, ProcessId.PID_ANY));
    }

    /** An MD attached to an entry, with a buffer and an event queue of its own. */
    private record Probe(String name, MeHandle me, MdHandle md, EqHandle eq, MemorySegment buffer) {
    }

    /** Puts from one rank to another, and the probes of the target. */
    private static final class Link {
        final TckJob job;
        final Rank from;
        final Rank to;
        private final EqHandle sendEq;
        private final MemorySegment source;
        private final MdHandle sourceMd;
        private byte seed = 1;

        Link(TckJob job, int from, int to) {
            this.job = job;
            this.from = job.rank(from);
            this.to = job.rank(to);
            this.sendEq = this.from.eq(16);
            this.source = job.allocate(8);
            this.sourceMd = this.from.bind(source, sendEq);
        }

        /** An entry on the target accepting any process with exactly {@code bits}. */
        MeHandle attach(int portal, long bits, InsertPosition position) {
            return to.ptl().meAttach(to.ni(), portal, ProcessId.ANY, bits, 0L, Unlink.RETAIN, position);
        }

        /** An entry on the target accepting any process and any match bits. */
        MeHandle attachWildcard(int portal, InsertPosition position) {
            return to.ptl().meAttach(to.ni(), portal, ProcessId.ANY, 0L, -1L, Unlink.RETAIN, position);
        }

        Probe probe(String name, MeHandle me, int threshold) {
            return probe(name, me, threshold, Unlink.RETAIN);
        }

        /** Attaches an 8-byte put MD (remote offsets, so it never fills) logging to its own queue. */
        Probe probe(String name, MeHandle me, int threshold, Unlink unlinkOp) {
            EqHandle eq = to.eq(16);
            MemorySegment buffer = job.allocate(8);
            MdHandle md = to.ptl().mdAttach(me, MemoryDescriptor.of(buffer)
                    .withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE).withThreshold(threshold)
                    .withEventQueue(eq), unlinkOp, Unlink.RETAIN);
            return new Probe(name, me, md, eq, buffer);
        }

        /** Sends one 8-byte put whose bytes all equal a fresh seed; returns the seed. */
        private byte put(int portal, long bits) {
            byte s = seed++;
            source.fill(s);
            from.ptl().put(sourceMd, AckRequest.NOACK_REQ, to.id(), portal, 0, bits, 0L, 0L);
            from.next(sendEq, EventKind.SEND_START);
            from.next(sendEq, EventKind.SEND_END);
            return s;
        }

        /** Puts once and returns the name of the probe it landed in (checking its events and data). */
        String landedIn(int portal, long bits, List<Probe> probes) {
            byte s = put(portal, bits);
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (true) {
                for (Probe probe : probes) {
                    Event start = new Event();
                    if (to.ptl().eqGet(probe.eq, start) == ReturnCode.EQ_EMPTY) {
                        continue;
                    }
                    assertThat(start.type()).as("first event in %s", probe.name).isEqualTo(EventKind.PUT_START);
                    Event end = to.next(probe.eq, EventKind.PUT_END);
                    assertThat(end.portal()).isEqualTo(portal);
                    assertThat(end.matchBits()).isEqualTo(bits);
                    assertThat(end.mdHandle()).isEqualTo(probe.md);
                    assertThat(end.mlength()).isEqualTo(8);
                    byte[] expected = new byte[8];
                    Arrays.fill(expected, s);
                    assertThat(probe.buffer.toArray(ValueLayout.JAVA_BYTE)).as("data in %s", probe.name)
                            .isEqualTo(expected);
                    for (Probe other : probes) {
                        if (other != probe) {
                            assertThat(to.ptl().eqGet(other.eq, new Event())).as("events in %s", other.name)
                                    .isEqualTo(ReturnCode.EQ_EMPTY);
                        }
                    }
                    return probe.name;
                }
                if (System.nanoTime() > deadline) {
                    fail("the put (portal " + portal + ", bits 0x" + Long.toHexString(bits) + ") landed in no probe");
                }
                Thread.yield();
            }
        }

        /** Puts once and checks that the target dropped it and no probe saw it. */
        void putDropped(int portal, long bits, List<Probe> probes) {
            long drops = to.drops();
            put(portal, bits);
            to.awaitDrops(drops + 1);
            to.expectNoEvent(probes.stream().map(probe -> probe.eq).toArray(EqHandle[]::new));
        }

        /**
         * With every probe at threshold 1 and matching, puts once per probe and returns where each
         * landed: the list order. One more put must then be dropped (every MD is used up).
         */
        List<String> consumptionOrder(int portal, long bits, List<Probe> probes) {
            return consumptionOrder(portal, bits, probes, probes.size());
        }

        /** As above, for lists where only {@code live} of the probes are still on the list. */
        List<String> consumptionOrder(int portal, long bits, List<Probe> probes, int live) {
            List<String> order = new ArrayList<>();
            for (int i = 0; i < live; i++) {
                order.add(landedIn(portal, bits, probes));
            }
            putDropped(portal, bits, probes);
            return order;
        }
    }
}
