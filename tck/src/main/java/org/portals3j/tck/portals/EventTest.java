package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.checkerframework.checker.nullness.qual.Nullable;
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
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * The event kinds, START/END pairing, every field of {@code ptl_event_t} for each
 * kind as the table in {@code org.portals3j.portals}'s package documentation and the implementation's documented
 * choices give it, UNLINK events, and the ordering guarantees of §4.3 (Portals 3.2 spec
 * §3.9.2, A-59, Portals 3.2 spec §3.9.1).
 *
 * <p>Field tests run the initiator and the target under different uids and pids, so that
 * {@code initiator} and {@code uid} cannot be right by accident.
 */
@DisplayName("Events (ptl_event_t)")
class EventTest {
    private static final int PORTAL = 9;
    private static final int UID_A = 1111;
    private static final int UID_B = 2222;
    private static final int PID_A = 3;
    private static final int PID_B = 5;
    /** Cookie for the entry the target opens to every uid (entry 0 admits only its own uid). */
    private static final int OPEN = 1;
    private static final long BITS = 0x8000_0000_0000_0007L;
    private static final long HDR = 0xF00D_0000_0000_BEEFL;

    // ---- kinds ----------------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-191")
    void thereAreFourteenKindsInTheSpecOrder() {
        // the fourteen of ptl_event_kind_t, then only the two Portals 3.3 adds for PtlGetPut, never a 3.2 kind
        assertThat(Arrays.stream(EventKind.values()).filter(k -> !k.isPortals33Only())).containsExactly(
                EventKind.GET_START, EventKind.GET_END, EventKind.GET_FAIL,
                EventKind.PUT_START, EventKind.PUT_END, EventKind.PUT_FAIL,
                EventKind.REPLY_START, EventKind.REPLY_END, EventKind.REPLY_FAIL,
                EventKind.SEND_START, EventKind.SEND_END, EventKind.SEND_FAIL,
                EventKind.ACK, EventKind.UNLINK);
        assertThat(Arrays.copyOfRange(EventKind.values(), 14, EventKind.values().length))
                .containsExactly(EventKind.GETPUT_START, EventKind.GETPUT_END).allMatch(EventKind::isPortals33Only);
        for (EventKind k : EventKind.values()) {
            assertThat(EventKind.of(k.ordinal())).isSameAs(k);
            assertThat(k.specName()).isEqualTo("PTL_EVENT_" + k.name());
        }
        assertThat(Arrays.stream(EventKind.values()).map(Enum::name))
                .doesNotContain("ACK_START", "ACK_END", "ACK_FAIL");
    }

    // ---- pairing and sequence -------------------------------------------------------------------

    @Test
    @SpecAssertion({"P-192", "P-193", "P-206"})
    void everyStartHasExactlyOneCompletionWithItsLink() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(256);
            b.attach(PORTAL, 0L, ~0L, job.pattern(64, 1), teq, MdOption.OP_PUT, MdOption.OP_GET,
                    MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(256);
            MdHandle put = a.bind(job.pattern(32, 2), eq);
            MdHandle get = a.bind(job.allocate(32), eq);
            for (int i = 0; i < 10; i++) {
                a.ptl().put(put, i % 2 == 0 ? AckRequest.ACK_REQ : AckRequest.NOACK_REQ, b.id(), PORTAL, 0, i, 0L, i);
                a.ptl().get(get, b.id(), PORTAL, 0, i, 0L);
            }
            List<Event> local = collect(a, eq, 10 * 2 + 5 + 10 * 2);
            List<Event> remote = collect(b, teq, 10 * 2 + 10 * 2);
            assertPaired(local);
            assertPaired(remote);
            assertThat(a.drain(eq)).isEmpty();
            assertThat(b.drain(teq)).isEmpty();
            assertUniqueSequences(local);
            assertUniqueSequences(remote);
        }
    }

    @Test
    @SpecAssertion({"P-192", "P-193"})
    void failedOperationsArePairedToo() {
        try (TckJob job = TckJob.start(3)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Rank c = job.rank(2);
            // a get that c rejects stays outstanding until c dies
            EqHandle eq = a.eq(32);
            MdHandle pending = a.bind(job.allocate(8), eq);
            a.ptl().get(pending, c.id(), PORTAL, 0, 0L, 0L);
            c.awaitDrops(1);
            a.expectNoEvent(eq);
            job.kill(2);
            job.kill(1);
            a.ptl().put(a.bind(job.pattern(8, 1), eq), AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            a.ptl().get(a.bind(job.allocate(8), eq), b.id(), PORTAL, 0, 0L, 0L);
            List<Event> events = collect(a, eq, 6);
            assertPaired(events);
            // The put ends with SEND_FAIL, or, if the library staged it (copied it and logged SEND_END as it left)
            // before its network knew b had died, with SEND_END, its loss counted in PTL_SR_SENDS_LOST.
            boolean staged = events.stream().anyMatch(e -> e.type() == EventKind.SEND_END);
            assertThat(events).filteredOn(e -> e.type().isFail()).hasSize(staged ? 2 : 3)
                    .allSatisfy(e -> assertThat(e.niFailType()).as("ni_fail_type of %s", e)
                            .isNotEqualTo(NiFailType.OK));
            assertThat(events).filteredOn(e -> e.type() == EventKind.REPLY_FAIL).hasSize(2)
                    .allSatisfy(e -> assertThat(e.niFailType()).isEqualTo(NiFailType.PEER_DEAD));
            assertThat(events).extracting(Event::type).contains(staged ? EventKind.SEND_END : EventKind.SEND_FAIL)
                    .doesNotContain(EventKind.ACK);
            a.awaitRegister(StatusRegister.SENDS_LOST, staged ? 1 : 0);
            assertThat(a.drain(eq)).isEmpty();
        }
    }

    @Test
    @SpecAssertion({"P-192", "P-203"})
    void putFromFreedMemoryFailsAsAPairAtBothEndsAndDoesNotUnlink() {
        try (TckJob job = TckJob.start(2)) {
            Arena arena = Arena.ofShared();
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            // threshold 1 and PTL_UNLINK: only a successful completion may unlink it (Portals 3.2 spec §3.8.2.2)
            b.attach(PORTAL, ProcessId.ANY, 0L, ~0L, MemoryDescriptor.of(job.allocate(32))
                    .withOptions(MdOption.OP_PUT).withThreshold(1).withEventQueue(teq), Unlink.UNLINK, Unlink.RETAIN);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(arena.allocate(32), eq);
            arena.close();
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            List<Event> local = collect(a, eq, 2);
            assertPaired(local);
            assertThat(kinds(local)).containsExactly(EventKind.SEND_START, EventKind.SEND_FAIL);
            assertThat(local.get(1).niFailType()).isEqualTo(NiFailType.MEMORY_FAULT);
            List<Event> remote = collect(b, teq, 2);
            assertPaired(remote);
            assertThat(kinds(remote)).containsExactly(EventKind.PUT_START, EventKind.PUT_FAIL);
            assertThat(remote.get(1).niFailType()).isNotEqualTo(NiFailType.OK);
            Rank.expectNoEvent(b.queue(teq), a.queue(eq)); // no UNLINK after a failure, and no ack
        }
    }

    @Test
    @SpecAssertion("P-206")
    void sequencesAreUniqueAcrossTheQueuesOfAnInterface() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle q1 = b.eq(64);
            EqHandle q2 = b.eq(64);
            b.attach(PORTAL, 1L, 0L, job.allocate(8), q1, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            b.attach(PORTAL, 2L, 0L, job.allocate(8), q2, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)));
            for (int i = 0; i < 12; i++) {
                a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 1L + i % 2, 0L, 0L);
            }
            List<Event> all = new ArrayList<>(collect(b, q1, 12));
            all.addAll(collect(b, q2, 12));
            assertUniqueSequences(all);
        }
    }

    // ---- the fields of each kind (§4.4) ---------------------------------------------------------

    @Test
    @SpecAssertion({"P-195", "P-196", "P-198"})
    void putEventsCarryEveryField() {
        try (TckJob job = jobOf(new int[] {UID_A, UID_B}, new int[] {PID_A, PID_B})) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.ptl().acEntry(b.ni(), OPEN, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            EqHandle teq = b.eq(16);
            MemorySegment region = job.allocate(64);
            Object user = new Object();
            MemoryDescriptor tmd = MemoryDescriptor.of(region).withOptions(MdOption.OP_PUT).withThreshold(5)
                    .withMaxOffset(60).withUserPtr(user).withEventQueue(teq);
            MdHandle target = b.attach(PORTAL, ProcessId.ANY, BITS, 0L, tmd, Unlink.RETAIN, Unlink.RETAIN).md();
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(16, 4)));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, OPEN, BITS, 0L, HDR);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, OPEN, BITS, 33L, HDR); // offset ignored: local
            Event start = b.next(teq, EventKind.PUT_START);
            Event end = b.next(teq, EventKind.PUT_END);
            for (Event e : List.of(start, end)) {
                assertFields(e, a.id(), UID_A, PORTAL, BITS, 16, 16, 16, target, HDR);
                assertMemDesc(e, region, 64, 3, 60, MdOption.bits(MdOption.OP_PUT), user, teq);
            }
            assertThat(start.link()).as("PUT_START.link").isEqualTo(start.sequence());
            assertThat(end.link()).as("PUT_END.link").isEqualTo(start.sequence());
            assertThat(end.sequence()).isGreaterThan(start.sequence());
        }
    }

    @Test
    @SpecAssertion({"P-273"})
    void getEventsCarryEveryField() {
        try (TckJob job = jobOf(new int[] {UID_A, UID_B}, new int[] {PID_A, PID_B})) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.ptl().acEntry(b.ni(), OPEN, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            EqHandle teq = b.eq(16);
            MemorySegment region = job.pattern(64, 8);
            Object user = "target's user_ptr";
            MemoryDescriptor tmd = MemoryDescriptor.of(region).withOptions(MdOption.OP_GET).withThreshold(4)
                    .withUserPtr(user).withEventQueue(teq);
            MdHandle target = b.attach(PORTAL, ProcessId.ANY, BITS, 0L, tmd, Unlink.RETAIN, Unlink.RETAIN).md();
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.allocate(16)).withEventQueue(a.eq(8)));
            a.ptl().get(md, b.id(), PORTAL, OPEN, BITS, 0L);
            b.next(teq, EventKind.GET_START);
            b.next(teq, EventKind.GET_END);
            a.ptl().get(md, b.id(), PORTAL, OPEN, BITS, 5L);
            Event start = b.next(teq, EventKind.GET_START);
            Event end = b.next(teq, EventKind.GET_END);
            for (Event e : List.of(start, end)) {
                assertFields(e, a.id(), UID_A, PORTAL, BITS, 16, 16, 16, target, 0L);
                assertMemDesc(e, region, 64, 2, 64, MdOption.bits(MdOption.OP_GET), user, teq);
            }
            assertThat(start.link()).isEqualTo(start.sequence());
            assertThat(end.link()).isEqualTo(start.sequence());
        }
    }

    @Test
    @SpecAssertion({"P-169", "P-274"})
    void sendEventsCarryEveryField() {
        try (TckJob job = jobOf(new int[] {UID_A, UID_B}, new int[] {PID_A, PID_B})) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.ptl().acEntry(b.ni(), OPEN, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            b.attach(PORTAL, 0L, ~0L, job.allocate(64), b.eq(8), MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(8);
            MemorySegment source = job.pattern(64, 1);
            Object user = List.of("initiator's", "user_ptr");
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source).withStart(source, 24).withThreshold(10)
                    .withMaxOffset(7).withUserPtr(user).withEventQueue(eq));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, OPEN, BITS, 12L, HDR);
            Event start = a.next(eq, EventKind.SEND_START);
            Event end = a.next(eq, EventKind.SEND_END);
            for (Event e : List.of(start, end)) {
                assertFields(e, a.id(), UID_A, PORTAL, BITS, 24, 24, 12, md, HDR);
                assertMemDesc(e, source, 24, 9, 7, 0, user, eq);
            }
            assertThat(start.link()).isEqualTo(start.sequence());
            assertThat(end.link()).isEqualTo(start.sequence());
        }
    }

    @Test
    @SpecAssertion({"P-200", "P-201"})
    void ackEventCarriesEveryField() {
        try (TckJob job = jobOf(new int[] {UID_A, UID_B}, new int[] {PID_A, PID_B})) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.ptl().acEntry(b.ni(), OPEN, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            EqHandle teq = b.eq(8);
            // a truncating target with 10 bytes left at the put's offset 30
            b.attach(PORTAL, 0L, ~0L, job.allocate(40), teq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE,
                    MdOption.TRUNCATE);
            EqHandle eq = a.eq(8);
            MemorySegment source = job.pattern(24, 1);
            Object user = new StringBuilder("ack user_ptr");
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source).withThreshold(3).withUserPtr(user)
                    .withEventQueue(eq));
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, OPEN, BITS, 30L, HDR);
            assertThat(b.next(teq, EventKind.PUT_START).mlength()).isEqualTo(10);
            a.next(eq, EventKind.SEND_START);
            a.next(eq, EventKind.SEND_END);
            Event ack = a.next(eq, EventKind.ACK);
            // initiator = the put's target; uid = the target's; length echoed; mlength from the target
            assertFields(ack, b.id(), UID_B, PORTAL, BITS, 24, 10, 30, md, 0L);
            assertMemDesc(ack, source, 24, 2, 24, 0, user, eq);
            assertThat(ack.link()).as("ACK.link (its own sequence)").isEqualTo(ack.sequence());
        }
    }

    @Test
    @SpecAssertion({"P-201", "P-250"})
    void ackEchoesTheRequestOffsetForALocallyManagedTarget() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            b.attach(PORTAL, 0L, ~0L, job.allocate(64), teq, MdOption.OP_PUT); // local offset: 0, then 16
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.pattern(16, 1), eq);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 44L, 0L);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            assertThat(b.next(teq, EventKind.PUT_START).offset()).as("PUT_START.offset (local)").isEqualTo(16);
            Event ack = lastOf(a, eq, EventKind.ACK, 5);
            // the ack's offset is echoed from the put request (wire table Portals 3.2 spec §4.1: "offset | offset |
            // echo")
            assertThat(ack.offset()).as("ACK.offset").isEqualTo(44);
            assertThat(ack.mdHandle()).isEqualTo(md);
        }
    }

    @Test
    @SpecAssertion({"P-183", "P-184"})
    void replyEventsCarryEveryField() {
        try (TckJob job = jobOf(new int[] {UID_A, UID_B}, new int[] {PID_A, PID_B})) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.ptl().acEntry(b.ni(), OPEN, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            MemorySegment region = job.pattern(64, 30);
            b.attach(PORTAL, 0L, ~0L, region, b.eq(8), MdOption.OP_GET); // locally managed: offset 0, then 16
            EqHandle eq = a.eq(8);
            MemorySegment local = job.allocate(16);
            Object user = new Object();
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(local).withThreshold(2).withUserPtr(user)
                    .withEventQueue(eq));
            a.ptl().get(md, b.id(), PORTAL, OPEN, BITS, 0L);
            a.next(eq, EventKind.REPLY_START);
            a.next(eq, EventKind.REPLY_END);
            a.ptl().get(md, b.id(), PORTAL, OPEN, BITS, 7L);
            Event start = a.next(eq, EventKind.REPLY_START);
            Event end = a.next(eq, EventKind.REPLY_END);
            for (Event e : List.of(start, end)) {
                // initiator = the get's target; uid = its uid (the event's initiator, A-18); the offset is
                // the request's, echoed, not where the data landed locally
                assertFields(e, b.id(), UID_B, PORTAL, BITS, 16, 16, 7, md, 0L);
                assertMemDesc(e, local, 16, 0, 16, 0, user, eq);
            }
            assertThat(start.link()).isEqualTo(start.sequence());
            assertThat(end.link()).isEqualTo(start.sequence());
            assertThat(bytes(local)).isEqualTo(bytes(region.asSlice(16, 16)));
        }
    }

    @Test
    @SpecAssertion({"P-203", "P-204"})
    void unlinkEventCarriesEveryField() {
        try (TckJob job = jobOf(new int[] {UID_A, UID_B}, new int[] {PID_A, PID_B})) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.ptl().acEntry(b.ni(), OPEN, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            EqHandle teq = b.eq(8);
            MemorySegment region = job.allocate(32);
            Object user = new Object();
            MemoryDescriptor tmd = MemoryDescriptor.of(region).withOptions(MdOption.OP_PUT).withThreshold(1)
                    .withUserPtr(user).withEventQueue(teq);
            MdHandle target = b.attach(PORTAL, ProcessId.ANY, BITS, 0L, tmd, Unlink.UNLINK, Unlink.RETAIN).md();
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 1)));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, OPEN, BITS, 0L, HDR);
            Event start = b.next(teq, EventKind.PUT_START);
            Event end = b.next(teq, EventKind.PUT_END);
            Event unlink = b.next(teq, EventKind.UNLINK);
            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(unlink.mdHandle()).as("UNLINK.md_handle").isEqualTo(target);
            soft.assertThat(unlink.link()).as("UNLINK.link = sequence of the END that caused it")
                    .isEqualTo(end.sequence());
            soft.assertThat(unlink.link()).as("UNLINK.link").isNotEqualTo(start.link());
            soft.assertThat(unlink.sequence()).as("UNLINK.sequence").isGreaterThan(end.sequence());
            soft.assertThat(unlink.initiator()).as("UNLINK.initiator (copied from the causing event)")
                    .isEqualTo(a.id());
            soft.assertThat(unlink.hdrData()).as("UNLINK.hdr_data").isZero();
            soft.assertThat(unlink.niFailType()).as("UNLINK.ni_fail_type").isEqualTo(NiFailType.OK);
            soft.assertAll();
            assertMemDesc(unlink, region, 32, 0, 32, MdOption.bits(MdOption.OP_PUT), user, teq);
            // the handle in the event is already dead
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUnlink(target));
            b.expectNoEvent(teq);
        }
    }

    // ---- individual fields ----------------------------------------------------------------------

    @Test
    @SpecAssertion("P-194")
    void putEndMlengthIsWhatWasWritten() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(8);
            MemorySegment whole = job.allocate(64);
            whole.fill((byte) 0x11);
            MemoryDescriptor tmd = MemoryDescriptor.of(whole).withStart(whole, 40)
                    .withOptions(MdOption.OP_PUT, MdOption.TRUNCATE).withEventQueue(teq);
            b.attach(PORTAL, ProcessId.ANY, 0L, ~0L, tmd, Unlink.RETAIN, Unlink.RETAIN);
            MemorySegment source = job.pattern(100, 50);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            Event end = b.next(teq, EventKind.PUT_END);
            assertThat(end.rlength()).isEqualTo(100);
            assertThat(end.mlength()).as("PUT_END.mlength").isEqualTo(40);
            assertThat(bytes(whole.asSlice(0, 40))).isEqualTo(bytes(source.asSlice(0, 40)));
            assertThat(bytes(whole.asSlice(40))).as("bytes past the MD").containsOnly((byte) 0x11);
            // the MD is now full: a further put is truncated to nothing and writes nothing
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            assertThat(b.next(teq, EventKind.PUT_END).mlength()).isZero();
            assertThat(bytes(whole.asSlice(40))).containsOnly((byte) 0x11);
        }
    }

    @Test
    @SpecAssertion("P-196")
    void userPtrOfEachMdAppearsInItsEvents() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(16);
            Object first = new Object();
            Object second = new Object();
            b.attach(PORTAL, ProcessId.ANY, 1L, 0L, MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT,
                    MdOption.MANAGE_REMOTE).withUserPtr(first).withEventQueue(teq), Unlink.RETAIN, Unlink.RETAIN);
            b.attach(PORTAL, ProcessId.ANY, 2L, 0L, MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT,
                    MdOption.MANAGE_REMOTE).withUserPtr(second).withEventQueue(teq), Unlink.RETAIN, Unlink.RETAIN);
            b.attach(PORTAL, ProcessId.ANY, 3L, 0L, MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT,
                    MdOption.MANAGE_REMOTE).withEventQueue(teq), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)));
            Map<Long, Object> expected = Map.of(1L, first, 2L, second);
            for (long bits : List.of(2L, 1L, 3L)) {
                a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, bits, 0L, 0L);
                for (EventKind kind : List.of(EventKind.PUT_START, EventKind.PUT_END)) {
                    Event e = b.next(teq, kind);
                    Object want = expected.get(bits);
                    if (want == null) { // the MD for bits 3 has no user_ptr
                        assertThat(e.userPtr()).as("%s.mem_desc.user_ptr for bits %d", kind, bits).isNull();
                        assertThat(e.memDesc().userPtr()).isNull();
                    } else {
                        assertThat(e.userPtr()).as("%s.mem_desc.user_ptr for bits %d", kind, bits).isSameAs(want);
                        assertThat(e.memDesc().userPtr()).isSameAs(want);
                    }
                }
            }
        }
    }

    @Test
    @SpecAssertion("P-197")
    void memDescShowsTheThresholdAfterEachEvent() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(16);
            b.attach(PORTAL, ProcessId.ANY, 0L, ~0L, MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT,
                    MdOption.MANAGE_REMOTE).withThreshold(3).withEventQueue(teq), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)));
            for (int expected = 2; expected >= 0; expected--) {
                a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
                assertThat(b.next(teq, EventKind.PUT_START).memDescThreshold()).as("PUT_START threshold")
                        .isEqualTo(expected);
                assertThat(b.next(teq, EventKind.PUT_END).memDesc().threshold()).as("PUT_END threshold")
                        .isEqualTo(expected);
            }
            // threshold 0 with PTL_RETAIN: inactive, not unlinked, so no UNLINK event
            b.expectNoEvent(teq);
        }
    }

    @Test
    @SpecAssertion("P-198")
    void locallyManagedOffsetsAdvanceByTheLengths() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(16);
            MemorySegment region = job.allocate(64);
            b.attach(PORTAL, 0L, ~0L, region, teq, MdOption.OP_PUT);
            long expectedOffset = 0;
            for (int len : new int[] {8, 24, 5}) {
                MemorySegment source = job.pattern(len, len);
                MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source));
                a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 50L, 0L); // remote offset ignored
                assertThat(b.next(teq, EventKind.PUT_START).offset()).isEqualTo(expectedOffset);
                assertThat(b.next(teq, EventKind.PUT_END).offset()).isEqualTo(expectedOffset);
                assertThat(bytes(region.asSlice(expectedOffset, len))).isEqualTo(bytes(source));
                expectedOffset += len;
            }
        }
    }

    @Test
    @SpecAssertion("P-199")
    void remotelyManagedOffsetIsThePutsOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(16);
            MemorySegment region = job.allocate(64);
            b.attach(PORTAL, 0L, ~0L, region, teq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            MemorySegment source = job.pattern(8, 90);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source));
            for (long offset : new long[] {50, 3, 50, 0}) {
                a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, offset, 0L);
                assertThat(b.next(teq, EventKind.PUT_START).offset()).isEqualTo(offset);
                assertThat(b.next(teq, EventKind.PUT_END).offset()).isEqualTo(offset);
                assertThat(bytes(region.asSlice(offset, 8))).isEqualTo(bytes(source));
            }
        }
    }

    @Test
    @SpecAssertion("P-200")
    void ackMlengthIsTheTruncatedLength() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.attach(PORTAL, 0L, ~0L, job.allocate(20), b.eq(8), MdOption.OP_PUT, MdOption.TRUNCATE);
            EqHandle eq = a.eq(8);
            MdHandle md = a.bind(job.pattern(50, 1), eq);
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            Event ack = lastOf(a, eq, EventKind.ACK, 3);
            assertThat(ack.rlength()).as("ACK.rlength").isEqualTo(50);
            assertThat(ack.mlength()).as("ACK.mlength").isEqualTo(20);
        }
    }

    @Test
    @SpecAssertion("P-201")
    void eachAckNamesTheMdItsPutCameFrom() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.attach(PORTAL, 0L, ~0L, job.allocate(8), b.eq(16), MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(16);
            MdHandle first = a.bind(job.pattern(8, 1), eq);
            MdHandle second = a.bind(job.pattern(8, 2), eq);
            a.ptl().put(second, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 2L, 0L, 0L);
            a.ptl().put(first, AckRequest.ACK_REQ, b.id(), PORTAL, 0, 1L, 0L, 0L);
            List<Event> acks = collect(a, eq, 6).stream().filter(e -> e.type() == EventKind.ACK).toList();
            assertThat(acks).hasSize(2);
            for (Event ack : acks) {
                assertThat(ack.mdHandle()).as("ACK.md_handle for bits %d", ack.matchBits())
                        .isEqualTo(ack.matchBits() == 1L ? first : second);
            }
        }
    }

    @Test
    @SpecAssertion("P-202")
    void mdsWithoutAQueueLogNothingButStillWork() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            // queues that exist on both sides, used by no MD of the operations below
            EqHandle aq = a.eq(8);
            EqHandle bq = b.eq(8);
            a.bind(job.allocate(8), aq);
            MemorySegment putRegion = job.allocate(16);
            MemorySegment getRegion = job.pattern(16, 70);
            b.attach(PORTAL, ProcessId.ANY, 1L, 0L, MemoryDescriptor.of(putRegion).withOptions(MdOption.OP_PUT),
                    Unlink.RETAIN, Unlink.RETAIN);
            b.attach(PORTAL, ProcessId.ANY, 2L, 0L, MemoryDescriptor.of(getRegion).withOptions(MdOption.OP_GET),
                    Unlink.RETAIN, Unlink.RETAIN);
            MemorySegment source = job.pattern(16, 10);
            MemorySegment sink = job.allocate(16);
            a.ptl().put(a.ptl().mdBind(a.ni(), MemoryDescriptor.of(source)), AckRequest.ACK_REQ, b.id(), PORTAL, 0,
                    1L, 0L, 0L);
            a.ptl().get(a.ptl().mdBind(a.ni(), MemoryDescriptor.of(sink)), b.id(), PORTAL, 0, 2L, 0L);
            awaitBytes(putRegion, bytes(source));
            awaitBytes(sink, bytes(getRegion));
            Rank.expectNoEvent(a.queue(aq), b.queue(bq));
            for (Rank r : List.of(a, b)) {
                assertThat(r.drops()).isZero();
                assertThat(r.ptl().niStatus(r.ni(), StatusRegister.EVENTS_DROPPED)).isZero();
            }
        }
    }

    // ---- UNLINK ---------------------------------------------------------------------------------

    @Test
    @SpecAssertion({"P-203", "P-204"})
    void unlinkFollowsTheEndThatExhaustedTheThreshold() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(16);
            b.attach(PORTAL, ProcessId.ANY, 0L, ~0L, MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT,
                    MdOption.MANAGE_REMOTE).withThreshold(2).withEventQueue(teq), Unlink.UNLINK, Unlink.RETAIN);
            EqHandle eq = a.eq(16);
            MdHandle md = a.bind(job.pattern(8, 0), eq);
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            b.expectNoEvent(teq); // threshold 1 left: still linked
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            Event end = b.next(teq, EventKind.PUT_END);
            Event unlink = b.next(teq, EventKind.UNLINK);
            assertThat(unlink.link()).isEqualTo(end.sequence());
            assertThat(unlink.mdHandle()).isEqualTo(end.mdHandle());
            b.expectNoEvent(teq);
            // a bound MD is never unlinked automatically: the initiator's queue has no UNLINK
            assertThat(kinds(a.drain(eq))).doesNotContain(EventKind.UNLINK);
        }
    }

    @Test
    @SpecAssertion("P-203")
    void retainedMdReachingThresholdZeroPostsNoUnlink() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(16);
            b.attach(PORTAL, ProcessId.ANY, 0L, ~0L, MemoryDescriptor.of(job.allocate(8)).withOptions(MdOption.OP_PUT)
                    .withThreshold(1).withEventQueue(teq), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(8, 0)));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            b.next(teq, EventKind.PUT_START);
            b.next(teq, EventKind.PUT_END);
            b.expectNoEvent(teq);
        }
    }

    @Test
    @SpecAssertion({"P-205", "P-204"})
    void unlinkTakesNoThreshold() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle teq = b.eq(16);
            // threshold 5, but max_offset 8: the first 16-byte put makes it inactive and unlinks it
            b.attach(PORTAL, ProcessId.ANY, 0L, ~0L, MemoryDescriptor.of(job.allocate(64)).withOptions(MdOption.OP_PUT)
                    .withThreshold(5).withMaxOffset(8).withEventQueue(teq), Unlink.UNLINK, Unlink.RETAIN);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(job.pattern(16, 0)));
            a.ptl().put(md, AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, 0L);
            Event start = b.next(teq, EventKind.PUT_START);
            Event end = b.next(teq, EventKind.PUT_END);
            Event unlink = b.next(teq, EventKind.UNLINK);
            assertThat(start.memDescThreshold()).isEqualTo(4);
            assertThat(end.memDescThreshold()).isEqualTo(4);
            assertThat(unlink.memDescThreshold()).as("threshold in UNLINK.mem_desc").isEqualTo(4);
            assertThat(unlink.link()).isEqualTo(end.sequence());
        }
    }

    // ---- ordering (§4.3) ------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-207")
    void sendStartOrderIsPutStartOrder() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            int n = 50;
            EqHandle teq = b.eq(4 * n);
            b.attach(PORTAL, 0L, ~0L, job.allocate(8), teq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(4 * n);
            MdHandle md = a.bind(job.pattern(8, 0), eq);
            for (int i = 0; i < n; i++) {
                a.ptl().put(md, i % 3 == 0 ? AckRequest.ACK_REQ : AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L, i);
            }
            List<Long> sent = hdrOf(collect(a, eq, 2 * n + (n + 2) / 3), EventKind.SEND_START);
            List<Long> received = hdrOf(collect(b, teq, 2 * n), EventKind.PUT_START);
            assertThat(sent).hasSize(n);
            assertThat(received).as("PUT_START order at the target").containsExactlyElementsOf(sent);
        }
    }

    @Test
    @SpecAssertion("P-207")
    void sendStartOrderIsPutStartOrderWithTwoThreadsPutting() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            int perThread = 300;
            EqHandle teq = b.eq(8 * perThread);
            b.attach(PORTAL, 0L, ~0L, job.allocate(8), teq, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(8 * perThread);
            List<MdHandle> mds = List.of(a.bind(job.pattern(8, 1), eq), a.bind(job.pattern(8, 2), eq));
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        go.await();
                        for (int i = 0; i < perThread; i++) {
                            a.ptl().put(mds.get(thread), AckRequest.NOACK_REQ, b.id(), PORTAL, 0, 0L, 0L,
                                    ((long) thread << 32) | i);
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : done) {
                    f.get(TckTransport.patience().toSeconds(), TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            List<Long> sent = hdrOf(collect(a, eq, 4 * perThread), EventKind.SEND_START);
            List<Long> received = hdrOf(collect(b, teq, 4 * perThread), EventKind.PUT_START);
            assertThat(sent).hasSize(2 * perThread).doesNotHaveDuplicates();
            assertThat(received).as("PUT_START order at the target").containsExactlyElementsOf(sent);
        }
    }

    @Test
    @SpecAssertion("P-208")
    void sendEndComesBeforeTheAck() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            int n = 20;
            b.attach(PORTAL, 0L, ~0L, job.allocate(8), b.eq(4 * n), MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(4 * n);
            MdHandle md = a.bind(job.pattern(8, 0), eq);
            for (int i = 0; i < n; i++) {
                a.ptl().put(md, AckRequest.ACK_REQ, b.id(), PORTAL, 0, i, 0L, 0L);
            }
            List<Event> events = collect(a, eq, 3 * n);
            for (long bits = 0; bits < n; bits++) {
                int sendEnd = indexOf(events, EventKind.SEND_END, bits);
                int ack = indexOf(events, EventKind.ACK, bits);
                assertThat(sendEnd).as("SEND_END of put %d", bits).isNotNegative();
                assertThat(ack).as("ACK of put %d comes after its SEND_END", bits).isGreaterThan(sendEnd);
                assertThat(events.get(ack).sequence()).isGreaterThan(events.get(sendEnd).sequence());
            }
        }
    }

    @Test
    @SpecAssertion("P-209")
    void replyStartNeverPrecedesGetStart() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            int n = 20;
            EqHandle teq = b.eq(4 * n);
            b.attach(PORTAL, 0L, ~0L, job.pattern(16, 3), teq, MdOption.OP_GET, MdOption.MANAGE_REMOTE);
            EqHandle eq = a.eq(4 * n);
            MdHandle md = a.bind(job.allocate(16), eq);
            for (int i = 0; i < n; i++) {
                a.ptl().get(md, b.id(), PORTAL, 0, i, 0L);
            }
            Set<Long> getStarted = new HashSet<>();
            List<Event> targetEvents = new ArrayList<>();
            int replies = 0;
            while (replies < n) {
                Event e = a.next(eq);
                if (e.type() != EventKind.REPLY_START) {
                    continue;
                }
                replies++;
                // whatever the target has logged so far, without waiting
                Event t = new Event();
                while (b.ptl().eqGet(teq, t) != ReturnCode.EQ_EMPTY) {
                    targetEvents.add(new Event().copyFrom(t));
                    if (t.type() == EventKind.GET_START) {
                        getStarted.add(t.matchBits());
                    }
                }
                assertThat(getStarted).as("GET_START logged before REPLY_START of get %d", e.matchBits())
                        .contains(e.matchBits());
            }
            targetEvents.addAll(b.drain(teq));
            for (long bits = 0; bits < n; bits++) {
                assertThat(indexOf(targetEvents, EventKind.GET_END, bits))
                        .isGreaterThan(indexOf(targetEvents, EventKind.GET_START, bits));
            }
        }
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** A job whose rank r runs as uid {@code uids[r]} with pid {@code pids[r]} on the default interface. */
    private static TckJob jobOf(int[] uids, int[] pids) {
        TckJob.Builder builder = TckJob.builder(uids.length).uninitialised();
        for (int r = 0; r < uids.length; r++) {
            builder.uid(r, uids[r]);
        }
        TckJob job = builder.start();
        try {
            for (int r = 0; r < uids.length; r++) {
                Rank rank = job.rank(r);
                rank.ptl().init();
                rank.ptl().niInit(InterfaceId.DEFAULT, pids[r], null);
                rank.initDefaultInterface(); // a repeat with PTL_PID_ANY returns the same interface
                assertThat(rank.id()).isEqualTo(ProcessId.of(r, pids[r]));
                assertThat(rank.uid()).isEqualTo(uids[r]);
            }
            return job;
        } catch (RuntimeException | AssertionError e) {
            job.close();
            throw e;
        }
    }

    private static void assertFields(Event e, ProcessId initiator, int uid, int portal, long bits, long rlength,
                                     long mlength, long offset, MdHandle md, long hdrData) {
        String k = e.type().name();
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(e.initiator()).as("%s.initiator", k).isEqualTo(initiator);
        soft.assertThat(e.initiatorNid()).as("%s.initiator.nid", k).isEqualTo(initiator.nid());
        soft.assertThat(e.initiatorPid()).as("%s.initiator.pid", k).isEqualTo(initiator.pid());
        soft.assertThat(e.uid()).as("%s.uid", k).isEqualTo(uid);
        soft.assertThat(e.portal()).as("%s.portal", k).isEqualTo(portal);
        soft.assertThat(e.matchBits()).as("%s.match_bits", k).isEqualTo(bits);
        soft.assertThat(e.rlength()).as("%s.rlength", k).isEqualTo(rlength);
        soft.assertThat(e.mlength()).as("%s.mlength", k).isEqualTo(mlength);
        soft.assertThat(e.offset()).as("%s.offset", k).isEqualTo(offset);
        soft.assertThat(e.mdHandle()).as("%s.md_handle", k).isEqualTo(md);
        soft.assertThat(e.mdHandleValue()).as("%s.md_handle value", k).isEqualTo(md.value());
        soft.assertThat(e.hdrData()).as("%s.hdr_data", k).isEqualTo(hdrData);
        soft.assertThat(e.niFailType()).as("%s.ni_fail_type", k).isEqualTo(NiFailType.OK);
        soft.assertThat(e.sequence()).as("%s.sequence", k).isPositive();
        soft.assertAll();
    }

    private static void assertMemDesc(Event e, MemorySegment start, long length, int threshold, long maxOffset,
                                      int options, Object userPtr, EqHandle eq) {
        String k = e.type().name();
        MemoryDescriptor md = e.memDesc();
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(md.start().address()).as("%s.mem_desc.start", k).isEqualTo(start.address());
        soft.assertThat(e.memDescStart().address()).as("%s.mem_desc.start", k).isEqualTo(start.address());
        soft.assertThat(md.length()).as("%s.mem_desc.length", k).isEqualTo(length);
        soft.assertThat(e.memDescLength()).as("%s.mem_desc.length", k).isEqualTo(length);
        soft.assertThat(md.threshold()).as("%s.mem_desc.threshold", k).isEqualTo(threshold);
        soft.assertThat(e.memDescThreshold()).as("%s.mem_desc.threshold", k).isEqualTo(threshold);
        soft.assertThat(md.maxOffset()).as("%s.mem_desc.max_offset", k).isEqualTo(maxOffset);
        soft.assertThat(md.options()).as("%s.mem_desc.options", k).isEqualTo(options);
        soft.assertThat(md.userPtr()).as("%s.mem_desc.user_ptr", k).isSameAs(userPtr);
        soft.assertThat(e.userPtr()).as("%s.mem_desc.user_ptr", k).isSameAs(userPtr);
        soft.assertThat(md.eventq()).as("%s.mem_desc.eventq", k).isEqualTo(eq);
        soft.assertAll();
    }

    /** Takes exactly {@code n} events (waiting for each). */
    private static List<Event> collect(Rank r, EqHandle eq, int n) {
        List<Event> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            events.add(new Event().copyFrom(r.next(eq)));
        }
        return events;
    }

    /** Takes {@code n} events and returns the last one, which must be of {@code kind}. */
    private static Event lastOf(Rank r, EqHandle eq, EventKind kind, int n) {
        List<Event> events = collect(r, eq, n);
        Event last = events.get(n - 1);
        assertThat(last.type()).as("last of %s", events).isEqualTo(kind);
        return last;
    }

    private static EventKind completionOf(EventKind start, boolean failed) {
        return switch (start) {
            case GET_START -> failed ? EventKind.GET_FAIL : EventKind.GET_END;
            case PUT_START -> failed ? EventKind.PUT_FAIL : EventKind.PUT_END;
            case REPLY_START -> failed ? EventKind.REPLY_FAIL : EventKind.REPLY_END;
            case SEND_START -> failed ? EventKind.SEND_FAIL : EventKind.SEND_END;
            default -> throw new IllegalArgumentException(start + " is not a START kind");
        };
    }

    private static @Nullable EventKind startOf(EventKind completion) {
        for (EventKind s : List.of(EventKind.GET_START, EventKind.PUT_START, EventKind.REPLY_START,
                EventKind.SEND_START)) {
            if (completion == completionOf(s, false) || completion == completionOf(s, true)) {
                return s;
            }
        }
        return null;
    }

    /**
     * Every START is followed by exactly one END or FAIL of its operation with the same link (and a
     * different, larger sequence); every END/FAIL follows a START with its link.
     */
    private static void assertPaired(List<Event> events) {
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            if (e.type().isStart()) {
                assertThat(e.link()).as("link of %s", e).isEqualTo(e.sequence());
                EventKind end = completionOf(e.type(), false);
                EventKind failure = completionOf(e.type(), true);
                List<Event> completions = events.subList(i + 1, events.size()).stream()
                        .filter(c -> (c.type() == end || c.type() == failure) && c.link() == e.link()).toList();
                assertThat(completions).as("completions of %s in %s", e, events).hasSize(1);
                assertThat(completions.get(0).sequence()).as("sequence of the completion of %s", e)
                        .isNotEqualTo(e.sequence()).isGreaterThan(e.sequence());
            } else {
                EventKind start = startOf(e.type());
                if (start != null) {
                    long count = events.subList(0, i).stream()
                            .filter(s -> s.type() == start && s.link() == e.link()).count();
                    assertThat(count).as("START before %s", e).isEqualTo(1);
                }
            }
        }
    }

    private static void assertUniqueSequences(List<Event> events) {
        assertThat(events.stream().map(Event::sequence).toList()).as("sequences").doesNotHaveDuplicates();
    }

    private static List<Long> hdrOf(List<Event> events, EventKind kind) {
        return events.stream().filter(e -> e.type() == kind).map(Event::hdrData).toList();
    }

    private static List<EventKind> kinds(List<Event> events) {
        return events.stream().map(Event::type).toList();
    }

    private static int indexOf(List<Event> events, EventKind kind, long bits) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).type() == kind && events.get(i).matchBits() == bits) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    /** Waits until {@code s} holds {@code expected}: for operations that log no event. */
    private static void awaitBytes(MemorySegment s, byte[] expected) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (!Arrays.equals(bytes(s), expected)) {
            if (System.nanoTime() > deadline) {
                fail("memory never reached the expected contents within " + TckTransport.patience());
            }
            Thread.yield();
        }
    }
}
