package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;

/**
 * PtlGet latency and bandwidth between the two ranks of a {@link TwoRanks} job: rank 0 gets from an MD of rank 1, whose
 * application does nothing (its library answers); latency is the whole get, as osu_get_latency reports it.
 */
final class GetLatency {
    private static final int PORTAL = 15;
    private static final long MATCH = 0x4745_54L; // "GET"
    private static final long HISTOGRAM_MAX_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final byte FILL = 0x3C;

    /** Percentiles of one size's gets in microseconds. */
    record Row(int size, int iterations, double p50, double p99) {
    }

    /** One size's windows of {@link PingPong#WINDOW} gets: the median window's rate in GB/s (10^9 bytes per second). */
    record Rate(int size, int windows, double gigabytesPerSecond) {
        /** Gets per second at this size. */
        double getsPerSecond() {
            return gigabytesPerSecond * 1e9 / size;
        }
    }

    private GetLatency() {
    }

    /** {@code warmup} untimed gets, then {@code iterations} timed ones, per size; the bytes are checked. */
    static Row[] measure(String transport, int[] sizes, int iterations, int warmup) throws Exception {
        int max = largest(sizes);
        try (TwoRanks job = TwoRanks.open(transport); Arena arena = Arena.ofShared()) {
            exposeSource(job, arena, max);
            Portals p = job.portals(0);
            EqHandle eq = p.eqAlloc(job.ni(0), 64);
            MemorySegment sink = arena.allocate(max, 64);
            Event ev = new Event();
            Row[] rows = new Row[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                int size = sizes[i];
                MdHandle md = p.mdBind(job.ni(0), MemoryDescriptor.of(sink.asSlice(0, size)).withEventQueue(eq));
                sink.fill((byte) 0);
                Histogram h = new Histogram(HISTOGRAM_MAX_NANOS, 3);
                for (int k = 0; k < warmup + iterations; k++) {
                    long t0 = System.nanoTime();
                    p.get(md, job.id(1), PORTAL, 0, MATCH, 0L);
                    awaitReply(p, eq, ev, size);
                    long nanos = System.nanoTime() - t0;
                    if (k >= warmup) {
                        h.recordValue(nanos);
                    }
                }
                if (sink.get(ValueLayout.JAVA_BYTE, size - 1) != FILL) {
                    throw new IllegalStateException("the " + size + "-byte gets did not bring the target's bytes");
                }
                p.mdUnlink(md);
                rows[i] = new Row(size, iterations, h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3);
            }
            return rows;
        }
    }

    /**
     * Per size, {@code warmup} untimed then {@code windows} timed windows: {@link PingPong#WINDOW} gets issued back to
     * back, the window ending when the last REPLY_END arrives; the bytes are checked.
     */
    static Rate[] bandwidth(String transport, int[] sizes, int windows, int warmup) throws Exception {
        int max = largest(sizes);
        try (TwoRanks job = TwoRanks.open(transport); Arena arena = Arena.ofShared()) {
            exposeSource(job, arena, max);
            Portals p = job.portals(0);
            // a get leaves at most SEND_START, SEND_END, REPLY_START and REPLY_END on the initiator's queue
            EqHandle eq = p.eqAlloc(job.ni(0), 4L * PingPong.WINDOW + 16);
            MemorySegment sink = arena.allocate(max, 64);
            Event ev = new Event();
            Rate[] rates = new Rate[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                int size = sizes[i];
                MdHandle md = p.mdBind(job.ni(0), MemoryDescriptor.of(sink.asSlice(0, size)).withEventQueue(eq));
                sink.fill((byte) 0);
                Histogram h = new Histogram(HISTOGRAM_MAX_NANOS, 3);
                for (int w = 0; w < warmup + windows; w++) {
                    long t0 = System.nanoTime();
                    for (int k = 0; k < PingPong.WINDOW; k++) {
                        p.get(md, job.id(1), PORTAL, 0, MATCH, 0L);
                    }
                    for (int k = 0; k < PingPong.WINDOW; k++) {
                        awaitReply(p, eq, ev, size);
                    }
                    long nanos = System.nanoTime() - t0;
                    if (w >= warmup) {
                        h.recordValue(nanos);
                    }
                }
                if (sink.get(ValueLayout.JAVA_BYTE, size - 1) != FILL) {
                    throw new IllegalStateException("the " + size + "-byte gets did not bring the target's bytes");
                }
                p.mdUnlink(md);
                rates[i] = new Rate(size, windows, (double) PingPong.WINDOW * size / h.getValueAtPercentile(50));
            }
            return rates;
        }
    }

    private static void awaitReply(Portals p, EqHandle eq, Event ev, int size) {
        while (true) {
            ReturnCode rc = p.eqWait(eq, ev);
            if (rc != ReturnCode.OK) {
                throw new IllegalStateException("PtlEQWait returned " + rc);
            }
            EventKind kind = ev.type();
            if (kind == EventKind.REPLY_END) {
                if (ev.mlength() != size) {
                    throw new IllegalStateException("REPLY_END brought " + ev.mlength() + " bytes, expected " + size);
                }
                return;
            }
            if (kind.isFail()) {
                throw new IllegalStateException("the get failed: " + ev);
            }
        }
    }

    /** The largest of {@code sizes}, at least 1. */
    private static int largest(int[] sizes) {
        int max = 1;
        for (int s : sizes) {
            max = Math.max(max, s);
        }
        return max;
    }

    /** Rank 1 exposes {@code max} bytes of {@link #FILL} to gets on {@link #PORTAL} (a match entry kept for good). */
    private static void exposeSource(TwoRanks job, Arena arena, int max) {
        Portals target = job.portals(1);
        MemorySegment source = arena.allocate(max, 64).fill(FILL);
        MeHandle me = target.meAttach(job.ni(1), PORTAL, ProcessId.ANY, MATCH, 0L, Unlink.RETAIN,
                InsertPosition.AFTER);
        target.mdAttach(me, MemoryDescriptor.of(source).withOptions(MdOption.OP_GET, MdOption.MANAGE_REMOTE),
                Unlink.RETAIN, Unlink.RETAIN);
    }
}
