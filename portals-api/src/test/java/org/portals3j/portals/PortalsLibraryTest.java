package org.portals3j.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.portals3j.transport.Job;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * The supertype of both dialects: code written against {@link PortalsLibrary} alone drives a 3.2 and a 3.3
 * library, and the shared methods keep the conventions (PTL_NOINIT before PtlInit, PTL_SEGV for null).
 */
class PortalsLibraryTest {

    private static PortalsLibrary create(String dialect, Job job, Transport endpoint) {
        return dialect.equals("3.3") ? Portals33.create(job, endpoint) : Portals.create(job, endpoint);
    }

    // The functions whose signatures differ, in each dialect's form: the switch covers every subclass.

    private static EqHandle eqAlloc(PortalsLibrary library, NiHandle ni, long count) {
        return switch (library) {
            case Portals p -> p.eqAlloc(ni, count);
            case Portals33 p -> p.eqAlloc(ni, count, Portals33.EQ_HANDLER_NONE);
        };
    }

    private static MdHandle mdAttach(PortalsLibrary library, MeHandle me, MemoryDescriptor md) {
        return switch (library) {
            case Portals p -> p.mdAttach(me, md, Unlink.RETAIN, Unlink.RETAIN);
            case Portals33 p -> p.mdAttach(me, md, Unlink.RETAIN);
        };
    }

    private static MdHandle mdBind(PortalsLibrary library, NiHandle ni, MemoryDescriptor md) {
        return switch (library) {
            case Portals p -> p.mdBind(ni, md);
            case Portals33 p -> p.mdBind(ni, md, Unlink.RETAIN);
        };
    }

    /** Takes the next event of {@code eq} (waiting up to 10 s for it) and checks its kind. */
    private static Event next(PortalsLibrary library, EqHandle eq, EventKind kind) throws InterruptedException {
        Event e = new Event();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ReturnCode rc;
        while ((rc = library.eqGet(eq, e)) == ReturnCode.EQ_EMPTY && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(rc).as("an event (%s expected) within 10 s", kind).isEqualTo(ReturnCode.OK);
        assertThat(e.type()).isEqualTo(kind);
        return e;
    }

    @ParameterizedTest(name = "Portals {0}")
    @ValueSource(strings = {"3.2", "3.3"})
    void theSharedMethodsPutGetUpdateAndTearDownInBothDialects(String dialect) throws Exception {
        Job job = Job.local(2);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try (Arena arena = Arena.ofShared()) {
            PortalsLibrary a = create(dialect, job, endpoints.get(0));
            PortalsLibrary b = create(dialect, job, endpoints.get(1));
            assertThat(a.init()).isPositive();
            b.init();
            NiHandle na = a.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            NiHandle nb = b.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            assertThat(a.rank()).isZero();
            assertThat(b.job()).isSameAs(job);
            assertThat(a.niDist(na, a.getId(na))).isZero();
            assertThat(a.niDist(na, b.getId(nb))).isEqualTo(1);
            EqHandle eqa = eqAlloc(a, na, 8);
            EqHandle eqb = eqAlloc(b, nb, 8);

            MemorySegment target = arena.allocate(16);
            MeHandle first = b.meAttach(nb, 3, ProcessId.ANY, 0x7, 0, Unlink.RETAIN, InsertPosition.AFTER);
            MeHandle me = b.meInsert(first, ProcessId.ANY, 0x7, 0, Unlink.RETAIN, InsertPosition.BEFORE);
            b.meUnlink(first);
            MdHandle targetMd = mdAttach(b, me, MemoryDescriptor.of(target)
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE).withEventQueue(eqb));
            assertThat(b.niHandle(targetMd)).isEqualTo(nb);

            MemorySegment source = arena.allocate(16);
            source.fill((byte) 5);
            MdHandle sourceMd = mdBind(a, na, MemoryDescriptor.of(source).withEventQueue(eqa));
            a.put(sourceMd, AckRequest.NOACK_REQ, b.getId(nb), 3, 0, 0x7, 0, 0xBEEFL);
            next(b, eqb, EventKind.PUT_START);
            assertThat(next(b, eqb, EventKind.PUT_END).hdrData()).isEqualTo(0xBEEFL);
            assertThat(target.get(ValueLayout.JAVA_BYTE, 15)).isEqualTo((byte) 5);
            Event sendStart = new Event();
            assertThat(a.eqWait(eqa, sendStart)).as("SEND_START, logged before PtlPut returns")
                    .isEqualTo(ReturnCode.OK);
            assertThat(sendStart.type()).isEqualTo(EventKind.SEND_START);
            next(a, eqa, EventKind.SEND_END);

            MemorySegment back = arena.allocate(4);
            MdHandle backMd = mdBind(a, na, MemoryDescriptor.of(back).withEventQueue(eqa));
            a.get(backMd, b.getId(nb), 3, 0, 0x7, 0);
            next(a, eqa, EventKind.REPLY_START);
            assertThat(next(a, eqa, EventKind.REPLY_END).mlength()).isEqualTo(4);
            assertThat(back.get(ValueLayout.JAVA_BYTE, 3)).isEqualTo((byte) 5);

            MdUpdateResult update = a.mdUpdate(backMd, MemoryDescriptor.of(back).withThreshold(1), EqHandle.NONE);
            assertThat(update.status()).isEqualTo(ReturnCode.OK);
            assertThat(a.eqGet(eqa, new Event())).isEqualTo(ReturnCode.EQ_EMPTY);
            a.mdUnlink(backMd);
            a.eqFree(eqa);
            assertThat(a.niStatus(na, StatusRegister.DROP_COUNT)).isZero();
            a.niFini(na);
            a.fini();
            b.fini();
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    @ParameterizedTest(name = "Portals {0}")
    @ValueSource(strings = {"3.2", "3.3"})
    @SuppressWarnings("nullness") // the nulls are the point: the Java form of an illegal address
    void theSharedMethodsAnswerNoinitBeforePtlInitAndSegvForANullArgument(String dialect) throws Exception {
        Job job = Job.local(1);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try {
            PortalsLibrary p = create(dialect, job, endpoints.get(0));
            assertCode(() -> p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null), ReturnCode.NOINIT);
            assertCode(() -> p.eqGet(new EqHandle(1), new Event()), ReturnCode.NOINIT);
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            assertCode(() -> p.getUid(null), ReturnCode.SEGV);
            assertCode(() -> p.eqWait(EqHandle.NONE, null), ReturnCode.SEGV);
            assertCode(() -> p.meAttach(ni, 0, null, 0, 0, Unlink.RETAIN, InsertPosition.AFTER), ReturnCode.SEGV);
            assertCode(() -> p.put(null, AckRequest.ACK_REQ, p.getId(ni), 0, 0, 0, 0, 0), ReturnCode.SEGV);
            p.fini();
            assertCode(() -> p.getId(ni), ReturnCode.NOINIT);
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    private static void assertCode(ThrowingCallable call, ReturnCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(PortalsException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }
}
