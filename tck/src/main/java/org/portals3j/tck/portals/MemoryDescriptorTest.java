package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

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
import org.portals3j.portals.MdUpdateResult;
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
 * Memory descriptors. What makes a {@code ptl_md_t} legal, and
 * {@code PtlMDAttach}, {@code PtlMDBind}, {@code PtlMDUnlink} and {@code PtlMDUpdate} (Portals 3.2 spec §3.7.4.2 to
 * §3.8.5.2).
 *
 * <p>Rank 0 is the initiator, rank 1 the target. Not applicable to the Java binding: P-100
 * ({@code PtlMDBind} with a NULL {@code handle}): the out-argument is the return value.
 */
@DisplayName("Memory descriptors: PtlMDAttach / PtlMDBind / PtlMDUnlink / PtlMDUpdate")
class MemoryDescriptorTest {
    private static final int PORTAL = 4;
    private static final long BITS = 0x5A5AL;

    // ==== validity of a ptl_md_t ====================================================================

    @Test
    @SpecAssertion("P-085")
    void nullStartWithZeroLengthIsAcceptedByAttachAndBind() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqA = a.eq(8);
            EqHandle eqB = b.eq(8);
            MemoryDescriptor empty = MemoryDescriptor.empty();
            assertThat(empty.start()).isEqualTo(MemorySegment.NULL);
            assertThat(empty.length()).isZero();

            MdHandle bound = a.ptl().mdBind(a.ni(), empty.withEventQueue(eqA));
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle attached = b.ptl().mdAttach(me, empty.withOptions(MdOption.OP_PUT).withEventQueue(eqB),
                    Unlink.RETAIN, Unlink.RETAIN);

            // both are live: a zero-length put from one into the other is logged on both sides
            a.ptl().put(bound, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            a.next(eqA, EventKind.SEND_START);
            assertThat(a.next(eqA, EventKind.SEND_END).mdHandle()).isEqualTo(bound);
            b.next(eqB, EventKind.PUT_START);
            Event end = b.next(eqB, EventKind.PUT_END);
            assertThat(end.mdHandle()).isEqualTo(attached);
            assertThat(end.rlength()).isZero();
            assertThat(end.mlength()).isZero();
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-086")
    void nullStartWithPositiveLengthIsIllegal() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MemoryDescriptor bad = MemoryDescriptor.empty().withStart(MemorySegment.NULL, 16);

            assertCode(ReturnCode.ILL_MD, () -> a.ptl().mdBind(a.ni(), bad));
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            assertCode(ReturnCode.ILL_MD,
                    () -> b.ptl().mdAttach(me, bad.withOptions(MdOption.OP_PUT), Unlink.RETAIN, Unlink.RETAIN));

            // the refused attach left the entry without a descriptor: a legal one can still be attached
            MemorySegment buf = job.allocate(16);
            EqHandle eqB = b.eq(8);
            MdHandle md = b.ptl().mdAttach(me, putMd(buf, eqB), Unlink.RETAIN, Unlink.RETAIN);
            assertThat(md).isNotEqualTo(MdHandle.NONE);
            putAndWait(a, b, job.pattern(16, 7), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(md);
            b.next(eqB, EventKind.PUT_END);
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(16, 7)));
        }
    }

    @Test
    @SpecAssertion("P-087")
    void descriptorWithNeitherPutNorGetIsLegal() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            // bound, no options: legal, and usable as the source of a put
            EqHandle eqA = a.eq(8);
            MdHandle bound = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 1)).withOptionBits(0)
                    .withEventQueue(eqA));
            // attached, no options: legal, but it takes neither puts nor gets
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle attached = b.ptl().mdAttach(me, MemoryDescriptor.of(buf).withOptionBits(0).withEventQueue(eqB),
                    Unlink.RETAIN, Unlink.RETAIN);
            assertThat(current(b, attached).options()).isZero();

            a.ptl().put(bound, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            a.next(eqA, EventKind.SEND_START);
            a.next(eqA, EventKind.SEND_END);
            b.awaitDrops(1);
            b.expectNoEvent(eqB);
            assertThat(bytes(buf)).containsOnly(0);
        }
    }

    @Test
    @SpecAssertion("P-088")
    void descriptorWithBothPutAndGetIsLegalAndServesBoth() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            Rank.Attached t = b.attach(PORTAL, BITS, 0, buf, eqB, MdOption.OP_PUT, MdOption.OP_GET,
                    MdOption.MANAGE_REMOTE);
            assertThat(current(b, t.md()).optionSet()).contains(MdOption.OP_PUT, MdOption.OP_GET);

            putAndWait(a, b, job.pattern(8, 40), BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);

            EqHandle eqA = a.eq(8);
            MemorySegment into = job.allocate(8);
            MdHandle getMd = a.bind(into, eqA);
            a.ptl().get(getMd, b.id(), PORTAL, 0, BITS, 0);
            b.next(eqB, EventKind.GET_START);
            b.next(eqB, EventKind.GET_END);
            a.next(eqA, EventKind.REPLY_START);
            assertThat(a.next(eqA, EventKind.REPLY_END).mlength()).isEqualTo(8);
            assertThat(bytes(into)).isEqualTo(bytes(job.pattern(8, 40)));
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-089")
    void thresholdZeroIsLegalAndInactive() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(buf, eqB).withThreshold(0), Unlink.RETAIN, Unlink.RETAIN);
            assertThat(current(b, md).threshold()).isZero();

            putAndWait(a, b, job.pattern(8, 3), BITS, 0);
            b.awaitDrops(1);
            b.expectNoEvent(eqB);
            assertThat(bytes(buf)).containsOnly(0);

            // bound with threshold 0: legal, but a put from it is refused
            MdHandle bound = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 3)).withThreshold(0));
            assertCode(ReturnCode.INV_MD,
                    () -> a.ptl().put(bound, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0));
            assertThat(b.drops()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-090")
    void unalignedStartAndOddLengthAreAcceptedAndWrittenExactly() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MemorySegment whole = job.allocate(16);
            MemorySegment odd = whole.asSlice(3, 7);
            assertThat(odd.address() & 1).as("the region starts at an odd address").isEqualTo(1);
            EqHandle eqB = b.eq(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            b.ptl().mdAttach(me, putMd(odd, eqB), Unlink.RETAIN, Unlink.RETAIN);

            MemorySegment source = job.pattern(16, 100).asSlice(5, 7);
            putAndWait(a, b, source, BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            Event end = b.next(eqB, EventKind.PUT_END);
            assertThat(end.mlength()).isEqualTo(7);
            byte[] all = bytes(whole);
            for (int i = 0; i < 16; i++) {
                byte expected = i >= 3 && i < 10 ? (byte) (100 + 5 + i - 3) : 0;
                assertThat(all[i]).as("byte %d of the surrounding memory", i).isEqualTo(expected);
            }
        }
    }

    // ==== PtlMDAttach ===============================================================================

    @Test
    @SpecAssertion("P-091")
    void attachReturnsAHandleOfTheEntrysInterfaceAndTheMdTakesPuts() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(buf, eqB), Unlink.RETAIN, Unlink.RETAIN);
            assertThat(md).isNotEqualTo(MdHandle.NONE);
            assertThat(b.ptl().niHandle(md)).isEqualTo(b.ni());

            putAndWait(a, b, job.pattern(8, 9), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(md);
            assertThat(b.next(eqB, EventKind.PUT_END).mdHandle()).isEqualTo(md);
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(8, 9)));
        }
    }

    @Test
    @SpecAssertion("P-092")
    void secondAttachOnTheSameEntryIsInUse() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment first = job.allocate(8);
            MemorySegment second = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(first, eqB), Unlink.RETAIN, Unlink.RETAIN);
            assertCode(ReturnCode.INUSE, () -> b.ptl().mdAttach(me, putMd(second, eqB), Unlink.RETAIN, Unlink.RETAIN));

            // the first descriptor is still the one attached
            putAndWait(a, b, job.pattern(8, 11), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(md);
            b.next(eqB, EventKind.PUT_END);
            assertThat(bytes(first)).isEqualTo(bytes(job.pattern(8, 11)));
            assertThat(bytes(second)).containsOnly(0);
        }
    }

    @Test
    @SpecAssertion("P-093")
    void attachOnAnInvalidEntryIsInvMe() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            MemoryDescriptor md = putMd(job.allocate(8), EqHandle.NONE);
            assertCode(ReturnCode.INV_ME, () -> b.ptl().mdAttach(new MeHandle(0x7123_4567_89ABL), md,
                    Unlink.RETAIN, Unlink.RETAIN));
            MeHandle gone = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            b.ptl().meUnlink(gone);
            assertCode(ReturnCode.INV_ME, () -> b.ptl().mdAttach(gone, md, Unlink.RETAIN, Unlink.RETAIN));
            MdHandle bound = b.ptl().mdBind(b.ni(), md);
            assertCode(ReturnCode.INV_ME, () -> b.ptl().mdAttach(MeHandle.of(bound), md, Unlink.RETAIN, Unlink.RETAIN));
            assertCode(ReturnCode.INV_ME,
                    () -> b.ptl().mdAttach(MeHandle.of(b.ni()), md, Unlink.RETAIN, Unlink.RETAIN));
        }
    }

    @Test
    @SpecAssertion("P-094")
    void attachWithAnEventQueueOfAnotherInterfaceIsIllMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            NiHandle other = b.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            EqHandle foreign = b.ptl().eqAlloc(other, 8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            assertCode(ReturnCode.ILL_MD,
                    () -> b.ptl().mdAttach(me, putMd(buf, foreign), Unlink.RETAIN, Unlink.RETAIN));
            // an eventq that names no queue at all is PTL_ILL_MD here too
            assertCode(ReturnCode.ILL_MD, () -> b.ptl().mdAttach(me, putMd(buf, new EqHandle(0x7BAD_0000_0042L)),
                    Unlink.RETAIN, Unlink.RETAIN));

            // nothing was attached: the entry takes a legal descriptor, and the foreign queue saw nothing
            EqHandle eqB = b.eq(8);
            MdHandle md = b.ptl().mdAttach(me, putMd(buf, eqB), Unlink.RETAIN, Unlink.RETAIN);
            putAndWait(a, b, job.pattern(8, 2), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(md);
            b.next(eqB, EventKind.PUT_END);
            b.expectNoEvent(foreign);
        }
    }

    @Test
    @SpecAssertion("P-095")
    void attachWhoseHandleIsDiscardedStillWorks() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            // the Java form of handle == NULL: the returned handle is not kept
            b.ptl().mdAttach(me, putMd(buf, eqB).withUserPtr("discarded"), Unlink.RETAIN, Unlink.RETAIN);

            putAndWait(a, b, job.pattern(8, 21), BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            Event end = b.next(eqB, EventKind.PUT_END);
            assertThat(end.userPtr()).isEqualTo("discarded");
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(8, 21)));
            // the live MD can still be reached through the handle the event carries
            assertThat(current(b, end.mdHandle()).userPtr()).isEqualTo("discarded");
        }
    }

    @Test
    @SpecAssertion("P-096")
    void theLiveDescriptorIsNotLinkedToTheCallersValue() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(16);
            MemoryDescriptor value = putMd(buf, eqB).withThreshold(2);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, value, Unlink.RETAIN, Unlink.RETAIN);

            // the caller "changes" its ptl_md_t (a new value from the withers) and reuses it
            MemoryDescriptor changed = value.withThreshold(MemoryDescriptor.THRESH_INF).withOptionBits(0);
            assertThat(changed).isNotEqualTo(value);
            assertThat(current(b, md)).isEqualTo(value);

            putAndWait(a, b, job.pattern(8, 1), BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);
            // the live MD evolves on its own; the caller's value does not follow it
            assertThat(current(b, md).threshold()).isEqualTo(1);
            assertThat(value.threshold()).isEqualTo(2);

            // behaviour follows the value given at attach time: one more put, then inactive
            putAndWait(a, b, job.pattern(8, 2), BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);
            putAndWait(a, b, job.pattern(8, 3), BITS, 0);
            b.awaitDrops(1);
            b.expectNoEvent(eqB);
        }
    }

    @Test
    @SpecAssertion("P-097")
    void descriptorWithoutEventQueueWorksAndLogsNothing() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle unrelatedA = a.eq(8);
            EqHandle unrelatedB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(buf, EqHandle.NONE), Unlink.RETAIN, Unlink.RETAIN);
            assertThat(current(b, md).eventq()).isEqualTo(EqHandle.NONE);

            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 60)));
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            awaitStatus(b, StatusRegister.BYTES_RECEIVED, 8);
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(8, 60)));
            assertThat(b.drops()).isZero();

            // no event was logged anywhere, nor counted as lost from a queue
            Rank.expectNoEvent(b.queue(unrelatedB), a.queue(unrelatedA));
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED)).isZero();
            assertThat(a.ptl().niStatus(a.ni(), StatusRegister.EVENTS_DROPPED)).isZero();
        }
    }

    @Test
    @SpecAssertion({"P-098", "P-105"})
    void retainedEntryTakesANewDescriptorAfterExplicitUnlink() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment first = job.allocate(8);
            MemorySegment second = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle old = b.ptl().mdAttach(me, putMd(first, eqB), Unlink.RETAIN, Unlink.RETAIN);
            b.ptl().mdUnlink(old);

            // P-105: the entry has no descriptor now, so a put is not delivered
            putAndWait(a, b, job.pattern(8, 5), BITS, 0);
            b.awaitDrops(1);
            b.expectNoEvent(eqB);
            assertThat(bytes(first)).containsOnly(0);

            MdHandle fresh = b.ptl().mdAttach(me, putMd(second, eqB), Unlink.RETAIN, Unlink.RETAIN);
            assertThat(fresh).isNotEqualTo(old);
            putAndWait(a, b, job.pattern(8, 6), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(fresh);
            b.next(eqB, EventKind.PUT_END);
            assertThat(bytes(second)).isEqualTo(bytes(job.pattern(8, 6)));
            assertThat(bytes(first)).containsOnly(0);
        }
    }

    // ==== PtlMDBind =================================================================================

    @Test
    @SpecAssertion("P-099")
    void bindReturnsAHandleUsableForPutAndGet() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqA = a.eq(8);
            MemorySegment data = job.pattern(8, 30);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(data).withEventQueue(eqA));
            assertThat(md).isNotEqualTo(MdHandle.NONE);
            assertThat(a.ptl().niHandle(md)).isEqualTo(a.ni());

            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            b.attach(PORTAL, BITS, 0, buf, eqB, MdOption.OP_PUT);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            assertThat(a.next(eqA, EventKind.SEND_START).mdHandle()).isEqualTo(md);
            assertThat(a.next(eqA, EventKind.SEND_END).mdHandle()).isEqualTo(md);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);
            assertThat(bytes(buf)).isEqualTo(bytes(data));
        }
    }

    @Test
    @SpecAssertion("P-101")
    void bindOnAnInvalidInterfaceIsInvNi() {
        try (TckJob job = TckJob.start(1)) {
            Rank a = job.rank(0);
            MemoryDescriptor md = MemoryDescriptor.of(job.allocate(8));
            assertCode(ReturnCode.INV_NI, () -> a.ptl().mdBind(new NiHandle(0x7123_4567_89ABL), md));
            EqHandle eq = a.eq(4);
            assertCode(ReturnCode.INV_NI, () -> a.ptl().mdBind(NiHandle.of(eq), md));
            NiHandle other = a.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            a.ptl().niFini(other);
            assertCode(ReturnCode.INV_NI, () -> a.ptl().mdBind(other, md));
            // the valid interface still binds
            assertThat(a.ptl().mdBind(a.ni(), md)).isNotEqualTo(MdHandle.NONE);
        }
    }

    @Test
    @SpecAssertion("P-102")
    void bindWithAnInvalidEventQueueIsInvEq() {
        try (TckJob job = TckJob.start(1)) {
            Rank a = job.rank(0);
            MemoryDescriptor md = MemoryDescriptor.of(job.allocate(8));
            assertCode(ReturnCode.INV_EQ,
                    () -> a.ptl().mdBind(a.ni(), md.withEventQueue(new EqHandle(0x7BAD_0000_0042L))));
            EqHandle freed = a.eq(4);
            a.ptl().eqFree(freed);
            assertCode(ReturnCode.INV_EQ, () -> a.ptl().mdBind(a.ni(), md.withEventQueue(freed)));
            MeHandle me = meOn(a, PORTAL, BITS, Unlink.RETAIN);
            assertCode(ReturnCode.INV_EQ, () -> a.ptl().mdBind(a.ni(), md.withEventQueue(EqHandle.of(me))));
            // PTL_EQ_NONE and a live queue are fine
            assertThat(a.ptl().mdBind(a.ni(), md.withEventQueue(EqHandle.NONE))).isNotEqualTo(MdHandle.NONE);
            assertThat(a.ptl().mdBind(a.ni(), md.withEventQueue(a.eq(4)))).isNotEqualTo(MdHandle.NONE);
        }
    }

    @Test
    @SpecAssertion("P-103")
    void bindWithAnEventQueueOfAnotherInterfaceIsIllMd() {
        try (TckJob job = TckJob.start(1)) {
            Rank a = job.rank(0);
            NiHandle other = a.ptl().niInit(InterfaceId.of(1), ProcessId.PID_ANY, null).handle();
            EqHandle foreign = a.ptl().eqAlloc(other, 4);
            MemoryDescriptor md = MemoryDescriptor.of(job.allocate(8));
            assertCode(ReturnCode.ILL_MD, () -> a.ptl().mdBind(a.ni(), md.withEventQueue(foreign)));
            // and the other way round
            EqHandle own = a.eq(4);
            assertCode(ReturnCode.ILL_MD, () -> a.ptl().mdBind(other, md.withEventQueue(own)));
            // on its own interface the queue is fine
            assertThat(a.ptl().niHandle(a.ptl().mdBind(other, md.withEventQueue(foreign)))).isEqualTo(other);
        }
    }

    @Test
    @SpecAssertion("P-104")
    void boundDescriptorNeverReceivesPutsOrGets() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            b.ptl().mdBind(b.ni(), MemoryDescriptor.of(buf)
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.TRUNCATE).withEventQueue(eqB));

            putAndWait(a, b, job.pattern(8, 77), BITS, 0);
            b.awaitDrops(1);
            MdHandle getMd = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.allocate(8)));
            a.ptl().get(getMd, b.id(), PORTAL, 0, BITS, 0);
            b.awaitDrops(2);
            b.expectNoEvent(eqB);
            assertThat(bytes(buf)).containsOnly(0);
        }
    }

    // ==== PtlMDUnlink ===============================================================================

    @Test
    @SpecAssertion({"P-105", "P-107", "P-108", "P-110"})
    void unlinkOfAnIdleAttachedDescriptor() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(buf, eqB), Unlink.UNLINK, Unlink.RETAIN);
            putAndWait(a, b, job.pattern(8, 50), BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);

            b.ptl().mdUnlink(md);
            // P-108: an explicit unlink logs no PTL_EVENT_UNLINK
            b.expectNoEvent(eqB);
            // P-110: the region keeps its bytes
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(8, 50)));
            // P-107: the handle is dead
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUnlink(md));
            // P-105: later puts are not delivered to it
            putAndWait(a, b, job.pattern(8, 51), BITS, 0);
            b.awaitDrops(1);
            b.expectNoEvent(eqB);
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(8, 50)));
        }
    }

    @Test
    @SpecAssertion({"P-106", "P-107", "P-108", "P-110"})
    void unlinkOfAnIdleBoundDescriptor() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.attach(PORTAL, BITS, 0, job.allocate(8), EqHandle.NONE, MdOption.OP_PUT);
            EqHandle eqA = a.eq(8);
            MemorySegment data = job.pattern(8, 90);
            MdHandle md = a.bind(data, eqA);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            a.next(eqA, EventKind.SEND_START);
            a.next(eqA, EventKind.SEND_END);

            a.ptl().mdUnlink(md);
            a.expectNoEvent(eqA);
            assertThat(bytes(data)).isEqualTo(bytes(job.pattern(8, 90)));
            assertCode(ReturnCode.INV_MD, () -> a.ptl().mdUnlink(md));
            assertCode(ReturnCode.INV_MD,
                    () -> a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0));
            // a bound MD that was never used unlinks too
            MdHandle unused = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.allocate(4)));
            a.ptl().mdUnlink(unused);
            assertCode(ReturnCode.INV_MD, () -> a.ptl().mdUnlink(unused));
        }
    }

    @Test
    @SpecAssertion("P-109")
    void unlinkWhileAGetAwaitsItsReplyIsMdInUse() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            // nothing on the target's portal: the get is dropped and never answered
            EqHandle eqA = a.eq(8);
            MdHandle pending = a.bind(job.allocate(8), eqA);
            a.ptl().get(pending, b.id(), PORTAL, 0, BITS, 0);
            b.awaitDrops(1);
            assertCode(ReturnCode.MD_INUSE, () -> a.ptl().mdUnlink(pending));
            Rank.sleep(TckTransport.quietPeriod());
            assertCode(ReturnCode.MD_INUSE, () -> a.ptl().mdUnlink(pending));
            a.expectNoEvent(eqA);

            // contrast: once a get has its reply, the MD is idle and unlinks
            b.attach(PORTAL + 1, BITS, 0, job.pattern(8, 4), EqHandle.NONE, MdOption.OP_GET);
            MdHandle answered = a.bind(job.allocate(8), eqA);
            a.ptl().get(answered, b.id(), PORTAL + 1, 0, BITS, 0);
            a.next(eqA, EventKind.REPLY_START);
            a.next(eqA, EventKind.REPLY_END);
            a.ptl().mdUnlink(answered);
            assertCode(ReturnCode.MD_INUSE, () -> a.ptl().mdUnlink(pending));
        }
    }

    @Test
    @SpecAssertion("P-111")
    void unlinkingTheDescriptorRemovesAnUnlinkEntry() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.UNLINK);
            MdHandle md = b.ptl().mdAttach(me, putMd(job.allocate(8), EqHandle.NONE), Unlink.RETAIN, Unlink.RETAIN);
            b.ptl().mdUnlink(md);
            assertCode(ReturnCode.INV_ME, () -> b.ptl().meUnlink(me));
            assertCode(ReturnCode.INV_ME,
                    () -> b.ptl().meInsert(me, ProcessId.ANY, 1, 0, Unlink.RETAIN, InsertPosition.AFTER));
            assertCode(ReturnCode.INV_ME,
                    () -> b.ptl().mdAttach(me, putMd(job.allocate(8), EqHandle.NONE), Unlink.RETAIN, Unlink.RETAIN));
        }
    }

    @Test
    @SpecAssertion("P-112")
    void unlinkingTheDescriptorKeepsARetainEntry() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(job.allocate(8), EqHandle.NONE), Unlink.RETAIN, Unlink.RETAIN);
            b.ptl().mdUnlink(md);

            // the entry is still on the list: an entry can be inserted after it, and gets a put
            MeHandle next = b.ptl().meInsert(me, ProcessId.ANY, BITS, 0, Unlink.RETAIN, InsertPosition.AFTER);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MdHandle nextMd = b.ptl().mdAttach(next, putMd(buf, eqB), Unlink.RETAIN, Unlink.RETAIN);
            putAndWait(a, b, job.pattern(8, 12), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(nextMd);
            b.next(eqB, EventKind.PUT_END);
            assertThat(b.drops()).isZero();
            assertThat(b.ptl().niHandle(me)).isEqualTo(b.ni());
            b.ptl().meUnlink(me);
        }
    }

    // ==== PtlMDUpdate ===============================================================================

    @Test
    @SpecAssertion("P-113")
    void updateWithoutTestQueueIsUnconditional() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MemoryDescriptor before = putMd(buf, eqB).withThreshold(5);
            MdHandle md = b.ptl().mdAttach(me, before, Unlink.RETAIN, Unlink.RETAIN);
            // the MD's own queue is not empty: it does not matter with testq = PTL_EQ_NONE
            putAndWait(a, b, job.pattern(8, 1), BITS, 0);
            awaitStatus(b, StatusRegister.BYTES_RECEIVED, 8);

            MemoryDescriptor after = before.withThreshold(9).withUserPtr("after");
            MdUpdateResult r = b.ptl().mdUpdate(md, after, EqHandle.NONE);
            assertThat(r.status()).isEqualTo(ReturnCode.OK);
            assertThat(r.updated()).isTrue();
            assertThat(r.previous().threshold()).isEqualTo(4);
            assertThat(current(b, md)).isEqualTo(after);
        }
    }

    @Test
    @SpecAssertion("P-114")
    void updateWithAnEmptyTestQueueHappens() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            EqHandle eqB = b.eq(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MemoryDescriptor before = putMd(job.allocate(8), eqB);
            MdHandle md = b.ptl().mdAttach(me, before, Unlink.RETAIN, Unlink.RETAIN);
            MemoryDescriptor after = before.withThreshold(3).withOptions(MdOption.OP_GET).withMaxOffset(2);
            MdUpdateResult r = b.ptl().mdUpdate(md, after, eqB);
            assertThat(r.status()).isEqualTo(ReturnCode.OK);
            assertThat(r.previous()).isEqualTo(before);
            assertThat(current(b, md)).isEqualTo(after);
        }
    }

    @Test
    @SpecAssertion({"P-115", "P-116"})
    void updateWithANonEmptyTestQueueIsRefusedAndLeavesTheQueueAlone() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(16);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(buf, eqB), Unlink.RETAIN, Unlink.RETAIN);
            putAndWait(a, b, job.pattern(8, 1), BITS, 0x1234L);
            awaitStatus(b, StatusRegister.BYTES_RECEIVED, 8);
            Rank.sleep(TckTransport.quietPeriod());
            MemoryDescriptor before = current(b, md);

            MdUpdateResult r = b.ptl().mdUpdate(md, before.withThreshold(0).withOptionBits(0), eqB);
            assertThat(r.status()).isEqualTo(ReturnCode.NOUPDATE);
            assertThat(r.updated()).isFalse();
            assertThat(r.previous()).isEqualTo(before);
            assertThat(current(b, md)).isEqualTo(before);

            // P-116: both events are still there, in order
            Event start = b.next(eqB, EventKind.PUT_START);
            assertThat(start.hdrData()).isEqualTo(0x1234L);
            assertThat(b.next(eqB, EventKind.PUT_END).link()).isEqualTo(start.sequence());
            // and the MD was not changed: it still takes puts
            putAndWait(a, b, job.pattern(8, 2), BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-117")
    void updateWithoutNewValueOnlyReadsTheDescriptor() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MemoryDescriptor value = putMd(job.allocate(8), eqB).withThreshold(1).withUserPtr("mine");
            MdHandle md = b.ptl().mdAttach(me, value, Unlink.RETAIN, Unlink.RETAIN);

            MdUpdateResult r = b.ptl().mdUpdate(md, null, EqHandle.NONE);
            assertThat(r.status()).isEqualTo(ReturnCode.OK);
            assertThat(r.previous()).isEqualTo(value);
            assertThat(b.ptl().mdUpdate(md, null, eqB).previous()).isEqualTo(value);
            assertThat(b.ptl().mdUpdate(md, null, EqHandle.NONE).previous()).isEqualTo(value);
            // nothing changed: the MD takes exactly one put, as its threshold says
            putAndWait(a, b, job.pattern(8, 1), BITS, 0);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);
            putAndWait(a, b, job.pattern(8, 2), BITS, 0);
            b.awaitDrops(1);
        }
    }

    @Test
    @SpecAssertion({"P-118", "P-119"})
    void thresholdReadBackShowsOperationsButNotUpdates() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MdHandle md = b.ptl().mdAttach(me, putMd(job.allocate(8), eqB).withThreshold(5), Unlink.RETAIN,
                    Unlink.RETAIN);
            // P-119: reading (and updating) takes no threshold
            assertThat(current(b, md).threshold()).isEqualTo(5);
            assertThat(current(b, md).threshold()).isEqualTo(5);

            EqHandle eqA = a.eq(8);
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 1)).withThreshold(3)
                    .withEventQueue(eqA));
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            a.next(eqA, EventKind.SEND_START);
            a.next(eqA, EventKind.SEND_END);
            b.next(eqB, EventKind.PUT_START);
            b.next(eqB, EventKind.PUT_END);
            // P-118: one put took one unit, at the target and at the initiator
            assertThat(current(b, md).threshold()).isEqualTo(4);
            assertThat(current(a, src).threshold()).isEqualTo(2);
            assertThat(current(b, md).threshold()).isEqualTo(4);

            MemoryDescriptor now = current(b, md);
            assertThat(b.ptl().mdUpdate(md, now, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            assertThat(b.ptl().mdUpdate(md, now, eqB).status()).isEqualTo(ReturnCode.OK);
            assertThat(current(b, md).threshold()).isEqualTo(4);
        }
    }

    @Test
    @SpecAssertion("P-120")
    void raisingTheThresholdFromZeroActivatesTheDescriptor() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MemoryDescriptor inactive = putMd(buf, eqB).withThreshold(0);
            MdHandle md = b.ptl().mdAttach(me, inactive, Unlink.UNLINK, Unlink.RETAIN);
            putAndWait(a, b, job.pattern(8, 1), BITS, 0);
            b.awaitDrops(1);
            b.expectNoEvent(eqB);

            assertThat(b.ptl().mdUpdate(md, inactive.withThreshold(1), eqB).status()).isEqualTo(ReturnCode.OK);
            putAndWait(a, b, job.pattern(8, 2), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(md);
            assertThat(b.next(eqB, EventKind.PUT_END).memDescThreshold()).isZero();
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(8, 2)));
            assertThat(b.drops()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-121")
    void loweringTheThresholdToZeroDeactivatesWithoutUnlinking() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqB = b.eq(8);
            MemorySegment buf = job.allocate(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.UNLINK);
            MemoryDescriptor value = putMd(buf, eqB);
            MdHandle md = b.ptl().mdAttach(me, value, Unlink.UNLINK, Unlink.RETAIN);

            assertThat(b.ptl().mdUpdate(md, value.withThreshold(0), EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            putAndWait(a, b, job.pattern(8, 1), BITS, 0);
            b.awaitDrops(1);
            b.expectNoEvent(eqB);
            assertThat(bytes(buf)).containsOnly(0);

            // not unlinked (even with PTL_UNLINK): the handle still works, and so does its entry
            MdUpdateResult r = b.ptl().mdUpdate(md, value.withThreshold(1), EqHandle.NONE);
            assertThat(r.status()).isEqualTo(ReturnCode.OK);
            assertThat(r.previous().threshold()).isZero();
            assertThat(b.ptl().niHandle(me)).isEqualTo(b.ni());
            putAndWait(a, b, job.pattern(8, 2), BITS, 0);
            assertThat(b.next(eqB, EventKind.PUT_START).mdHandle()).isEqualTo(md);
            b.next(eqB, EventKind.PUT_END);
            assertThat(bytes(buf)).isEqualTo(bytes(job.pattern(8, 2)));
        }
    }

    @Test
    @SpecAssertion("P-122")
    void updateOfAnInvalidDescriptorIsInvMd() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            MemoryDescriptor value = putMd(job.allocate(8), EqHandle.NONE);
            assertCode(ReturnCode.INV_MD,
                    () -> b.ptl().mdUpdate(new MdHandle(0x7123_4567_89ABL), value, EqHandle.NONE));
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUpdate(new MdHandle(0x7123_4567_89ABL), null, EqHandle.NONE));
            MdHandle gone = b.ptl().mdBind(b.ni(), value);
            b.ptl().mdUnlink(gone);
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUpdate(gone, value, EqHandle.NONE));
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUpdate(MdHandle.of(me), value, EqHandle.NONE));
        }
    }

    @Test
    @SpecAssertion("P-123")
    void updateWithAnInvalidTestQueueIsInvEq() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            MemoryDescriptor value = putMd(job.allocate(8), EqHandle.NONE);
            MdHandle md = b.ptl().mdBind(b.ni(), value);
            MemoryDescriptor changed = value.withThreshold(7);
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().mdUpdate(md, changed, new EqHandle(0x7BAD_0000_0042L)));
            EqHandle freed = b.eq(4);
            b.ptl().eqFree(freed);
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().mdUpdate(md, changed, freed));
            assertCode(ReturnCode.INV_EQ, () -> b.ptl().mdUpdate(md, changed, EqHandle.of(md)));
            assertThat(current(b, md)).isEqualTo(value);
        }
    }

    @Test
    @SpecAssertion("P-124")
    void updateWithAnIllegalNewValueIsIllMd() {
        try (TckJob job = TckJob.start(1)) {
            Rank b = job.rank(0);
            EqHandle eqB = b.eq(4);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MemoryDescriptor value = putMd(job.allocate(8), eqB);
            MdHandle md = b.ptl().mdAttach(me, value, Unlink.RETAIN, Unlink.RETAIN);
            MemoryDescriptor bad = value.withStart(MemorySegment.NULL, 8);
            assertCode(ReturnCode.ILL_MD, () -> b.ptl().mdUpdate(md, bad, EqHandle.NONE));
            assertCode(ReturnCode.ILL_MD, () -> b.ptl().mdUpdate(md, bad, eqB));
            assertThat(current(b, md)).isEqualTo(value);
        }
    }

    @Test
    @SpecAssertion("P-125")
    void onlyTheTestQueuesEmptinessMatters() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle own = b.eq(8);
            EqHandle other = b.eq(8);
            MeHandle me = meOn(b, PORTAL, BITS, Unlink.RETAIN);
            MemoryDescriptor value = putMd(job.allocate(8), own);
            MdHandle md = b.ptl().mdAttach(me, value, Unlink.RETAIN, Unlink.RETAIN);
            // a second MD logs to the other queue
            b.attach(PORTAL, BITS + 1, 0, job.allocate(8), other, MdOption.OP_PUT);

            // own queue not empty, test queue empty: the update is made
            putAndWait(a, b, job.pattern(8, 1), BITS, 0);
            awaitStatus(b, StatusRegister.BYTES_RECEIVED, 8);
            MemoryDescriptor second = value.withUserPtr("second");
            assertThat(b.ptl().mdUpdate(md, second, other).status()).isEqualTo(ReturnCode.OK);
            assertThat(current(b, md)).isEqualTo(second);

            // own queue emptied, test queue not empty: no update
            b.next(own, EventKind.PUT_START);
            b.next(own, EventKind.PUT_END);
            putAndWait(a, b, job.pattern(8, 2), BITS + 1, 0);
            awaitStatus(b, StatusRegister.BYTES_RECEIVED, 16);
            MemoryDescriptor third = value.withUserPtr("third");
            assertThat(b.ptl().mdUpdate(md, third, other).status()).isEqualTo(ReturnCode.NOUPDATE);
            assertThat(current(b, md)).isEqualTo(second);
            assertThat(b.ptl().mdUpdate(md, third, own).status()).isEqualTo(ReturnCode.OK);
            assertThat(current(b, md)).isEqualTo(third);
        }
    }

    @Test
    @SpecAssertion("P-308")
    void aPingPongOverReusedDescriptorsFindsEveryMessageAtOffsetZero() {
        try (TckJob job = TckJob.start(2)) {
            Rank[] ranks = {job.rank(0), job.rank(1)};
            int largest = 512;
            EqHandle[] recvEq = new EqHandle[2];
            EqHandle[] sendEq = new EqHandle[2];
            MemorySegment[] inbox = new MemorySegment[2];
            MemorySegment[] outbox = new MemorySegment[2];
            MdHandle[] recv = new MdHandle[2];
            MdHandle[] send = new MdHandle[2];
            for (int r = 0; r < 2; r++) {
                Rank me = ranks[r];
                recvEq[r] = me.eq(8);
                sendEq[r] = me.eq(8);
                inbox[r] = job.allocate(largest);
                outbox[r] = job.allocate(largest);
                MeHandle entry = meOn(me, PORTAL, BITS, Unlink.RETAIN);
                recv[r] = me.ptl().mdAttach(entry, putMd(inbox[r], recvEq[r]).withThreshold(1), Unlink.RETAIN,
                        Unlink.RETAIN);
                send[r] = me.bind(outbox[r].asSlice(0, 8), sendEq[r]);
            }
            // 8, 16, ..., 512 bytes each way: together far more than one inbox holds
            for (int size = 8; size <= largest; size *= 2) {
                for (int from = 0; from < 2; from++) {
                    int to = 1 - from;
                    Rank sender = ranks[from];
                    Rank receiver = ranks[to];
                    MemorySegment data = outbox[from].asSlice(0, size);
                    data.copyFrom(job.pattern(size, size + from));
                    // the same send MD, re-pointed at this message
                    assertThat(sender.ptl().mdUpdate(send[from], MemoryDescriptor.of(data).withEventQueue(sendEq[from]),
                            EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
                    sender.ptl().put(send[from], AckRequest.NOACK_REQ, receiver.id(), PORTAL, 0, BITS, 0, size);
                    sender.next(sendEq[from], EventKind.SEND_START);
                    sender.next(sendEq[from], EventKind.SEND_END);

                    Event start = receiver.next(recvEq[to], EventKind.PUT_START);
                    assertThat(start.offset()).as("%d bytes to rank %d: offset in the re-armed MD", size, to).isZero();
                    assertThat(start.mlength()).isEqualTo(size);
                    receiver.next(recvEq[to], EventKind.PUT_END);
                    assertThat(bytes(inbox[to].asSlice(0, size))).isEqualTo(bytes(job.pattern(size, size + from)));
                    // re-arm the receive MD for the next message: the same value, threshold 1 again
                    assertThat(receiver.ptl().mdUpdate(recv[to], putMd(inbox[to], recvEq[to]).withThreshold(1),
                            EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
                }
            }
            assertThat(ranks[0].drops() + ranks[1].drops()).isZero();
        }
    }

    // ==== helpers ===================================================================================

    /** An entry appended on {@code portal} of {@code r}'s default interface, for any process. */
    private static MeHandle meOn(Rank r, int portal, long bits, Unlink unlink) {
        return r.ptl().meAttach(r.ni(), portal, ProcessId.ANY, bits, 0, unlink, InsertPosition.AFTER);
    }

    /** A put target over {@code memory}: OP_PUT, threshold INF, logging to {@code eq}. */
    private static MemoryDescriptor putMd(MemorySegment memory, EqHandle eq) {
        return MemoryDescriptor.of(memory).withOptions(MdOption.OP_PUT).withEventQueue(eq);
    }

    /** Puts {@code data} from {@code from} to {@code to}'s {@link #PORTAL}, no ack; returns once sent. */
    private static void putAndWait(Rank from, Rank to, MemorySegment data, long bits, long hdrData) {
        EqHandle eq = from.eq(4);
        MdHandle md = from.bind(data, eq);
        from.ptl().put(md, AckRequest.NOACK_REQ, to.id(), PORTAL, 0, bits, 0, hdrData);
        from.next(eq, EventKind.SEND_START);
        from.next(eq, EventKind.SEND_END);
        from.ptl().mdUnlink(md);
        from.ptl().eqFree(eq);
    }

    /** The live value of {@code md} ({@code PtlMDUpdate} with {@code new_md == NULL}). */
    private static MemoryDescriptor current(Rank r, MdHandle md) {
        return r.ptl().mdUpdate(md, null, EqHandle.NONE).previous();
    }

    /** Waits until status register {@code reg} of {@code r} reaches {@code expected}, and checks it. */
    static void awaitStatus(Rank r, StatusRegister reg, long expected) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (r.ptl().niStatus(r.ni(), reg) < expected && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertThat(r.ptl().niStatus(r.ni(), reg)).as(reg.specName()).isEqualTo(expected);
    }

    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }
}
