package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.AnyHandle;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.portals.Job33.Rank33;

/**
 * Portals 3.3 identification, access control and data movement through {@link Portals33}:
 * {@code PtlGetJid}, {@code PtlACEntry} with a job id, the {@code jid} of events,
 * {@code PtlPutRegion}, {@code PtlGetRegion} and {@code PtlHandleIsEqual} (P-291 to P-297), and the
 * reference implementation's {@code PtlGetPut} (P-301 to P-305).
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

            b.ptl().acEntry(b.ni(), cookie, ProcessId.ANY, Portals33.UID_ANY, Portals33.JID_ANY,
                    Portals33.PT_INDEX_ANY);
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
            assertCode(ReturnCode.INV_MD,
                    () -> p.putRegion(inactive, 0, 8, AckRequest.NOACK_REQ, to, PORTAL, 0, BITS, 0, 0));
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

    // ==== PtlGetPut ==================================================================================

    /** An MD on {@code b} that a swap may match: puts and gets, the request's offset, logging to {@code eq}. */
    private static MemoryDescriptor swapArea(MemorySegment memory, EqHandle eq, MdOption... more) {
        List<MdOption> options = new ArrayList<>(List.of(MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE));
        options.addAll(List.of(more));
        return MemoryDescriptor.of(memory).withEventQueue(eq).withOptions(options.toArray(MdOption[]::new));
    }

    @Test
    @SpecAssertion("P-301")
    void getPutSwapsTheTargetsBytesWithThePutMdsAndBringsTheOldOnesBack() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            MemorySegment area = job.tck().pattern(32, 0xA0);
            b.attach(PORTAL, BITS, swapArea(area, beq), Unlink.RETAIN);
            EqHandle aeq = a.eq(16);
            MemorySegment out = job.tck().pattern(8, 0x10);
            MemorySegment in = job.tck().allocate(16);
            in.fill((byte) 0x55);
            MdHandle put = a.bind(out, aeq);
            MdHandle get = a.bind(in, aeq);
            int jid = a.ptl().getJid(a.ni());

            a.ptl().getPut(get, put, b.id(), PORTAL, 0, BITS, 4, 0xBEEFL);
            Event sendStart = a.next(aeq, EventKind.SEND_START);
            assertThat(sendStart.mdHandle()).isEqualTo(put);
            assertThat(sendStart.mlength()).isEqualTo(8);
            assertThat(sendStart.hdrData()).isEqualTo(0xBEEFL);
            assertThat(a.next(aeq, EventKind.SEND_END).link()).isEqualTo(sendStart.sequence());
            Event replyStart = a.next(aeq, EventKind.REPLY_START);
            assertThat(replyStart.mdHandle()).isEqualTo(get);
            Event replyEnd = a.next(aeq, EventKind.REPLY_END);
            assertThat(replyEnd.mlength()).isEqualTo(8);
            assertThat(replyEnd.rlength()).isEqualTo(8);
            assertThat(replyEnd.offset()).as("the old bytes land at offset 0 of the get MD").isZero();
            assertThat(replyEnd.initiator()).isEqualTo(b.id());
            assertThat(replyEnd.link()).isEqualTo(replyStart.sequence());
            for (int i = 0; i < 16; i++) {
                byte expected = i < 8 ? (byte) (0xA0 + 4 + i) : 0x55;
                assertThat(in.get(ValueLayout.JAVA_BYTE, i)).as("byte %d of the get MD", i).isEqualTo(expected);
            }
            for (int i = 0; i < 32; i++) {
                byte expected = i >= 4 && i < 12 ? (byte) (0x10 + i - 4) : (byte) (0xA0 + i);
                assertThat(area.get(ValueLayout.JAVA_BYTE, i)).as("byte %d at the target", i).isEqualTo(expected);
            }
            Event start = b.next(beq, EventKind.GETPUT_START);
            Event end = b.next(beq, EventKind.GETPUT_END);
            for (Event e : List.of(start, end)) {
                assertThat(e.initiator()).isEqualTo(a.id());
                assertThat(e.jid()).isEqualTo(jid);
                assertThat(e.portal()).isEqualTo(PORTAL);
                assertThat(e.matchBits()).isEqualTo(BITS);
                assertThat(e.rlength()).isEqualTo(8);
                assertThat(e.mlength()).isEqualTo(8);
                assertThat(e.offset()).isEqualTo(4);
                assertThat(e.hdrData()).as("the request's hdr_data").isEqualTo(0xBEEFL);
                assertThat(e.niFailType()).isEqualTo(NiFailType.OK);
            }
            assertThat(end.link()).isEqualTo(start.sequence());

            // one MD as get and put MD, as the reference implementation's programs use it
            MemorySegment both = job.tck().pattern(8, 0x30);
            MdHandle md = a.bind(both, aeq);
            a.ptl().getPut(md, md, b.id(), PORTAL, 0, BITS, 0, 0);
            List<EventKind> kinds = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                kinds.add(a.next(aeq).type());
            }
            assertThat(kinds).containsExactly(EventKind.SEND_START, EventKind.SEND_END, EventKind.REPLY_START,
                    EventKind.REPLY_END);
            for (int i = 0; i < 8; i++) {
                byte before = i < 4 ? (byte) (0xA0 + i) : (byte) (0x10 + i - 4); // the first swap's bytes at 4..7
                assertThat(both.get(ValueLayout.JAVA_BYTE, i)).as("byte %d came back", i).isEqualTo(before);
                assertThat(area.get(ValueLayout.JAVA_BYTE, i)).as("byte %d at the target", i)
                        .isEqualTo((byte) (0x30 + i));
            }
            a.ptl().mdUnlink(md); // nothing pending on it any more
        }
    }

    @Test
    @SpecAssertion("P-302")
    void getPutMatchesOnlyAnMdForPutsAndGetsAndSwapsWhatFits() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            MemorySegment putOnly = job.tck().pattern(16, 1);
            b.attach(PORTAL, BITS, MemoryDescriptor.of(putOnly).withEventQueue(beq)
                    .withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE), Unlink.RETAIN);
            MemorySegment small = job.tck().pattern(16, 0x40);
            MdHandle swap = b.attach(PORTAL, BITS, swapArea(small, beq, MdOption.TRUNCATE), Unlink.RETAIN).md();
            EqHandle aeq = a.eq(16);
            MemorySegment mine = job.tck().pattern(8, 0x70);
            MdHandle md = a.bind(mine, aeq);

            a.ptl().getPut(md, md, b.id(), PORTAL, 0, BITS, 12, 0);
            a.next(aeq, EventKind.SEND_START);
            a.next(aeq, EventKind.SEND_END);
            a.next(aeq, EventKind.REPLY_START);
            assertThat(a.next(aeq, EventKind.REPLY_END).mlength()).as("the 4 bytes that fit came back").isEqualTo(4);
            Event start = b.next(beq, EventKind.GETPUT_START);
            assertThat(start.mdHandle()).as("the put-only MD was passed over").isEqualTo(swap);
            assertThat(start.mlength()).isEqualTo(4);
            b.next(beq, EventKind.GETPUT_END);
            for (int i = 0; i < 8; i++) {
                byte expected = i < 4 ? (byte) (0x40 + 12 + i) : (byte) (0x70 + i);
                assertThat(mine.get(ValueLayout.JAVA_BYTE, i)).as("byte %d of the initiator's MD", i)
                        .isEqualTo(expected);
            }
            for (int i = 0; i < 16; i++) {
                byte expected = i >= 12 ? (byte) (0x70 + i - 12) : (byte) (0x40 + i);
                assertThat(small.get(ValueLayout.JAVA_BYTE, i)).as("byte %d of the truncating MD", i)
                        .isEqualTo(expected);
                assertThat(putOnly.get(ValueLayout.JAVA_BYTE, i)).isEqualTo((byte) (1 + i));
            }
            assertThat(b.drops()).isZero();

            // without a matching MD for both: dropped and counted, the initiator waits (its MD stays pending)
            b.attach(PORTAL, BITS + 1, MemoryDescriptor.of(job.tck().allocate(8)).withEventQueue(beq)
                    .withOptions(MdOption.OP_GET), Unlink.RETAIN);
            MdHandle other = a.bind(job.tck().allocate(8), aeq);
            a.ptl().getPut(other, other, b.id(), PORTAL, 0, BITS + 1, 0, 0);
            b.awaitDrops(1);
            b.expectNoEvent(beq);
            a.next(aeq, EventKind.SEND_START);
            a.next(aeq, EventKind.SEND_END);
            assertCode(ReturnCode.MD_INUSE, () -> a.ptl().mdUnlink(other));
        }
    }

    @Test
    @SpecAssertion("P-303")
    void getPutRefusesABadMdALongPutMdAndMdsOfTwoInterfacesAndSendsNothing() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            Portals33 p = a.ptl();
            MdHandle md = p.mdBind(a.ni(), MemoryDescriptor.of(job.tck().allocate(8)), Unlink.RETAIN);
            MdHandle longest = p.mdBind(a.ni(), MemoryDescriptor.of(job.tck().allocate(Portals33.MAX_GETPUT_MD)),
                    Unlink.RETAIN);
            MdHandle tooLong = p.mdBind(a.ni(), MemoryDescriptor.of(job.tck().allocate(Portals33.MAX_GETPUT_MD + 1)),
                    Unlink.RETAIN);
            MdHandle inactive = p.mdBind(a.ni(), MemoryDescriptor.of(job.tck().allocate(8)).withThreshold(0),
                    Unlink.RETAIN);
            NiHandle ni1 = p.niInit(new InterfaceId(1), ProcessId.PID_ANY, null).handle();
            MdHandle elsewhere = p.mdBind(ni1, MemoryDescriptor.of(job.tck().allocate(8)), Unlink.RETAIN);
            ProcessId to = b.id();
            assertThat(Portals33.MAX_GETPUT_MD).as("the reference implementation's max_getput_md").isEqualTo(64);
            assertCode(ReturnCode.ILL_MD, () -> p.getPut(md, tooLong, to, PORTAL, 0, BITS, 0, 0));
            assertCode(ReturnCode.ILL_MD, () -> p.getPut(md, elsewhere, to, PORTAL, 0, BITS, 0, 0));
            assertCode(ReturnCode.INV_MD, () -> p.getPut(inactive, md, to, PORTAL, 0, BITS, 0, 0));
            assertCode(ReturnCode.INV_MD, () -> p.getPut(md, inactive, to, PORTAL, 0, BITS, 0, 0));
            assertCode(ReturnCode.INV_MD,
                    () -> p.getPut(new MdHandle(0x7123_4567_89ABL), md, to, PORTAL, 0, BITS, 0, 0));
            assertCode(ReturnCode.INV_PROC, () -> p.getPut(md, longest, ProcessId.ANY, PORTAL, 0, BITS, 0, 0));
            assertCode(ReturnCode.SEGV, () -> p.getPut(md, Job33.illegalAddress(), to, PORTAL, 0, BITS, 0, 0));
            for (MdHandle h : List.of(md, longest, tooLong)) {
                p.mdUnlink(h); // no threshold taken, nothing pending
            }
            Rank.sleep(TckTransport.quietPeriod());
            assertThat(b.drops()).as("nothing was sent").isZero();
        }
    }

    @Test
    @SpecAssertion("P-304")
    void concurrentGetPutsSwapWholeValuesNeverTornNeverDoubled() throws Exception {
        int rounds = 200;
        try (Job33 job = Job33.start(3)) {
            Rank33 home = job.rank(0);
            MemorySegment token = job.tck().allocate(Portals33.MAX_GETPUT_MD);
            fillToken(token, 1000);
            home.attach(PORTAL, BITS, MemoryDescriptor.of(token)
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE), Unlink.RETAIN);
            List<MemorySegment> held = new ArrayList<>();
            List<Thread> swappers = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int r = 0; r < 3; r++) {
                Rank33 me = job.rank(r);
                MemorySegment mine = job.tck().allocate(Portals33.MAX_GETPUT_MD);
                fillToken(mine, 2000 + r);
                held.add(mine);
                EqHandle eq = me.eq(8);
                MdHandle md = me.ptl().mdBind(me.ni(), MemoryDescriptor.of(mine).withEventQueue(eq)
                        .withOptions(MdOption.EVENT_START_DISABLE), Unlink.RETAIN);
                swappers.add(Thread.ofPlatform().name("swapper-" + r).start(() -> {
                    try {
                        for (int i = 0; i < rounds; i++) {
                            me.ptl().getPut(md, md, home.id(), PORTAL, 0, BITS, 0, i);
                            me.next(eq, EventKind.SEND_END);
                            me.next(eq, EventKind.REPLY_END);
                            tokenOf(mine); // whole: all words equal
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            for (Thread t : swappers) {
                t.join(TckTransport.trafficPatience().toMillis());
                assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
            }
            assertThat(failures).isEmpty();
            List<Long> tokens = new ArrayList<>();
            tokens.add(tokenOf(token));
            for (MemorySegment m : held) {
                tokens.add(tokenOf(m));
            }
            assertThat(tokens).as("after %d swaps from each of 3 ranks (rank 0 swapping with itself)", rounds)
                    .containsExactlyInAnyOrder(1000L, 2000L, 2001L, 2002L);
        }
    }

    /** Writes {@code value} into every word of the 64-byte token. */
    private static void fillToken(MemorySegment token, long value) {
        for (long off = 0; off < token.byteSize(); off += 8) {
            token.set(ValueLayout.JAVA_LONG_UNALIGNED, off, value);
        }
    }

    /** The token's value; fails if its words differ (a torn swap). */
    private static long tokenOf(MemorySegment token) {
        long value = token.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        for (long off = 8; off < token.byteSize(); off += 8) {
            assertThat(token.get(ValueLayout.JAVA_LONG_UNALIGNED, off)).as("word at %d of a token", off)
                    .isEqualTo(value);
        }
        return value;
    }

    @Test
    @SpecAssertion("P-305")
    void aGetPutWhoseTargetDiesEndsWithEventsSayingSoAndLeavesNothingPending() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle aeq = a.eq(8);
            MdHandle md = a.bind(job.tck().allocate(8), aeq);
            a.ptl().getPut(md, md, b.id(), PORTAL, 0, BITS, 0, 0); // nothing on b matches it
            a.next(aeq, EventKind.SEND_START);
            job.tck().kill(1);
            List<Event> rest = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                rest.add(a.next(aeq));
            }
            assertThat(rest).extracting(Event::type).containsExactly(EventKind.SEND_END, EventKind.REPLY_START,
                    EventKind.REPLY_END);
            Event end = rest.get(2);
            assertThat(end.niFailType()).as("3.3: the END says why").isEqualTo(NiFailType.PEER_DEAD);
            assertThat(end.link()).isEqualTo(rest.get(1).sequence());
            a.ptl().mdUnlink(md); // nothing pending on it any more
            a.expectNoEvent(aeq);
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
