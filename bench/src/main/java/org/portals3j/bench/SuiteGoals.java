package org.portals3j.bench;

import static org.portals3j.bench.Suite.C_UDP;
import static org.portals3j.bench.Suite.LAPI;
import static org.portals3j.bench.Suite.LAPI_C;
import static org.portals3j.bench.Suite.LAPI_C_PUT;
import static org.portals3j.bench.Suite.LAPI_PUT;
import static org.portals3j.bench.Suite.MIB;
import static org.portals3j.bench.Suite.OMPI_SHM;
import static org.portals3j.bench.Suite.OMPI_TCP;
import static org.portals3j.bench.Suite.PUT;
import static org.portals3j.bench.Suite.UDP_CRC32C;

import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.bench.SuiteReport.Goal;
import org.portals3j.bench.SuiteReport.Point;
import org.portals3j.bench.SuiteReport.Series;

/**
 * The issues' goals as ratios of one {@code portals bench} run's series: each goal names our series and its peer's,
 * and says "not measured: why" when the run lacks either.
 */
final class SuiteGoals {
    private SuiteGoals() {
    }

    /** The issues' goals, as ratios of this run's figures. */
    static List<Goal> of(List<String> transports, List<Series> c) {
        List<Goal> goals = new ArrayList<>();
        goals.add(goal(c, "inmem Put 8 B p50 / Open MPI shared memory 8 B p50", "inmem", OMPI_SHM,
                SuiteReport.LATENCY, 8, false, true, 1.5));
        goals.add(goal(c, "udp Put 8 B p50 / Open MPI TCP 8 B p50", "udp", OMPI_TCP, SuiteReport.LATENCY, 8, false,
                true, 0.65));
        goals.add(goal(c, "floor under it: " + C_UDP + " 8 B p50 / Open MPI TCP 8 B p50", C_UDP, "-", OMPI_TCP,
                SuiteReport.LATENCY, 8, false, true, 0.65));
        goals.add(goal(c, "udp Put 8 B p99 / Open MPI TCP 8 B p99", "udp", OMPI_TCP, SuiteReport.LATENCY, 8, true,
                true, 1.5));
        goals.add(goal(c, "udp Put 64 KiB p50 / Open MPI TCP 64 KiB p50", "udp", OMPI_TCP, SuiteReport.LATENCY,
                64 * 1024, false, true, 1.0));
        goals.add(goal(c, "udp Put 1 MiB bandwidth / Open MPI TCP 1 MiB bandwidth", "udp", OMPI_TCP,
                SuiteReport.BANDWIDTH, MIB, false, false, 0.6));
        goals.add(goal(c, "udp-crc32c Put 1 MiB bandwidth / Open MPI TCP 1 MiB bandwidth", UDP_CRC32C, OMPI_TCP,
                SuiteReport.BANDWIDTH, MIB, false, false, 0.9));
        for (String t : transports) {
            lapiGoals(goals, c, "", LAPI, LAPI_PUT, t);
        }
        lapiGoals(goals, c, " from C", LAPI_C, LAPI_C_PUT, "udp");
        return goals;
    }

    /**
     * LAPI's goals (issue 20): Amsend at most 1.3x Put's half round trip at 8 B and 1 KiB and at least 0.8x its 1 MiB
     * bandwidth, the two measured side by side by one program.
     */
    private static void lapiGoals(List<Goal> goals, List<Series> c, String from, String amsend, String put, String t) {
        for (int size : new int[] {8, 1024}) {
            String bytes = size == 8 ? "8 B" : "1 KiB";
            goals.add(goal(c, "LAPI Amsend" + from + " " + bytes + " / Put " + bytes + " (" + t + ")", amsend, t, put,
                    t, SuiteReport.LATENCY, size, false, true, 1.3));
        }
        goals.add(goal(c, "LAPI Amsend" + from + " 1 MiB bandwidth / Put's (" + t + ")", amsend, t, put, t,
                SuiteReport.BANDWIDTH, MIB, false, false, 0.8));
    }

    private static Goal goal(List<Series> c, String name, String transport, String peerName, String kind, int size,
                             boolean p99, boolean atMost, double limit) {
        return goal(c, name, PUT, transport, peerName, kind, size, p99, atMost, limit);
    }

    private static Goal goal(List<Series> c, String name, String mineName, String transport, String peerName,
                             String kind, int size, boolean p99, boolean atMost, double limit) {
        return goal(c, name, mineName, transport, peerName, "-", kind, size, p99, atMost, limit);
    }

    private static Goal goal(List<Series> c, String name, String mineName, String transport, String peerName,
                             String peerTransport, String kind, int size, boolean p99, boolean atMost, double limit) {
        String unit = kind.equals(SuiteReport.LATENCY) ? "us" : "MB/s";
        Series mine = find(c, mineName, kind, transport);
        Series peer = find(c, peerName, kind, peerTransport);
        String why = mine == null ? "no " + mineName + " " + kind + on(transport) + " in this run"
                : peer == null ? "no " + peerName + " " + kind + on(peerTransport) + " in this run" : null;
        Point a = mine == null ? null : mine.at(size);
        Point b = peer == null ? null : peer.at(size);
        if (why == null && (a == null || b == null)) {
            why = "size " + size + " not measured (--quick measures fewer sizes)";
        }
        if (why != null) {
            return new Goal(name, Double.NaN, Double.NaN, unit, atMost, limit, why);
        }
        return new Goal(name, p99 ? a.p99() : a.value(), p99 ? b.p99() : b.value(), unit, atMost, limit, null);
    }

    private static String on(String transport) {
        return transport.equals("-") ? "" : " on " + transport;
    }

    private static @Nullable Series find(List<Series> series, String name, String kind, String transport) {
        for (Series s : series) {
            if (s.name().equals(name) && s.kind().equals(kind) && s.transport().equals(transport)) {
                return s;
            }
        }
        return null;
    }
}
