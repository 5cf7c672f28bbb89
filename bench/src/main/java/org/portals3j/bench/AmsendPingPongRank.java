package org.portals3j.bench;

import com.sun.management.ThreadMXBean;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.CompletionHandler;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiConfig;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.RetFlag;
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
import org.portals3j.transport.JobMember;

/** One rank of {@link AmsendPingPong}: its Portals library, its LAPI context on it, and the timed loops. */
final class AmsendPingPongRank {
    private static final long HISTOGRAM_MAX_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int MIB = PingPong.MIB;

    private final AmsendPingPong.Shared shared;
    private final AmsendPingPong.Options options;
    private final LocalJob.RankContext context;
    private final int rank;
    private final int peerRank;
    private final Event event = new Event();
    private Portals portals;
    private EqHandle eq;
    private ProcessId peer;
    private MdHandle[] putMds;
    private MdHandle bandwidthMd;
    private LapiContext lapi;
    private LapiCounter arrived;
    private MemorySegment send;
    private long peerHandler;
    private long peerCounter;

    AmsendPingPongRank(AmsendPingPong.Shared shared, LocalJob.RankContext context) {
        this.shared = shared;
        this.options = shared.options;
        this.context = context;
        this.rank = context.rank();
        this.peerRank = 1 - rank;
    }

    void run() throws Exception {
        setUp();
        shared.await();
        int[] sizes = AmsendPingPong.SIZES;
        Histogram scratch = new Histogram(HISTOGRAM_MAX_NANOS, 3);
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < sizes.length; i++) {
                putPingPong(i, options.iterations() / 2, scratch);
                amsendPingPong(sizes[i], options.iterations() / 2, scratch);
            }
            // The 1 MiB path too, before anything is compiled without it: the first rendezvous Amsend after the
            // latency rows threw the compiled Amsend path away, and a method called once per MiB then ran profiled
            // through the measured windows (inmem Amsend / Put 0.70-0.77 against 0.89-0.90 after 400 windows).
            bandwidthWindows(options.bandwidthWarmupWindows(), null, null);
        }
        long allocated = 0;
        long calibration = allocationCalibration();
        for (int i = 0; i < sizes.length; i++) {
            Histogram put = new Histogram(HISTOGRAM_MAX_NANOS, 3);
            Histogram am = new Histogram(HISTOGRAM_MAX_NANOS, 3);
            int rounds = AmsendPingPong.ROUNDS;
            for (int round = 0; round < rounds; round++) {
                int n = options.iterations() / rounds;
                putPingPong(i, Math.max(2, n / 20), scratch);
                putPingPong(i, n, put);
                amsendPingPong(sizes[i], Math.max(2, n / 20), scratch);
                shared.await();
                long[] before = rank == 0 ? allocationSnapshot() : null;
                amsendPingPong(sizes[i], n, am);
                shared.await();
                if (before != null) {
                    long[] after = allocationSnapshot();
                    allocated = allocated < 0 || before[0] < 0 ? -1 : allocated + after[0] - before[0] - calibration;
                }
            }
            if (rank == 0) {
                shared.rows.add(new AmsendPingPong.Row(sizes[i], half(put, 50), half(put, 99), half(am, 50),
                        half(am, 99)));
                shared.roundTrips += (long) (options.iterations() / rounds) * rounds;
            }
        }
        if (rank == 0) {
            shared.allocated = allocated;
        }
        shared.await();
        bandwidth();
        shared.await();
        lapi.term();
        shared.await();
        portals.fini();
    }

    private void setUp() throws Exception {
        Portals p = Portals.create(context.job(), context.transport(), PortalsConfig.DEFAULT);
        p.init();
        NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
        EqHandle q = p.eqAlloc(ni, 1024);
        MemorySegment recv = shared.arena.allocate(MIB, 64);
        send = shared.arena.allocate(MIB, 64).fill((byte) (0x5A + rank));
        MeHandle me = p.meAttach(ni, PingPong.PORTAL, ProcessId.ANY, PingPong.MATCH_BITS, 0L, Unlink.RETAIN,
                InsertPosition.AFTER);
        p.mdAttach(me, MemoryDescriptor.of(recv).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                .withEventQueue(q), Unlink.RETAIN, Unlink.RETAIN);
        int[] sizes = AmsendPingPong.SIZES;
        putMds = new MdHandle[sizes.length + 1];
        for (int i = 0; i < sizes.length; i++) {
            putMds[i] = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, sizes[i])));
        }
        putMds[sizes.length] = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, 8)));
        bandwidthMd = p.mdBind(ni, MemoryDescriptor.of(send));
        JobMember other = context.job().peers().member(peerRank);
        peer = new ProcessId(other.nid(), other.pid());
        portals = p;
        eq = q;

        lapi = LapiContext.init(p, LapiConfig.DEFAULT.withInterruptMode(!options.polling()));
        arrived = lapi.newCounter();
        MemorySegment lapiRecv = shared.arena.allocate(MIB, 64);
        CompletionHandler empty = (c, info) -> { };
        RetFlag flags = options.flags();
        HeaderHandler handler = (c, uhdr, info) -> {
            info.setCompletion(empty, null);
            info.setRetFlags(flags);
            return lapiRecv;
        };
        long[] handlers = new long[2];
        long[] counters = new long[2];
        lapi.addressInit(lapi.address(handler), handlers);
        lapi.addressInit(arrived.address(), counters);
        peerHandler = handlers[peerRank];
        peerCounter = counters[peerRank];
    }

    /** {@code n} Put round trips of {@code SIZES[index]} bytes; rank 0 records half of each. */
    private void putPingPong(int index, int n, Histogram h) {
        int size = AmsendPingPong.SIZES[index];
        MdHandle md = putMds[index];
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                h.recordValue(putRoundTrip(md, size));
            } else {
                Events.waitPutEnd(portals, eq, event, size);
                portals.put(md, AckRequest.NOACK_REQ, peer, PingPong.PORTAL, 0, PingPong.MATCH_BITS, 0L, 0L);
            }
        }
    }

    private long putRoundTrip(MdHandle md, int size) {
        long t0 = System.nanoTime();
        portals.put(md, AckRequest.NOACK_REQ, peer, PingPong.PORTAL, 0, PingPong.MATCH_BITS, 0L, 0L);
        Events.waitPutEnd(portals, eq, event, size);
        return System.nanoTime() - t0;
    }

    /** {@code n} Amsend round trips of {@code size} bytes of user data; rank 0 records each. */
    private void amsendPingPong(int size, int n, Histogram h) {
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                h.recordValue(amsendRoundTrip(size));
            } else {
                lapi.waitcntr(arrived, 1);
                lapi.amsend(peerRank, peerHandler, null, 0, send, size, peerCounter, null, null);
            }
        }
    }

    private long amsendRoundTrip(int size) {
        long t0 = System.nanoTime();
        lapi.amsend(peerRank, peerHandler, null, 0, send, size, peerCounter, null, null);
        lapi.waitcntr(arrived, 1);
        return System.nanoTime() - t0;
    }

    /** Windows of 1 MiB Puts alternating with windows of 1 MiB Amsends; rank 0 records their medians. */
    private void bandwidth() {
        List<Double> putRates = new ArrayList<>();
        List<Double> amRates = new ArrayList<>();
        bandwidthWindows(options.bandwidthWarmupWindows(), null, null);
        bandwidthWindows(options.bandwidthWindows(), putRates, amRates);
        if (rank == 0) {
            shared.bandwidth = new AmsendPingPong.Bandwidth(PingPong.median(putRates), PingPong.median(amRates),
                    options.bandwidthWindows());
        }
    }

    /** {@code windows} windows of each kind; each one's rate (bytes per ns) goes to the lists when they are given. */
    private void bandwidthWindows(int windows, @Nullable List<Double> putRates, @Nullable List<Double> amRates) {
        int window = PingPong.WINDOW;
        MdHandle ack = putMds[AmsendPingPong.SIZES.length];
        for (int w = 0; w < windows; w++) {
            long t0 = System.nanoTime();
            if (rank == 0) {
                for (int k = 0; k < window; k++) {
                    portals.put(bandwidthMd, AckRequest.NOACK_REQ, peer, PingPong.PORTAL, 0, PingPong.MATCH_BITS,
                            0L, 0L);
                }
                Events.waitPutEnd(portals, eq, event, 8);
            } else {
                for (int k = 0; k < window; k++) {
                    Events.waitPutEnd(portals, eq, event, MIB);
                }
                portals.put(ack, AckRequest.NOACK_REQ, peer, PingPong.PORTAL, 0, PingPong.MATCH_BITS, 0L, 0L);
            }
            long t1 = System.nanoTime();
            if (rank == 0) {
                for (int k = 0; k < window; k++) {
                    lapi.amsend(peerRank, peerHandler, null, 0, send, MIB, peerCounter, null, null);
                }
                lapi.waitcntr(arrived, 1);
            } else {
                lapi.waitcntr(arrived, window);
                lapi.amsend(peerRank, peerHandler, null, 0, send, 8, peerCounter, null, null);
            }
            long t2 = System.nanoTime();
            if (putRates != null && amRates != null) {
                putRates.add((double) window * MIB / (t1 - t0));
                amRates.add((double) window * MIB / (t2 - t1));
            }
        }
    }

    /** Half the round trip at {@code percentile}, in microseconds. */
    private static double half(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 2.0 / 1000.0;
    }

    /** {bytes allocated so far by every live thread}, or {-1}. */
    private static long[] allocationSnapshot() {
        ThreadMXBean bean = allocationBean();
        if (bean == null) {
            return new long[] {-1};
        }
        long total = 0;
        for (long b : bean.getThreadAllocatedBytes(bean.getAllThreadIds())) {
            total += Math.max(0, b);
        }
        return new long[] {total};
    }

    /** What a pair of snapshots costs in allocation by itself (the least of a few tries). */
    private static long allocationCalibration() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long[] a = allocationSnapshot();
            long[] b = allocationSnapshot();
            least = Math.min(least, b[0] - a[0]);
        }
        return Math.max(0, least);
    }

    private static @Nullable ThreadMXBean allocationBean() {
        if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled()) {
            return bean;
        }
        return null;
    }
}
