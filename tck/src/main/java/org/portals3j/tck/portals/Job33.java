package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventHandler;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals33;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.TckTransport;

/**
 * A job of N ranks on the transport under test, each running a Portals 3.3 library
 * ({@link Portals33}) that has called {@code PtlInit} and initialised its default interface. Built on
 * a {@link TckJob} whose ranks are all raw, so the job's memory and {@link TckJob#kill} work as usual.
 */
final class Job33 implements AutoCloseable {
    private final TckJob job;
    private final List<Rank33> ranks = new ArrayList<>();

    private Job33(TckJob job) {
        this.job = job;
        for (int r = 0; r < job.size(); r++) {
            Portals33 p = Portals33.create(job.job(), job.rawTransport(r));
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            ranks.add(new Rank33(p, ni));
        }
    }

    /** A null where the API wants an object: the Java form of C's illegal address ({@code PTL_SEGV}). */
    @SuppressWarnings("nullness") // null on purpose
    static <T> T illegalAddress() {
        return null;
    }

    static Job33 start(int size) {
        TckJob.Builder b = TckJob.builder(size);
        for (int r = 0; r < size; r++) {
            b.raw(r);
        }
        return new Job33(b.start());
    }

    Rank33 rank(int r) {
        return ranks.get(r);
    }

    /** The job underneath: shared memory, patterns, killing a rank. */
    TckJob tck() {
        return job;
    }

    @Override
    public void close() {
        for (Rank33 r : ranks) {
            try {
                r.ptl().fini();
            } catch (RuntimeException e) {
                // already finalised by the test, or its endpoint is gone
            }
        }
        job.close();
    }

    /** One rank of a {@link Job33}: its 3.3 library, its default interface, and helpers. */
    static final class Rank33 {
        private final Portals33 ptl;
        private final NiHandle ni;

        Rank33(Portals33 ptl, NiHandle ni) {
            this.ptl = ptl;
            this.ni = ni;
        }

        Portals33 ptl() {
            return ptl;
        }

        NiHandle ni() {
            return ni;
        }

        ProcessId id() {
            return ptl.getId(ni);
        }

        EqHandle eq(int count) {
            return ptl.eqAlloc(ni, count, Portals33.EQ_HANDLER_NONE);
        }

        EqHandle eq(int count, EventHandler handler) {
            return ptl.eqAlloc(ni, count, handler);
        }

        /** A bound MD over {@code memory} logging to {@code eq}, threshold INF, retained. */
        MdHandle bind(MemorySegment memory, EqHandle eq) {
            return ptl.mdBind(ni, MemoryDescriptor.of(memory).withEventQueue(eq), Unlink.RETAIN);
        }

        /** An ME appended on {@code portal} (any process, exact {@code bits}, entry retained) with {@code md}. */
        Attached attach(int portal, long bits, MemoryDescriptor md, Unlink unlinkOp) {
            MeHandle me = ptl.meAttach(ni, portal, ProcessId.ANY, bits, 0, Unlink.RETAIN, InsertPosition.AFTER);
            return new Attached(me, ptl.mdAttach(me, md, unlinkOp));
        }

        record Attached(MeHandle me, MdHandle md) {
        }

        /** Waits (polling PtlEQGet) for the next event on {@code eq}. */
        Event next(EqHandle eq) {
            Event e = new Event();
            ReturnCode rc = await(eq, e);
            assertThat(rc).as("PtlEQGet result").isIn(ReturnCode.OK, ReturnCode.EQ_DROPPED);
            return e;
        }

        /** Waits for the next event and checks its kind. */
        Event next(EqHandle eq, EventKind expected) {
            Event e = next(eq);
            assertThat(e.type()).as("kind of next event (%s)", e).isEqualTo(expected);
            return e;
        }

        /** Waits for the next event; returns the PtlEQGet code (OK or EQ_DROPPED). */
        ReturnCode await(EqHandle eq, Event into) {
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (true) {
                ReturnCode rc = ptl.eqGet(eq, into);
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

        /** Asserts that no event arrives on {@code eq} within the transport's quiet period. */
        void expectNoEvent(EqHandle eq) {
            Rank.sleep(TckTransport.quietPeriod());
            Event e = new Event();
            assertThat(ptl.eqGet(eq, e)).as("expected no event, got %s", e).isEqualTo(ReturnCode.EQ_EMPTY);
        }

        /** Takes every event now on {@code eq} (after the quiet period). */
        List<Event> drain(EqHandle eq) {
            Rank.sleep(TckTransport.quietPeriod());
            List<Event> events = new ArrayList<>();
            while (true) {
                Event e = new Event();
                if (ptl.eqGet(eq, e) == ReturnCode.EQ_EMPTY) {
                    return events;
                }
                events.add(e);
            }
        }

        long drops() {
            return ptl.niStatus(ni, StatusRegister.DROP_COUNT);
        }

        /** Waits until the drop count reaches {@code expected}, then checks it does not go past it. */
        void awaitDrops(long expected) {
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            while (drops() < expected && System.nanoTime() < deadline) {
                Thread.yield();
            }
            Rank.sleep(TckTransport.quietPeriod());
            assertThat(drops()).as("PTL_SR_DROP_COUNT").isEqualTo(expected);
        }
    }
}
