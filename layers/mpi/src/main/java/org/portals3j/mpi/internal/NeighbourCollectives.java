package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The neighbourhood collectives (MPI 4.1 section 8.6) on the communicator's hidden collective context, one
 * algorithm laid down through {@link CollectiveSteps} for the blocking and the nonblocking forms: every receive from
 * an in-neighbour and every send to an out-neighbour in one round, then the write-back of the receive buffer; a
 * {@code PROC_NULL} neighbour's block is neither sent nor written. {@code neighborAllGather(v)} sends the same block
 * to every out-neighbour; {@code neighborAllToAll(v)} block {@code i} to out-neighbour {@code i}. A message's kind
 * is its neighbour tag (a Cartesian direction), after the blocking collectives' kinds in the blocking form; a
 * nonblocking schedule has room for {@link CollectiveSchedule#MAX_KIND} + 1 kinds, so its Cartesian form takes
 * grids of up to 8 dimensions.
 */
public final class NeighbourCollectives {
    /** The first tag of the neighbourhood collectives (a Cartesian message adds its direction). */
    private static final int NEIGHBOUR_TAG = 16;

    private NeighbourCollectives() {
    }

    /**
     * @param sendcounts null for the allGather forms: {@code sendcount} elements, the same block to everyone
     * @param recvdispls null: blocks packed in neighbour order
     */
    public static void exchange(CommState c, Neighbours n, @Nullable Object sendbuf, int sendcount,
            int @Nullable [] sendcounts, int @Nullable [] senddispls, @Nullable BaseType sendtype,
            @Nullable Object recvbuf, int[] recvcounts, int @Nullable [] recvdispls, @Nullable BaseType recvtype) {
        exchange(CollectiveChannel.of(c), n, NEIGHBOUR_TAG, sendbuf, sendcount, sendcounts, senddispls, sendtype,
                recvbuf, recvcounts, recvdispls, recvtype);
    }

    /**
     * {@link #exchange(CommState, Neighbours, Object, int, int[], int[], BaseType, Object, int[], int[], BaseType)}
     * laid down in the schedule of a nonblocking collective; ERR_UNSUPPORTED_OPERATION for a neighbour tag past
     * the schedule's kinds (a Cartesian grid of more than 8 dimensions: use the blocking form).
     */
    public static void schedule(CollectiveSteps steps, Neighbours n, @Nullable Object sendbuf, int sendcount,
            int @Nullable [] sendcounts, int @Nullable [] senddispls, @Nullable BaseType sendtype,
            @Nullable Object recvbuf, int[] recvcounts, int @Nullable [] recvdispls, @Nullable BaseType recvtype) {
        for (int[] tags : new int[][] {n.sourceTags(), n.destinationTags()}) {
            for (int tag : tags) {
                if (tag > CollectiveSchedule.MAX_KIND) {
                    throw new MpiError(ErrorClass.UNSUPPORTED_OPERATION, "the nonblocking neighbourhood"
                            + " collectives take Cartesian grids of up to 8 dimensions: use the blocking form");
                }
            }
        }
        exchange(steps, n, 0, sendbuf, sendcount, sendcounts, senddispls, sendtype, recvbuf, recvcounts, recvdispls,
                recvtype);
    }

    /** The algorithm, its messages' kinds from {@code firstTag} on. */
    private static void exchange(CollectiveSteps ch, Neighbours n, int firstTag, @Nullable Object sendbuf,
            int sendcount, int @Nullable [] sendcounts, int @Nullable [] senddispls, @Nullable BaseType sendtype,
            @Nullable Object recvbuf, int[] recvcounts, int @Nullable [] recvdispls, @Nullable BaseType recvtype) {
        BaseType st = CollectiveArgs.type(sendtype);
        BaseType rt = CollectiveArgs.type(recvtype);
        int outs = n.destinations().length;
        int ins = n.sources().length;
        int[] sc = sendcounts == null ? uniform(sendcount, outs) : sized(sendcounts, outs, "send count");
        int[] rc = sized(recvcounts, ins, "receive count");
        int[] sat = sendcounts == null ? new int[outs] : at(sc, senddispls, outs);
        int[] rat = at(rc, recvdispls, ins);
        UserData in = UserData.of(sendbuf, extent(sc, sat, outs), st, false);
        UserData out = UserData.of(recvbuf, extent(rc, rat, ins), rt, true);
        for (int i = 0; i < ins; i++) {
            if (n.sources()[i] != Constants.PROC_NULL) {
                ch.receive(out.elements(rat[i], rc[i]), n.sources()[i], firstTag + n.sourceTags()[i]);
            }
        }
        for (int i = 0; i < outs; i++) {
            if (n.destinations()[i] != Constants.PROC_NULL) {
                MemorySegment block = in.elements(sat[i], sc[i]);
                ch.send(block, n.destinations()[i], firstTag + n.destinationTags()[i]);
            }
        }
        ch.endRound();
        ch.local(out::commit);
    }

    private static int[] uniform(int count, int n) {
        CollectiveArgs.count(count);
        int[] counts = new int[n];
        Arrays.fill(counts, count);
        return counts;
    }

    private static int[] sized(int @Nullable [] counts, int n, String what) {
        if (counts == null || counts.length < n) {
            throw new MpiError(ErrorClass.ARG, "the " + what + " array must have one entry per neighbour (" + n
                    + ")");
        }
        for (int i = 0; i < n; i++) {
            CollectiveArgs.count(counts[i]);
        }
        return counts;
    }

    private static int[] at(int[] counts, int @Nullable [] displs, int n) {
        if (displs == null) {
            return CollectiveArgs.packed(counts, n);
        }
        if (displs.length < n) {
            throw new MpiError(ErrorClass.ARG, "the displacement array must have one entry per neighbour (" + n
                    + ")");
        }
        for (int i = 0; i < n; i++) {
            if (displs[i] < 0) {
                throw new MpiError(ErrorClass.BUFFER, "displacement " + displs[i] + " lies before the start of"
                        + " the buffer");
            }
        }
        return displs;
    }

    private static long extent(int[] counts, int[] at, int n) {
        long end = 0;
        for (int i = 0; i < n; i++) {
            end = Math.max(end, (long) at[i] + counts[i]);
        }
        return end;
    }
}
