package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The unrooted data-movement collectives: {@code barrier} by dissemination (ceil(log2 n) rounds of empty
 * messages, for any n), {@code allGather(v)} by a ring (n - 1 steps, each rank passing on the block it received
 * last), {@code allToAll(v)} by posting every receive and then starting every send. {@code inPlace}: the
 * single-buffer overload, each rank's own block already in place in the receive buffer. Each takes the
 * {@link CollectiveSteps} it runs on: the {@code CommState} forms are the blocking calls.
 */
public final class Collectives {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private Collectives() {
    }

    public static void barrier(CommState c) {
        barrier(CollectiveChannel.of(c));
    }

    public static void barrier(CollectiveSteps ch) {
        if (ch.comm().isInter()) {
            InterCollectives.barrier(ch);
            return;
        }
        int n = ch.size();
        int me = ch.rank();
        for (int mask = 1; mask < n; mask <<= 1) {
            ch.exchange(EMPTY, (me + mask) % n, EMPTY, (me - mask + n) % n, CollectiveChannel.BARRIER);
        }
    }

    /** {@code allGatherv}; {@code displs} null: blocks packed in rank order ({@code allGather}). */
    public static void allGatherv(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable BaseType sendtype,
                                  @Nullable Object recvbuf, int @Nullable [] recvcounts, int @Nullable [] displs,
                                  @Nullable BaseType recvtype, boolean inPlace) {
        allGatherv(CollectiveChannel.of(c), sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                inPlace);
    }

    public static void allGatherv(CollectiveSteps s, @Nullable Object sendbuf, int sendcount,
                                  @Nullable BaseType sendtype, @Nullable Object recvbuf, int @Nullable [] recvcounts,
                                  int @Nullable [] displs, @Nullable BaseType recvtype, boolean inPlace) {
        if (s.comm().isInter()) {
            if (inPlace) {
                throw InterCollectives.inPlace(s.comm(), "allGather");
            }
            InterCollectives.allGatherv(s, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
            return;
        }
        CommState c = s.comm();
        BaseType rt = CollectiveArgs.type(recvtype);
        int[] counts = CollectiveArgs.counts(c, recvcounts);
        long extent = CollectiveArgs.extent(c, counts, displs);
        int n = c.size();
        int me = c.rank();
        int[] at = displs == null ? CollectiveArgs.packed(counts, n) : displs;
        UserData in = inPlace ? null : UserData.of(sendbuf, checkedCount(sendcount), CollectiveArgs.type(sendtype),
                false);
        UserData out = UserData.of(recvbuf, extent, rt, true);
        if (in != null) {
            CollectiveArgs.copy(in.all(), out.elements(at[me], counts[me]));
        }
        ring(s, out, counts, at);
        s.local(out::commit);
    }

    /** The ring of {@code allGatherv} over the blocks of {@code out}, each rank's own block in place. */
    static void ring(CollectiveSteps ch, UserData out, int[] counts, int[] at) {
        int n = ch.size();
        int me = ch.rank();
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        for (int k = 0; k < n - 1; k++) {
            int outgoing = (me - k + n) % n;
            int incoming = (me - k - 1 + n) % n;
            ch.exchange(out.elements(at[outgoing], counts[outgoing]), right,
                    out.elements(at[incoming], counts[incoming]), left, CollectiveChannel.ALL_GATHER);
        }
    }

    /** {@code allToAllv}; {@code sdispls}/{@code rdispls} null: blocks packed in rank order ({@code allToAll}). */
    public static void allToAllv(CommState c, @Nullable Object sendbuf, int @Nullable [] sendcounts,
                                 int @Nullable [] sdispls, @Nullable BaseType sendtype, @Nullable Object recvbuf,
                                 int @Nullable [] recvcounts, int @Nullable [] rdispls, @Nullable BaseType recvtype) {
        allToAllv(CollectiveChannel.of(c), sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                recvtype);
    }

    public static void allToAllv(CollectiveSteps ch, @Nullable Object sendbuf, int @Nullable [] sendcounts,
                                 int @Nullable [] sdispls, @Nullable BaseType sendtype, @Nullable Object recvbuf,
                                 int @Nullable [] recvcounts, int @Nullable [] rdispls, @Nullable BaseType recvtype) {
        if (ch.comm().isInter()) {
            InterCollectives.allToAllv(ch, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                    recvtype);
            return;
        }
        CommState c = ch.comm();
        BaseType st = CollectiveArgs.type(sendtype);
        BaseType rt = CollectiveArgs.type(recvtype);
        int[] sc = CollectiveArgs.counts(c, sendcounts);
        int[] rc = CollectiveArgs.counts(c, recvcounts);
        long sendExtent = CollectiveArgs.extent(c, sc, sdispls);
        long recvExtent = CollectiveArgs.extent(c, rc, rdispls);
        int n = c.size();
        int me = c.rank();
        int[] sat = sdispls == null ? CollectiveArgs.packed(sc, n) : sdispls;
        int[] rat = rdispls == null ? CollectiveArgs.packed(rc, n) : rdispls;
        UserData in = UserData.of(sendbuf, sendExtent, st, false);
        UserData out = UserData.of(recvbuf, recvExtent, rt, true);
        CollectiveArgs.copy(in.elements(sat[me], sc[me]), out.elements(rat[me], rc[me]));
        for (int k = 1; k < n; k++) {
            int from = (me - k + n) % n;
            ch.receive(out.elements(rat[from], rc[from]), from, CollectiveChannel.ALL_TO_ALL);
        }
        for (int k = 1; k < n; k++) {
            int to = (me + k) % n;
            ch.send(in.elements(sat[to], sc[to]), to, CollectiveChannel.ALL_TO_ALL);
        }
        ch.endRound();
        ch.local(out::commit);
    }

    private static int checkedCount(int count) {
        CollectiveArgs.count(count);
        return count;
    }
}
