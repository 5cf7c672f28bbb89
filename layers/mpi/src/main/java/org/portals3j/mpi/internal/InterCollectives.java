package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The blocking collectives on an intercommunicator (MPI 4.1 section 6.2.2): the data of one group goes to the
 * other. Messages between the groups go on the intercommunicator's hidden collective context, those within a group
 * on its local group's ({@link CommState#localGroup()}). Algorithms:
 * <ul>
 *   <li>{@code barrier}: a barrier in each group, its leaders (local rank 0) exchange an empty message, a second
 *       barrier in each group;</li>
 *   <li>{@code bcast}: the root ({@code MPI.ROOT}) sends to the other group's leader, which broadcasts in its group;
 *       the root's group passes {@code MPI.ROOT} at the root and {@code MPI.PROC_NULL} elsewhere;</li>
 *   <li>{@code reduce}: a reduction to the leader in the contributing group, which sends the result to the
 *       root;</li>
 *   <li>{@code allReduce}: a reduction to the leader in each group, the leaders swap their results, and each
 *       broadcasts the other group's in its own (every rank of a group gets the same bits);</li>
 *   <li>{@code gather(v)}, {@code scatter(v)}, {@code allGather(v)}, {@code allToAll(v)}: direct, one message per
 *       pair of ranks that exchange data (as the linear algorithms of the intracommunicator versions).</li>
 * </ul>
 * {@code reduceScatter(Block)}: a reduction to the leader in each group, the leaders swap, each scatters the other
 * group's result in its own. Each algorithm lays its steps down through {@link CollectiveSteps}, the local group's
 * through {@link CollectiveSteps#on}, so the nonblocking forms run the same code as a schedule. The in-place forms
 * are ERR_COMM (MPI has no in-place option on an intercommunicator).
 */
final class InterCollectives {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private InterCollectives() {
    }

    static void barrier(CollectiveSteps ch) {
        CollectiveSteps group = ch.on(local(ch.comm()));
        Collectives.barrier(group);
        if (group.rank() == 0) {
            ch.exchange(EMPTY, 0, EMPTY, 0, CollectiveChannel.BARRIER);
        }
        Collectives.barrier(group);
    }

    static void bcast(CollectiveSteps ch, @Nullable Object buf, int count, BaseType t, int root) {
        CommState c = ch.comm();
        CollectiveArgs.count(count);
        int side = side(c, root);
        if (side == SKIP) {
            return;
        }
        UserData data = UserData.of(buf, count, t, side == OTHER_GROUP);
        if (side == AT_ROOT) {
            ch.send(data.all(), 0, CollectiveChannel.BCAST);
            ch.endRound();
            return;
        }
        CollectiveSteps group = ch.on(local(c));
        if (group.rank() == 0) {
            ch.receive(data.all(), root, CollectiveChannel.BCAST);
            ch.endRound();
        }
        RootedCollectives.bcast(group, data.all(), 0);
        ch.local(data::commit);
    }

    static void reduce(CollectiveSteps ch, @Nullable Object sendbuf, @Nullable Object recvbuf, int count, BaseType t,
                       Reduction op, int root) {
        CommState c = ch.comm();
        CollectiveArgs.count(count);
        int side = side(c, root);
        if (side == SKIP) {
            return;
        }
        if (side == AT_ROOT) { // the root: the result comes from the other group's leader
            UserData out = UserData.of(recvbuf, count, t, true);
            ch.receive(out.all(), 0, CollectiveChannel.REDUCE);
            ch.endRound();
            ch.local(out::commit);
            return;
        }
        UserData in = UserData.of(sendbuf, count, t, false);
        MemorySegment result = ReductionCollectives.toRankZero(ch.on(local(c)), in.all(), count, op);
        if (result != null) {
            ch.send(result, root, CollectiveChannel.REDUCE);
            ch.endRound();
        }
    }

    static void allReduce(CollectiveSteps ch, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                          BaseType t, Reduction op) {
        CollectiveArgs.count(count);
        UserData in = UserData.of(sendbuf, count, t, false);
        UserData out = UserData.of(recvbuf, count, t, true);
        CollectiveSteps group = ch.on(local(ch.comm()));
        MemorySegment mine = ReductionCollectives.toRankZero(group, in.all(), count, op);
        if (mine != null) {
            ch.exchange(mine, 0, out.all(), 0, CollectiveChannel.REDUCE);
        }
        RootedCollectives.bcast(group, out.all(), 0);
        ch.local(out::commit);
    }

    /**
     * {@code reduceScatter} (MPI 3.1 section 5.10.1): {@code recvcounts} (one per rank of the local group, null:
     * {@code blockCount} each) sum to the same count in both groups; each group reduces its input to its leader, the
     * leaders swap the results, and each scatters the other group's among its ranks by {@code recvcounts}.
     */
    static void reduceScatter(CollectiveSteps ch, @Nullable Object sendbuf, @Nullable Object recvbuf,
                              int @Nullable [] recvcounts, int blockCount, BaseType t, Reduction op) {
        CommState c = ch.comm();
        CommState local = local(c);
        int n = local.size();
        int[] counts;
        if (recvcounts == null) {
            CollectiveArgs.count(blockCount);
            counts = CollectiveArgs.uniform(blockCount, n);
        } else {
            counts = CollectiveArgs.counts(local, recvcounts);
        }
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += counts[i];
        }
        if (total > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.COUNT, "more than 2^31 elements to reduce: " + total);
        }
        CollectiveSteps group = ch.on(local);
        UserData in = UserData.of(sendbuf, total, t, false);
        UserData out = UserData.of(recvbuf, counts[group.rank()], t, true);
        MemorySegment mine = ReductionCollectives.toRankZero(group, in.all(), (int) total, op);
        if (mine == null) {
            group.receive(out.all(), 0, CollectiveChannel.SCATTER);
            group.endRound();
        } else {
            MemorySegment theirs = CollectiveArgs.scratch(mine.byteSize());
            ch.exchange(mine, 0, theirs, 0, CollectiveChannel.REDUCE);
            long at = (long) counts[0] * t.bytes();
            MemorySegment own = theirs.asSlice(0, at);
            ch.local(() -> out.all().copyFrom(own));
            for (int r = 1; r < n; r++) {
                long bytes = (long) counts[r] * t.bytes();
                group.send(theirs.asSlice(at, bytes), r, CollectiveChannel.SCATTER);
                at += bytes;
            }
            group.endRound();
        }
        ch.local(out::commit);
    }

    /** {@code gatherv}: the root receives block r from rank r of the other group. */
    static void gatherv(CollectiveSteps ch, @Nullable Object sendbuf, int sendcount, @Nullable BaseType sendtype,
                        @Nullable Object recvbuf, int @Nullable [] recvcounts, int @Nullable [] displs,
                        @Nullable BaseType recvtype, int root) {
        CommState c = ch.comm();
        int side = side(c, root);
        if (side == OTHER_GROUP) {
            CollectiveArgs.count(sendcount);
            UserData in = UserData.of(sendbuf, sendcount, CollectiveArgs.type(sendtype), false);
            ch.send(in.all(), root, CollectiveChannel.GATHER);
            ch.endRound();
        } else if (side == AT_ROOT) {
            int[] counts = CollectiveArgs.counts(c, recvcounts);
            long extent = CollectiveArgs.extent(c, counts, displs);
            int[] at = displs == null ? CollectiveArgs.packed(counts, c.size()) : displs;
            UserData out = UserData.of(recvbuf, extent, CollectiveArgs.type(recvtype), true);
            for (int r = 0; r < c.size(); r++) {
                ch.receive(out.elements(at[r], counts[r]), r, CollectiveChannel.GATHER);
            }
            ch.endRound();
            ch.local(out::commit);
        }
    }

    /** {@code scatterv}: the root sends block r to rank r of the other group. */
    static void scatterv(CollectiveSteps ch, @Nullable Object sendbuf, int @Nullable [] sendcounts,
                         int @Nullable [] displs, @Nullable BaseType sendtype, @Nullable Object recvbuf,
                         int recvcount, @Nullable BaseType recvtype, int root) {
        CommState c = ch.comm();
        int side = side(c, root);
        if (side == OTHER_GROUP) {
            CollectiveArgs.count(recvcount);
            UserData out = UserData.of(recvbuf, recvcount, CollectiveArgs.type(recvtype), true);
            ch.receive(out.all(), root, CollectiveChannel.SCATTER);
            ch.endRound();
            ch.local(out::commit);
        } else if (side == AT_ROOT) {
            int[] counts = CollectiveArgs.counts(c, sendcounts);
            long extent = CollectiveArgs.extent(c, counts, displs);
            int[] at = displs == null ? CollectiveArgs.packed(counts, c.size()) : displs;
            UserData in = UserData.of(sendbuf, extent, CollectiveArgs.type(sendtype), false);
            for (int r = 0; r < c.size(); r++) {
                ch.send(in.elements(at[r], counts[r]), r, CollectiveChannel.SCATTER);
            }
            ch.endRound();
        }
    }

    /** {@code allGatherv}: every rank sends its block to every rank of the other group, and receives theirs. */
    static void allGatherv(CollectiveSteps ch, @Nullable Object sendbuf, int sendcount, @Nullable BaseType sendtype,
                           @Nullable Object recvbuf, int @Nullable [] recvcounts, int @Nullable [] displs,
                           @Nullable BaseType recvtype) {
        CommState c = ch.comm();
        CollectiveArgs.count(sendcount);
        UserData in = UserData.of(sendbuf, sendcount, CollectiveArgs.type(sendtype), false);
        int[] counts = CollectiveArgs.counts(c, recvcounts);
        long extent = CollectiveArgs.extent(c, counts, displs);
        int[] at = displs == null ? CollectiveArgs.packed(counts, c.size()) : displs;
        UserData out = UserData.of(recvbuf, extent, CollectiveArgs.type(recvtype), true);
        for (int r = 0; r < c.size(); r++) {
            ch.receive(out.elements(at[r], counts[r]), r, CollectiveChannel.ALL_GATHER);
            ch.send(in.all(), r, CollectiveChannel.ALL_GATHER);
        }
        ch.endRound();
        ch.local(out::commit);
    }

    /** {@code allToAllv}: block r of the send buffer goes to rank r of the other group, and comes from it. */
    static void allToAllv(CollectiveSteps ch, @Nullable Object sendbuf, int @Nullable [] sendcounts,
                          int @Nullable [] sdispls, @Nullable BaseType sendtype, @Nullable Object recvbuf,
                          int @Nullable [] recvcounts, int @Nullable [] rdispls, @Nullable BaseType recvtype) {
        CommState c = ch.comm();
        int[] sc = CollectiveArgs.counts(c, sendcounts);
        int[] rc = CollectiveArgs.counts(c, recvcounts);
        long sendExtent = CollectiveArgs.extent(c, sc, sdispls);
        long recvExtent = CollectiveArgs.extent(c, rc, rdispls);
        int[] sat = sdispls == null ? CollectiveArgs.packed(sc, c.size()) : sdispls;
        int[] rat = rdispls == null ? CollectiveArgs.packed(rc, c.size()) : rdispls;
        UserData in = UserData.of(sendbuf, sendExtent, CollectiveArgs.type(sendtype), false);
        UserData out = UserData.of(recvbuf, recvExtent, CollectiveArgs.type(recvtype), true);
        for (int r = 0; r < c.size(); r++) {
            ch.receive(out.elements(rat[r], rc[r]), r, CollectiveChannel.ALL_TO_ALL);
            ch.send(in.elements(sat[r], sc[r]), r, CollectiveChannel.ALL_TO_ALL);
        }
        ch.endRound();
        ch.local(out::commit);
    }

    /** ERR_COMM: the in-place form of {@code what} on an intercommunicator. */
    static MpiError inPlace(CommState c, String what) {
        return new MpiError(ErrorClass.COMM, "the in-place form of " + what + " needs an intracommunicator ("
                + c.name() + " is an intercommunicator): pass a send and a receive buffer");
    }

    private static final int SKIP = 0;
    private static final int AT_ROOT = 1;
    private static final int OTHER_GROUP = 2;

    /**
     * The part of this rank in a rooted collective: the root's ({@code MPI.ROOT}: AT_ROOT, sends to or receives from
     * the other group), nothing ({@code PROC_NULL}: the rest of the root's group), or the other group's (a rank of
     * the root in the remote group: OTHER_GROUP). Anything else is ERR_ROOT.
     */
    private static int side(CommState c, int root) {
        if (root == Constants.ROOT) {
            return AT_ROOT;
        } else if (root == Constants.PROC_NULL) {
            return SKIP;
        } else if (root >= 0 && root < c.size()) {
            return OTHER_GROUP;
        }
        throw new MpiError(ErrorClass.ROOT, "invalid root " + root + " on the intercommunicator " + c.name()
                + ": it must be MPI.ROOT at the root, MPI.PROC_NULL in the rest of its group, and the root's rank"
                + " in the remote group (0.." + (c.size() - 1) + ") in the other group");
    }

    private static CommState local(CommState c) {
        CommState local = c.localGroup();
        if (local == null) {
            throw new IllegalStateException(c.name() + " is not an intercommunicator");
        }
        return local;
    }
}
