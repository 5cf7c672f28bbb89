package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * When a thread blocked in PtlEQWait is handed a put's START event: after the deposit for a small put
 * ({@link PortalsEngine#DEFERRED_WAKE_LIMIT}), at once for a large one. The receive path is driven
 * here as a transport drives it, so the test decides when the deposit happens.
 */
class DeferredWakeTest {
    private static final int PORTAL = 1;
    private static final long QUIET_MILLIS = 100;

    private final List<Transport> endpoints;
    private final Arena arena;
    private final PortalsEngine engine;
    private final long eq;
    private final MemorySegment region;

    /** A fresh job per test (JUnit makes an instance per test method). */
    DeferredWakeTest() throws Exception {
        Job job = Job.local(2);
        endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        endpoints.get(1).start(new Ignoring());
        arena = Arena.ofShared();
        engine = PortalsEngine.create(job, endpoints.get(0), PortalsConfig.DEFAULT);
        engine.init();
        long ni = engine.niInit(0, ProcessId.PID_ANY, null).handle().value();
        eq = engine.eqAlloc(ni, 16);
        region = arena.allocate(2 * PortalsEngine.DEFERRED_WAKE_LIMIT);
        long me = engine.meAttach(ni, PORTAL, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
        engine.mdAttach(me, MemoryDescriptor.of(region).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                .withEventQueue(new EqHandle(eq)), Unlink.RETAIN, Unlink.RETAIN);
    }

    @AfterEach
    void tearDown() {
        engine.fini();
        endpoints.forEach(Transport::close);
        arena.close();
    }

    @Test
    void aWaiterHandedTheStartOfASmallPutWakesOnlyOnceThePayloadIsDeposited() throws Exception {
        Waiting waiting = waitForOneEvent();
        DepositWriter deposit = header(PortalsEngine.DEFERRED_WAKE_LIMIT);

        assertThat(waiting.returned.await(QUIET_MILLIS, TimeUnit.MILLISECONDS))
                .as("returned between header and deposit").isFalse();
        deposit(deposit);
        assertThat(waiting.returned.await(10, TimeUnit.SECONDS)).as("returned after the deposit").isTrue();
        assertThat(waiting.result.get()).isEqualTo(ReturnCode.OK);
        assertThat(waiting.event.type()).isEqualTo(EventKind.PUT_START);
        Event end = new Event();
        assertThat(engine.eqGet(eq, end)).as("the END event is there when the waiter wakes").isEqualTo(ReturnCode.OK);
        assertThat(end.type()).isEqualTo(EventKind.PUT_END);
    }

    @Test
    void aWaiterHandedTheStartOfALargePutWakesBeforeThePayloadIsDeposited() throws Exception {
        Waiting waiting = waitForOneEvent();
        DepositWriter deposit = header(PortalsEngine.DEFERRED_WAKE_LIMIT + 1);

        assertThat(waiting.returned.await(10, TimeUnit.SECONDS)).as("returned before the deposit").isTrue();
        assertThat(waiting.event.type()).isEqualTo(EventKind.PUT_START);
        Event none = new Event();
        assertThat(engine.eqGet(eq, none)).as("no END before the deposit").isEqualTo(ReturnCode.EQ_EMPTY);
        deposit(deposit);
        assertThat(engine.eqGet(eq, none)).isEqualTo(ReturnCode.OK);
        assertThat(none.type()).isEqualTo(EventKind.PUT_END);
    }

    @Test
    void aSignalOfAnEarlierWaitDoesNotEndTheNextOne() {
        EqWaiter w = new EqWaiter(Thread.currentThread());
        Event into = new Event();
        long first = w.arm(into);
        w.wake(w.signalFor(EqWaiter.DROPPED));
        assertThat(w.ended(first)).isTrue();
        assertThat(w.result()).isEqualTo(ReturnCode.EQ_DROPPED);
        long second = w.arm(into);
        assertThat(w.ended(second)).as("the next wait, before any wake").isFalse();
        w.wake(w.signalFor(EqWaiter.CANCELLED));
        assertThat(w.ended(second)).isTrue();
        assertThat(w.outcome()).isEqualTo(EqWaiter.CANCELLED);
    }

    @Test
    void queuedWakesHappenInOrderOnlyWhenTakenAndWoken() {
        Wakeups wakeups = new Wakeups();
        EqWaiter a = new EqWaiter(Thread.currentThread());
        EqWaiter b = new EqWaiter(Thread.currentThread());
        long ta = a.arm(new Event());
        long tb = b.arm(new Event());
        wakeups.add(a, a.signalFor(EqWaiter.OK));
        wakeups.add(b, b.signalFor(EqWaiter.DROPPED));
        assertThat(a.ended(ta) || b.ended(tb)).as("woken by add").isFalse();
        EqWaiter list = wakeups.takeAll();
        assertThat(list).isSameAs(a);
        assertThat(a.nextWake).isSameAs(b);
        assertThat(wakeups.takeAll()).as("taken once").isNull();
        Wakeups.wakeAll(list);
        assertThat(a.ended(ta)).isTrue();
        assertThat(a.result()).isEqualTo(ReturnCode.OK);
        assertThat(b.ended(tb)).isTrue();
        assertThat(b.result()).isEqualTo(ReturnCode.EQ_DROPPED);
        assertThat(a.nextWake).isNull();
    }

    /** A thread in PtlEQWait on the queue, once it has given up spinning (so it is surely waiting). */
    private Waiting waitForOneEvent() throws InterruptedException {
        Waiting w = new Waiting();
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            w.result.set(engine.eqWait(eq, w.event));
            w.returned.countDown();
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.WAITING) {
            assertThat(System.nanoTime() - deadline).as("the waiter parks").isNegative();
            Thread.sleep(1);
        }
        return w;
    }

    /** Phase one of a put of {@code length} bytes from rank 1, as a transport would call it. */
    private DepositWriter header(long length) {
        MessageHeader h = new MessageHeader().begin(MessageType.PUT, 0).initiator(1, 0).user(0).target(0, 0)
                .portal(PORTAL).matchBits(0).length(length);
        DepositWriter writer = new DepositWriter();
        engine.onHeader(1, h.segment(), MessageHeader.LENGTH, length, writer.deposit());
        assertThat(writer.deposit().accepted()).as("the put matched").isTrue();
        return writer;
    }

    private void deposit(DepositWriter writer) {
        writer.addDeposited(writer.deposit().length());
        engine.onDeposited(1, writer.deposit());
    }

    private static final class Waiting {
        final Event event = new Event();
        final AtomicReference<ReturnCode> result = new AtomicReference<>();
        final CountDownLatch returned = new CountDownLatch(1);
    }

    private static final class Ignoring implements MessageHandler {
        @Override
        public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        }

        @Override
        public void onDeposited(int source, Deposit deposit) {
        }

        @Override
        public void onSendComplete(long token, boolean delivered) {
        }

        @Override
        public void onPeerFailure(int peer) {
        }
    }
}
