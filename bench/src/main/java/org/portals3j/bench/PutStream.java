package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;

/**
 * A 1 MiB Put stream between the two ranks of a udp job, for as long as a time budget allows: rank 0 puts
 * windows of {@value #WINDOW} puts, rank 1 puts 8 bytes back once a window has arrived. The rate is the
 * bytes of the measured windows over their time (a stall counts in full). Runs on whatever transport
 * options it is given, fault injection included.
 */
final class PutStream {
    static final int MIB = 1 << 20;
    static final int WINDOW = 16;
    static final int PORTAL = 4;
    static final long MATCH_BITS = 0x5354_5245_414D_5055L; // "STREAMPU"
    private static final long BARRIER_TIMEOUT_SECONDS = 600;

    /**
     * How long to measure: warm-up windows, then at least {@code minWindows} and {@code seconds}, at most
     * {@code maxWindows}.
     */
    record Budget(int warmupWindows, int minWindows, int maxWindows, double seconds) {
    }

    /**
     * @param gbPerSecond 10^9 bytes per second over the measured windows
     * @param counters    the sending rank's transport counters at the end
     * @param mibSent     MiB the counters cover (the warm-up windows too)
     */
    record Result(double gbPerSecond, int windows, double seconds, Map<String, Long> counters, long mibSent) {
    }

    private PutStream() {
    }

    static Result measure(Map<String, String> options, Budget budget) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2);
        int[] measuredWindows = new int[1];
        AtomicReference<Result> result = new AtomicReference<>();
        try (Arena arena = Arena.ofShared()) {
            LocalJob.run("udp", Job.local(2), IdleMode.BACKOFF, options, context -> {
                try {
                    runRank(context, arena, barrier, budget, measuredWindows, result);
                } catch (Throwable t) {
                    barrier.reset(); // the other rank stops waiting at the next barrier
                    throw t;
                }
            });
        }
        Result r = result.get();
        if (r == null) {
            throw new IllegalStateException("the stream ended without a figure");
        }
        return r;
    }

    private static void await(CyclicBarrier barrier) throws InterruptedException, BrokenBarrierException,
            TimeoutException {
        barrier.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static void runRank(LocalJob.RankContext context, Arena arena, CyclicBarrier barrier, Budget budget,
                                int[] measuredWindows, AtomicReference<Result> result) throws Exception {
        int rank = context.rank();
        Portals p = Portals.create(context.job(), context.transport(),
                PortalsConfig.DEFAULT.withIdle(IdleMode.BACKOFF));
        p.init();
        NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        EqHandle eq = p.eqAlloc(ni, 1024);
        MemorySegment recv = arena.allocate(MIB, 64);
        MemorySegment send = arena.allocate(MIB, 64).fill((byte) (0xA5 + rank));
        MeHandle me = p.meAttach(ni, PORTAL, ProcessId.ANY, MATCH_BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
        p.mdAttach(me, MemoryDescriptor.of(recv).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                .withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
        MdHandle bulk = p.mdBind(ni, MemoryDescriptor.of(send));
        MdHandle small = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, 8)));
        JobMember other = context.job().peers().member(1 - rank);
        ProcessId peer = new ProcessId(other.nid(), other.pid());
        Event event = new Event();
        await(barrier); // both ranks have their entries: no put finds nothing to match
        if (rank == 1) {
            for (int w = 0; w < budget.warmupWindows(); w++) {
                echoWindow(p, eq, event, small, peer);
            }
            await(barrier); // rank 0 has decided how many windows to measure
            for (int w = 0; w < measuredWindows[0]; w++) {
                echoWindow(p, eq, event, small, peer);
            }
        } else {
            long warmStart = System.nanoTime();
            for (int w = 0; w < budget.warmupWindows(); w++) {
                putWindow(p, eq, event, bulk, peer);
            }
            double perWindow = (System.nanoTime() - warmStart) / 1e9 / Math.max(1, budget.warmupWindows());
            int windows = (int) Math.min(budget.maxWindows(),
                    Math.max(budget.minWindows(), Math.ceil(budget.seconds() / Math.max(perWindow, 1e-6))));
            measuredWindows[0] = windows;
            await(barrier);
            long start = System.nanoTime();
            for (int w = 0; w < windows; w++) {
                putWindow(p, eq, event, bulk, peer);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            result.set(new Result((double) windows * WINDOW * MIB / seconds / 1e9, windows, seconds,
                    context.transport().counters(), (long) (budget.warmupWindows() + windows) * WINDOW));
        }
        await(barrier); // neither rank finalises while the other still needs it
        p.fini();
    }

    /** Rank 0: {@value #WINDOW} puts of 1 MiB, then the 8 bytes back that say all arrived. */
    private static void putWindow(Portals p, EqHandle eq, Event event, MdHandle bulk, ProcessId peer) {
        for (int k = 0; k < WINDOW; k++) {
            p.put(bulk, AckRequest.NOACK_REQ, peer, PORTAL, 0, MATCH_BITS, 0L, 0L);
        }
        Events.waitPutEnd(p, eq, event, 8);
    }

    /** Rank 1: wait for a window, put 8 bytes back. */
    private static void echoWindow(Portals p, EqHandle eq, Event event, MdHandle small, ProcessId peer) {
        for (int k = 0; k < WINDOW; k++) {
            Events.waitPutEnd(p, eq, event, MIB);
        }
        p.put(small, AckRequest.NOACK_REQ, peer, PORTAL, 0, MATCH_BITS, 0L, 0L);
    }
}
