package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MdUpdateResult;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * Receiving, second half: whether a matched MD accepts an operation (options, threshold,
 * space, max_offset), where the data goes (local and remote offsets, truncation), and the unlink rules
 * (§1.5, §5.3; Portals 3.2 spec §3.8.1.1, §3.8.2.2, §3.7.1.2).
 *
 * <p>Rank 0 ({@code a}) initiates; rank 1 ({@code b}) is the target. {@link #put} and {@link #get} return
 * the target's events for an operation that was accepted, or null for one the target dropped (its drop
 * count rose by exactly one and nothing was logged).
 */
@DisplayName("Receive side: MD acceptance, offsets, truncation, unlink (§8.10, P-221..P-247)")
class ReceiveAcceptanceTest {
    private static final int PT = 6;

    // ---- P-221, P-222: operation options --------------------------------------------------------

    @Test
    @SpecAssertion("P-221")
    void mdWithoutOpPutRejectsPutsAndWithoutOpGetRejectsGets() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(32);
            b.attach(PT, 1, 0, job.pattern(16, 1), eqb, MdOption.OP_GET, MdOption.MANAGE_REMOTE);
            b.attach(PT, 2, 0, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            b.attach(PT, 3, 0, job.pattern(16, 3), eqb, MdOption.MANAGE_REMOTE);

            assertThat(put(a, b, eqb, PT, 1, 0, job.pattern(8, 9))).as("put into a get-only MD").isNull();
            assertThat(get(a, b, eqb, PT, 1, 0, job.allocate(8))).as("get from a get-only MD").isNotNull();
            assertThat(put(a, b, eqb, PT, 2, 0, job.pattern(8, 9))).as("put into a put-only MD").isNotNull();
            assertThat(get(a, b, eqb, PT, 2, 0, job.allocate(8))).as("get from a put-only MD").isNull();
            assertThat(put(a, b, eqb, PT, 3, 0, job.pattern(8, 9))).as("put into an MD with neither").isNull();
            assertThat(get(a, b, eqb, PT, 3, 0, job.allocate(8))).as("get from an MD with neither").isNull();
            assertThat(b.drops()).isEqualTo(4);
        }
    }

    @Test
    @SpecAssertion({"P-222", "P-221"})
    void getSkipsAPutOnlyMdAndIsDroppedIfNothingElseMatches() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle putOnly = b.eq(16);
            b.attach(PT, 5, 0, job.pattern(16, 1), putOnly, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            MemorySegment into = job.allocate(8);
            assertThat(get(a, b, putOnly, PT, 5, 0, into)).isNull();
            assertThat(ReceiveMatchingTest.isZero(into)).isTrue();

            EqHandle getter = b.eq(16);
            b.attach(PT, 5, 0, job.pattern(16, 40), getter, MdOption.OP_GET, MdOption.MANAGE_REMOTE);
            MemorySegment into2 = job.allocate(8);
            Served s = get(a, b, getter, PT, 5, 0, into2);
            assertThat(s).isNotNull();
            assertThat(into2.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 40);
            b.expectNoEvent(putOnly);
            assertThat(b.drops()).isEqualTo(1);
        }
    }

    // ---- P-223..P-226: threshold and a full EQ --------------------------------------------------

    @Test
    @SpecAssertion("P-223")
    void mdWithThresholdZeroRejectsPutsAndGets() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.pattern(16, 1);
            MdHandle md = b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(mem).withThreshold(0)
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN)
                    .md();

            assertThat(put(a, b, eqb, PT, 0, 0, job.allocate(8))).isNull();
            assertThat(get(a, b, eqb, PT, 0, 0, job.allocate(8))).isNull();
            assertThat(b.drops()).isEqualTo(2);
            assertThat(mem.get(ValueLayout.JAVA_BYTE, 0)).as("region unchanged").isEqualTo((byte) 1);
            assertThat(b.ptl().mdUpdate(md, null, EqHandle.NONE).previous().threshold()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-224")
    void mdWithThresholdNAcceptsExactlyNOperations() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(job.allocate(64)).withThreshold(3)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);

            for (int i = 0; i < 3; i++) {
                Landed l = put(a, b, eqb, PT, 0, 0, job.pattern(8, i));
                assertThat(l).as("put %d of 3", i + 1).isNotNull();
                assertThat(nonNull(l).start().memDescThreshold()).isEqualTo(2 - i);
            }
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(8, 9))).as("the fourth put").isNull();
            assertThat(b.drops()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-225")
    void mdWithInfiniteThresholdAcceptsAThousandPutsAndKeepsItsThreshold() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            int n = 1000;
            EqHandle eqb = b.eq(8);
            MemorySegment mem = job.allocate(n);
            MdHandle md = b.attach(PT, 0, ~0L, mem, eqb, MdOption.OP_PUT).md();
            for (int i = 0; i < n; i++) {
                Landed l = put(a, b, eqb, PT, 0, 0, job.pattern(1, i));
                assertThat(l).as("put %d", i).isNotNull();
                assertThat(nonNull(l).end().memDescThreshold()).isEqualTo(MemoryDescriptor.THRESH_INF);
                assertThat(nonNull(l).end().offset()).isEqualTo(i);
            }
            for (int i = 0; i < n; i++) {
                assertThat(mem.get(ValueLayout.JAVA_BYTE, i)).isEqualTo((byte) i);
            }
            assertThat(b.ptl().mdUpdate(md, null, EqHandle.NONE).previous().threshold())
                    .isEqualTo(MemoryDescriptor.THRESH_INF);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.PUTS_RECEIVED)).isEqualTo(n);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-226")
    void fullTargetEventQueueDoesNotMakeAPutBeRejected() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(1);
            MemorySegment mem = job.allocate(32);
            b.attach(PT, 0, ~0L, mem, eqb, MdOption.OP_PUT);

            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), PT, 0, 0, job.pattern(8, 1)); // PUT_START fills the EQ
            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), PT, 0, 0, job.pattern(8, 101));
            // the last event is logged (dropped) after the payload lands: wait for it, not for the payload
            EventQueueTest.awaitStatus(b, StatusRegister.EVENTS_DROPPED, 3);
            awaitByte(mem, 15, (byte) 108);
            assertThat(mem.get(ValueLayout.JAVA_BYTE, 7)).isEqualTo((byte) 8);
            assertThat(mem.get(ValueLayout.JAVA_BYTE, 8)).isEqualTo((byte) 101);
            assertThat(b.drops()).isZero();
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.PUTS_RECEIVED)).isEqualTo(2);

            // Only events were lost: the first PUT_START is there (reported with EQ_DROPPED, A-36).
            Event e = new Event();
            assertThat(b.ptl().eqGet(eqb, e)).isIn(ReturnCode.OK, ReturnCode.EQ_DROPPED);
            assertThat(e.type()).isEqualTo(EventKind.PUT_START);
            assertThat(b.ptl().niStatus(b.ni(), StatusRegister.EVENTS_DROPPED)).isEqualTo(3);
            assertThat(b.ptl().eqGet(eqb, e)).isEqualTo(ReturnCode.EQ_EMPTY);
        }
    }

    // ---- P-227..P-229: offsets ------------------------------------------------------------------

    @Test
    @SpecAssertion({"P-227", "P-229"})
    void locallyManagedMdAppendsPutsAndIgnoresTheRequestOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.allocate(100);
            b.attach(PT, 0, ~0L, mem, eqb, MdOption.OP_PUT);

            Landed first = nonNull(put(a, b, eqb, PT, 0, 77, job.pattern(30, 1)));
            Landed second = nonNull(put(a, b, eqb, PT, 0, 3, job.pattern(30, 101)));
            assertThat(first.start().offset()).isZero();
            assertThat(first.end().offset()).isZero();
            assertThat(second.start().offset()).isEqualTo(30);
            assertThat(second.end().offset()).isEqualTo(30);
            assertBytes(mem, 0, 30, 1);
            assertBytes(mem, 30, 30, 101);
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(60))).as("bytes 60..99 untouched").isTrue();
        }
    }

    @Test
    @SpecAssertion("P-228")
    void remotelyManagedMdWritesAtTheRequestOffsetAndKeepsNoLocalOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.allocate(100);
            b.attach(PT, 0, ~0L, mem, eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            assertThat(nonNull(put(a, b, eqb, PT, 0, 40, job.pattern(20, 1))).end().offset()).isEqualTo(40);
            assertThat(nonNull(put(a, b, eqb, PT, 0, 10, job.pattern(5, 101))).end().offset()).isEqualTo(10);
            assertThat(nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(5, 201))).end().offset()).isZero();
            assertBytes(mem, 0, 5, 201);
            assertBytes(mem, 10, 5, 101);
            assertBytes(mem, 40, 20, 1);
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(5, 5))).isTrue();
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(15, 25))).isTrue();
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(60))).isTrue();
        }
    }

    // ---- P-230..P-235: space and truncation -----------------------------------------------------

    @Test
    @SpecAssertion("P-230")
    void requestLongerThanTheMdIsRejectedWithoutTruncate() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.allocate(16);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(mem).withStart(mem, 10)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);

            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(20, 1))).isNull();
            assertThat(ReceiveMatchingTest.isZero(mem)).isTrue();
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(10, 1))).as("a put that fits").isNotNull();
        }
    }

    @Test
    @SpecAssertion("P-231")
    void truncatingMdAcceptsTheFirstBytesOfALongerPut() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.allocate(16);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(mem).withStart(mem, 10)
                    .withOptions(MdOption.OP_PUT, MdOption.TRUNCATE).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);

            Landed l = nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(20, 1)));
            for (Event e : new Event[] {l.start(), l.end()}) {
                assertThat(e.rlength()).isEqualTo(20);
                assertThat(e.mlength()).isEqualTo(10);
            }
            assertBytes(mem, 0, 10, 1);
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(10))).as("bytes past the MD untouched").isTrue();
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-232")
    void truncatingLocallyManagedMdFillsTheSpaceLeft() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.allocate(64);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(mem).withStart(mem, 50)
                    .withOptions(MdOption.OP_PUT, MdOption.TRUNCATE).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);

            assertThat(nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(40, 1))).end().mlength()).isEqualTo(40);
            Event end = nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(20, 101))).end();
            assertThat(end.offset()).isEqualTo(40);
            assertThat(end.mlength()).isEqualTo(10);
            assertThat(end.rlength()).isEqualTo(20);
            assertBytes(mem, 40, 10, 101);
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(50))).isTrue();
        }
    }

    @Test
    @SpecAssertion("P-233")
    void nonTruncatingLocallyManagedMdRejectsWhatNoLongerFitsButTakesWhatDoes() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.allocate(64);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(mem).withStart(mem, 50)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);

            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(40, 1))).isNotNull();
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(20, 101))).isNull();
            Event end = nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(10, 201))).end();
            assertThat(end.offset()).isEqualTo(40);
            assertThat(end.mlength()).isEqualTo(10);
            assertBytes(mem, 40, 10, 201);
            assertThat(b.drops()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-234")
    void truncatingRemotelyManagedMdTruncatesAtTheRequestOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemorySegment mem = job.allocate(64);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(mem).withStart(mem, 50)
                    .withOptions(MdOption.OP_PUT, MdOption.TRUNCATE, MdOption.MANAGE_REMOTE).withEventQueue(eqb),
                    Unlink.RETAIN, Unlink.RETAIN);

            Event end = nonNull(put(a, b, eqb, PT, 0, 45, job.pattern(20, 1))).end();
            assertThat(end.offset()).isEqualTo(45);
            assertThat(end.mlength()).isEqualTo(5);
            assertThat(end.rlength()).isEqualTo(20);
            assertBytes(mem, 45, 5, 1);
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(0, 45))).isTrue();
            assertThat(ReceiveMatchingTest.isZero(mem.asSlice(50))).isTrue();
        }
    }

    @Test
    @SpecAssertion("P-235")
    void zeroLengthTruncatingMdAcceptsPutsAndGetsOfAnyLengthWithNoData() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.empty()
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.TRUNCATE).withEventQueue(eqb),
                    Unlink.RETAIN, Unlink.RETAIN);

            for (int len : new int[] {0, 7, 100}) {
                MemorySegment data = len == 0 ? MemorySegment.NULL : job.pattern(len, 1);
                Landed l = nonNull(put(a, b, eqb, PT, 0, 0, data));
                assertThat(l.end().rlength()).isEqualTo(len);
                assertThat(l.end().mlength()).isZero();
                assertThat(l.end().offset()).isZero();
            }
            MemorySegment into = job.pattern(16, 0x55);
            Served s = nonNull(get(a, b, eqb, PT, 0, 0, into));
            assertThat(s.end().rlength()).isEqualTo(16);
            assertThat(s.end().mlength()).isZero();
            assertThat(s.replyEnd().mlength()).isZero();
            assertBytes(into, 0, 16, 0x55);
            assertThat(b.drops()).isZero();
        }
    }

    // ---- P-236, P-237: max_offset ---------------------------------------------------------------

    @Test
    @SpecAssertion("P-236")
    void mdGoesInactiveOnceTheLocalOffsetExceedsMaxOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MdHandle md = b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(job.allocate(100)).withMaxOffset(50)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN).md();

            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(60, 1))).isNotNull();
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(10, 1))).as("40 bytes are free, but offset 60 > 50")
                    .isNull();
            // Still linked (RETAIN): only inactive.
            assertThat(b.ptl().mdUpdate(md, null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            b.expectNoEvent(eqb);
        }
    }

    @Test
    @SpecAssertion({"P-237", "P-236"})
    void mdWhoseOffsetEqualsMaxOffsetIsStillActive() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(job.allocate(100)).withMaxOffset(50)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb), Unlink.RETAIN, Unlink.RETAIN);

            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(50, 1))).isNotNull();
            Landed at50 = put(a, b, eqb, PT, 0, 0, job.pattern(10, 1));
            assertThat(at50).as("offset 50 == max_offset: still active").isNotNull();
            assertThat(nonNull(at50).end().offset()).isEqualTo(50);
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(10, 1))).as("offset 60 > max_offset").isNull();
        }
    }

    // ---- P-238..P-245: unlinking ----------------------------------------------------------------

    @Test
    @SpecAssertion("P-238")
    void mdWithUnlinkAndThresholdOneIsUnlinkedAfterItsPut() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MdHandle md = b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(job.allocate(16)).withThreshold(1)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb), Unlink.UNLINK, Unlink.RETAIN).md();

            Landed l = nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1)));
            Event unlink = b.next(eqb, EventKind.UNLINK);
            assertThat(unlink.link()).isEqualTo(l.end().sequence());
            assertThat(unlink.mdHandle()).isEqualTo(md);
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUnlink(md));
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1))).isNull();
        }
    }

    @Test
    @SpecAssertion("P-239")
    void mdWithRetainAndThresholdOneStaysLinkedButInactive() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemoryDescriptor value = MemoryDescriptor.of(job.allocate(64)).withThreshold(1)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb);
            MdHandle md = b.attach(PT, ProcessId.ANY, 0, ~0L, value, Unlink.RETAIN, Unlink.RETAIN).md();

            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1))).isNotNull();
            b.expectNoEvent(eqb); // no UNLINK
            MdUpdateResult r = b.ptl().mdUpdate(md, null, EqHandle.NONE);
            assertThat(r.status()).isEqualTo(ReturnCode.OK);
            assertThat(r.previous().threshold()).isZero();
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1))).as("inactive").isNull();

            assertThat(b.ptl().mdUpdate(md, value, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            Event end = nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1))).end();
            assertThat(end.mdHandle()).as("the same MD, still linked").isEqualTo(md);
            assertThat(end.offset()).as("re-armed by PtlMDUpdate, which restarts the local offset (A-38)").isZero();
        }
    }

    @Test
    @SpecAssertion("P-240")
    void mdWithUnlinkIsUnlinkedOnceAPutTakesItPastMaxOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MdHandle md = b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(job.allocate(100)).withMaxOffset(50)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb), Unlink.UNLINK, Unlink.RETAIN).md();

            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(30, 1))).isNotNull();
            b.expectNoEvent(eqb); // offset 30: still active, no unlink
            Landed l = nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(30, 1)));
            Event unlink = b.next(eqb, EventKind.UNLINK);
            assertThat(unlink.link()).isEqualTo(l.end().sequence());
            assertThat(unlink.sequence()).isGreaterThan(l.end().sequence());
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUnlink(md));
        }
    }

    @Test
    @SpecAssertion("P-241")
    void mdMadeInactiveByCreationOrUpdateIsNotUnlinked() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(16);
            MemoryDescriptor value = MemoryDescriptor.of(job.allocate(64)).withThreshold(0)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eqb);
            MdHandle md = b.attach(PT, ProcessId.ANY, 0, ~0L, value, Unlink.UNLINK, Unlink.RETAIN).md();

            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1))).isNull();
            b.expectNoEvent(eqb);
            assertThat(b.ptl().mdUpdate(md, null, EqHandle.NONE).status()).as("still linked").isEqualTo(ReturnCode.OK);

            // Threshold 2, then back to 0 by PtlMDUpdate: still not unlinked.
            assertThat(b.ptl().mdUpdate(md, value.withThreshold(2), EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1))).isNotNull();
            assertThat(b.ptl().mdUpdate(md, value.withThreshold(0), EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            b.expectNoEvent(eqb);
            assertThat(b.ptl().mdUpdate(md, null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);

            // Reached 0 by a successful operation: now it is unlinked.
            b.ptl().mdUpdate(md, value.withThreshold(1), EqHandle.NONE);
            assertThat(put(a, b, eqb, PT, 0, 0, job.pattern(8, 1))).isNotNull();
            b.next(eqb, EventKind.UNLINK);
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUpdate(md, null, EqHandle.NONE));
        }
    }

    @Test
    @SpecAssertion("P-242")
    void unlinkNofitUnlinksTheMdAndTheRequestGoesOnToTheNextEntry() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq1 = b.eq(16);
            EqHandle eq2 = b.eq(16);
            MdHandle md1 = b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(job.allocate(10))
                    .withOptions(MdOption.OP_PUT).withEventQueue(eq1), Unlink.RETAIN, Unlink.UNLINK).md();
            MemorySegment next = job.allocate(64);
            b.attach(PT, 0, ~0L, next, eq2, MdOption.OP_PUT);

            assertThat(put(a, b, eq1, PT, 0, 0, job.pattern(8, 1))).as("fits: into the first MD").isNotNull();
            b.expectNoEvent(eq2);

            Landed l = nonNull(put(a, b, eq2, PT, 0, 0, job.pattern(8, 101)));
            assertThat(l.end().mlength()).isEqualTo(8);
            assertBytes(next, 0, 8, 101);
            Event unlink = b.next(eq1, EventKind.UNLINK);
            assertThat(unlink.link()).as("no event caused a no-fit unlink").isZero();
            assertThat(unlink.mdHandle()).isEqualTo(md1);
            b.expectNoEvent(eq1);
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUnlink(md1));
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-243")
    void retainNofitKeepsTheMdLinkedForALaterRequestThatFits() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq1 = b.eq(16);
            EqHandle eq2 = b.eq(16);
            MemorySegment first = job.allocate(10);
            MdHandle md1 = b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(first)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eq1), Unlink.RETAIN, Unlink.RETAIN).md();
            b.attach(PT, 0, ~0L, job.allocate(64), eq2, MdOption.OP_PUT);

            assertThat(put(a, b, eq1, PT, 0, 0, job.pattern(8, 1))).isNotNull();
            assertThat(put(a, b, eq2, PT, 0, 0, job.pattern(8, 101))).as("no fit: goes on").isNotNull();
            b.expectNoEvent(eq1);
            assertThat(b.ptl().mdUpdate(md1, null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);

            Event end = nonNull(put(a, b, eq1, PT, 0, 0, job.pattern(2, 201))).end();
            assertThat(end.offset()).isEqualTo(8);
            assertBytes(first, 8, 2, 201);
        }
    }

    @Test
    @SpecAssertion("P-244")
    void autoUnlinkingAnMdRemovesItsEntryCreatedWithUnlink() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq1 = b.eq(16);
            EqHandle eq2 = b.eq(16);
            MeHandle me = b.ptl().meAttach(b.ni(), PT, ProcessId.ANY, 0, ~0L, Unlink.UNLINK, InsertPosition.AFTER);
            b.ptl().mdAttach(me, MemoryDescriptor.of(job.allocate(16)).withThreshold(1)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eq1), Unlink.UNLINK, Unlink.RETAIN);
            b.attach(PT, 0, ~0L, job.allocate(64), eq2, MdOption.OP_PUT);

            assertThat(put(a, b, eq1, PT, 0, 0, job.pattern(8, 1))).isNotNull();
            b.next(eq1, EventKind.UNLINK);
            assertCode(ReturnCode.INV_ME, () -> b.ptl().meUnlink(me));
            assertCode(ReturnCode.INV_ME,
                    () -> b.ptl().mdAttach(me, MemoryDescriptor.empty(), Unlink.RETAIN, Unlink.RETAIN));
            assertThat(put(a, b, eq2, PT, 0, 0, job.pattern(8, 1))).isNotNull();

            // The same for an unlink caused by unlink_nofit.
            MeHandle me2 = b.ptl().meAttach(b.ni(), PT + 1, ProcessId.ANY, 0, ~0L, Unlink.UNLINK, InsertPosition.AFTER);
            b.ptl().mdAttach(me2, MemoryDescriptor.of(job.allocate(4)).withOptions(MdOption.OP_PUT).withEventQueue(eq1),
                    Unlink.RETAIN, Unlink.UNLINK);
            long before = b.drops();
            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), PT + 1, 0, 0, job.pattern(8, 1));
            b.next(eq1, EventKind.UNLINK);
            b.awaitDrops(before + 1); // nothing behind it
            assertCode(ReturnCode.INV_ME, () -> b.ptl().meUnlink(me2));
        }
    }

    @Test
    @SpecAssertion("P-245")
    void autoUnlinkingAnMdLeavesItsRetainedEntryOnTheListWithoutAnMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq1 = b.eq(16);
            EqHandle eq2 = b.eq(16);
            MeHandle me = b.ptl().meAttach(b.ni(), PT, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
            b.ptl().mdAttach(me, MemoryDescriptor.of(job.allocate(16)).withThreshold(1)
                    .withOptions(MdOption.OP_PUT).withEventQueue(eq1), Unlink.UNLINK, Unlink.RETAIN);
            b.attach(PT, 0, ~0L, job.allocate(64), eq2, MdOption.OP_PUT);

            assertThat(put(a, b, eq1, PT, 0, 0, job.pattern(8, 1))).isNotNull();
            b.next(eq1, EventKind.UNLINK);
            assertThat(put(a, b, eq2, PT, 0, 0, job.pattern(8, 1))).as("skips the entry without an MD").isNotNull();
            b.expectNoEvent(eq1);

            // The entry is still there, first on the list: it takes a new MD, which then gets the next put.
            EqHandle eq3 = b.eq(16);
            b.ptl().mdAttach(me, MemoryDescriptor.of(job.allocate(16)).withOptions(MdOption.OP_PUT).withEventQueue(eq3),
                    Unlink.RETAIN, Unlink.RETAIN);
            assertThat(put(a, b, eq3, PT, 0, 0, job.pattern(8, 1))).isNotNull();
            b.expectNoEvent(eq2);
            b.ptl().meInsert(me, ProcessId.ANY, 1, 0, Unlink.RETAIN, InsertPosition.AFTER);
            b.ptl().meUnlink(me);
        }
    }

    // ---- P-246, P-247: gets ---------------------------------------------------------------------

    @Test
    @SpecAssertion("P-246")
    void getFromLocallyManagedMdReadsAtTheLocalOffsetWhichAdvancesByMlength() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(32);
            MemorySegment mem = job.pattern(30, 50);
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.of(mem)
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.TRUNCATE).withEventQueue(eqb),
                    Unlink.RETAIN, Unlink.RETAIN);

            MemorySegment r1 = job.allocate(10);
            assertThat(nonNull(get(a, b, eqb, PT, 0, 0, r1)).end().offset()).isZero();
            assertBytes(r1, 0, 10, 50);
            MemorySegment r2 = job.allocate(10);
            assertThat(nonNull(get(a, b, eqb, PT, 0, 0, r2)).end().offset()).isEqualTo(10);
            assertBytes(r2, 0, 10, 60);

            // Puts and gets share the local offset.
            assertThat(nonNull(put(a, b, eqb, PT, 0, 0, job.pattern(5, 200))).end().offset()).isEqualTo(20);
            MemorySegment r3 = job.allocate(20);
            Served s = nonNull(get(a, b, eqb, PT, 0, 0, r3));
            assertThat(s.end().offset()).isEqualTo(25);
            assertThat(s.end().mlength()).as("truncated to the 5 bytes left").isEqualTo(5);
            assertBytes(r3, 0, 5, 75);
            assertThat(ReceiveMatchingTest.isZero(r3.asSlice(5))).isTrue();

            // The offset advanced by mlength (5), not by rlength (20): the next request is at 30.
            Served last = nonNull(get(a, b, eqb, PT, 0, 0, job.allocate(4)));
            assertThat(last.end().offset()).isEqualTo(30);
            assertThat(last.end().mlength()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-247")
    void getLongerThanTheSpaceIsRejectedWithoutTruncateAndTruncatedWithIt() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(32);
            b.attach(PT, 1, 0, job.pattern(20, 1), eqb, MdOption.OP_GET);
            b.attach(PT, 2, 0, job.pattern(20, 101), eqb, MdOption.OP_GET, MdOption.TRUNCATE);

            MemorySegment r1 = job.allocate(30);
            assertThat(get(a, b, eqb, PT, 1, 0, r1)).isNull();
            assertThat(ReceiveMatchingTest.isZero(r1)).isTrue();

            MemorySegment r2 = job.allocate(30);
            Served s = nonNull(get(a, b, eqb, PT, 2, 0, r2));
            assertThat(s.end().rlength()).isEqualTo(30);
            assertThat(s.end().mlength()).isEqualTo(20);
            assertThat(s.replyEnd().rlength()).isEqualTo(30);
            assertThat(s.replyEnd().mlength()).isEqualTo(20);
            assertBytes(r2, 0, 20, 101);
            assertThat(ReceiveMatchingTest.isZero(r2.asSlice(20))).isTrue();
            assertThat(b.drops()).isEqualTo(1);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The target's START and END events of an accepted put or get. */
    record Landed(Event start, Event end) {
    }

    /** An accepted get: the target's GET_START and GET_END, and the initiator's REPLY_END. */
    record Served(Event start, Event end, Event replyEnd) {
    }

    /**
     * Puts {@code data} (its whole length) from {@code a} to {@code b}. Returns the PUT events logged on
     * {@code eqb}, or null if the target dropped the put (counted once, nothing logged on {@code eqb}).
     */
    static @Nullable Landed put(Rank a, Rank b, EqHandle eqb, int portal, long bits, long offset, MemorySegment data) {
        long before = b.drops();
        ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), portal, bits, offset, data);
        Event start = firstEventOrDrop(b, eqb, before);
        if (start == null) {
            return null;
        }
        assertThat(start.type()).isEqualTo(EventKind.PUT_START);
        Event end = b.next(eqb, EventKind.PUT_END);
        assertThat(end.link()).isEqualTo(start.link());
        assertThat(end.rlength()).isEqualTo(data.byteSize());
        assertThat(b.drops()).isEqualTo(before);
        return new Landed(start, end);
    }

    /**
     * Gets {@code into.byteSize()} bytes into {@code into} from {@code b}. Returns the target's GET events on
     * {@code eqb} and the initiator's REPLY_END, or null if the target dropped the get (counted once,
     * nothing logged, no reply).
     */
    static @Nullable Served get(Rank a, Rank b, EqHandle eqb, int portal, long bits, long offset, MemorySegment into) {
        long before = b.drops();
        EqHandle eqa = a.eq(4);
        MdHandle md = a.bind(into, eqa);
        a.ptl().get(md, b.id(), portal, 0, bits, offset);
        Event start = firstEventOrDrop(b, eqb, before);
        if (start == null) {
            a.expectNoEvent(eqa);
            return null;
        }
        assertThat(start.type()).isEqualTo(EventKind.GET_START);
        Event end = b.next(eqb, EventKind.GET_END);
        assertThat(end.link()).isEqualTo(start.link());
        Event replyStart = a.next(eqa, EventKind.REPLY_START);
        Event replyEnd = a.next(eqa, EventKind.REPLY_END);
        assertThat(replyEnd.link()).isEqualTo(replyStart.link());
        assertThat(replyEnd.mlength()).isEqualTo(end.mlength());
        assertThat(b.drops()).isEqualTo(before);
        a.ptl().mdUnlink(md);
        a.ptl().eqFree(eqa);
        return new Served(start, end, replyEnd);
    }

    /** The first event on {@code eq}, or null once the drop count has risen past {@code before} (by exactly 1). */
    private static @Nullable Event firstEventOrDrop(Rank b, EqHandle eq, long before) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        Event e = new Event();
        while (true) {
            ReturnCode rc = b.ptl().eqGet(eq, e);
            if (rc != ReturnCode.EQ_EMPTY) {
                assertThat(rc).isEqualTo(ReturnCode.OK);
                return e;
            }
            if (b.drops() > before) {
                b.expectNoEvent(eq);
                assertThat(b.drops()).as("a rejected request counts once").isEqualTo(before + 1);
                return null;
            }
            if (System.nanoTime() > deadline) {
                fail("the request was neither logged on %s nor counted as dropped", eq);
            }
            Thread.yield();
        }
    }

    static <T> T nonNull(@Nullable T value) {
        assertThat(value != null).as("the operation was accepted").isTrue();
        if (value == null) {
            throw new AssertionError("unreachable");
        }
        return value;
    }

    /** Asserts {@code m[at .. at+n)} holds {@code seed, seed+1, ...} (mod 256), as {@link TckJob#pattern} writes. */
    static void assertBytes(MemorySegment m, long at, int n, int seed) {
        for (int i = 0; i < n; i++) {
            assertThat(m.get(ValueLayout.JAVA_BYTE, at + i)).as("byte %d", at + i).isEqualTo((byte) (seed + i));
        }
    }

    /** Waits until {@code m[at]} holds {@code value} (the data of a put that logs no END event). */
    static void awaitByte(MemorySegment m, long at, byte value) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (m.get(ValueLayout.JAVA_BYTE, at) != value) {
            if (System.nanoTime() > deadline) {
                fail("byte %d never became %d", at, value);
            }
            Thread.yield();
        }
    }
}
