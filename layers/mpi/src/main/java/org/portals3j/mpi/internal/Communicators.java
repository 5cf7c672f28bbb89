package org.portals3j.mpi.internal;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Making communicators ({@code dup}, {@code split}, {@code create}, and the extras {@code iDup},
 * {@code dupWithInfo}, {@code splitType}, {@code createGroup}; mpi-java-api.md section 4.6). Each is collective over
 * the parent (over the group for {@code createGroup}), and the members agree on the new context id without a
 * central server ({@link ContextAgreement}: the largest of the members' lowest unused ids, proposed only by the
 * agreement that holds its rank's right to claim, so that threads of one rank may make communicators at the same
 * time). Ids go in pairs: the even one for point-to-point, the odd one after it for the hidden collective context. A
 * new communicator inherits its parent's error handler (MPI-3.1 section 8.3). Ids are not reused after {@code free}:
 * a rank can make 16 382 communicators in its life (15 bits of context in the match bits), after which making one
 * is ERR_OTHER on every member.
 */
public final class Communicators {
    private Communicators() {
    }

    /** A communicator with the parent's group in a new context. */
    public static CommState dup(CommState parent, ContextIds ids) {
        return dup(parent, parent.cached(), ids, agreementKey(parent));
    }

    /**
     * {@link #dup} as agreement {@code key} ({@link #agreementKey}) with what the parent had cached ({@code cached}:
     * hints and attributes), both taken when the call was made, in call order: an {@code iDup} agrees later, in the
     * background.
     */
    static CommState dup(CommState parent, CommState.Cached cached, ContextIds ids, long key) {
        int context = agree(parent, ids, key);
        CommState c = derived(parent, context, parent.jobRanks(), "DUP FROM " + parent.name());
        c.adopt(cached);
        return c;
    }

    /** The key of the next agreement on {@code parent} (its number among those on the parent, in call order). */
    public static long agreementKey(CommState parent) {
        return ContextAgreement.numberedKey(parent.context(), parent.nextAgreement());
    }

    /**
     * {@code split(colour, key)}: the ranks of each colour, ordered by key and then by parent rank; null for
     * colour {@code UNDEFINED}.
     */
    public static @Nullable CommState split(CommState parent, ContextIds ids, int colour, int key) {
        if (colour < 0 && colour != Constants.UNDEFINED) {
            throw new MpiError(ErrorClass.ARG, "invalid colour " + colour + ": it must be 0 or more, or UNDEFINED");
        }
        int n = parent.size();
        int[] all = new int[2 * n];
        all[2 * parent.rank()] = colour;
        all[2 * parent.rank() + 1] = key;
        UserData table = UserData.of(all, all.length, BaseType.INT, true);
        Collectives.ring(new CollectiveChannel(parent), table, CollectiveArgs.uniform(2, n),
                CollectiveArgs.packed(CollectiveArgs.uniform(2, n), n));
        int context = agree(parent, ids, agreementKey(parent));
        if (colour == Constants.UNDEFINED) {
            return null;
        }
        int[] members = IntStream.range(0, n).filter(r -> all[2 * r] == colour).boxed()
                .sorted(Comparator.<Integer>comparingInt(r -> all[2 * r + 1]).thenComparingInt(r -> r))
                .mapToInt(r -> parent.jobRank(r)).toArray();
        return derived(parent, context, members, "SPLIT FROM " + parent.name());
    }

    /**
     * {@code create(group)}: the members of {@code group} (job ranks, all in the parent) in a new context; null on
     * the ranks outside it.
     */
    public static @Nullable CommState create(CommState parent, ContextIds ids, int[] group) {
        int[] parentRanks = parent.jobRanks();
        int[] sorted = parentRanks.clone();
        Arrays.sort(sorted);
        for (int member : group) {
            if (Arrays.binarySearch(sorted, member) < 0) {
                throw new MpiError(ErrorClass.GROUP, "the group has a process (job rank " + member
                        + ") that is not in " + parent.name() + ": it must be a subgroup of the communicator's group");
            }
        }
        int context = agree(parent, ids, agreementKey(parent));
        int me = parent.engine().rank();
        if (IntStream.of(group).noneMatch(r -> r == me)) {
            return null;
        }
        return derived(parent, context, group, "CREATE FROM " + parent.name());
    }

    // ---- communicator extras: splitType, createGroup -----------------------------------------------------------

    /** {@code Comm.TYPE_SHARED}: the ranks of a node ({@link NodeIdentity}). */
    public static final int TYPE_SHARED = 0;

    /**
     * {@code splitType(type, key)}: for {@code TYPE_SHARED}, the ranks on the same node as this one
     * ({@link NodeIdentity}), ordered by key and then by parent rank; null for {@code UNDEFINED}. Any other type is
     * ERR_ARG. The nodes are found by an allGather of each rank's node identity over the parent, then it is a
     * {@link #split} with the lowest parent rank of each node as its colour.
     */
    public static @Nullable CommState splitType(CommState parent, ContextIds ids, int type, int key) {
        if (type != TYPE_SHARED && type != Constants.UNDEFINED) {
            throw new MpiError(ErrorClass.ARG, "invalid split type " + type + ": it must be Comm.TYPE_SHARED or"
                    + " MPI.UNDEFINED");
        }
        int n = parent.size();
        int width = NodeIdentity.BYTES;
        byte[] all = new byte[width * n];
        System.arraycopy(NodeIdentity.digest(), 0, all, width * parent.rank(), width);
        UserData table = UserData.of(all, all.length, BaseType.BYTE, true);
        Collectives.ring(new CollectiveChannel(parent), table, CollectiveArgs.uniform(width, n),
                CollectiveArgs.packed(CollectiveArgs.uniform(width, n), n));
        int colour = Constants.UNDEFINED;
        if (type == TYPE_SHARED) {
            int me = parent.rank();
            colour = IntStream.range(0, n).filter(r -> Arrays.equals(all, width * r, width * (r + 1), all,
                    width * me, width * (me + 1))).findFirst().orElse(me);
        }
        return split(parent, ids, colour, key);
    }

    /**
     * {@code createGroup(group, tag)}: the communicator of {@code group} (job ranks, all in the parent), made by the
     * group's members only: the agreement runs over them, keyed by the parent and {@code tag}, so that groups on
     * the same parent made at the same time by other threads stay apart (MPI 4.1 section 7.4.2). A rank outside
     * the group gets null at once, as Open MPI gives it {@code MPI_COMM_NULL}. A negative tag is ERR_TAG; a group
     * with a process outside the parent ERR_GROUP.
     */
    public static @Nullable CommState createGroup(CommState parent, ContextIds ids, int[] group, int tag) {
        if (tag < 0) {
            throw new MpiError(ErrorClass.TAG, "invalid tag " + tag + ": createGroup's tag must be 0.."
                    + MatchBits.TAG_UB);
        }
        int[] parentRanks = parent.jobRanks();
        int[] members = new int[group.length];
        for (int i = 0; i < group.length; i++) {
            int jobRank = group[i];
            members[i] = IntStream.range(0, parentRanks.length).filter(r -> parentRanks[r] == jobRank).findFirst()
                    .orElseThrow(() -> new MpiError(ErrorClass.GROUP, "the group has a process (job rank " + jobRank
                            + ") that is not in " + parent.name() + ": it must be a subgroup of its group"));
        }
        if (IntStream.of(members).noneMatch(r -> r == parent.rank())) {
            return null;
        }
        int context = ContextAgreement.agree(parent, members, ids, ContextAgreement.groupKey(parent.context(), tag));
        return derived(parent, context, group, "CREATE_GROUP FROM " + parent.name());
    }

    private static CommState derived(CommState parent, int context, int[] members, String how) {
        CommState c = new CommState(parent.engine(), context, members, "MPI COMMUNICATOR " + context + " " + how);
        c.setErrorHandling(parent.errorHandling());
        return c;
    }

    /** The new context id, agreed by every rank of the parent ({@link ContextAgreement}). */
    private static int agree(CommState parent, ContextIds ids, long key) {
        return ContextAgreement.agree(parent, IntStream.range(0, parent.size()).toArray(), ids, key);
    }
}
