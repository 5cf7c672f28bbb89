package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;

/**
 * The raw Portals baseline of {@link MpiOsu}: a Put ping-pong between two ranks of a {@link TwoRanks} job on the
 * same transport as the layer, each rank on its own thread (as the layer's ranks are): rank 0 puts, rank 1 waits
 * for PUT_END with {@code PtlEQWait} and puts back. The figure is the mean half round trip, as osu_latency's, after
 * the same warm-up and wait for the JIT as the layer's ({@link MpiOsuLayer#warmUp}).
 */
final class RawPutLatency {
    private static final int PORTAL = 14;
    private static final long MATCH = 1;
    private static final long TIMEOUT_SECONDS = 600;
    /** Round trips per call in the warm-up, as {@link MpiOsuLayer#WARMUP_RUN}. */
    private static final int WARMUP_RUN = MpiOsuLayer.WARMUP_RUN;

    private RawPutLatency() {
    }

    /** The mean half round trip in microseconds of {@code iterations} timed round trips of {@code size} bytes. */
    static double measure(String transport, int size, int iterations, int warmup) throws Exception {
        return measure(transport, size, iterations, warmup, 0);
    }

    /**
     * As {@link #measure(String, int, int, int)}, with {@code settle} more untimed round trips after the JIT has gone
     * quiet, as each row of the layer's table has its own warm-up after the pause ({@link MpiOsuLayer#latencyRow}).
     */
    static double measure(String transport, int size, int iterations, int warmup, int settle) throws Exception {
        try (TwoRanks job = TwoRanks.open(transport); Arena arena = Arena.ofShared()) {
            EqHandle[] eqs = new EqHandle[2];
            MdHandle[] mds = new MdHandle[2];
            for (int r = 0; r < 2; r++) {
                Portals p = job.portals(r);
                eqs[r] = p.eqAlloc(job.ni(r), 64);
                job.appendReceive(r, PORTAL, MATCH, arena.allocate(Math.max(1, size)), eqs[r]);
                mds[r] = p.mdBind(job.ni(r), MemoryDescriptor.of(arena.allocate(size)));
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread echo = Thread.ofPlatform().daemon(true).name("raw-put-rank-1").start(() -> {
                try {
                    Event ev = new Event();
                    for (int i = 0; i < iterations + warmup + settle; i++) {
                        awaitPut(job.portals(1), eqs[1], ev);
                        job.portals(1).put(mds[1], AckRequest.NOACK_REQ, job.id(0), PORTAL, 0, MATCH, 0, 0);
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            Event ev = new Event();
            Portals p = job.portals(0);
            for (int done = 0; done < warmup && failure.get() == null; done += WARMUP_RUN) {
                roundTrips(p, mds[0], eqs[0], job.id(1), ev, Math.min(WARMUP_RUN, warmup - done));
            }
            JitQuiet.await();
            if (settle > 0 && failure.get() == null) {
                roundTrips(p, mds[0], eqs[0], job.id(1), ev, settle);
            }
            long elapsed = failure.get() == null ? roundTrips(p, mds[0], eqs[0], job.id(1), ev, iterations) : 0;
            echo.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            if (failure.get() != null) {
                throw new IllegalStateException("the echoing rank failed", failure.get());
            }
            if (echo.isAlive()) {
                echo.interrupt();
                throw new IllegalStateException("the echoing rank did not end in " + TIMEOUT_SECONDS + " s");
            }
            return elapsed / 1e3 / (2.0 * iterations);
        }
    }

    /**
     * Rank 0's side of {@code count} round trips; returns the nanoseconds they took. The one loop the warm-up (in runs
     * of {@link #WARMUP_RUN}, so that the JIT compiles it as a method) and the timed run go through.
     */
    private static long roundTrips(Portals p, MdHandle md, EqHandle eq, ProcessId peer, Event ev, int count) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            p.put(md, AckRequest.NOACK_REQ, peer, PORTAL, 0, MATCH, 0, 0);
            awaitPut(p, eq, ev);
        }
        return System.nanoTime() - start;
    }

    private static void awaitPut(Portals p, EqHandle eq, Event ev) {
        while (true) {
            ReturnCode rc = p.eqWait(eq, ev);
            if (rc != ReturnCode.OK) {
                throw new IllegalStateException("PtlEQWait returned " + rc);
            }
            if (ev.type() == EventKind.PUT_END) {
                return;
            }
        }
    }
}
