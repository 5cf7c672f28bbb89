package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * Receiving, first half: the target and portal checks and the match-list walk of the
 * receive algorithm ( Portals 3.2 spec §4.1, §4.2, §2.2, §3.7.1.2).
 *
 * <p>Rank 0 ({@code a}) initiates; rank 1 ({@code b}) is the target. A put either lands (the target logs
 * PUT_START and PUT_END) or is dropped (the target's {@code PTL_SR_DROP_COUNT} rises by one and nothing
 * is logged): {@link #lands} tells which, and checks that exactly one of the two happened.
 */
@DisplayName("Receive side: target, portal and matching (§8.10, P-210..P-220)")
class ReceiveMatchingTest {
    private static final int PT = 4;
    private static final long BIT63 = 1L << 63;

    // ---- P-210: the target check ----------------------------------------------------------------

    @Test
    @SpecAssertion("P-210")
    void putToAPidTheTargetNodeDoesNotHaveIsDroppedAndCounted() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(8);
            MemorySegment mem = job.allocate(16);
            // would take any put that reached it
            b.attach(PT, 0, ~0L, mem, eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            ProcessId ghost = new ProcessId(b.id().nid(), b.id().pid() + 5);
            sendPut(a, a.ni(), ghost, PT, 0, 0, job.pattern(8, 1));

            b.awaitDrops(1);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.DROP_WRONG_PID)).isEqualTo(1);
            b.expectNoEvent(eqb);
            assertThat(isZero(mem)).as("no byte of the dropped put was written").isTrue();
        }
    }

    @Test
    @SpecAssertion("P-210")
    void putToAnInterfaceTheTargetHasNotInitialisedIsDiscardedAndNotDeliveredLater() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            // Interface 1 on the initiator only; the target has just its default interface.
            NiHandle a1 = a.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            EqHandle eqb = b.eq(8);
            MemorySegment onDefault = job.allocate(16);
            b.attach(PT, 0, ~0L, onDefault, eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            sendPut(a, a1, b.id(), PT, 0, 0, job.pattern(8, 1));

            // Not delivered to another interface of the target, and not counted there.
            b.expectNoEvent(eqb);
            assertThat(b.drops()).isZero();
            assertThat(isZero(onDefault)).isTrue();

            // Once the target initialises interface 1, the old message does not turn up.
            NiHandle b1 = b.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            EqHandle eq1 = b.ptl().eqAlloc(b1, 8);
            MemorySegment onOne = job.allocate(16);
            MeHandle me = b.ptl().meAttach(b1, PT, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
            b.ptl().mdAttach(me, putMd(onOne, eq1),
                    Unlink.RETAIN, Unlink.RETAIN);
            b.expectNoEvent(eq1);
            assertThat(b.ptl().niStatus(b1, StatusRegister.DROP_COUNT)).isZero();
            assertThat(isZero(onOne)).isTrue();

            // The same put now lands: the first one was lost because the interface did not exist.
            sendPut(a, a1, b.id(), PT, 0, 0, job.pattern(8, 1));
            b.next(eq1, EventKind.PUT_START);
            assertThat(b.next(eq1, EventKind.PUT_END).mlength()).isEqualTo(8);
            assertThat(onOne.get(ValueLayout.JAVA_BYTE, 7)).isEqualTo((byte) 8);
        }
    }

    // ---- P-211, P-212: the portal index -------------------------------------------------------

    @Test
    @SpecAssertion("P-211")
    void putOrGetToPortalPastMaxPtableIndexIsDroppedAndCountedOnce() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            int max = b.ptl().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).actual().maxPtableIndex();
            EqHandle eqb = b.eq(8);
            b.attach(max, 0, ~0L, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE);

            sendPut(a, a.ni(), b.id(), max + 1, 0, 0, job.pattern(8, 1));
            b.awaitDrops(1);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.DROP_INV_PORTAL)).isEqualTo(1);

            EqHandle eqa = a.eq(8);
            a.ptl().get(a.bind(job.allocate(8), eqa), b.id(), max + 1, 0, 0, 0);
            b.awaitDrops(2);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.DROP_INV_PORTAL)).isEqualTo(2);
            Rank.expectNoEvent(a.queue(eqa), b.queue(eqb)); // no reply, nothing at the target

            // The highest valid index itself works.
            assertThat(lands(a, b, eqb, max, 0)).isTrue();
        }
    }

    @Test
    @SpecAssertion("P-212")
    void putToValidPortalWithEmptyMatchListIsDroppedAndCountedOnce() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(8);
            b.attach(PT, 0, ~0L, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            sendPut(a, a.ni(), b.id(), PT + 1, 0, 0, job.pattern(8, 1));
            b.awaitDrops(1);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.DROP_NO_MATCH)).isEqualTo(1);
            b.expectNoEvent(eqb);

            // A list emptied again by PtlMEUnlink drops too.
            MeHandle me = b.ptl().meAttach(b.ni(), PT + 2, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
            b.ptl().meUnlink(me);
            sendPut(a, a.ni(), b.id(), PT + 2, 0, 0, job.pattern(8, 1));
            b.awaitDrops(2);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.DROP_NO_MATCH)).isEqualTo(2);
        }
    }

    // ---- P-213..P-216: match bits ---------------------------------------------------------------

    @Test
    @SpecAssertion("P-213")
    void entryWithoutIgnoreBitsAcceptsOnlyItsExactBits() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            b.attach(PT, 0x1234L, 0L, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            assertThat(lands(a, b, eqb, PT, 0x1234L)).isTrue();
            assertThat(lands(a, b, eqb, PT, 0x1235L)).isFalse();
            assertThat(lands(a, b, eqb, PT, 0x0234L)).isFalse();
            assertThat(lands(a, b, eqb, PT, 0x1234L | BIT63)).isFalse();
            assertThat(lands(a, b, eqb, PT, 0x1234L | (1L << 32))).isFalse();
            assertThat(lands(a, b, eqb, PT, 0L)).isFalse();
            assertThat(lands(a, b, eqb, PT, 0x1234L)).isTrue();
            assertThat(b.drops()).isEqualTo(5);
        }
    }

    @Test
    @SpecAssertion("P-214")
    void entryIgnoringAllBitsAcceptsAnyBits() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(32);
            b.attach(PT, 0x55L, ~0L, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            for (long bits : new long[] {0L, 0x55L, ~0L, BIT63, 0x8000_0000L, 0x0123_4567_89AB_CDEFL, -2L}) {
                assertThat(lands(a, b, eqb, PT, bits)).as("bits 0x%x", bits).isTrue();
            }
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-215")
    void ignoreBitsMaskOnlyTheirOwnPositions() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(32);
            b.attach(PT, 0xF0L, 0x0FL, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            assertThat(lands(a, b, eqb, PT, 0xF3L)).isTrue();
            assertThat(lands(a, b, eqb, PT, 0xF0L)).isTrue();
            assertThat(lands(a, b, eqb, PT, 0xFFL)).isTrue();
            assertThat(lands(a, b, eqb, PT, 0xE0L)).isFalse();
            assertThat(lands(a, b, eqb, PT, 0x1F0L)).isFalse();
            assertThat(lands(a, b, eqb, PT, 0x0FL)).isFalse();
            assertThat(b.drops()).isEqualTo(3);
        }
    }

    @Test
    @SpecAssertion("P-216")
    void bit63IsMatchedLikeAnyOtherBit() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(32);
            b.attach(PT, BIT63, 0L, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            assertThat(lands(a, b, eqb, PT, 0L)).isFalse();
            assertThat(lands(a, b, eqb, PT, BIT63)).isTrue();
            assertThat(lands(a, b, eqb, PT, BIT63 | 1L)).isFalse();
            assertThat(lands(a, b, eqb, PT, Long.MAX_VALUE)).isFalse();

            // "A 0 in the most significant bit" (the MPI short-message entry, Portals 3.2 spec §5.3).
            EqHandle eqs = b.eq(32);
            b.attach(PT + 1, 0L, ~BIT63, job.allocate(16), eqs, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            assertThat(lands(a, b, eqs, PT + 1, Long.MAX_VALUE)).isTrue();
            assertThat(lands(a, b, eqs, PT + 1, 0x42L)).isTrue();
            assertThat(lands(a, b, eqs, PT + 1, BIT63)).isFalse();
            assertThat(lands(a, b, eqs, PT + 1, BIT63 | 0x42L)).isFalse();

            // Ignoring only bit 63 accepts it either way.
            EqHandle eqi = b.eq(32);
            b.attach(PT + 2, 0x42L, BIT63, job.allocate(16), eqi, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            assertThat(lands(a, b, eqi, PT + 2, 0x42L)).isTrue();
            assertThat(lands(a, b, eqi, PT + 2, BIT63 | 0x42L)).isTrue();
            assertThat(lands(a, b, eqi, PT + 2, BIT63)).isFalse();
        }
    }

    // ---- P-217, P-218: the match id -------------------------------------------------------------

    @Test
    @SpecAssertion("P-217")
    void entryForOneProcessRejectsOthersAndTheWalkGoesOn() {
        try (TckJob job = TckJob.start(3)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Rank c = job.rank(2);
            EqHandle onlyA = b.eq(16);
            EqHandle wrongPid = b.eq(16);
            EqHandle rest = b.eq(16);
            ProcessId idA = a.id();
            b.attach(PT, new ProcessId(idA.nid(), idA.pid() + 1), 0, ~0L,
                    putMd(job.allocate(16), wrongPid),
                    Unlink.RETAIN, Unlink.RETAIN);
            b.attach(PT, idA, 0, ~0L,
                    putMd(job.allocate(16), onlyA),
                    Unlink.RETAIN, Unlink.RETAIN);
            b.attach(PT, 0, ~0L, job.allocate(16), rest, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            assertThat(lands(c, b, rest, PT, 7)).as("c skips the entries for a").isTrue();
            b.expectNoEvent(onlyA, wrongPid);

            Event end = landsIn(a, b, onlyA, PT, 7);
            assertThat(end.initiator()).isEqualTo(idA);
            b.expectNoEvent(wrongPid, rest);
            assertThat(b.drops()).isZero();

            // With no catch-all behind it, the entry for a alone makes c's put a drop.
            EqHandle only = b.eq(8);
            b.attach(PT + 1, idA, 0, ~0L,
                    putMd(job.allocate(16), only),
                    Unlink.RETAIN, Unlink.RETAIN);
            assertThat(lands(c, b, only, PT + 1, 7)).isFalse();
            assertThat(lands(a, b, only, PT + 1, 7)).isTrue();
        }
    }

    @Test
    @SpecAssertion({"P-218", "P-217"})
    void wildcardMatchIdsAcceptTheProcessesTheyCover() {
        try (TckJob job = TckJob.start(3)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Rank c = job.rank(2);
            EqHandle any = b.eq(16);
            b.attach(PT, ProcessId.ANY, 0, ~0L,
                    putMd(job.allocate(16), any),
                    Unlink.RETAIN, Unlink.RETAIN);
            assertThat(landsIn(a, b, any, PT, 1).initiator()).isEqualTo(a.id());
            assertThat(landsIn(c, b, any, PT, 2).initiator()).isEqualTo(c.id());
            assertThat(landsIn(b, b, any, PT, 3).initiator()).isEqualTo(b.id());

            // {nid of c, PTL_PID_ANY}: c only.
            EqHandle nodeC = b.eq(16);
            b.attach(PT + 1, new ProcessId(c.id().nid(), ProcessId.PID_ANY), 0, ~0L,
                    putMd(job.allocate(16), nodeC),
                    Unlink.RETAIN, Unlink.RETAIN);
            assertThat(lands(c, b, nodeC, PT + 1, 0)).isTrue();
            assertThat(lands(a, b, nodeC, PT + 1, 0)).isFalse();

            // {PTL_NID_ANY, pid}: every node's process with that pid.
            EqHandle pidOnly = b.eq(16);
            b.attach(PT + 2, new ProcessId(ProcessId.NID_ANY, a.id().pid()), 0, ~0L,
                    putMd(job.allocate(16), pidOnly),
                    Unlink.RETAIN, Unlink.RETAIN);
            assertThat(lands(a, b, pidOnly, PT + 2, 0)).isTrue();
            assertThat(lands(c, b, pidOnly, PT + 2, 0)).isTrue();
            EqHandle otherPid = b.eq(16);
            b.attach(PT + 3, new ProcessId(ProcessId.NID_ANY, a.id().pid() + 1), 0, ~0L,
                    putMd(job.allocate(16), otherPid),
                    Unlink.RETAIN, Unlink.RETAIN);
            assertThat(lands(a, b, otherPid, PT + 3, 0)).isFalse();
        }
    }

    // ---- P-219, P-220: walk order ---------------------------------------------------------------

    @Test
    @SpecAssertion("P-219")
    void onlyTheFirstMatchingEntryInListOrderReceives() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq1 = b.eq(16);
            EqHandle eq2 = b.eq(16);
            EqHandle eq3 = b.eq(16);
            MemorySegment m1 = job.allocate(16);
            MemorySegment m2 = job.allocate(16);
            MemorySegment m3 = job.allocate(16);
            // Exact, then wildcard, then exact with the same bits: all three match bits 5.
            b.attach(PT, 5, 0, m1, eq1, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            b.attach(PT, 0, ~0L, m2, eq2, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            b.attach(PT, 5, 0, m3, eq3, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            landsIn(a, b, eq1, PT, 5);
            landsIn(a, b, eq1, PT, 5);
            b.expectNoEvent(eq2, eq3);
            assertThat(isZero(m2)).isTrue();
            assertThat(isZero(m3)).isTrue();
            assertThat(isZero(m1)).isFalse();

            // Bits only the wildcard entry matches go to it, not past it.
            landsIn(a, b, eq2, PT, 6);
            b.expectNoEvent(eq3);

            // A new entry inserted at the head is now first.
            EqHandle eq0 = b.eq(16);
            MeHandle head = b.ptl().meAttach(b.ni(), PT, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.BEFORE);
            b.ptl().mdAttach(head, putMd(job.allocate(16), eq0),
                    Unlink.RETAIN, Unlink.RETAIN);
            landsIn(a, b, eq0, PT, 5);
            b.expectNoEvent(eq1);

            // Removing the first two makes the third first for bits 5.
            b.ptl().meUnlink(head);
            MeHandle first = b.ptl().meAttach(b.ni(), PT + 1, ProcessId.ANY, 5, 0, Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle second = b.ptl().meInsert(first, ProcessId.ANY, 5, 0, Unlink.RETAIN, InsertPosition.AFTER);
            EqHandle eqf = b.eq(16);
            EqHandle eqs = b.eq(16);
            b.ptl().mdAttach(first, putMd(job.allocate(16), eqf),
                    Unlink.RETAIN, Unlink.RETAIN);
            b.ptl().mdAttach(second, putMd(job.allocate(16), eqs),
                    Unlink.RETAIN, Unlink.RETAIN);
            landsIn(a, b, eqf, PT + 1, 5);
            b.expectNoEvent(eqs);
            b.ptl().meUnlink(first);
            landsIn(a, b, eqs, PT + 1, 5);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-220")
    void putSkipsMatchingEntriesWithoutAnMdOrWhoseMdRejectsIt() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle getOnly = b.eq(16);
            EqHandle taker = b.eq(16);
            // An entry with no MD, then one whose MD takes only gets, then one that takes puts.
            b.ptl().meAttach(b.ni(), PT, ProcessId.ANY, 9, 0, Unlink.RETAIN, InsertPosition.AFTER);
            MemorySegment refused = job.allocate(16);
            b.attach(PT, 9, 0, refused, getOnly, MdOption.OP_GET);
            // One that is inactive (threshold 0), and one too small for 8 bytes without TRUNCATE.
            EqHandle others = b.eq(16);
            MemorySegment inactive = job.allocate(16);
            b.attach(PT, ProcessId.ANY, 9, 0, putMd(inactive, others).withThreshold(0), Unlink.RETAIN, Unlink.RETAIN);
            MemorySegment small = job.allocate(4);
            b.attach(PT, ProcessId.ANY, 9, 0, putMd(small, others), Unlink.RETAIN, Unlink.RETAIN);
            MemorySegment took = job.allocate(16);
            b.attach(PT, 0, ~0L, took, taker, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            Event end = landsIn(a, b, taker, PT, 9);
            assertThat(end.mlength()).isEqualTo(8);
            b.expectNoEvent(getOnly, others);
            assertThat(isZero(refused)).isTrue();
            assertThat(isZero(inactive)).isTrue();
            assertThat(isZero(small)).isTrue();
            assertThat(took.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);
            assertThat(b.drops()).isZero();

            // The get-only MD still answers gets: it was skipped for the put, not disabled.
            EqHandle eqa = a.eq(8);
            MdHandle into = a.bind(job.allocate(4), eqa);
            a.ptl().get(into, b.id(), PT, 0, 9, 0);
            a.next(eqa, EventKind.REPLY_START);
            a.next(eqa, EventKind.REPLY_END);
            b.next(getOnly, EventKind.GET_START);
            b.next(getOnly, EventKind.GET_END);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** A put of {@code data} from {@code from}'s interface {@code ni}; waits for SEND_START and SEND_END. */
    static void sendPut(Rank from, NiHandle ni, ProcessId target, int portal, long bits, long offset,
                        MemorySegment data) {
        sendPut(from, ni, target, portal, 0, bits, offset, data);
    }

    /** The same, with access control entry {@code cookie}. */
    static void sendPut(Rank from, NiHandle ni, ProcessId target, int portal, int cookie, long bits, long offset,
                        MemorySegment data) {
        EqHandle eq = from.ptl().eqAlloc(ni, 4);
        MdHandle md = from.ptl().mdBind(ni, MemoryDescriptor.of(data).withEventQueue(eq));
        from.ptl().put(md, AckRequest.NOACK_REQ, target, portal, cookie, bits, offset, 0);
        from.next(eq, EventKind.SEND_START);
        from.next(eq, EventKind.SEND_END);
        from.ptl().mdUnlink(md);
        from.ptl().eqFree(eq);
    }

    /**
     * Puts 8 bytes with {@code bits} from {@code a} to {@code b} and reports whether they landed in the
     * MD logging to {@code eqb} (PUT_START and PUT_END with those bits, drop count unchanged) or were
     * dropped (drop count up by exactly one, no event).
     */
    static boolean lands(Rank a, Rank b, EqHandle eqb, int portal, long bits) {
        long before = b.drops();
        sendPut(a, a.ni(), b.id(), portal, bits, 0, a.job().pattern(8, 1));
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        Event e = new Event();
        while (true) {
            ReturnCode rc = b.ptl().eqGet(eqb, e);
            if (rc != ReturnCode.EQ_EMPTY) {
                assertThat(rc).isEqualTo(ReturnCode.OK);
                assertThat(e.type()).as("first event of a landed put (%s)", e).isEqualTo(EventKind.PUT_START);
                Event end = b.next(eqb, EventKind.PUT_END);
                assertThat(end.link()).isEqualTo(e.link());
                assertThat(end.matchBits()).isEqualTo(bits);
                assertThat(end.portal()).isEqualTo(portal);
                assertThat(b.drops()).as("drop count after a landed put").isEqualTo(before);
                return true;
            }
            if (b.drops() > before) {
                b.expectNoEvent(eqb);
                assertThat(b.drops()).as("a dropped put counts once").isEqualTo(before + 1);
                return false;
            }
            if (System.nanoTime() > deadline) {
                fail("the put with bits 0x%x neither landed nor was counted as dropped", bits);
            }
            Thread.yield();
        }
    }

    /** Like {@link #lands} but requires the put to land; returns its PUT_END event. */
    static Event landsIn(Rank a, Rank b, EqHandle eqb, int portal, long bits) {
        long before = b.drops();
        sendPut(a, a.ni(), b.id(), portal, bits, 0, a.job().pattern(8, 1));
        Event start = b.next(eqb, EventKind.PUT_START);
        Event end = b.next(eqb, EventKind.PUT_END);
        assertThat(end.link()).isEqualTo(start.link());
        assertThat(end.matchBits()).isEqualTo(bits);
        assertThat(b.drops()).isEqualTo(before);
        return end;
    }

    /** An MD over {@code memory} that takes puts at the offset the put names (so it never fills up). */
    static MemoryDescriptor putMd(MemorySegment memory, EqHandle eq) {
        return MemoryDescriptor.of(memory).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE).withEventQueue(eq);
    }

    static boolean isZero(MemorySegment m) {
        for (long i = 0; i < m.byteSize(); i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != 0) {
                return false;
            }
        }
        return true;
    }
}
