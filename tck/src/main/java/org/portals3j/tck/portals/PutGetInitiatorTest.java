package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * {@code PtlPut} (Portals 3.2 spec §3.11.1) and {@code PtlGet} (Portals 3.2 spec §3.11.2) seen from
 * the initiator: return codes, the events on the local MD's queue, what reaches the target, acks, and the threshold
 * profile A-27 (put and get take one unit when called; acks and replies take none). Rank 0 initiates, rank 1
 * is the target.
 */
@DisplayName("PtlPut / PtlGet at the initiator")
class PutGetInitiatorTest {
    private static final int PORTAL = 6;

    // ---- PtlPut return codes --------------------------------------------------------------------

    @Test
    @SpecAssertion("P-166")
    void putFromABoundMdSucceeds() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            MemorySegment target = job.allocate(16);
            b.attach(PORTAL, 0L, 0L, target, teq, MdOption.OP_PUT);
            MemorySegment source = job.pattern(16, 3);
            MdHandle md = a.bind(source, a.eq(8));
            assertThatCode(() -> a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L))
                    .doesNotThrowAnyException();
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            assertThat(bytes(target)).isEqualTo(bytes(source));
        }
    }

    @Test
    @SpecAssertion("P-167")
    void putWithAnInvalidMdFailsWithInvMdAndSendsNothing() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(16), teq, MdOption.OP_PUT);
            EqHandle eq = a.eq(8);
            MdHandle unlinked = a.bind(job.allocate(8), eq);
            a.ptl().mdUnlink(unlinked);
            MdHandle foreign = b.bind(job.allocate(8), b.eq(1)); // an MD of another process
            for (MdHandle bad : List.of(new MdHandle(0x0BAD_CAFEL), MdHandle.NONE, unlinked, MdHandle.of(eq),
                    foreign)) {
                assertCode(ReturnCode.INV_MD,
                        () -> a.ptl().put(bad, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L));
            }
            Rank.expectNoEvent(a.queue(eq), b.queue(teq));
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-168")
    void putToAnInvalidTargetFailsWithInvProcAndSendsNothing() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = a.eq(8);
            // threshold 1: a refused call must not use it up
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 1)).withThreshold(1)
                    .withEventQueue(eq));
            for (ProcessId bad : List.of(ProcessId.ANY, ProcessId.of(ProcessId.NID_ANY, 0),
                    ProcessId.of(1, ProcessId.PID_ANY), ProcessId.of(-2, 0), ProcessId.of(1, -5),
                    ProcessId.of(99, 0))) {
                assertCode(ReturnCode.INV_PROC,
                        () -> a.ptl().put(md, AckRequest.NOACK_REQ, bad, PORTAL, 0, 0L, 0L, 0L));
            }
            a.expectNoEvent(eq);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(16), teq, MdOption.OP_PUT);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            a.next(eq, EventKind.SEND_START);
            b.next(teq, EventKind.PUT_START);
        }
    }

    // ---- PtlPut events and data -----------------------------------------------------------------

    @Test
    @SpecAssertion("P-169")
    void putPostsSendStartThenSendEnd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.attach(PORTAL, 0L, ~0L, job.allocate(16), b.eq(8), MdOption.OP_PUT);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.pattern(16, 9), eq);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            Event start = a.next(eq, EventKind.SEND_START);
            Event end = a.next(eq, EventKind.SEND_END);
            assertThat(end.link()).as("SEND_END.link").isEqualTo(start.link());
            assertThat(start.mdHandle()).isEqualTo(md);
            assertThat(end.mdHandle()).isEqualTo(md);
            a.expectNoEvent(eq);
        }
    }

    @Test
    @SpecAssertion("P-170")
    void changingTheSourceAfterSendEndDoesNotChangeWhatTheTargetGot() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            MemorySegment target = job.allocate(256);
            b.attach(PORTAL, 0L, ~0L, target, teq, MdOption.OP_PUT);
            MemorySegment source = job.pattern(256, 40);
            byte[] original = bytes(source);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(source, eq);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            a.next(eq, EventKind.SEND_START);
            a.next(eq, EventKind.SEND_END);
            source.fill((byte) 0xC3); // the buffer may be reused now (Portals 3.2 spec §3.9.1)
            b.next(teq, EventKind.PUT_START);
            Event end = b.next(teq, EventKind.PUT_END);
            assertThat(end.mlength()).isEqualTo(256);
            assertThat(bytes(target)).as("bytes the target received").isEqualTo(original);
        }
    }

    @Test
    @SpecAssertion("P-171")
    void putSendsExactlyTheWholeLocalMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            MemorySegment target = job.allocate(256);
            target.fill((byte) 0x5A);
            b.attach(PORTAL, 0L, ~0L, target, teq, MdOption.OP_PUT);
            MemorySegment big = job.pattern(256, 1);
            // the MD starts 10 bytes into the segment and is 100 bytes long
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(big).withStart(big.asSlice(10), 100));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            Event start = b.next(teq, EventKind.PUT_START);
            Event end = b.next(teq, EventKind.PUT_END);
            assertThat(start.rlength()).as("rlength").isEqualTo(100);
            assertThat(end.mlength()).as("mlength").isEqualTo(100);
            assertThat(bytes(target.asSlice(0, 100))).isEqualTo(bytes(big.asSlice(10, 100)));
            assertThat(bytes(target.asSlice(100))).as("bytes past the put").containsOnly((byte) 0x5A);
        }
    }

    @Test
    @SpecAssertion("P-172")
    void ackRequestedWithAQueueGivesExactlyOneAck() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(32), teq, MdOption.OP_PUT);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.pattern(32, 2), eq);
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            a.next(eq, EventKind.SEND_START);
            a.next(eq, EventKind.SEND_END);
            Event ack = a.next(eq, EventKind.ACK);
            assertThat(ack.mdHandle()).isEqualTo(md);
            assertThat(a.drain(eq)).as("events after the ack").isEmpty();
        }
    }

    @Test
    @SpecAssertion("P-173")
    void noAckRequestedGivesNoAck() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(32), teq, MdOption.OP_PUT);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.pattern(32, 2), eq);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            assertThat(kinds(a.drain(eq))).containsExactly(EventKind.SEND_START, EventKind.SEND_END);
            assertThat(a.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-174")
    void targetMdWithAckDisableSendsNoAck() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(32), teq, MdOption.OP_PUT, MdOption.ACK_DISABLE);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.pattern(32, 2), eq);
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            assertThat(kinds(a.drain(eq))).containsExactly(EventKind.SEND_START, EventKind.SEND_END);
        }
    }

    @Test
    @SpecAssertion("P-175")
    void ackRequestedWithoutALocalQueueSendsNoAckButThePutHappens() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            MemorySegment target = job.allocate(32);
            b.attach(PORTAL, 0L, ~0L, target, teq, MdOption.OP_PUT);
            MemorySegment source = job.pattern(32, 77);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source)); // eventq = PTL_EQ_NONE
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            assertThat(bytes(target)).isEqualTo(bytes(source));
            // an ack would have reached an MD with no queue and been dropped and counted (Portals 3.2 spec §4.2)
            Rank.sleep(TckTransport.quietPeriod());
            assertThat(a.drops()).as("initiator PTL_SR_DROP_COUNT").isZero();
            assertThat(a.ptl().niStatus(a.ni(), StatusRegister.DROP_ACK_NO_EQ)).isZero();
        }
    }

    @Test
    @SpecAssertion("P-176")
    void rejectedPutStillCompletesItsSendButGetsNoAck() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 5L, 0L, job.allocate(32), teq, MdOption.OP_PUT);
            EqHandle eq = a.eq(16);
            MdHandle md = a.bind(job.pattern(32, 2), eq);
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 6L, 0L, 0L);      // no matching entry
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL + 1, 0, 5L, 0L, 0L);  // empty match list
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 9, 5L, 0L, 0L);      // cookie never set
            b.awaitDrops(3);
            b.expectNoEvent(teq);
            // Each put starts and ends, and no ACK comes.
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                events.add(a.next(eq));
            }
            a.expectNoEvent(eq);
            PortalsAssertions.assertStartEndPairs(events, EventKind.SEND_START, EventKind.SEND_END, 3);
        }
    }

    @Test
    @SpecAssertion("P-177")
    void hdrDataArrivesUnchangedInAll64Bits() {
        long[] values = {0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x8000_0000_0000_0001L,
            0x0123_4567_89AB_CDEFL, 0xFEDC_BA98_7654_3210L, 0x0000_0001_0000_0000L};
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(64);
            b.attach(PORTAL, 0L, ~0L, job.allocate(8), teq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)));
            for (long hdr : values) {
                a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, hdr);
                assertThat(b.next(teq, EventKind.PUT_START).hdrData()).as("PUT_START.hdr_data").isEqualTo(hdr);
                assertThat(b.next(teq, EventKind.PUT_END).hdrData()).as("PUT_END.hdr_data").isEqualTo(hdr);
            }
        }
    }

    @Test
    @SpecAssertion("P-178")
    void matchBitsArriveUnchangedInThePutEvents() {
        long[] values = {0L, -1L, Long.MIN_VALUE, 0x8000_0000_0000_0001L, 0xFEDC_BA98_7654_3210L};
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(64);
            b.attach(PORTAL, 0L, ~0L, job.allocate(8), teq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)));
            for (long bits : values) {
                a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, bits, 0L, 0L);
                assertThat(b.next(teq, EventKind.PUT_START).matchBits()).as("PUT_START.match_bits").isEqualTo(bits);
                assertThat(b.next(teq, EventKind.PUT_END).matchBits()).as("PUT_END.match_bits").isEqualTo(bits);
            }
        }
    }

    @Test
    @SpecAssertion("P-179")
    void zeroLengthPutIntoAZeroLengthMdSucceeds() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, ProcessId.ANY, 0L, ~0L, MemoryDescriptor.empty().withOptions(MdOption.OP_PUT)
                    .withEventQueue(teq), Unlink.RETAIN, Unlink.RETAIN);
            EqHandle eq = a.eq(8);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.empty().withEventQueue(eq));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            for (EventKind kind : List.of(EventKind.PUT_START, EventKind.PUT_END)) {
                Event e = b.next(teq, kind);
                assertThat(e.rlength()).as("%s.rlength", kind).isZero();
                assertThat(e.mlength()).as("%s.mlength", kind).isZero();
            }
            a.next(eq, EventKind.SEND_START);
            a.next(eq, EventKind.SEND_END);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-180")
    void putOnAnMdWithThresholdZeroFailsWithInvMdAndSendsNothing() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(8), teq, MdOption.OP_PUT, MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)).withThreshold(0)
                    .withEventQueue(eq));
            assertCode(ReturnCode.INV_MD, () -> a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L));
            assertCode(ReturnCode.INV_MD, () -> a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L));
            Rank.expectNoEvent(a.queue(eq), b.queue(teq));
            assertThat(b.drops()).isZero();
        }
    }

    // ---- PtlGet ---------------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-181")
    void getIntoABoundMdSucceeds() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MemorySegment remote = job.pattern(16, 5);
            b.attach(PORTAL, 0L, ~0L, remote, b.eq(8), MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MemorySegment local = job.allocate(16);
            MdHandle md = a.bind(local, eq);
            assertThatCode(() -> a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L)).doesNotThrowAnyException();
            a.next(eq, EventKind.REPLY_START);
            a.next(eq, EventKind.REPLY_END);
            assertThat(bytes(local)).isEqualTo(bytes(remote));
        }
    }

    @Test
    @SpecAssertion("P-182")
    void getWithAnInvalidMdOrTargetFails() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.pattern(16, 5), teq, MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MdHandle unlinked = a.bind(job.allocate(8), eq);
            a.ptl().mdUnlink(unlinked);
            for (MdHandle bad : List.of(new MdHandle(0x0BAD_CAFEL), MdHandle.NONE, unlinked, MdHandle.of(eq))) {
                assertCode(ReturnCode.INV_MD, () -> a.ptl().get(bad, b.id(), PORTAL, 0, 0L, 0L));
            }
            MdHandle md = a.bind(job.allocate(8), eq);
            for (ProcessId bad : List.of(ProcessId.ANY, ProcessId.of(ProcessId.NID_ANY, 0),
                    ProcessId.of(1, ProcessId.PID_ANY), ProcessId.of(-2, 0), ProcessId.of(99, 0))) {
                assertCode(ReturnCode.INV_PROC, () -> a.ptl().get(md, bad, PORTAL, 0, 0L, 0L));
            }
            Rank.expectNoEvent(a.queue(eq), b.queue(teq));
            // the refused calls left the MD free: nothing is pending on it
            assertThatCode(() -> a.ptl().mdUnlink(md)).doesNotThrowAnyException();
        }
    }

    @Test
    @SpecAssertion({"P-183", "P-185"})
    void getPostsReplyEventsLocallyAndGetEventsAtTheTargetButNoSendEvents() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.pattern(32, 5), teq, MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.allocate(32), eq);
            a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L);
            Event gs = b.next(teq, EventKind.GET_START);
            Event ge = b.next(teq, EventKind.GET_END);
            assertThat(ge.link()).isEqualTo(gs.link());
            Event rs = a.next(eq, EventKind.REPLY_START);
            Event re = a.next(eq, EventKind.REPLY_END);
            assertThat(re.link()).isEqualTo(rs.link());
            assertThat(a.drain(eq)).as("further events on the get initiator's queue (no SEND_*)").isEmpty();
            assertThat(b.drain(teq)).isEmpty();
        }
    }

    @Test
    @SpecAssertion("P-184")
    void replyDataIsTheTargetRegionFromTheTargetOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MemorySegment remote = job.pattern(128, 11);
            b.attach(PORTAL, 0L, ~0L, remote, b.eq(8), MdOption.OP_GET, MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(8);
            MemorySegment local = job.allocate(32);
            MdHandle md = a.bind(local, eq);
            a.ptl().get(md, b.id(), PORTAL, 0, 0L, 40L);
            a.next(eq, EventKind.REPLY_START);
            Event end = a.next(eq, EventKind.REPLY_END);
            assertThat(end.mlength()).isEqualTo(32);
            assertThat(bytes(local)).isEqualTo(bytes(remote.asSlice(40, 32)));
        }
    }

    @Test
    @SpecAssertion("P-184")
    void replyDataFollowsTheTargetsLocalOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MemorySegment remote = job.pattern(64, 100);
            b.attach(PORTAL, 0L, ~0L, remote, b.eq(8), MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MemorySegment first = job.allocate(16);
            MemorySegment second = job.allocate(16);
            a.ptl().get(a.bind(first, eq), b.id(), PORTAL, 0, 0L, 0L);
            a.next(eq, EventKind.REPLY_START);
            a.next(eq, EventKind.REPLY_END);
            a.ptl().get(a.bind(second, eq), b.id(), PORTAL, 0, 0L, 0L);
            a.next(eq, EventKind.REPLY_START);
            a.next(eq, EventKind.REPLY_END);
            assertThat(bytes(first)).isEqualTo(bytes(remote.asSlice(0, 16)));
            assertThat(bytes(second)).isEqualTo(bytes(remote.asSlice(16, 16)));
        }
    }

    @Test
    @SpecAssertion("P-184")
    void truncatedReplyFillsOnlyMlengthBytes() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MemorySegment remote = job.pattern(60, 21);
            b.attach(PORTAL, 0L, ~0L, remote, b.eq(8), MdOption.OP_GET, MdOption.MANAGE_REMOTE, MdOption.TRUNCATE);
            EqHandle eq = a.eq(8);
            MemorySegment local = job.allocate(64);
            local.fill((byte) 0x77);
            a.ptl().get(a.bind(local, eq), b.id(), PORTAL, 0, 0L, 40L); // 20 bytes left at offset 40
            a.next(eq, EventKind.REPLY_START);
            Event end = a.next(eq, EventKind.REPLY_END);
            assertThat(end.mlength()).isEqualTo(20);
            assertThat(bytes(local.asSlice(0, 20))).isEqualTo(bytes(remote.asSlice(40, 20)));
            assertThat(bytes(local.asSlice(20))).as("bytes past mlength").containsOnly((byte) 0x77);
        }
    }

    @Test
    @SpecAssertion("P-186")
    void getAsksForTheLengthOfTheInitiatorsMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.pattern(128, 5), teq, MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.allocate(48), eq);
            a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L);
            assertThat(b.next(teq, EventKind.GET_START).rlength()).isEqualTo(48);
            assertThat(b.next(teq, EventKind.GET_END).rlength()).isEqualTo(48);
        }
    }

    @Test
    @SpecAssertion("P-187")
    void rejectedGetGetsNoReplyAndIsCountedAtTheTarget() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 5L, 0L, job.pattern(32, 5), teq, MdOption.OP_GET);
            b.attach(PORTAL + 1, 0L, ~0L, job.pattern(32, 5), teq, MdOption.OP_PUT); // gets not enabled
            EqHandle eq = a.eq(8);
            a.ptl().get(a.bind(job.allocate(8), eq), b.id(), PORTAL, 0, 6L, 0L);      // no matching bits
            a.ptl().get(a.bind(job.allocate(8), eq), b.id(), PORTAL + 1, 0, 0L, 0L);  // MD refuses gets
            a.ptl().get(a.bind(job.allocate(8), eq), b.id(), PORTAL + 2, 0, 0L, 0L);  // empty list
            b.awaitDrops(3);
            Rank.expectNoEvent(b.queue(teq), a.queue(eq));
        }
    }

    // ---- thresholds of the initiator's MD (A-27) ------------------------------------------------

    @Test
    @SpecAssertion("P-188")
    void putUsesTheOnlyUnitOfAThresholdOneMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(64), teq, MdOption.OP_PUT, MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)).withThreshold(1)
                    .withEventQueue(eq));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            assertThat(a.next(eq, EventKind.SEND_START).memDescThreshold()).isZero();
            a.next(eq, EventKind.SEND_END);
            assertCode(ReturnCode.INV_MD, () -> a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L));
            assertCode(ReturnCode.INV_MD, () -> a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L));
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            Rank.expectNoEvent(b.queue(teq), a.queue(eq));
        }
    }

    @Test
    @SpecAssertion("P-188")
    void getUsesTheOnlyUnitOfAThresholdOneMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.attach(PORTAL, 0L, ~0L, job.pattern(64, 3), b.eq(8), MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.allocate(8)).withThreshold(1)
                    .withEventQueue(eq));
            a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L);
            a.next(eq, EventKind.REPLY_START);
            a.next(eq, EventKind.REPLY_END);
            assertCode(ReturnCode.INV_MD, () -> a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L));
            assertCode(ReturnCode.INV_MD, () -> a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L));
        }
    }

    @Test
    @SpecAssertion("P-189")
    void ackReachesAThresholdOneMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.attach(PORTAL, 0L, ~0L, job.allocate(64), b.eq(8), MdOption.OP_PUT);
            EqHandle eq = a.eq(8);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)).withThreshold(1)
                    .withEventQueue(eq));
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            a.next(eq, EventKind.SEND_START);
            a.next(eq, EventKind.SEND_END);
            Event ack = a.next(eq, EventKind.ACK);
            assertThat(ack.memDescThreshold()).as("threshold after the ack").isZero();
            assertThat(a.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-190")
    void replyReachesAThresholdOneMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            MemorySegment remote = job.pattern(24, 60);
            b.attach(PORTAL, 0L, ~0L, remote, b.eq(8), MdOption.OP_GET);
            EqHandle eq = a.eq(8);
            MemorySegment local = job.allocate(24);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(local).withThreshold(1).withEventQueue(eq));
            a.ptl().get(md, b.id(), PORTAL, 0, 0L, 0L);
            a.next(eq, EventKind.REPLY_START);
            Event end = a.next(eq, EventKind.REPLY_END);
            assertThat(end.mlength()).isEqualTo(24);
            assertThat(end.memDescThreshold()).isZero();
            assertThat(bytes(local)).isEqualTo(bytes(remote));
            assertThat(a.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-309")
    void anAnswerTheTargetSendsOnPutEndNeverOvertakesTheAck() throws Exception {
        int rounds = 1000;
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            // rank 0 logs its put's events and the answer's on one queue, as ping-pong programs do
            EqHandle eqA = a.eq(64);
            EqHandle eqB = b.eq(64);
            EqHandle answerEq = b.eq(64);
            a.attach(PORTAL, 2L, 0L, job.allocate(8), eqA, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            b.attach(PORTAL, 1L, 0L, job.allocate(8), eqB, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            MdHandle ping = a.bind(job.pattern(8, 1), eqA);
            MdHandle pong = b.bind(job.pattern(8, 2), answerEq);
            ProcessId aId = a.id();
            ExecutorService target = Executors.newSingleThreadExecutor();
            try {
                Future<?> answering = target.submit(() -> {
                    Event e = new Event();
                    for (int i = 0; i < rounds; i++) {
                        // PtlEQWait: the target answers the moment PUT_END can be seen
                        do {
                            assertThat(b.ptl().eqWait(eqB, e)).isEqualTo(ReturnCode.OK);
                        } while (e.type() != EventKind.PUT_END);
                        b.ptl().put(pong, AckRequest.NOACK_REQ, aId, PORTAL, 0, 2L, 0L, i);
                        b.next(answerEq, EventKind.SEND_START);
                        b.next(answerEq, EventKind.SEND_END);
                    }
                    return null;
                });
                List<EventKind> expected = List.of(EventKind.SEND_START, EventKind.SEND_END, EventKind.ACK,
                        EventKind.PUT_START, EventKind.PUT_END);
                for (int i = 0; i < rounds; i++) {
                    a.ptl().put(ping, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 1L, 0L, i);
                    List<EventKind> seen = new ArrayList<>();
                    for (int k = 0; k < expected.size(); k++) {
                        seen.add(a.next(eqA).type());
                    }
                    assertThat(seen).as("round trip %d at the initiator", i).isEqualTo(expected);
                }
                answering.get(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                target.shutdownNow();
            }
            assertThat(a.drops() + b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-310")
    void aPutsSendEndComesBeforeTheEventsOfATokenItSentRoundARing() throws Exception {
        int ranks = 3;
        int trips = 300;
        try (TckJob job = TckJob.start(ranks)) {
            List<Callable<Void>> passers = new ArrayList<>();
            AtomicInteger arrivals = new AtomicInteger();
            for (int r = 0; r < ranks; r++) {
                Rank rank = job.rank(r);
                // one queue for the put's events and the token's, as ring programs have
                EqHandle eq = rank.eq(8);
                MemorySegment inbox = job.allocate(4);
                MemorySegment outbox = job.allocate(4);
                rank.attach(PORTAL, (r + ranks - 1) % ranks, 0L, inbox, eq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
                MdHandle send = rank.bind(outbox, eq);
                ProcessId right = job.rank((r + 1) % ranks).id();
                int self = r;
                passers.add(() -> {
                    passToken(rank, self, ranks, trips, eq, inbox, outbox, send, right, arrivals);
                    return null;
                });
            }
            ExecutorService threads = Executors.newFixedThreadPool(ranks);
            try {
                // the first rank to finish or fail: a failed rank leaves the others waiting for the token, so the
                // patience bounds each hop of the token, not the whole ring (900 hops take longer on a loaded machine)
                CompletionService<Void> passing = new ExecutorCompletionService<>(threads);
                for (Callable<Void> passer : passers) {
                    passing.submit(passer);
                }
                int finished = 0;
                int arrived = arrivals.get();
                while (finished < ranks) {
                    Future<Void> done = passing.poll(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS);
                    if (done != null) {
                        done.get();
                        finished++;
                    } else if (arrivals.get() == arrived) {
                        throw new AssertionError("the token has not moved for " + TckTransport.patience() + " ("
                                + arrived + " of " + ranks * trips + " arrivals)");
                    }
                    arrived = arrivals.get();
                }
            } finally {
                threads.shutdownNow();
            }
            for (int r = 0; r < ranks; r++) {
                assertThat(job.rank(r).drops()).isZero();
            }
        }
    }

    /**
     * Rank {@code r} of a ring: waits for the token's PUT_START and PUT_END (rank 0 starts with token 0), puts the
     * token plus one to its right neighbour, waits for the put's SEND_START and SEND_END (PtlEQWait, as ring
     * programs do: the token may be on its way back meanwhile), and overwrites its send buffer. Counts each
     * arrival of the token in {@code arrivals}.
     */
    private static void passToken(Rank rank, int r, int ranks, int trips, EqHandle eq, MemorySegment inbox,
                                  MemorySegment outbox, MdHandle send, ProcessId right, AtomicInteger arrivals) {
        Event e = new Event();
        int token = 0;
        for (int trip = 0; trip <= trips; trip++) {
            if (r == 0 ? trip > 0 : trip < trips) {
                for (EventKind kind : List.of(EventKind.PUT_START, EventKind.PUT_END)) {
                    assertThat(rank.ptl().eqWait(eq, e)).isEqualTo(ReturnCode.OK);
                    assertThat(e.type()).as("rank %d, trip %d: the token's arrival", r, trip).isEqualTo(kind);
                }
                int expected = ranks * trip + r - 1;
                assertThat(inbox.get(ValueLayout.JAVA_INT, 0)).as("rank %d, trip %d: the token", r, trip)
                        .isEqualTo(expected);
                token = expected + 1;
                arrivals.incrementAndGet();
            }
            if (trip == trips) {
                return;
            }
            outbox.set(ValueLayout.JAVA_INT, 0, token);
            rank.ptl().put(send, AckRequest.NOACK_REQ, right, PORTAL, 0, r, 0L, 0L);
            for (EventKind kind : List.of(EventKind.SEND_START, EventKind.SEND_END)) {
                assertThat(rank.ptl().eqWait(eq, e)).isEqualTo(ReturnCode.OK);
                assertThat(e.type()).as("rank %d, trip %d: the put's events come before the token's return", r, trip)
                        .isEqualTo(kind);
            }
            outbox.set(ValueLayout.JAVA_INT, 0, -1); // the buffer is the program's again: the token sent stays sent
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    private static List<EventKind> kinds(List<Event> events) {
        return events.stream().map(Event::type).toList();
    }
}
