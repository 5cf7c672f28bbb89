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
 * The in-place forms are ERR_COMM (MPI has no in-place option on an intercommunicator); {@code reduceScatter} and
 * {@code reduceScatterBlock} are ERR_UNSUPPORTED_OPERATION in this version.
 */
final class InterCollectives {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private InterCollectives() {
    }

    static void barrier(CommState c) {
        CommState local = local(c);
        Collectives.barrier(local);
        if (local.rank() == 0) {
            new CollectiveChannel(c).exchange(EMPTY, 0, EMPTY, 0, CollectiveChannel.BARRIER);
        }
        Collectives.barrier(local);
    }

    static void bcast(CommState c, @Nullable Object buf, int count, BaseType t, int root) {
        CollectiveArgs.count(count);
        int side = side(c, root);
        if (side == SKIP) {
            return;
        }
        CollectiveChannel ch = new CollectiveChannel(c);
        UserData data = UserData.of(buf, count, t, side == OTHER_GROUP);
        if (side == AT_ROOT) {
            ch.send(data.all(), 0, CollectiveChannel.BCAST);
            ch.endRound();
            return;
        }
        CommState local = local(c);
        if (local.rank() == 0) {
            ch.receive(data.all(), root, CollectiveChannel.BCAST);
            ch.endRound();
        }
        RootedCollectives.bcast(new CollectiveChannel(local), data.all(), 0);
        data.commit();
    }

    static void reduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count, BaseType t,
                       Reduction op, int root) {
        CollectiveArgs.count(count);
        int side = side(c, root);
        if (side == SKIP) {
            return;
        }
        CollectiveChannel ch = new CollectiveChannel(c);
        if (side == AT_ROOT) { // the root: the result comes from the other group's leader
            UserData out = UserData.of(recvbuf, count, t, true);
            ch.receive(out.all(), 0, CollectiveChannel.REDUCE);
            ch.endRound();
            out.commit();
            return;
        }
        UserData in = UserData.of(sendbuf, count, t, false);
        MemorySegment result = ReductionCollectives.toRankZero(new CollectiveChannel(local(c)), in.all(), count, op);
        if (result != null) {
            ch.send(result, root, CollectiveChannel.REDUCE);
            ch.endRound();
        }
    }

    static void allReduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count, BaseType t,
                          Reduction op) {
        CollectiveArgs.count(count);
        UserData in = UserData.of(sendbuf, count, t, false);
        UserData out = UserData.of(recvbuf, count, t, true);
        CollectiveChannel group = new CollectiveChannel(local(c));
        MemorySegment mine = ReductionCollectives.toRankZero(group, in.all(), count, op);
        if (mine != null) {
            new CollectiveChannel(c).exchange(mine, 0, out.all(), 0, CollectiveChannel.REDUCE);
        }
        RootedCollectives.bcast(group, out.all(), 0);
        out.commit();
    }

    /** {@code gatherv}: the root receives block r from rank r of the other group. */
    static void gatherv(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable BaseType sendtype,
                        @Nullable Object recvbuf, int @Nullable [] recvcounts, int @Nullable [] displs,
                        @Nullable BaseType recvtype, int root) {
        int side = side(c, root);
        CollectiveChannel ch = new CollectiveChannel(c);
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
            out.commit();
        }
    }

    /** {@code scatterv}: the root sends block r to rank r of the other group. */
    static void scatterv(CommState c, @Nullable Object sendbuf, int @Nullable [] sendcounts, int @Nullable [] displs,
                         @Nullable BaseType sendtype, @Nullable Object recvbuf, int recvcount,
                         @Nullable BaseType recvtype, int root) {
        int side = side(c, root);
        CollectiveChannel ch = new CollectiveChannel(c);
        if (side == OTHER_GROUP) {
            CollectiveArgs.count(recvcount);
            UserData out = UserData.of(recvbuf, recvcount, CollectiveArgs.type(recvtype), true);
            ch.receive(out.all(), root, CollectiveChannel.SCATTER);
            ch.endRound();
            out.commit();
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
    static void allGatherv(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable BaseType sendtype,
                           @Nullable Object recvbuf, int @Nullable [] recvcounts, int @Nullable [] displs,
                           @Nullable BaseType recvtype) {
        CollectiveArgs.count(sendcount);
        UserData in = UserData.of(sendbuf, sendcount, CollectiveArgs.type(sendtype), false);
        int[] counts = CollectiveArgs.counts(c, recvcounts);
        long extent = CollectiveArgs.extent(c, counts, displs);
        int[] at = displs == null ? CollectiveArgs.packed(counts, c.size()) : displs;
        UserData out = UserData.of(recvbuf, extent, CollectiveArgs.type(recvtype), true);
        CollectiveChannel ch = new CollectiveChannel(c);
        for (int r = 0; r < c.size(); r++) {
            ch.receive(out.elements(at[r], counts[r]), r, CollectiveChannel.ALL_GATHER);
            ch.send(in.all(), r, CollectiveChannel.ALL_GATHER);
        }
        ch.endRound();
        out.commit();
    }

    /** {@code allToAllv}: block r of the send buffer goes to rank r of the other group, and comes from it. */
    static void allToAllv(CommState c, @Nullable Object sendbuf, int @Nullable [] sendcounts,
                          int @Nullable [] sdispls, @Nullable BaseType sendtype, @Nullable Object recvbuf,
                          int @Nullable [] recvcounts, int @Nullable [] rdispls, @Nullable BaseType recvtype) {
        int[] sc = CollectiveArgs.counts(c, sendcounts);
        int[] rc = CollectiveArgs.counts(c, recvcounts);
        long sendExtent = CollectiveArgs.extent(c, sc, sdispls);
        long recvExtent = CollectiveArgs.extent(c, rc, rdispls);
        int[] sat = sdispls == null ? CollectiveArgs.packed(sc, c.size()) : sdispls;
        int[] rat = rdispls == null ? CollectiveArgs.packed(rc, c.size()) : rdispls;
        UserData in = UserData.of(sendbuf, sendExtent, CollectiveArgs.type(sendtype), false);
        UserData out = UserData.of(recvbuf, recvExtent, CollectiveArgs.type(recvtype), true);
        CollectiveChannel ch = new CollectiveChannel(c);
        for (int r = 0; r < c.size(); r++) {
            ch.receive(out.elements(rat[r], rc[r]), r, CollectiveChannel.ALL_TO_ALL);
            ch.send(in.elements(sat[r], sc[r]), r, CollectiveChannel.ALL_TO_ALL);
        }
        ch.endRound();
        out.commit();
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
