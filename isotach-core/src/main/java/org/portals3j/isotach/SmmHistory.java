package org.portals3j.isotach;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.portals3j.isotach.internal.smm.SharedMap;

/**
 * Checks a whole shared-memory history against the Isotach shared memory model (Isotach report §3.4,
 * pp. 14-18; I-079..I-092). Install it as the {@link SharedMemoryObserver} of every host (it is thread-safe), record
 * each host's successful accesses with {@link #issued} in issue order and the values its reads returned with
 * {@link #returned}, let the job quiesce (every sched assigned, every read answered), then call {@link #verify()}.
 *
 * <h2>What verify() requires</h2>
 * <ol>
 *   <li><b>Isotach order at each copy.</b> A host's records, sorted by {@code sequence}, are numbered 0, 1, 2, ...
 *       without gap or repeat (an sRef applied twice, or a read still pending, shows here), have non-decreasing
 *       (pulse, source), and each was executed on a host holding a copy; each read at the nearest copy of its
 *       reader (I-087).</li>
 *   <li><b>Same changes everywhere</b> (I-090, G3). For every address, every copy applied the same sequence of
 *       changes (WRITE, SCHED, ASSIGN), each with the same pulse, source and operand, in the same order.</li>
 *   <li><b>Reads return their corresponding post</b> (I-079, I-080, I-084, G7). The corresponding post of a read
 *       is the last WRITE or SCHED of its address executed before it at its copy, in (pulse, source, issue)
 *       order; the read returns the written value, or for a SCHED the value of the next ASSIGN of the same
 *       address by the same host (the vId, Isotach report §3.4, pp. 14-18) — which must exist.</li>
 *   <li><b>Initial value.</b> A read with no post before it returns 0.</li>
 *   <li><b>Caveats</b> (I-092). At each copy, one host's SCHEDs and ASSIGNs of an address alternate, starting
 *       with a SCHED.</li>
 *   <li><b>What was issued was executed</b>, once (only when {@link #issued} was used; then it must be used for
 *       every access of every host). At each copy, the sRefs from host {@code s} are exactly the accesses
 *       {@code s} issued that target that copy (a change: every copy; a read: the nearest), in issue order, with
 *       the same kind, address and value; and each value a read returned to the application
 *       ({@link #returned}) equals its corresponding post's value.</li>
 * </ol>
 *
 * <h2>Issue order within a pulse</h2>
 * Records carry the executing host's {@code sequence}: its execution order, which is isotach order (pulse,
 * sender, issue order). Sorting by it recovers the issue order of one sender's sRefs within a pulse, including
 * reads that pended and were reported later, when their assign executed.
 */
public final class SmmHistory implements SharedMemoryObserver {
    private static final int MAX_ERRORS = 20;

    private record Rec(int copyHost, long sequence, long pulse, int source, int kind, long address, long operand,
            long value) {
        String describe() {
            return SharedMemoryObserver.kindName(kind) + " by host " + source + " of address " + address
                    + (kind == READ ? " (lvar slot " + operand + ")" : kind == SCHED ? "" : " value " + operand)
                    + " at host " + copyHost + " (sequence " + sequence + ", pulse " + pulse + ")";
        }
    }

    private static final class Op {
        final int kind;
        final long address;
        final long value;
        boolean hasReturned;
        long returnedValue;

        Op(int kind, long address, long value) {
            this.kind = kind;
            this.address = address;
            this.value = value;
        }
    }

    private record Key(long address, int source) {
    }

    private final int hosts;
    private final SharedMap[] maps;
    private final List<List<Rec>> records = new ArrayList<>();
    private final List<List<Op>> ops = new ArrayList<>();
    private boolean anyIssued;

    /** A history of a job of {@code hosts} hosts sharing {@code config}'s layout and distances. */
    public SmmHistory(int hosts, IsotachConfig config) {
        this.hosts = hosts;
        this.maps = new SharedMap[hosts];
        for (int h = 0; h < hosts; h++) {
            maps[h] = new SharedMap(h, hosts, config);
            records.add(new ArrayList<>());
            ops.add(new ArrayList<>());
        }
    }

    private void checkHost(int host) {
        if (host < 0 || host >= hosts) {
            throw new IllegalArgumentException("host " + host + " is not a host of a job of " + hosts);
        }
    }

    /** Observer records, from every host's thread. */
    @Override
    public synchronized void executed(int copyHost, long sequence, long pulse, int source, int kind, long address,
            long operand, long value) {
        checkHost(copyHost);
        records.get(copyHost).add(new Rec(copyHost, sequence, pulse, source, kind, address, operand, value));
    }

    /**
     * Host {@code host} issued an access successfully (call in its issue order).
     *
     * @param value WRITE and ASSIGN: the value; READ and SCHED: ignored
     * @return the access's index among {@code host}'s, for {@link #returned}
     */
    public synchronized long issued(int host, int kind, long address, long value) {
        checkHost(host);
        if (kind != READ && kind != WRITE && kind != ASSIGN && kind != SCHED) {
            throw new IllegalArgumentException("not an sRef kind: " + kind);
        }
        anyIssued = true;
        List<Op> list = ops.get(host);
        list.add(new Op(kind, address, kind == WRITE || kind == ASSIGN ? value : 0));
        return list.size() - 1;
    }

    /** The read {@code op} (from {@link #issued}) of {@code host} returned {@code value} to the application. */
    public synchronized void returned(int host, long op, long value) {
        checkHost(host);
        List<Op> list = ops.get(host);
        if (op < 0 || op >= list.size() || list.get((int) op).kind != READ) {
            throw new IllegalArgumentException("host " + host + " issued no read #" + op);
        }
        Op o = list.get((int) op);
        o.hasReturned = true;
        o.returnedValue = value;
    }

    /** Observer records collected so far. */
    public synchronized int size() {
        int n = 0;
        for (List<Rec> l : records) {
            n += l.size();
        }
        return n;
    }

    /**
     * Checks the history (see the class comment).
     *
     * @throws AssertionError naming every violation found (up to 20), each with the records involved
     */
    public synchronized void verify() {
        List<String> errors = new ArrayList<>();
        List<List<Rec>> byHost = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            List<Rec> l = new ArrayList<>(records.get(h));
            l.sort(Comparator.comparingLong(Rec::sequence));
            byHost.add(l);
        }
        Map<Rec, Long> expected = new HashMap<>();
        for (int h = 0; h < hosts; h++) {
            checkCopy(h, byHost.get(h), errors);
            checkReads(h, byHost.get(h), expected, errors);
        }
        checkSameChanges(byHost, errors);
        if (anyIssued) {
            checkIssued(byHost, expected, errors);
        }
        if (!errors.isEmpty()) {
            StringBuilder sb = new StringBuilder("shared-memory history violates the isotach model ("
                    + errors.size() + (errors.size() >= MAX_ERRORS ? "+" : "") + " violations):");
            for (String e : errors) {
                sb.append("\n  - ").append(e);
            }
            throw new AssertionError(sb.toString());
        }
    }

    private static void error(List<String> errors, String message) {
        if (errors.size() < MAX_ERRORS) {
            errors.add(message);
        }
    }

    /** Isotach order, copy placement, numbering, caveats at one host (checks 1 and 5). */
    private void checkCopy(int h, List<Rec> recs, List<String> errors) {
        Map<Key, Boolean> schedOpen = new HashMap<>();
        long expectSeq = 0;
        Rec prev = null;
        for (Rec r : recs) {
            if (r.sequence < expectSeq) {
                error(errors, "host " + h + " reported sequence " + r.sequence + " twice: " + r.describe()
                        + " (an sRef applied twice?)");
            } else if (r.sequence > expectSeq) {
                error(errors, "host " + h + " has no record with sequence " + expectSeq
                        + (r.sequence > expectSeq + 1 ? ".." + (r.sequence - 1) : "")
                        + ": an sRef executed but never reported (a read still pending on a sched never assigned?)");
            }
            expectSeq = r.sequence + 1;
            if (r.kind != READ && r.kind != WRITE && r.kind != ASSIGN && r.kind != SCHED) {
                error(errors, "host " + h + " reported an unknown kind: " + r.describe());
                continue;
            }
            if (r.source < 0 || r.source >= hosts) {
                error(errors, "host " + h + " executed an sRef from a host outside the job: " + r.describe());
                continue;
            }
            int region = maps[h].regionOf(r.address);
            if (region < 0 || !maps[h].hasCopy(region, h)) {
                error(errors, "host " + h + " executed an sRef on an address it holds no copy of: " + r.describe());
                continue;
            }
            if (prev != null && (r.pulse < prev.pulse || r.pulse == prev.pulse && r.source < prev.source)) {
                error(errors, "not isotach order at host " + h + ": " + r.describe() + " executed after "
                        + prev.describe() + " (order must be pulse, then sender id, then issue order)");
            }
            prev = r;
            switch (r.kind) {
                case READ -> {
                    int nearest = maps[r.source].nearestCopy(r.address);
                    if (nearest != h) {
                        error(errors, r.describe() + " executed at host " + h + ", but the nearest copy of host "
                                + r.source + " is host " + nearest + " (I-087)");
                    }
                }
                case SCHED -> {
                    if (r.value != r.source) {
                        error(errors, r.describe() + " stored vId " + r.value + ", not its issuer " + r.source
                                + " (Isotach report §3.4, pp. 14-18)");
                    }
                    if (Boolean.TRUE.equals(schedOpen.put(new Key(r.address, r.source), Boolean.TRUE))) {
                        error(errors, r.describe() + ": host " + r.source
                                + " already had a sched outstanding on this address"
                                + " (caveat Isotach report App. A.6, pp. 99-100, I-092)");
                    }
                }
                case ASSIGN -> {
                    if (!Boolean.TRUE.equals(schedOpen.put(new Key(r.address, r.source), Boolean.FALSE))) {
                        error(errors, r.describe() + ": host " + r.source
                                + " had no sched outstanding on this address"
                                + " (caveat Isotach report App. A.6, pp. 99-100, I-092)");
                    }
                }
                default -> {
                }
            }
        }
    }

    /** Checks 3 and 4 at one host; records each read's expected value for check 6. */
    private void checkReads(int h, List<Rec> recs, Map<Rec, Long> expected, List<String> errors) {
        Map<Long, Rec> lastPost = new HashMap<>();
        Map<Key, Rec> openSched = new HashMap<>(); // (address, host) -> its sched not yet assigned here
        Map<Rec, Rec> schedAssign = new HashMap<>(); // sched -> the assign that supplied its value
        Map<Rec, List<Rec>> waiting = new HashMap<>(); // sched not yet assigned -> reads it is the post of
        for (Rec r : recs) {
            switch (r.kind) {
                case WRITE -> lastPost.put(r.address, r);
                case SCHED -> {
                    lastPost.put(r.address, r);
                    openSched.put(new Key(r.address, r.source), r);
                }
                case ASSIGN -> {
                    Rec sched = openSched.remove(new Key(r.address, r.source));
                    if (sched != null) {
                        schedAssign.put(sched, r);
                        List<Rec> reads = waiting.remove(sched);
                        if (reads != null) {
                            for (Rec read : reads) {
                                expectSchedValue(read, sched, r, expected, errors);
                            }
                        }
                    }
                }
                case READ -> {
                    Rec post = lastPost.get(r.address);
                    if (post == null) {
                        expected.put(r, 0L);
                        if (r.value != 0) {
                            error(errors, r.describe() + " returned " + r.value
                                    + " before any post of the address: the initial value is 0");
                        }
                    } else if (post.kind == WRITE) {
                        expected.put(r, post.operand);
                        if (r.value != post.operand) {
                            error(errors, r.describe() + " returned " + r.value + ", but its corresponding post is "
                                    + post.describe() + " (I-079" + (staleFor(recs, r, post) ? ": a stale value" : "")
                                    + ")");
                        }
                    } else {
                        Rec assign = schedAssign.get(post);
                        if (assign != null) {
                            expectSchedValue(r, post, assign, expected, errors);
                        } else {
                            waiting.computeIfAbsent(post, x -> new ArrayList<>()).add(r);
                        }
                    }
                }
                default -> {
                }
            }
        }
        for (Map.Entry<Rec, List<Rec>> w : waiting.entrySet()) {
            for (Rec read : w.getValue()) {
                error(errors, read.describe() + " returned " + read.value + ", but its corresponding post "
                        + w.getKey().describe() + " was never assigned: the read must wait for that assign (I-080)");
            }
        }
    }

    /** A read whose corresponding post is {@code sched} returns the value of that sched's assign (I-080, I-084). */
    private static void expectSchedValue(Rec read, Rec sched, Rec assign, Map<Rec, Long> expected,
            List<String> errors) {
        expected.put(read, assign.operand);
        if (read.value != assign.operand) {
            error(errors, read.describe() + " returned " + read.value + ", but its corresponding post "
                    + sched.describe() + " was substantiated by " + assign.describe() + " with " + assign.operand
                    + " (I-080, I-084)");
        }
    }

    /** Whether {@code read}'s value is that of a post of the same address before {@code post}. */
    private static boolean staleFor(List<Rec> recs, Rec read, Rec post) {
        for (Rec r : recs) {
            if (r.sequence >= post.sequence) {
                return false;
            }
            if (r.address == read.address && (r.kind == WRITE || r.kind == ASSIGN) && r.operand == read.value) {
                return true;
            }
        }
        return false;
    }

    /** Check 2: every copy of an address applied the same changes in the same order. */
    private void checkSameChanges(List<List<Rec>> byHost, List<String> errors) {
        Map<Long, TreeMap<Integer, List<Rec>>> changes = new TreeMap<>();
        TreeSet<Long> addresses = new TreeSet<>();
        for (List<Rec> recs : byHost) {
            for (Rec r : recs) {
                addresses.add(r.address);
            }
        }
        for (long a : addresses) {
            TreeMap<Integer, List<Rec>> perCopy = new TreeMap<>();
            int region = maps[0].regionOf(a);
            if (region < 0) {
                continue; // reported by checkCopy
            }
            for (int h = 0; h < hosts; h++) {
                if (maps[0].hasCopy(region, h)) {
                    perCopy.put(h, new ArrayList<>());
                }
            }
            changes.put(a, perCopy);
        }
        for (List<Rec> recs : byHost) {
            for (Rec r : recs) {
                TreeMap<Integer, List<Rec>> perCopy = changes.get(r.address);
                if (r.kind != READ && perCopy != null) {
                    List<Rec> l = perCopy.get(r.copyHost);
                    if (l != null) {
                        l.add(r);
                    }
                }
            }
        }
        for (Map.Entry<Long, TreeMap<Integer, List<Rec>>> e : changes.entrySet()) {
            Map.Entry<Integer, List<Rec>> first = e.getValue().firstEntry();
            if (first == null) {
                continue;
            }
            List<Rec> ref = first.getValue();
            for (Map.Entry<Integer, List<Rec>> other : e.getValue().entrySet()) {
                List<Rec> l = other.getValue();
                int n = Math.min(ref.size(), l.size());
                for (int i = 0; i <= n; i++) {
                    if (i == n) {
                        if (ref.size() != l.size()) {
                            List<Rec> longer = ref.size() > l.size() ? ref : l;
                            int shortHost = ref.size() > l.size() ? other.getKey() : first.getKey();
                            error(errors, "address " + e.getKey() + ": the copy at host " + first.getKey()
                                    + " applied " + ref.size() + " changes, the copy at host " + other.getKey()
                                    + " applied " + l.size() + "; host " + shortHost + " lacks "
                                    + longer.get(n).describe() + " (I-090)");
                        }
                        break;
                    }
                    Rec a = ref.get(i);
                    Rec b = l.get(i);
                    if (a.kind != b.kind || a.source != b.source || a.operand != b.operand || a.pulse != b.pulse) {
                        error(errors, "address " + e.getKey() + ": copies applied changes in different orders: change #"
                                + i + " is " + a.describe() + " but " + b.describe() + " (I-090)");
                        break;
                    }
                }
            }
        }
    }

    /** Check 6: each copy executed exactly what each host issued to it, in issue order. */
    private void checkIssued(List<List<Rec>> byHost, Map<Rec, Long> expected, List<String> errors) {
        // bySource.get(c).get(s): copy c's records from source s, in execution order
        List<List<List<Rec>>> bySource = new ArrayList<>();
        for (int c = 0; c < hosts; c++) {
            List<List<Rec>> perSource = new ArrayList<>();
            for (int s = 0; s < hosts; s++) {
                perSource.add(new ArrayList<>());
            }
            for (Rec r : byHost.get(c)) {
                if (r.source >= 0 && r.source < hosts) {
                    perSource.get(r.source).add(r);
                }
            }
            bySource.add(perSource);
        }
        int[] copies = new int[hosts];
        for (int s = 0; s < hosts; s++) {
            int[] next = new int[hosts];
            List<Op> list = ops.get(s);
            for (int i = 0; i < list.size(); i++) {
                Op op = list.get(i);
                String what = "host " + s + "'s access #" + i + " (" + SharedMemoryObserver.kindName(op.kind)
                        + " of address " + op.address + (op.kind == WRITE || op.kind == ASSIGN ? " value " + op.value
                        : "") + ")";
                int n;
                if (op.kind == READ) {
                    copies[0] = maps[s].nearestCopy(op.address);
                    n = copies[0] < 0 ? -1 : 1;
                } else {
                    n = maps[s].copies(op.address, copies);
                }
                if (n < 0) {
                    error(errors, what + " names an address that is not shared memory: it should have failed (I-088)");
                    continue;
                }
                for (int j = 0; j < n; j++) {
                    int c = copies[j];
                    List<Rec> seen = bySource.get(c).get(s);
                    if (next[c] >= seen.size()) {
                        error(errors, what + " was never executed at host " + c
                                + (op.kind == READ ? " (its nearest copy)" : " (a copy)"));
                        continue;
                    }
                    Rec r = seen.get(next[c]++);
                    boolean same = r.kind == op.kind && r.address == op.address
                            && (op.kind != WRITE && op.kind != ASSIGN || r.operand == op.value);
                    if (!same) {
                        error(errors, what + " is missing at host " + c + " or out of issue order: the next sRef"
                                + " from host " + s + " executed there is " + r.describe());
                        next[c]--; // keep aligning against the next access
                        continue;
                    }
                    if (op.kind == READ && op.hasReturned) {
                        Long want = expected.get(r);
                        if (op.returnedValue != r.value || want != null && op.returnedValue != want) {
                            error(errors, what + " returned " + op.returnedValue + " to the application, but "
                                    + r.describe() + " answered " + r.value
                                    + (want == null ? "" : " and its corresponding post gives " + want));
                        }
                    }
                }
            }
            for (int c = 0; c < hosts; c++) {
                List<Rec> seen = bySource.get(c).get(s);
                for (int k = next[c]; k < seen.size(); k++) {
                    error(errors, seen.get(k).describe() + " was executed but host " + s + " never issued it");
                }
            }
        }
    }
}
