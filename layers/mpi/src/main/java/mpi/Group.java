package mpi;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A group of processes: an ordered set of job ranks, local to the process that made it (mpi-java-api.md section
 * 2.15). Every operation is local. Errors (a bad rank, a freed group) go through the calling rank's
 * {@code COMM_WORLD} error handler.
 */
public final class Group implements Freeable {
    private final int[] members;
    /** The job rank of the process this group object belongs to (-1: none, for {@code GROUP_EMPTY}). */
    private final int self;
    private volatile boolean freed;

    Group(int[] members, int self) {
        this.members = members;
        this.self = self;
    }

    public int getSize() throws MPIException {
        return live().length;
    }

    /** The caller's rank in the group, or {@code MPI.UNDEFINED} if it is not a member. */
    public int getRank() throws MPIException {
        int[] m = live();
        int me = self >= 0 ? self : MPI.process().rank();
        for (int i = 0; i < m.length; i++) {
            if (m[i] == me) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /** Frees the group (it reads {@link #isNull()} afterwards); {@code GROUP_EMPTY} cannot be freed. */
    @Override
    public void free() throws MPIException {
        live();
        if (this == MPI.GROUP_EMPTY) {
            throw error(MPI.ERR_GROUP, "GROUP_EMPTY is predefined and cannot be freed");
        }
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    /** The members at {@code ranks}, in that order. */
    public Group incl(int[] ranks) throws MPIException {
        int[] m = live();
        checkDistinctRanks(ranks, m.length);
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = m[ranks[i]];
        }
        return derived(out);
    }

    /** The members not at {@code ranks}, in group order. */
    public Group excl(int[] ranks) throws MPIException {
        int[] m = live();
        checkDistinctRanks(ranks, m.length);
        boolean[] dropped = new boolean[m.length];
        for (int r : ranks) {
            dropped[r] = true;
        }
        return derived(keep(m, dropped, false));
    }

    /** The members of the ranges {@code {first, last, stride}}, in range order. */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        int[] m = live();
        return derived(incl(expand(ranges, m.length)).members);
    }

    /** The members not in the ranges {@code {first, last, stride}}, in group order. */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        int[] m = live();
        return excl(expand(ranges, m.length));
    }

    /** The rank in {@code group2} of each rank {@code ranks1} of {@code group1}, or {@code MPI.UNDEFINED}. */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        int[] a = group1.live();
        int[] b = group2.live();
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            if (r < 0 || r >= a.length) {
                throw error(MPI.ERR_RANK, "rank " + r + " is not in the first group (size " + a.length + ")");
            }
            out[i] = indexOf(b, a[r]);
        }
        return out;
    }

    /** {@code MPI.IDENT}: same members in the same order; {@code SIMILAR}: same members; else {@code UNEQUAL}. */
    public static int compare(Group group1, Group group2) throws MPIException {
        return compareRanks(group1.live(), group2.live());
    }

    /** The members of {@code group1}, then those of {@code group2} not in {@code group1}. */
    public static Group union(Group group1, Group group2) throws MPIException {
        Set<Integer> all = new LinkedHashSet<>();
        Arrays.stream(group1.live()).forEach(all::add);
        Arrays.stream(group2.live()).forEach(all::add);
        return group1.derived(all.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The members of {@code group1} that are also in {@code group2}, in {@code group1}'s order. */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        int[] b = group2.live();
        return group1.derived(Arrays.stream(group1.live()).filter(x -> indexOf(b, x) != MPI.UNDEFINED).toArray());
    }

    /** The members of {@code group1} that are not in {@code group2}, in {@code group1}'s order. */
    public static Group difference(Group group1, Group group2) throws MPIException {
        int[] b = group2.live();
        return group1.derived(Arrays.stream(group1.live()).filter(x -> indexOf(b, x) == MPI.UNDEFINED).toArray());
    }

    // ---- helpers ----------------------------------------------------------------------------------

    static int compareRanks(int[] a, int[] b) {
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        int[] sa = a.clone();
        int[] sb = b.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        return Arrays.equals(sa, sb) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** The members (job ranks, in group order) of a group not freed (else ERR_GROUP). */
    int[] members() throws MPIException {
        return live();
    }

    private int[] live() throws MPIException {
        MPI.check();
        if (freed) {
            throw error(MPI.ERR_GROUP, "the group has been freed");
        }
        return members;
    }

    private Group derived(int[] newMembers) throws MPIException {
        return new Group(newMembers, self >= 0 ? self : MPI.process().rank());
    }

    private static int indexOf(int[] members, int jobRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == jobRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    private static int[] keep(int[] m, boolean[] marked, boolean wanted) {
        return IntStream.range(0, m.length).filter(i -> marked[i] == wanted).map(i -> m[i])
                .toArray();
    }

    private static void checkDistinctRanks(int[] ranks, int size) throws MPIException {
        boolean[] seen = new boolean[size];
        for (int r : ranks) {
            if (r < 0 || r >= size) {
                throw error(MPI.ERR_RANK, "rank " + r + " is not in the group (ranks 0.." + (size - 1) + ")");
            }
            if (seen[r]) {
                throw error(MPI.ERR_RANK, "rank " + r + " is given twice");
            }
            seen[r] = true;
        }
    }

    /** The ranks of {@code {first, last, stride}} triples, checked to be in the group. */
    private static int[] expand(int[][] ranges, int size) throws MPIException {
        int[] out = new int[0];
        for (int[] range : ranges) {
            if (range.length != 3 || range[2] == 0) {
                throw error(MPI.ERR_ARG, "a range is {first, last, stride} with a stride other than 0, not "
                        + Arrays.toString(range));
            }
            int first = range[0];
            int last = range[1];
            int stride = range[2];
            if ((last - first) / stride < 0 || first < 0 || first >= size || last < 0 || last >= size) {
                throw error(MPI.ERR_RANK, "range " + Arrays.toString(range) + " does not lie in ranks 0.."
                        + (size - 1));
            }
            int n = (last - first) / stride + 1;
            int start = out.length;
            out = Arrays.copyOf(out, start + n);
            for (int i = 0; i < n; i++) {
                out[start + i] = first + i * stride;
            }
        }
        return out;
    }

    private static MPIException error(int errorClass, String message) throws MPIException {
        return MPI.raise(MPI.process().world(), errorClass, message);
    }
}
