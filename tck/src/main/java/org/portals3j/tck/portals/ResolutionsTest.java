package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
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
import org.portals3j.portals.NiFailType;
import org.portals3j.portals.NiLimits;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.Resolves;
import org.portals3j.tck.SpecAssertion;

/**
 * The points where the spec is open (our choices on them) that no catalogue assertion pins down: each test fixes the
 * resolution this implementation documents.
 */
@DisplayName("Resolutions of open points")
class ResolutionsTest {

    @Test
    @Resolves("A-02")
    void meInsertWithoutUnlinkArgumentCreatesAnEntryThatGoesWithItsMd() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(16);
            MeHandle anchor = b.ptl().meAttach(b.ni(), 3, ProcessId.ANY, 99, 0, Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle me = b.ptl().meInsert(anchor, ProcessId.ANY, 7, 0, InsertPosition.BEFORE);
            b.ptl().mdAttach(me, MemoryDescriptor.of(job.allocate(8)).withThreshold(1).withOptions(MdOption.OP_PUT)
                    .withEventQueue(eq), Unlink.UNLINK, Unlink.RETAIN);
            a.ptl().put(a.bind(job.allocate(8), a.eq(8)), AckRequest.NOACK_REQ, b.id(), 3, 0, 7, 0, 0);
            b.next(eq, EventKind.PUT_START);
            b.next(eq, EventKind.PUT_END);
            b.next(eq, EventKind.UNLINK);
            assertCode(ReturnCode.INV_ME, () -> b.ptl().meUnlink(me));
            b.ptl().meUnlink(anchor); // the anchor (PTL_RETAIN, never had an MD) is still there
        }
    }

    @Test
    @Resolves("A-08")
    void aSecondNiInitWithAnotherExplicitPidIsADuplicateAndNegativeAclSizeIsInvalid() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals ptl = job.rank(0).ptl();
            ptl.init();
            ptl.niInit(InterfaceId.DEFAULT, 17, null);
            assertThat(ptl.niInit(InterfaceId.DEFAULT, 17, null).handle())
                    .isEqualTo(ptl.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle());
            assertCode(ReturnCode.INIT_DUP, () -> ptl.niInit(InterfaceId.DEFAULT, 18, null));
            assertCode(ReturnCode.INV_ASIZE, () -> ptl.niInit(InterfaceId.of(1), ProcessId.PID_ANY,
                    new NiLimits(10, 10, 10, -1, 10)));
        }
    }

    @Test
    @Resolves("I-02")
    void desiredLimitsAreHonouredWithinTheMaximum() {
        try (TckJob job = TckJob.builder(1).uninitialised().start()) {
            Portals ptl = job.rank(0).ptl();
            ptl.init();
            NiLimits actual = ptl.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, new NiLimits(5, 6, 7, 2, 3)).actual();
            assertThat(actual).isEqualTo(new NiLimits(5, 6, 7, 2, 3));
            var ni = ptl.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            assertCode(ReturnCode.INV_PTINDEX,
                    () -> ptl.meAttach(ni, 4, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER));
            assertCode(ReturnCode.AC_INV_INDEX, () -> ptl.acEntry(ni, 3, ProcessId.ANY, Portals.UID_ANY, 0));
            NiLimits huge = ptl.niInit(InterfaceId.of(1), ProcessId.PID_ANY,
                    new NiLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE,
                            Integer.MAX_VALUE)).actual();
            assertThat(huge).isEqualTo(NiLimits.MAXIMUM);
        }
    }

    @Test
    @Resolves({"A-38", "A-23"})
    void mdUpdateRestartsTheLocalOffset() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(16);
            MemorySegment region = job.allocate(64);
            Rank.Attached t = b.attach(5, 1, 0, region, eq, MdOption.OP_PUT);
            MdHandle src = a.bind(job.pattern(10, 1), a.eq(16));
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), 5, 0, 1, 0, 0);
            assertThat(b.next(eq, EventKind.PUT_START).offset()).isZero();
            b.next(eq, EventKind.PUT_END);
            var result = b.ptl().mdUpdate(t.md(), MemoryDescriptor.of(region).withOptions(MdOption.OP_PUT)
                    .withEventQueue(eq).withUserPtr("updated"), EqHandle.NONE);
            assertThat(result.status()).isEqualTo(ReturnCode.OK);
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), 5, 0, 1, 0, 0);
            Event start = b.next(eq, EventKind.PUT_START);
            assertThat(start.offset()).as("the update restarted the local offset").isZero();
            assertThat(start.userPtr()).isEqualTo("updated");
            b.next(eq, EventKind.PUT_END);
            // a read (no new value) is no update: the offset goes on from 10
            assertThat(b.ptl().mdUpdate(t.md(), null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), 5, 0, 1, 0, 0);
            assertThat(b.next(eq, EventKind.PUT_START).offset()).isEqualTo(10);
            b.next(eq, EventKind.PUT_END);
            assertThat(region.get(ValueLayout.JAVA_BYTE, 10)).isEqualTo((byte) 1);
            assertThat(region.get(ValueLayout.JAVA_BYTE, 20)).isZero();
        }
    }

    @Test
    @Resolves("A-39")
    void anMdWhoseEventQueueWasFreedStillWorksAndLogsNothing() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle doomed = b.eq(8);
            MemorySegment region = job.allocate(8);
            b.attach(6, 0, 0, region, doomed, MdOption.OP_PUT);
            b.ptl().eqFree(doomed);
            EqHandle fresh = b.eq(8); // may reuse the freed slot: must not receive the old MD's events
            a.ptl().put(a.bind(job.pattern(8, 40), a.eq(8)), AckRequest.NOACK_REQ, b.id(), 6, 0, 0, 0, 0);
            b.expectNoEvent(fresh);
            assertThat(region.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 40);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @Resolves("A-57")
    void anEventQueueOfNoEventsIsRefused() {
        try (TckJob job = TckJob.start(1)) {
            Rank a = job.rank(0);
            assertCode(ReturnCode.NOSPACE, () -> a.ptl().eqAlloc(a.ni(), 0));
            assertCode(ReturnCode.NOSPACE, () -> a.ptl().eqAlloc(a.ni(), -1));
        }
    }

    @Test
    @Resolves({"A-26", "A-48"})
    void aPutThatFailsDoesNotAutoUnlinkItsMd() {
        Arena sourceMemory = Arena.ofShared();
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle aeq = a.eq(8);
            EqHandle beq = b.eq(8);
            Rank.Attached t = b.attach(7, ProcessId.ANY, 0, 0, MemoryDescriptor.of(job.allocate(16))
                    .withThreshold(1).withOptions(MdOption.OP_PUT).withEventQueue(beq), Unlink.UNLINK, Unlink.RETAIN);
            MdHandle src = a.bind(sourceMemory.allocate(16), aeq);
            sourceMemory.close(); // the initiator's memory goes away before the data is read
            a.ptl().put(src, AckRequest.ACK_REQ, b.id(), 7, 0, 0, 0, 0);
            a.next(aeq, EventKind.SEND_START);
            Event sendFail = a.next(aeq, EventKind.SEND_FAIL);
            assertThat(sendFail.niFailType()).isEqualTo(NiFailType.MEMORY_FAULT);
            b.next(beq, EventKind.PUT_START);
            assertThat(b.next(beq, EventKind.PUT_FAIL).niFailType()).isNotEqualTo(NiFailType.OK);
            b.expectNoEvent(beq); // no UNLINK: the check happens only after a success
            assertThat(b.ptl().mdUpdate(t.md(), null, EqHandle.NONE).previous().threshold()).isZero();
            a.expectNoEvent(aeq); // and no ack for a failed put
        }
    }

    @Test
    @Resolves("A-48")
    void aReplyThatCannotBeDeliveredEndsTheGetWithGetFailAndReplyFail() {
        Arena replyMemory = Arena.ofShared();
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle aeq = a.eq(8);
            EqHandle beq = b.eq(8);
            b.attach(8, 0, 0, job.pattern(16, 3), beq, MdOption.OP_GET);
            MdHandle sink = a.bind(replyMemory.allocate(16), aeq);
            replyMemory.close(); // the reply has nowhere to land
            a.ptl().get(sink, b.id(), 8, 0, 0, 0);
            b.next(beq, EventKind.GET_START);
            Event end = b.next(beq);
            if (end.type() == EventKind.GET_END) {
                // a staged reply (copied, GET_END logged as it left): its loss is counted, not reported
                assertThat(end.niFailType()).isEqualTo(NiFailType.OK);
                b.awaitRegister(StatusRegister.SENDS_LOST, 1);
            } else {
                assertThat(end.type()).isEqualTo(EventKind.GET_FAIL);
                assertThat(end.niFailType()).isNotEqualTo(NiFailType.OK);
            }
            a.next(aeq, EventKind.REPLY_START);
            assertThat(a.next(aeq, EventKind.REPLY_FAIL).niFailType()).isEqualTo(NiFailType.MEMORY_FAULT);
            a.ptl().mdUnlink(sink); // no longer pending
        }
    }

    @Test
    @Resolves("A-53")
    void aGetToADeadTargetCompletesWithReplyFailAndFreesItsMd() {
        try (TckJob job = TckJob.builder(2).start()) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle aeq = a.eq(8);
            // Nothing on b matches: the get is dropped there and never answered...
            MdHandle sink = a.bind(job.allocate(8), aeq);
            a.ptl().get(sink, b.id(), 9, 0, 0, 0);
            assertCode(ReturnCode.MD_INUSE, () -> a.ptl().mdUnlink(sink));
            // ...until b's process dies: then it fails, and the MD is free again.
            job.kill(1);
            Event start = a.next(aeq, EventKind.REPLY_START);
            Event fail = a.next(aeq, EventKind.REPLY_FAIL);
            assertThat(fail.link()).isEqualTo(start.sequence());
            assertThat(fail.niFailType()).isEqualTo(NiFailType.PEER_DEAD);
            a.ptl().mdUnlink(sink);
        }
    }

    @Test
    @Resolves("A-37")
    void meUnlinkWithAnOperationPendingSucceedsAndTheOperationStillCompletes() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle aeq = a.eq(8);
            // An attached MD used as the local MD of a get that nobody answers: pending for now.
            Rank.Attached local = a.attach(12, ProcessId.ANY, 0, 0, MemoryDescriptor.of(job.allocate(8))
                    .withEventQueue(aeq), Unlink.RETAIN, Unlink.RETAIN);
            a.ptl().get(local.md(), b.id(), 13, 0, 0, 0);
            assertCode(ReturnCode.MD_INUSE, () -> a.ptl().mdUnlink(local.md()));
            a.ptl().meUnlink(local.me());
            assertCode(ReturnCode.INV_MD, () -> a.ptl().mdUnlink(local.md()));
            a.expectNoEvent(aeq); // an explicit unlink posts no UNLINK
            job.kill(1);
            Event start = a.next(aeq, EventKind.REPLY_START);
            Event fail = a.next(aeq, EventKind.REPLY_FAIL);
            assertThat(start.mdHandleValue()).isEqualTo(local.md().value());
            assertThat(fail.link()).isEqualTo(start.sequence());
        }
    }

    @Test
    @Resolves("A-19")
    void waitersAreServedInTheOrderTheyStartedWaiting() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eq = b.eq(8);
            b.attach(10, ProcessId.ANY, 0, 0, MemoryDescriptor.empty().withOptions(MdOption.OP_PUT, MdOption.TRUNCATE)
                    .withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
            long[] served = new long[3]; // the sequence of the event each waiter got
            List<Thread> waiters = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int index = w;
                Thread t = Thread.ofPlatform().name("waiter-" + w).start(() -> {
                    Event e = new Event();
                    b.ptl().eqWait(eq, e);
                    served[index] = e.sequence();
                });
                waiters.add(t);
                awaitBlocked(t);
            }
            MdHandle src = a.bind(job.allocate(0), a.eq(8));
            // One put logs PUT_START then PUT_END: one event each for the first two waiters, in order.
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), 10, 0, 0, 0, 0);
            waiters.get(0).join(10_000);
            waiters.get(1).join(10_000);
            assertThat(waiters.get(0).isAlive()).isFalse();
            assertThat(waiters.get(1).isAlive()).isFalse();
            assertThat(waiters.get(2).isAlive()).as("the third waiter has no event yet").isTrue();
            assertThat(served[0]).as("the first waiter got the first event").isPositive().isLessThan(served[1]);
            a.ptl().put(src, AckRequest.NOACK_REQ, b.id(), 10, 0, 0, 0, 0);
            waiters.get(2).join(10_000);
            assertThat(served[2]).isGreaterThan(served[1]);
            assertThat(b.next(eq).type()).isEqualTo(EventKind.PUT_END);
        }
    }

    @Test
    @Resolves("A-60")
    void matchEntriesDoNotMatchOnUserIds() {
        try (TckJob job = TckJob.builder(2).uid(0, 5001).uid(1, 5002).start()) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            b.ptl().acEntry(b.ni(), 1, ProcessId.ANY, Portals.UID_ANY, Portals.PT_INDEX_ANY);
            EqHandle eq = b.eq(8);
            b.attach(11, 0, 0, job.allocate(4), eq, MdOption.OP_PUT);
            a.ptl().put(a.bind(job.allocate(4), a.eq(8)), AckRequest.NOACK_REQ, b.id(), 11, 1, 0, 0, 0);
            assertThat(b.next(eq, EventKind.PUT_START).uid()).isEqualTo(5001);
        }
    }

    @Test
    @Resolves("A-52")
    void distanceIsZeroToOneselfAndOneToAnyOtherProcess() {
        try (TckJob job = TckJob.start(3)) {
            Rank a = job.rank(0);
            assertThat(a.ptl().niDist(a.ni(), a.id())).isZero();
            assertThat(a.ptl().niDist(a.ni(), job.rank(1).id())).isEqualTo(1);
            assertThat(a.ptl().niDist(a.ni(), job.rank(2).id())).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-272")
    void initFailsWhenTheProcessHasNoNetworkEndpoint() {
        try (TckJob job = TckJob.builder(2).uninitialised().start()) {
            job.kill(0);
            assertCode(ReturnCode.FAIL, () -> job.rank(0).ptl().init());
        }
    }

    private static void awaitBlocked(Thread t) throws InterruptedException {
        // The default idle strategy spins, yields, then parks: wait until the thread parks.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(t.getName() + " never blocked in PtlEQWait");
            }
            Thread.sleep(1);
        }
    }
}
