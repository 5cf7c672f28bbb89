package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Making communicators ({@code dup}, {@code split}, {@code create}; mpi-java-api.md section 4.6). Each is
 * collective over the parent, and the members agree on the new context id without a central server: every rank
 * proposes the lowest id it has not used ({@link ContextIds}) and an allReduce(MAX) over the parent's collective
 * context picks the largest proposal, which no member uses. Ids go in pairs: the even one for point-to-point, the
 * odd one after it for the hidden collective context. A new communicator inherits its parent's error handler
 * (MPI-3.1 section 8.3). Ids are not reused after {@code free}: a rank can make 16 382 communicators in its life
 * (15 bits of context in the match bits), after which making one is ERR_OTHER on every member. Limit: one rank's
 * threads must not make communicators from different parents at the same time (two agreements could then pick the
 * same id for this rank; MPICH closes that with a locked mask and retries, not done here).
 */
public final class Communicators {
    private Communicators() {
    }

    /** A communicator with the parent's group in a new context. */
    public static CommState dup(CommState parent, ContextIds ids) {
        int context = agree(parent, ids);
        return derived(parent, context, parent.jobRanks(), "DUP FROM " + parent.name());
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
        int context = agree(parent, ids);
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
        int context = agree(parent, ids);
        int me = parent.engine().rank();
        if (IntStream.of(group).noneMatch(r -> r == me)) {
            return null;
        }
        return derived(parent, context, group, "CREATE FROM " + parent.name());
    }

    private static CommState derived(CommState parent, int context, int[] members, String how) {
        CommState c = new CommState(parent.engine(), context, members, "MPI COMMUNICATOR " + context + " " + how);
        c.setErrorHandling(parent.errorHandling());
        return c;
    }

    /** The new context id: the largest of the members' proposals (an allReduce over the parent). */
    private static int agree(CommState parent, ContextIds ids) {
        MemorySegment proposal = MemorySegment.ofArray(new int[] {ids.lowestUnused()});
        MemorySegment agreed = MemorySegment.ofArray(new int[1]);
        ReductionCollectives.allReduce(new CollectiveChannel(parent), proposal, agreed, 1,
                PredefinedOp.MAX.on(BaseType.INT));
        int context = agreed.get(ValueLayout.JAVA_INT, 0);
        ids.claim(context);
        return context;
    }
}
