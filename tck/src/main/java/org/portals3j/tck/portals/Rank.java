package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
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
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.TckTransport;

/** One rank of a {@link TckJob}: its library, its default interface, and helpers tests share. */
public final class Rank {
    private final TckJob job;
    private final @Nullable Portals library;
    private @Nullable NiHandle ni;

    Rank(TckJob job, @Nullable Portals portals) {
        this.job = job;
        this.library = portals;
    }

    void initDefaultInterface() {
        ni = portals().niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
    }

    public Portals portals() {
        Portals p = library;
        if (p == null) {
            throw new IllegalStateException("this rank is raw: it runs no Portals library");
        }
        return p;
    }

    /** Shorthand for {@link #portals()}. */
    public Portals ptl() {
        return portals();
    }

    /** The default interface (initialised by the job unless it was started uninitialised). */
    public NiHandle ni() {
        NiHandle h = ni;
        if (h == null) {
            throw new IllegalStateException("rank " + portals().rank() + " has no initialised default interface");
        }
        return h;
    }

    /** This rank's process id on the default interface. */
    public ProcessId id() {
        return portals().getId(ni());
    }

    public int uid() {
        return portals().getUid(ni());
    }

    public TckJob job() {
        return job;
    }

    // ---- objects ----------------------------------------------------------------------------

    public EqHandle eq(int count) {
        return portals().eqAlloc(ni(), count);
    }

    /** A bound MD over {@code memory} logging to {@code eq}, threshold INF. */
    public MdHandle bind(MemorySegment memory, EqHandle eq) {
        return portals().mdBind(ni(), MemoryDescriptor.of(memory).withEventQueue(eq));
    }

    /**
     * An ME on {@code portal} accepting any process, with {@code matchBits}/{@code ignoreBits}, appended
     * to the list, and an MD over {@code memory} with {@code options}, threshold INF, logging to
     * {@code eq}; both retained.
     */
    public Attached attach(int portal, long matchBits, long ignoreBits, MemorySegment memory, EqHandle eq,
                           MdOption... options) {
        return attach(portal, ProcessId.ANY, matchBits, ignoreBits,
                MemoryDescriptor.of(memory).withOptions(options).withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
    }

    /** An ME appended on {@code portal} with the given MD and unlink options. */
    public Attached attach(int portal, ProcessId matchId, long matchBits, long ignoreBits, MemoryDescriptor md,
                           Unlink unlinkOp, Unlink unlinkNofit) {
        MeHandle me = portals().meAttach(ni(), portal, matchId, matchBits, ignoreBits, Unlink.RETAIN,
                InsertPosition.AFTER);
        MdHandle h = portals().mdAttach(me, md, unlinkOp, unlinkNofit);
        return new Attached(me, h);
    }

    /** A match entry and the MD attached to it. */
    public record Attached(MeHandle me, MdHandle md) {
    }

    // ---- events -----------------------------------------------------------------------------

    /** Waits (polling PtlEQGet) for the next event on {@code eq}; fails the test after the transport's patience. */
    public Event next(EqHandle eq) {
        Event e = new Event();
        ReturnCode rc = await(eq, e);
        assertThat(rc).as("PtlEQGet result").isIn(ReturnCode.OK, ReturnCode.EQ_DROPPED);
        return e;
    }

    /** Waits for the next event and checks its kind. */
    public Event next(EqHandle eq, EventKind expected) {
        Event e = next(eq);
        assertThat(e.type()).as("kind of next event (%s)", e).isEqualTo(expected);
        return e;
    }

    /** Waits for the next event; returns the PtlEQGet code (OK or EQ_DROPPED). */
    public ReturnCode await(EqHandle eq, Event into) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (true) {
            ReturnCode rc = portals().eqGet(eq, into);
            if (rc != ReturnCode.EQ_EMPTY) {
                return rc;
            }
            if (System.nanoTime() > deadline) {
                fail("no event on " + eq + " within " + TckTransport.patience());
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** Asserts that no event arrives on any of {@code eqs} within one quiet period of the transport. */
    public void expectNoEvent(EqHandle... eqs) {
        sleep(TckTransport.quietPeriod());
        for (EqHandle eq : eqs) {
            assertEmpty(eq);
        }
    }

    /** The queues of several ranks watched through one quiet period: {@code expectNoEvent(a.queue(x), b.queue(y))}. */
    public static void expectNoEvent(Queue... queues) {
        sleep(TckTransport.quietPeriod());
        for (Queue q : queues) {
            q.rank().assertEmpty(q.eq());
        }
    }

    /** Names {@code eq} of this rank for {@link #expectNoEvent(Queue...)}. */
    public Queue queue(EqHandle eq) {
        return new Queue(this, eq);
    }

    /** An event queue together with the rank that owns it. */
    public record Queue(Rank rank, EqHandle eq) {
    }

    private void assertEmpty(EqHandle eq) {
        Event e = new Event();
        ReturnCode rc = portals().eqGet(eq, e);
        assertThat(rc).as("expected no event on %s, got %s", eq, e).isEqualTo(ReturnCode.EQ_EMPTY);
    }

    /** Takes every event currently on {@code eq} (after the quiet period). */
    public List<Event> drain(EqHandle eq) {
        sleep(TckTransport.quietPeriod());
        List<Event> events = new ArrayList<>();
        while (true) {
            Event e = new Event();
            if (portals().eqGet(eq, e) == ReturnCode.EQ_EMPTY) {
                return events;
            }
            events.add(e);
        }
    }

    // ---- status registers -------------------------------------------------------------------

    public long drops() {
        return portals().niStatus(ni(), StatusRegister.DROP_COUNT);
    }

    /** Waits until the drop count reaches {@code expected}, then checks it does not go past it. */
    public void awaitDrops(long expected) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (drops() < expected && System.nanoTime() < deadline) {
            Thread.yield();
        }
        sleep(TckTransport.quietPeriod());
        assertThat(drops()).as("PTL_SR_DROP_COUNT").isEqualTo(expected);
    }

    /** Waits until status register {@code register} reaches {@code expected}, then checks it does not go past it. */
    public void awaitRegister(StatusRegister register, long expected) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (portals().niStatus(ni(), register) < expected && System.nanoTime() < deadline) {
            Thread.yield();
        }
        sleep(TckTransport.quietPeriod());
        assertThat(portals().niStatus(ni(), register)).as(register.specName()).isEqualTo(expected);
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
