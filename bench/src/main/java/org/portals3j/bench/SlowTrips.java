package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * Diagnostic: times every 8 B Put round trip of a 2-rank job on its own and prints how the slow ones are spaced,
 * with each thread's context switches and the transport's counters over the run.
 * Arguments: transport, round trips, then transport options as key=value.
 */
public final class SlowTrips {
    private static final int PORTAL = 4;
    private static final long BITS = 7L;

    private SlowTrips() {
    }

    public static void main(String[] args) throws Exception {
        String transport = args.length > 0 ? args[0] : "udp";
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        Map<String, String> options = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            options.put(kv[0], kv[1]);
        }
        Job job = Job.local(2);
        List<Transport> endpoints = LocalJob.openAll(Transports.require(transport), job, IdleMode.BACKOFF, options);
        Portals[] p = new Portals[2];
        EqHandle[] eqs = new EqHandle[2];
        MdHandle[] send = new MdHandle[2];
        ProcessId[] ids = new ProcessId[2];
        Arena arena = Arena.ofShared();
        for (int r = 0; r < 2; r++) {
            p[r] = Portals.create(job, endpoints.get(r));
            p[r].init();
            NiHandle ni = p[r].niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            eqs[r] = p[r].eqAlloc(ni, 1024);
            MeHandle me = p[r].meAttach(ni, PORTAL, ProcessId.ANY, BITS, 0L, Unlink.RETAIN, InsertPosition.AFTER);
            p[r].mdAttach(me, MemoryDescriptor.of(arena.allocate(64, 64)).withOptions(MdOption.OP_PUT,
                    MdOption.MANAGE_REMOTE).withEventQueue(eqs[r]), Unlink.RETAIN, Unlink.RETAIN);
            send[r] = p[r].mdBind(ni, MemoryDescriptor.of(arena.allocate(8, 64)));
            JobMember m = job.peers().member(r);
            ids[r] = new ProcessId(m.nid(), m.pid());
        }
        int warm = 50_000;
        long[] rtt = new long[n];
        long[] at = new long[n];
        Thread echo = new Thread(() -> {
            Event e = new Event();
            for (int i = 0; i < warm + n; i++) {
                Events.waitPutEnd(p[1], eqs[1], e, 8);
                p[1].put(send[1], AckRequest.NOACK_REQ, ids[0], PORTAL, 0, BITS, 0L, 0L);
            }
        }, "echo");
        echo.start();
        Event e = new Event();
        Map<String, long[]> before = Map.of();
        Map<String, Long> c0 = Map.of();
        Map<String, Long> c1 = Map.of();
        long start = 0;
        for (int i = 0; i < warm + n; i++) {
            if (i == warm) {
                before = switches();
                c0 = endpoints.get(0).counters();
                c1 = endpoints.get(1).counters();
                start = System.nanoTime();
            }
            long t0 = System.nanoTime();
            p[0].put(send[0], AckRequest.NOACK_REQ, ids[1], PORTAL, 0, BITS, 0L, 0L);
            Events.waitPutEnd(p[0], eqs[0], e, 8);
            long t1 = System.nanoTime();
            if (i >= warm) {
                rtt[i - warm] = t1 - t0;
                at[i - warm] = t0 - start;
            }
        }
        long elapsed = System.nanoTime() - start;
        Map<String, long[]> after = switches();
        echo.join();
        report(rtt, at, elapsed);
        System.out.println("context switches over the run (voluntary, involuntary):");
        for (var en : after.entrySet()) {
            long[] b = before.getOrDefault(en.getKey(), new long[2]);
            long v = en.getValue()[0] - b[0];
            long iv = en.getValue()[1] - b[1];
            if (v + iv > 0) {
                System.out.printf(Locale.ROOT, "  %-34s %8d %8d  (%.0f/s)%n", en.getKey(), v, iv,
                        (v + iv) * 1e9 / elapsed);
            }
        }
        diff("rank 0", c0, endpoints.get(0).counters());
        diff("rank 1", c1, endpoints.get(1).counters());
        for (Portals x : p) {
            x.fini();
        }
        endpoints.forEach(Transport::close);
    }

    private static void report(long[] rtt, long[] at, long elapsed) {
        long[] sorted = rtt.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        long p50 = sorted[n / 2];
        long p99 = sorted[(int) (n * 0.99)];
        System.out.printf(Locale.ROOT, "%d round trips in %.2f s: half rtt p50 %.2f us p90 %.2f p99 %.2f p99.9 %.2f"
                + " max %.1f%n", n, elapsed / 1e9, p50 / 2e3, sorted[(int) (n * 0.9)] / 2e3, p99 / 2e3,
                sorted[(int) (n * 0.999)] / 2e3, sorted[n - 1] / 2e3);
        long slow = Math.max(3 * p50, p99);
        List<Long> gaps = new ArrayList<>();
        long last = -1;
        int count = 0;
        long[] buckets = new long[12]; // extra time of the slow trips, by power of 2 microseconds
        for (int i = 0; i < n; i++) {
            if (rtt[i] >= slow) {
                count++;
                if (last >= 0) {
                    gaps.add(at[i] - last);
                }
                last = at[i];
                int b = 63 - Long.numberOfLeadingZeros(Math.max(1, (rtt[i] - p50) / 1000));
                buckets[Math.min(b, buckets.length - 1)]++;
            }
        }
        System.out.printf(Locale.ROOT, "slow (>= %.1f us rtt): %d, one per %.0f us%n", slow / 1e3, count,
                count == 0 ? 0.0 : elapsed / 1e3 / count);
        System.out.print("extra rtt of slow trips, us buckets [1,2,4,..]:");
        for (long b : buckets) {
            System.out.print(" " + b);
        }
        System.out.println();
        long[] g = gaps.stream().mapToLong(Long::longValue).sorted().toArray();
        if (g.length > 4) {
            System.out.printf(Locale.ROOT, "gaps between slow trips, us: p10 %.0f p25 %.0f p50 %.0f p75 %.0f"
                    + " p90 %.0f%n",
                    g[g.length / 10] / 1e3, g[g.length / 4] / 1e3, g[g.length / 2] / 1e3, g[g.length * 3 / 4] / 1e3,
                    g[g.length * 9 / 10] / 1e3);
            int[] hist = new int[21]; // 250 us bins up to 5 ms
            for (long x : g) {
                hist[(int) Math.min(20, x / 250_000)]++;
            }
            System.out.println("gap histogram, 250 us bins: " + Arrays.toString(hist));
        }
    }

    private static void diff(String who, Map<String, Long> a, Map<String, Long> b) {
        StringBuilder s = new StringBuilder(who + " counters:");
        for (var en : b.entrySet()) {
            long d = en.getValue() - a.getOrDefault(en.getKey(), 0L);
            if (d != 0) {
                s.append(' ').append(en.getKey()).append('=').append(d);
            }
        }
        System.out.println(s);
    }

    /** Voluntary and involuntary context switches of each thread of this process, by thread name. */
    private static Map<String, long[]> switches() throws IOException {
        Map<String, long[]> m = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String name = Files.readString(t.resolve("comm")).trim() + "#" + t.getFileName();
                    long v = 0;
                    long iv = 0;
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            v = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            iv = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                    m.put(name, new long[] {v, iv});
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
        }
        return m;
    }
}
