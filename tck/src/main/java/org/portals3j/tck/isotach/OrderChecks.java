package org.portals3j.tck.isotach;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.portals3j.tck.isotach.IsoTraffic.Tag;
import org.portals3j.tck.isotach.IsotachJob.Delivered;

/**
 * Checks over the sequences the hosts delivered (messages tagged by {@link IsoTraffic#payload}). Each check
 * throws an {@link AssertionError} naming the assertion id, the host(s) and {@code context} (e.g. the seed).
 */
final class OrderChecks {
    private OrderChecks() {
    }

    private static AssertionError fail(String context, String what) {
        return new AssertionError(what + (context.isEmpty() ? "" : " [" + context + "]"));
    }

    /** I-051/I-111: {@code delivered} (messages only) holds exactly {@code expected} (sender/seq keys), once each. */
    static void exactlyOnce(String context, int host, Set<String> expected, List<Delivered> delivered) {
        Set<String> seen = new HashSet<>();
        for (Delivered d : delivered) {
            if (d.isNotice()) {
                continue;
            }
            Tag t = Tag.of(d);
            String key = t.sender() + "#" + t.seq();
            if (!seen.add(key)) {
                throw fail(context, "host " + host + " delivered message " + key + " twice (I-051)");
            }
            if (!expected.contains(key)) {
                throw fail(context, "host " + host + " delivered message " + key + " that was not sent to it (I-051)");
            }
            if (!IsoTraffic.intact(d)) {
                throw fail(context, "host " + host + " delivered message " + key
                        + " with a corrupted payload or sender " + d.sender() + " (I-041/I-044)");
            }
        }
        if (seen.size() != expected.size()) {
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(seen);
            throw fail(context, "host " + host + " lost " + missing.size() + " messages, e.g. "
                    + missing.iterator().next() + " (I-051)");
        }
    }

    /** I-032: each sender's messages in issue (seq) order. */
    static void perSenderIssueOrder(String context, int host, List<Delivered> delivered) {
        Map<Integer, Integer> last = new HashMap<>();
        for (Delivered d : delivered) {
            if (d.isNotice()) {
                continue;
            }
            Tag t = Tag.of(d);
            Integer prev = last.put(t.sender(), t.seq());
            if (prev != null && prev >= t.seq()) {
                throw fail(context, "host " + host + " delivered message " + t.seq() + " of sender " + t.sender()
                        + " after its message " + prev + " (I-032)");
            }
        }
    }

    /** I-002: pulses never decrease along a host's deliveries (messages and notices). */
    static void pulsesNonDecreasing(String context, int host, List<Delivered> delivered) {
        long prev = Long.MIN_VALUE;
        for (int i = 0; i < delivered.size(); i++) {
            Delivered d = delivered.get(i);
            if (d.pulse() < prev) {
                throw fail(context, "host " + host + " delivered " + d + " (index " + i + ") after pulse " + prev
                        + " (I-002)");
            }
            prev = d.pulse();
        }
    }

    /** I-016/I-003: all messages of one isochron carry one pulse, at every destination. Returns isochron -> pulse. */
    static Map<String, Long> onePulsePerIsochron(String context, List<List<Delivered>> perHost) {
        Map<String, Long> pulse = new HashMap<>();
        Map<String, String> where = new HashMap<>();
        for (int h = 0; h < perHost.size(); h++) {
            for (Delivered d : perHost.get(h)) {
                if (d.isNotice()) {
                    continue;
                }
                Tag t = Tag.of(d);
                String k = t.isochron();
                Long p = pulse.putIfAbsent(k, d.pulse());
                where.putIfAbsent(k, "host " + h);
                if (p != null && p != d.pulse()) {
                    throw fail(context, "isochron " + k + " was delivered at pulse " + p + " at " + where.get(k)
                            + " but at pulse " + d.pulse() + " at host " + h + " (message #" + t.seq() + ", I-016)");
                }
            }
        }
        return pulse;
    }

    /** I-018: at one host, the messages of one isochron are contiguous and in issue order. */
    static void isochronsContiguous(String context, int host, List<Delivered> delivered) {
        Set<String> closed = new HashSet<>();
        String current = null;
        int lastPos = -1;
        for (Delivered d : delivered) {
            if (d.isNotice()) {
                continue;
            }
            Tag t = Tag.of(d);
            String k = t.isochron();
            if (!k.equals(current)) {
                if (current != null) {
                    closed.add(current);
                }
                if (closed.contains(k)) {
                    throw fail(context, "host " + host + ": isochron " + k + " was interleaved with another isochron"
                            + " (message #" + t.seq() + " after isochron " + current + ", I-017/I-018)");
                }
                current = k;
            } else if (t.pos() <= lastPos) {
                throw fail(context, "host " + host + ": isochron " + k + " message " + t.pos() + " after message "
                        + lastPos + " (I-018)");
            }
            lastPos = t.pos();
        }
    }

    /**
     * I-011/I-017: for every pair of hosts, the isochrons both of them received are in the same relative order
     * at both (with {@link #isochronsContiguous}, this is atomicity).
     */
    static void pairwiseSameOrder(String context, List<List<Delivered>> perHost) {
        List<List<String>> orders = new ArrayList<>();
        for (List<Delivered> delivered : perHost) {
            LinkedHashMap<String, Boolean> order = new LinkedHashMap<>();
            for (Delivered d : delivered) {
                if (!d.isNotice()) {
                    order.putIfAbsent(Tag.of(d).isochron(), Boolean.TRUE);
                }
            }
            orders.add(new ArrayList<>(order.keySet()));
        }
        for (int a = 0; a < orders.size(); a++) {
            for (int b = a + 1; b < orders.size(); b++) {
                Set<String> inB = new HashSet<>(orders.get(b));
                Set<String> inA = new HashSet<>(orders.get(a));
                List<String> pa = new ArrayList<>();
                for (String k : orders.get(a)) {
                    if (inB.contains(k)) {
                        pa.add(k);
                    }
                }
                List<String> pb = new ArrayList<>();
                for (String k : orders.get(b)) {
                    if (inA.contains(k)) {
                        pb.add(k);
                    }
                }
                for (int i = 0; i < pa.size(); i++) {
                    if (!pa.get(i).equals(pb.get(i))) {
                        throw fail(context, "hosts " + a + " and " + b
                                + " delivered their common isochrons in different"
                                + " orders: position " + i + " is " + pa.get(i) + " at host " + a + " but " + pb.get(i)
                                + " at host " + b + " (I-011/I-017)");
                    }
                }
            }
        }
    }

    /**
     * I-010/I-040: within one pulse a host delivers messages by ascending sender id (its own self-messages at its
     * own id's place). Messages of self-isochrons (no net message) are left out: with no net-isochron outstanding
     * they execute at once (I-036), behind whatever is queued, and belong to no pulse's sort. Returns the number of
     * pulses, over the given hosts, that held messages of two or more senders.
     */
    static int senderOrderWithinPulses(String context, int host, List<Delivered> delivered) {
        long pulse = Long.MIN_VALUE;
        int lastSender = -1;
        int firstSender = -1;
        int mixed = 0;
        boolean counted = false;
        for (Delivered d : delivered) {
            // A self-isochron issued with no net-isochron outstanding executes "now" (I-036), outside the pulse order.
            if (d.isNotice() || !Tag.of(d).net()) {
                continue;
            }
            if (d.pulse() != pulse) {
                pulse = d.pulse();
                lastSender = d.sender();
                firstSender = d.sender();
                counted = false;
                continue;
            }
            if (d.sender() < lastSender) {
                throw fail(context, "host " + host + " delivered a message of sender " + d.sender()
                        + " after one of sender " + lastSender + " in pulse " + pulse + " (I-010/I-040)");
            }
            if (d.sender() != firstSender && !counted) {
                mixed++;
                counted = true;
            }
            lastSender = d.sender();
        }
        return mixed;
    }

    /**
     * I-015: a notice of pulse T comes after every message of pulse T and before every message of a later pulse;
     * in one pulse the signal notice comes before the barrier notice. Returns how many notices shared their pulse
     * with a message delivered at that host.
     */
    static int noticesBetweenPulses(String context, int host, List<Delivered> delivered) {
        int shared = 0;
        for (int i = 0; i < delivered.size(); i++) {
            Delivered n = delivered.get(i);
            if (!n.isNotice()) {
                continue;
            }
            boolean sharesPulse = false;
            for (int j = 0; j < delivered.size(); j++) {
                Delivered d = delivered.get(j);
                if (d.isNotice()) {
                    if (j > i && d.pulse() == n.pulse() && (n.bits() & 0x03) != 0 && (d.bits() & 0xFC) != 0) {
                        throw fail(context, "host " + host + " delivered the barrier notice " + n + " before the signal"
                                + " notice " + d + " of the same pulse (I-015)");
                    }
                    continue;
                }
                if (!Tag.of(d).net()) {
                    continue; // a self-isochron outside the pulse order (I-036)
                }
                if (d.pulse() == n.pulse()) {
                    sharesPulse = true;
                }
                if (j < i && d.pulse() > n.pulse()) {
                    throw fail(context, "host " + host + " delivered " + d + " before the notice " + n + " (I-015)");
                }
                if (j > i && d.pulse() <= n.pulse()) {
                    throw fail(context, "host " + host + " delivered " + d + " after the notice " + n + " (I-015)");
                }
            }
            if (sharesPulse) {
                shared++;
            }
        }
        return shared;
    }

    /** Every per-host check of a run, plus the cross-host ones. */
    static void all(String context, List<List<Delivered>> perHost, List<Set<String>> expected) {
        for (int h = 0; h < perHost.size(); h++) {
            List<Delivered> d = perHost.get(h);
            exactlyOnce(context, h, expected.get(h), d);
            perSenderIssueOrder(context, h, d);
            pulsesNonDecreasing(context, h, d);
            isochronsContiguous(context, h, d);
            senderOrderWithinPulses(context, h, d);
            noticesBetweenPulses(context, h, d);
        }
        onePulsePerIsochron(context, perHost);
        pairwiseSameOrder(context, perHost);
    }
}
