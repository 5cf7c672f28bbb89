package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AnyHandle;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.portals.Job33.Rank33;

/**
 * Portals 3.3 identification, access control and data movement through {@link Portals33}:
 * {@code PtlGetJid}, {@code PtlACEntry} with a job id, the {@code jid} of events,
 * {@code PtlPutRegion}, {@code PtlGetRegion} and {@code PtlHandleIsEqual} (P-291 to P-297).
 */
@DisplayName("Portals 3.3 dialect: job ids, regions, handles")
class Dialect33DataMovementTest {
    private static final int PORTAL = 9;
    private static final long BITS = 0xD3L;

    // ==== PtlGetJid, PtlACEntry with a job id, jid in events =========================================

    @Test
    @SpecAssertion("P-291")
    void getJidGivesTheSameJobIdOnEveryProcessOfTheJobNeverJidAny() {
        try (Job33 job = Job33.start(3)) {
            int jid = job.rank(0).ptl().getJid(job.rank(0).ni());
            assertThat(jid).isNotEqualTo(Portals33.JID_ANY);
            for (int r = 1; r < 3; r++) {
                assertThat(job.rank(r).ptl().getJid(job.rank(r).ni())).as("rank %d", r).isEqualTo(jid);
            }
            Portals33 p = job.rank(0).ptl();
            EqHandle eq = job.rank(0).eq(4);
            assertCode(ReturnCode.INV_NI, () -> p.getJid(NiHandle.of(eq)));
            assertCode(ReturnCode.INV_NI, () -> p.getJid(new NiHandle(0x7123_4567_89ABL)));
            assertCode(ReturnCode.SEGV, () -> p.getJid(Job33.illegalAddress()));
            NiHandle ni = job.rank(0).ni();
            p.fini();
            assertCode(ReturnCode.NOINIT, () -> p.getJid(ni));
        }
    }

    @Test
    @SpecAssertion("P-292")
    void anAccessControlEntryAllowsOnlyTheJobItNames() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(32);
            b.attach(PORTAL, BITS, MemoryDescriptor.of(job.tck().allocate(64)).withEventQueue(beq)
                    .withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE), Unlink.RETAIN);
            int jid = a.ptl().getJid(a.ni());
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 1)), Unlink.RETAIN);
            int cookie = 3;

            b.ptl().acEntry(b.ni(), cookie, ProcessId.ANY, Portals33.UID_ANY, jid, Portals33.PT_INDEX_ANY);
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), PORTAL, cookie, BITS, 0, 1);
            assertThat(b.next(beq, EventKind.PUT_START).hdrData()).as("the entry names this job").isEqualTo(1);
            b.next(beq, EventKind.PUT_END);

            b.ptl().acEntry(b.ni(), cookie, ProcessId.ANY, Portals33.UID_ANY, Portals33.JID_ANY, Portals33.PT_INDEX_ANY);
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), PORTAL, cookie, BITS, 0, 2);
            assertThat(b.next(beq, EventKind.PUT_START).hdrData()).as("PTL_JID_ANY").isEqualTo(2);
            b.next(beq, EventKind.PUT_END);

            b.ptl().acEntry(b.ni(), cookie, ProcessId.ANY, Portals33.UID_ANY, jid ^ 1, Portals33.PT_INDEX_ANY);
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), PORTAL, cookie, BITS, 0, 3);
            b.awaitDrops(1);
            b.expectNoEvent(beq);
        }
    }

    @Test
    @SpecAssertion("P-293")
    void everyEventCarriesTheJobIdOfTheInitiator() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            b.attach(PORTAL, BITS, MemoryDescriptor.of(job.tck().allocate(64)).withEventQueue(beq)
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET), Unlink.RETAIN);
            EqHandle aeq = a.eq(16);
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 1)).withEventQueue(aeq),
                    Unlink.RETAIN);
            int jid = a.ptl().getJid(a.ni());
            a.ptl().put(src, AckRequest.ACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            a.ptl().get(src, b.id(), PORTAL, 0, BITS, 0);
            for (EventKind k : new EventKind[] {EventKind.PUT_START, EventKind.PUT_END, EventKind.GET_START,
                EventKind.GET_END}) {
                assertThat(b.next(beq, k).jid()).as("%s at the target", k).isEqualTo(jid);
            }
            List<Event> mine = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                mine.add(a.next(aeq));
            }
            assertThat(mine).extracting(Event::type).containsExactlyInAnyOrder(EventKind.SEND_START,
                    EventKind.SEND_END, EventKind.ACK, EventKind.REPLY_START, EventKind.REPLY_END);
            for (Event e : mine) {
                assertThat(e.jid()).as("%s at the initiator (ACK and REPLY: initiated by the target)", e.type())
                        .isEqualTo(jid).isEqualTo(b.ptl().getJid(b.ni()));
            }
        }
    }

    // ==== PtlPutRegion / PtlGetRegion ================================================================

    @Test
    @SpecAssertion("P-294")
    void putRegionSendsExactlyTheRegionOfTheMd() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            MemorySegment landing = job.tck().allocate(64);
            b.attach(PORTAL, BITS, MemoryDescriptor.of(landing).withEventQueue(beq).withOptions(MdOption.OP_PUT),
                    Unlink.RETAIN);
            EqHandle aeq = a.eq(16);
            MemorySegment source = job.tck().pattern(64, 100);
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source).withEventQueue(aeq), Unlink.RETAIN);

            a.ptl().putRegion(src, 10, 20, AckRequest.ACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0x22);
            Event sendStart = a.next(aeq, EventKind.SEND_START);
            assertThat(sendStart.rlength()).isEqualTo(20);
            assertThat(sendStart.mlength()).isEqualTo(20);
            assertThat(a.next(aeq, EventKind.SEND_END).mlength()).isEqualTo(20);
            assertThat(a.next(aeq, EventKind.ACK).mlength()).isEqualTo(20);
            Event start = b.next(beq, EventKind.PUT_START);
            assertThat(start.rlength()).isEqualTo(20);
            assertThat(b.next(beq, EventKind.PUT_END).mlength()).isEqualTo(20);
            for (int i = 0; i < 64; i++) {
                byte expected = i < 20 ? source.get(ValueLayout.JAVA_BYTE, 10 + i) : 0;
                assertThat(landing.get(ValueLayout.JAVA_BYTE, i)).as("byte %d at the target", i).isEqualTo(expected);
            }
        }
    }

    @Test
    @SpecAssertion("P-295")
    void aRegionOutsideTheMdIsIllMdAndAnInactiveMdIsInvMd() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            Portals33 p = a.ptl();
            MdHandle md = p.mdBind(a.ni(), MemoryDescriptor.of(job.tck().allocate(64)), Unlink.RETAIN);
            ProcessId to = b.id();
            long[][] bad = {{60, 8}, {65, 0}, {0, 65}, {-1, 8}, {0, -1}, {64, 1}, {1, Long.MAX_VALUE}};
            for (long[] r : bad) {
                assertCode(ReturnCode.ILL_MD,
                        () -> p.putRegion(md, r[0], r[1], AckRequest.NOACK_REQ, to, PORTAL, 0, BITS, 0, 0));
                assertCode(ReturnCode.ILL_MD, () -> p.getRegion(md, r[0], r[1], to, PORTAL, 0, BITS, 0));
            }
            MdHandle inactive = p.mdBind(a.ni(), MemoryDescriptor.of(job.tck().allocate(64)).withThreshold(0),
                    Unlink.RETAIN);
            assertCode(ReturnCode.INV_MD, () -> p.putRegion(inactive, 0, 8, AckRequest.NOACK_REQ, to, PORTAL, 0, BITS, 0, 0));
            assertCode(ReturnCode.INV_MD, () -> p.getRegion(inactive, 0, 8, to, PORTAL, 0, BITS, 0));
            assertCode(ReturnCode.INV_PROC, () -> p.putRegion(md, 0, 8, AckRequest.NOACK_REQ, ProcessId.ANY, PORTAL,
                    0, BITS, 0, 0));
            assertThat(b.drops()).as("nothing was sent").isZero();
        }
    }

    @Test
    @SpecAssertion("P-296")
    void getRegionPlacesTheReplyAtTheLocalOffsetAndLeavesTheRestOfTheMdAlone() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            MemorySegment remote = job.tck().pattern(32, 50);
            b.attach(PORTAL, BITS, MemoryDescriptor.of(remote).withOptions(MdOption.OP_GET, MdOption.MANAGE_REMOTE),
                    Unlink.RETAIN);
            EqHandle aeq = a.eq(16);
            MemorySegment local = job.tck().allocate(64);
            local.fill((byte) 0x55);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(local).withEventQueue(aeq), Unlink.RETAIN);

            a.ptl().getRegion(md, 16, 8, b.id(), PORTAL, 0, BITS, 4);
            a.next(aeq, EventKind.REPLY_START);
            Event end = a.next(aeq, EventKind.REPLY_END);
            assertThat(end.mlength()).isEqualTo(8);
            assertThat(end.offset()).as("3.3: where in the local MD the reply went").isEqualTo(16);
            for (int i = 0; i < 64; i++) {
                byte expected = i >= 16 && i < 24 ? remote.get(ValueLayout.JAVA_BYTE, 4 + i - 16) : (byte) 0x55;
                assertThat(local.get(ValueLayout.JAVA_BYTE, i)).as("byte %d of the local MD", i).isEqualTo(expected);
            }
        }
    }

    // ==== PtlHandleIsEqual ===========================================================================

    @Test
    @SpecAssertion("P-297")
    void handleIsEqualComparesHandlesWhateverTheirType() {
        try (Job33 job = Job33.start(1)) {
            Rank33 r = job.rank(0);
            Portals33 p = r.ptl();
            MdHandle md = p.mdBind(r.ni(), MemoryDescriptor.of(job.tck().allocate(8)), Unlink.RETAIN);
            MdHandle other = p.mdBind(r.ni(), MemoryDescriptor.of(job.tck().allocate(8)), Unlink.RETAIN);
            EqHandle eq = r.eq(4);
            assertThat(p.handleIsEqual(md, md)).isTrue();
            assertThat(p.handleIsEqual(md, new MdHandle(md.value()))).isTrue();
            AnyHandle any = md.toAny();
            assertThat(p.handleIsEqual(any, md)).isTrue();
            assertThat(p.handleIsEqual(MdHandle.of(any), md)).isTrue();
            assertThat(p.handleIsEqual(md, other)).isFalse();
            assertThat(p.handleIsEqual(md, eq)).isFalse();
            assertThat(p.handleIsEqual(r.ni(), r.ni())).isTrue();
            assertThat(p.handleIsEqual(EqHandle.NONE, new EqHandle(0))).isTrue();
            assertThat(p.handleIsEqual(EqHandle.NONE, eq)).isFalse();
            assertCode(ReturnCode.SEGV, () -> p.handleIsEqual(md, Job33.illegalAddress()));
        }
    }
}
