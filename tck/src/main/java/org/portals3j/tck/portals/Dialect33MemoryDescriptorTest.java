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
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.portals.Job33.Rank33;

/**
 * Portals 3.3 memory descriptors through {@link org.portals3j.portals.Portals33}: {@code PtlMDAttach}
 * without {@code unlink_nofit}, {@code PtlMDBind} with {@code unlink_op}, acknowledgements counted
 * against the threshold, a get's threshold taken as in 3.2 (P-311), {@code max_size}, and the event-disable
 * options (P-275 to P-283).
 *
 * <p>Rank 0 puts from bound MDs, rank 1 is the target. Every put is {@code PTL_NOACK_REQ} unless an
 * ack is what the test is about.
 */
@DisplayName("Portals 3.3 dialect: memory descriptors")
class Dialect33MemoryDescriptorTest {
    private static final int PORTAL = 5;
    private static final long BITS = 0x33L;

    private static MemoryDescriptor target(MemorySegment memory, EqHandle eq, Object name, MdOption... options) {
        return MemoryDescriptor.of(memory).withOptions(options).withEventQueue(eq).withUserPtr(name);
    }

    private static void put(Job33 job, Rank33 from, Rank33 to, long bytes, long bits) {
        EqHandle none = EqHandle.NONE;
        MdHandle src = from.ptl().mdBind(from.ni(), MemoryDescriptor.of(job.tck().pattern(bytes, 1))
                .withEventQueue(none), Unlink.RETAIN);
        from.ptl().put(src, AckRequest.NOACK_REQ, to.id(), PORTAL, 0, bits, 0, 0);
    }

    @Test
    @SpecAssertion("P-275")
    void aPutThatDoesNotFitAnAttachedMdPassesItOverAndTheMdStaysAttached() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            Job33.Rank33.Attached small = b.attach(PORTAL, BITS,
                    target(job.tck().allocate(8), beq, "small", MdOption.OP_PUT), Unlink.UNLINK);
            b.attach(PORTAL, BITS, target(job.tck().allocate(64), beq, "big", MdOption.OP_PUT), Unlink.RETAIN);

            put(job, a, b, 16, BITS);
            Event start = b.next(beq, EventKind.PUT_START);
            assertThat(start.userPtr()).as("the 16-byte put does not fit 'small' and goes on to 'big'")
                    .isEqualTo("big");
            assertThat(b.next(beq, EventKind.PUT_END).userPtr()).isEqualTo("big");
            b.expectNoEvent(beq); // 3.3 has no unlink_nofit: 'small' was not unlinked

            put(job, a, b, 8, BITS);
            assertThat(b.next(beq, EventKind.PUT_START).userPtr()).as("'small' is still attached").isEqualTo("small");
            assertThat(b.next(beq, EventKind.PUT_END).mdHandleValue()).isEqualTo(small.md().value());
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-276")
    void anAttachedMdWithUnlinkIsUnlinkedOnceItsThresholdIsUsedUp() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            Job33.Rank33.Attached t = b.attach(PORTAL, BITS,
                    target(job.tck().allocate(64), beq, "t", MdOption.OP_PUT).withThreshold(1), Unlink.UNLINK);

            put(job, a, b, 8, BITS);
            b.next(beq, EventKind.PUT_START);
            Event end = b.next(beq, EventKind.PUT_END);
            Event unlink = b.next(beq, EventKind.UNLINK);
            assertThat(unlink.link()).as("UNLINK links to the END that used the threshold up")
                    .isEqualTo(end.sequence());
            assertThat(unlink.mdHandleValue()).isEqualTo(t.md().value());
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUnlink(t.md()));
        }
    }

    @Test
    @SpecAssertion("P-277")
    void aBoundMdWithUnlinkIsUnlinkedOnceItsThresholdIsUsedUpAndOneWithRetainStays() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            b.attach(PORTAL, BITS, target(job.tck().allocate(64), EqHandle.NONE, "t", MdOption.OP_PUT,
                    MdOption.MANAGE_REMOTE), Unlink.RETAIN);
            EqHandle aeq = a.eq(16);

            MdHandle once = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 2)).withEventQueue(aeq)
                    .withThreshold(1), Unlink.UNLINK);
            a.ptl().put(once, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            a.next(aeq, EventKind.SEND_START);
            Event end = a.next(aeq, EventKind.SEND_END);
            Event unlink = a.next(aeq, EventKind.UNLINK);
            assertThat(unlink.link()).isEqualTo(end.sequence());
            assertThat(unlink.mdHandleValue()).isEqualTo(once.value());
            assertCode(ReturnCode.INV_MD, () -> a.ptl().put(once, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0));

            MdHandle kept = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 3)).withEventQueue(aeq)
                    .withThreshold(1), Unlink.RETAIN);
            a.ptl().put(kept, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 8, 0);
            a.next(aeq, EventKind.SEND_START);
            a.next(aeq, EventKind.SEND_END);
            a.expectNoEvent(aeq); // PTL_RETAIN: no UNLINK
            assertCode(ReturnCode.INV_MD, () -> a.ptl().put(kept, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0));
            a.ptl().mdUnlink(kept); // still there, inactive
            assertCode(ReturnCode.INV_MD, () -> a.ptl().mdUnlink(kept));
        }
    }

    @Test
    @SpecAssertion("P-278")
    void anAcknowledgementCountsAgainstTheThresholdOfTheInitiatorsMd() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            b.attach(PORTAL, BITS, target(job.tck().allocate(64), beq, "t", MdOption.OP_PUT, MdOption.MANAGE_REMOTE),
                    Unlink.RETAIN);
            EqHandle aeq = a.eq(16);

            // threshold 2, PTL_UNLINK: the put and its ack, then the MD unlinks itself
            MdHandle two = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 4)).withEventQueue(aeq)
                    .withThreshold(2), Unlink.UNLINK);
            a.ptl().put(two, AckRequest.ACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);
            a.next(aeq, EventKind.SEND_START);
            a.next(aeq, EventKind.SEND_END);
            Event ack = a.next(aeq, EventKind.ACK);
            assertThat(ack.memDescThreshold()).as("the ack took the second unit").isZero();
            Event unlink = a.next(aeq, EventKind.UNLINK);
            assertThat(unlink.link()).as("the ack made the MD inactive").isEqualTo(ack.sequence());
            assertCode(ReturnCode.INV_MD, () -> a.ptl().mdUnlink(two));

            // threshold 1: the put takes it; the ack finds the MD inactive and is dropped (3.2 would log it)
            MdHandle one = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 5)).withEventQueue(aeq)
                    .withThreshold(1), Unlink.RETAIN);
            long drops = a.drops();
            a.ptl().put(one, AckRequest.ACK_REQ, b.id(), PORTAL, 0, BITS, 8, 0);
            a.next(aeq, EventKind.SEND_START);
            a.next(aeq, EventKind.SEND_END);
            a.awaitDrops(drops + 1);
            a.expectNoEvent(aeq);
            assertThat(b.drain(beq)).extracting(Event::type).containsExactly(EventKind.PUT_START, EventKind.PUT_END,
                    EventKind.PUT_START, EventKind.PUT_END);
        }
    }

    /**
     * This 3.3 library takes a get's unit of threshold when the get is called and none for its reply, as 3.2 does
     * the 3.3 reference implementation takes none for the request and one when the reply arrives (P-311).
     */
    @Test
    @SpecAssertion("P-311")
    void aGetTakesItsUnitOfThresholdWhenCalledAndItsReplyTakesNone() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            MemorySegment source = job.tck().pattern(16, 0x31);
            b.attach(PORTAL, BITS, target(source, beq, "source", MdOption.OP_GET), Unlink.RETAIN);
            EqHandle aeq = a.eq(16);
            MemorySegment sink = job.tck().allocate(16);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(sink).withEventQueue(aeq).withThreshold(1),
                    Unlink.RETAIN);
            a.ptl().get(md, b.id(), PORTAL, 0, BITS, 0);
            // The call took the only unit: the MD is inactive at once, whether or not the reply has come yet.
            assertCode(ReturnCode.INV_MD, () -> a.ptl().get(md, b.id(), PORTAL, 0, BITS, 0));
            long drops = a.drops();
            assertThat(a.next(aeq, EventKind.REPLY_START).memDescThreshold()).isZero();
            assertThat(a.next(aeq, EventKind.REPLY_END).mlength()).isEqualTo(16);
            assertThat(sink.mismatch(source)).as("the reply landed in the inactive MD").isEqualTo(-1L);
            assertThat(a.drops()).as("the reply was not dropped for finding the MD inactive").isEqualTo(drops);
            a.expectNoEvent(aeq);
            a.ptl().mdUnlink(md); // nothing pending any more
        }
    }

    @Test
    @SpecAssertion("P-279")
    void anMdWithMaxSizeBecomesInactiveOnceLessThanMaxSizeIsLeftAfterItsLocalOffset() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(32);
            Job33.Rank33.Attached t = b.attach(PORTAL, BITS, target(job.tck().allocate(32), beq, "t",
                    MdOption.OP_PUT, MdOption.MAX_SIZE).withMaxSize(10), Unlink.UNLINK);

            for (int i = 0; i < 4; i++) {
                put(job, a, b, 8, BITS);
            }
            // 32 - 8 = 24 >= 10, 32 - 16 = 16 >= 10, 32 - 24 = 8 < 10: inactive after the third
            Event end = new Event();
            for (int i = 0; i < 3; i++) {
                assertThat(b.next(beq, EventKind.PUT_START).offset()).isEqualTo(8L * i);
                end = b.next(beq, EventKind.PUT_END);
                assertThat(end.mlength()).isEqualTo(8);
            }
            Event unlink = b.next(beq, EventKind.UNLINK);
            assertThat(unlink.link()).isEqualTo(end.sequence());
            b.awaitDrops(1); // the fourth put found no MD
            b.expectNoEvent(beq);
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUnlink(t.md()));
        }
    }

    @Test
    @SpecAssertion("P-280")
    void maxSizeIsTheLargestRequestAnMdAcceptsTruncatedToItWithTruncate() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(32);
            b.attach(PORTAL, BITS, target(job.tck().allocate(64), beq, "capped", MdOption.OP_PUT, MdOption.MAX_SIZE)
                    .withMaxSize(16), Unlink.RETAIN);
            b.attach(PORTAL, BITS, target(job.tck().allocate(64), beq, "other", MdOption.OP_PUT), Unlink.RETAIN);
            b.attach(PORTAL, BITS + 1, target(job.tck().allocate(64), beq, "truncating", MdOption.OP_PUT,
                    MdOption.MAX_SIZE, MdOption.TRUNCATE).withMaxSize(16), Unlink.RETAIN);

            put(job, a, b, 32, BITS);
            assertThat(b.next(beq, EventKind.PUT_START).userPtr()).as("32 > max_size 16").isEqualTo("other");
            b.next(beq, EventKind.PUT_END);
            put(job, a, b, 16, BITS);
            assertThat(b.next(beq, EventKind.PUT_START).userPtr()).as("16 <= max_size 16").isEqualTo("capped");
            assertThat(b.next(beq, EventKind.PUT_END).mlength()).isEqualTo(16);
            put(job, a, b, 32, BITS + 1);
            Event start = b.next(beq, EventKind.PUT_START);
            assertThat(start.userPtr()).isEqualTo("truncating");
            assertThat(start.rlength()).isEqualTo(32);
            assertThat(start.mlength()).as("truncated to max_size").isEqualTo(16);
            assertThat(b.next(beq, EventKind.PUT_END).mlength()).isEqualTo(16);
        }
    }

    @Test
    @SpecAssertion("P-281")
    void theThreePortals33OptionsAreRefusedBy32CallsAndAcceptedBy33CallsWithMaxSizeInRange() {
        int options33 = MdOption.bits(MdOption.MAX_SIZE, MdOption.EVENT_START_DISABLE, MdOption.EVENT_END_DISABLE);
        try (TckJob job32 = TckJob.start(1)) {
            Rank r = job32.rank(0);
            MeHandle me = r.ptl().meAttach(r.ni(), PORTAL, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER);
            MemoryDescriptor plain = MemoryDescriptor.of(job32.allocate(16)).withMaxSize(8);
            for (MdOption o : new MdOption[] {MdOption.MAX_SIZE, MdOption.EVENT_START_DISABLE,
                MdOption.EVENT_END_DISABLE}) {
                MemoryDescriptor with = plain.withOptions(MdOption.OP_PUT, o);
                assertCode(ReturnCode.ILL_MD, () -> r.ptl().mdBind(r.ni(), with));
                assertCode(ReturnCode.ILL_MD, () -> r.ptl().mdAttach(me, with, Unlink.RETAIN, Unlink.RETAIN));
                MdHandle md = r.ptl().mdBind(r.ni(), plain);
                assertCode(ReturnCode.ILL_MD, () -> r.ptl().mdUpdate(md, with, EqHandle.NONE));
            }
        }
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            MemoryDescriptor md16 = MemoryDescriptor.of(job.tck().allocate(16)).withOptionBits(options33);
            MdHandle bound = b.ptl().mdBind(b.ni(), md16.withMaxSize(16), Unlink.RETAIN);
            MeHandle me = b.ptl().meAttach(b.ni(), PORTAL + 1, ProcessId.ANY, 0, 0, Unlink.RETAIN,
                    InsertPosition.AFTER);
            b.ptl().mdAttach(me, md16.withMaxSize(0), Unlink.RETAIN);
            assertThat(b.ptl().mdUpdate(bound, md16.withMaxSize(4), EqHandle.NONE).updated()).isTrue();
            for (long bad : new long[] {-1, 17, Long.MAX_VALUE}) {
                assertCode(ReturnCode.ILL_MD, () -> b.ptl().mdBind(b.ni(), md16.withMaxSize(bad), Unlink.RETAIN));
                assertCode(ReturnCode.ILL_MD, () -> b.ptl().mdUpdate(bound, md16.withMaxSize(bad), EqHandle.NONE));
            }
            assertCode(ReturnCode.ILL_MD, () -> b.ptl().mdBind(b.ni(), md16.withOptionBits(MdOption.ALL_BITS_33 + 1)
                    .withMaxSize(1), Unlink.RETAIN));
            // a 3.3 ptl_md_t has no max_offset: a 3.3 MD ignores it (a 3.2 one would go inactive after one put)
            EqHandle beq = b.eq(16);
            b.attach(PORTAL, BITS, MemoryDescriptor.of(job.tck().allocate(32)).withMaxOffset(0)
                    .withOptions(MdOption.OP_PUT).withEventQueue(beq), Unlink.RETAIN);
            put(job, a, b, 8, BITS);
            put(job, a, b, 8, BITS);
            assertThat(b.drain(beq)).extracting(Event::type).containsExactly(EventKind.PUT_START, EventKind.PUT_END,
                    EventKind.PUT_START, EventKind.PUT_END);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-282")
    void eventStartDisableSuppressesStartEventsOnly() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            b.attach(PORTAL, BITS, target(job.tck().allocate(64), beq, "t", MdOption.OP_PUT,
                    MdOption.EVENT_START_DISABLE), Unlink.RETAIN);
            EqHandle aeq = a.eq(16);
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 6)).withEventQueue(aeq)
                    .withOptions(MdOption.EVENT_START_DISABLE), Unlink.RETAIN);
            a.ptl().put(src, AckRequest.ACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);

            Event end = b.next(beq, EventKind.PUT_END);
            assertThat(end.link()).as("no START was logged to link to").isZero();
            assertThat(end.sequence()).as("the disabled START took no number").isEqualTo(1);
            b.expectNoEvent(beq);
            Event sendEnd = a.next(aeq, EventKind.SEND_END);
            assertThat(sendEnd.link()).isZero();
            a.next(aeq, EventKind.ACK);
            a.expectNoEvent(aeq);
        }
    }

    @Test
    @SpecAssertion("P-283")
    void eventEndDisableSuppressesEndEventsButNotAckOrUnlink() {
        try (Job33 job = Job33.start(2)) {
            Rank33 a = job.rank(0);
            Rank33 b = job.rank(1);
            EqHandle beq = b.eq(16);
            MemorySegment landing = job.tck().allocate(64);
            b.attach(PORTAL, BITS, target(landing, beq, "t", MdOption.OP_PUT,
                    MdOption.EVENT_END_DISABLE).withThreshold(1), Unlink.UNLINK);
            EqHandle aeq = a.eq(16);
            MdHandle src = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.tck().pattern(8, 7)).withEventQueue(aeq)
                    .withOptions(MdOption.EVENT_END_DISABLE), Unlink.RETAIN);
            a.ptl().put(src, AckRequest.ACK_REQ, b.id(), PORTAL, 0, BITS, 0, 0);

            Event start = b.next(beq, EventKind.PUT_START);
            assertThat(start.link()).isEqualTo(start.sequence());
            Event unlink = b.next(beq, EventKind.UNLINK);
            assertThat(unlink.link()).as("the END that caused the unlink was not logged").isZero();
            b.expectNoEvent(beq);
            assertThat(landing.get(ValueLayout.JAVA_BYTE, 7)).as("the put completed").isEqualTo((byte) 14);
            a.next(aeq, EventKind.SEND_START);
            Event ack = a.next(aeq, EventKind.ACK);
            assertThat(ack.mlength()).isEqualTo(8);
            a.expectNoEvent(aeq);
        }
    }

    @Test
    @SpecAssertion("P-308")
    void aPingPongOverReusedDescriptorsFindsEveryMessageAtOffsetZero() {
        try (Job33 job = Job33.start(2)) {
            Rank33[] ranks = {job.rank(0), job.rank(1)};
            int largest = 512;
            EqHandle[] recvEq = new EqHandle[2];
            EqHandle[] sendEq = new EqHandle[2];
            MemorySegment[] inbox = new MemorySegment[2];
            MemorySegment[] outbox = new MemorySegment[2];
            MdHandle[] recv = new MdHandle[2];
            MdHandle[] send = new MdHandle[2];
            for (int r = 0; r < 2; r++) {
                Rank33 me = ranks[r];
                recvEq[r] = me.eq(8);
                sendEq[r] = me.eq(8);
                inbox[r] = job.tck().allocate(largest);
                outbox[r] = job.tck().allocate(largest);
                recv[r] = me.attach(PORTAL + 2, BITS, receiveMd(inbox[r], recvEq[r]), Unlink.RETAIN).md();
                send[r] = me.bind(outbox[r].asSlice(0, 8), sendEq[r]);
            }
            for (int size = 8; size <= largest; size *= 2) {
                for (int from = 0; from < 2; from++) {
                    int to = 1 - from;
                    Rank33 sender = ranks[from];
                    Rank33 receiver = ranks[to];
                    MemorySegment data = outbox[from].asSlice(0, size);
                    data.copyFrom(job.tck().pattern(size, size + from));
                    assertThat(sender.ptl().mdUpdate(send[from], MemoryDescriptor.of(data).withEventQueue(sendEq[from]),
                            EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
                    sender.ptl().put(send[from], AckRequest.NOACK_REQ, receiver.id(), PORTAL + 2, 0, BITS, 0, size);
                    sender.next(sendEq[from], EventKind.SEND_START);
                    sender.next(sendEq[from], EventKind.SEND_END);

                    Event start = receiver.next(recvEq[to], EventKind.PUT_START);
                    assertThat(start.offset()).as("%d bytes to rank %d: offset in the re-armed MD", size, to).isZero();
                    receiver.next(recvEq[to], EventKind.PUT_END);
                    assertThat(inbox[to].asSlice(0, size).mismatch(job.tck().pattern(size, size + from)))
                            .isEqualTo(-1L);
                    assertThat(receiver.ptl().mdUpdate(recv[to], receiveMd(inbox[to], recvEq[to]), EqHandle.NONE)
                            .status()).isEqualTo(ReturnCode.OK);
                }
            }
            assertThat(ranks[0].drops() + ranks[1].drops()).isZero();
        }
    }

    /** A receive MD over {@code inbox} for one put (threshold 1), logging to {@code eq}. */
    private static MemoryDescriptor receiveMd(MemorySegment inbox, EqHandle eq) {
        return MemoryDescriptor.of(inbox).withOptions(MdOption.OP_PUT).withThreshold(1).withEventQueue(eq);
    }

}
