package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rooted data-movement collectives: {@code bcast} by a binomial tree rooted at the root; {@code gather(v)} and
 * {@code scatter(v)} linearly (the root posts every receive, or starts every send, at once: one message per rank,
 * as Open MPI's basic linear algorithms do for the v-forms). Arguments that matter only at the root are ignored
 * elsewhere and may be null there (mpi-java-api.md section 4.5), as is the single-buffer overload
 * ({@link RootedForm}). Each takes the {@link CollectiveSteps} it runs on: the {@code CommState} forms are the
 * blocking calls.
 */
public final class RootedCollectives {
    private RootedCollectives() {
    }

    public static void bcast(CommState c, @Nullable Object buf, int count, @Nullable BaseType type, int root) {
        bcast(CollectiveChannel.of(c), buf, count, type, root);
    }

    public static void bcast(CollectiveSteps s, @Nullable Object buf, int count, @Nullable BaseType type, int root) {
        if (s.comm().isInter()) {
            InterCollectives.bcast(s, buf, count, CollectiveArgs.type(type), root);
            return;
        }
        CommState c = s.comm();
        BaseType t = CollectiveArgs.type(type);
        CollectiveArgs.count(count);
        CollectiveArgs.root(c, root);
        UserData data = UserData.of(buf, count, t, c.rank() != root);
        bcast(s, data.all(), root);
        s.local(data::commit);
    }

    /** A binomial-tree broadcast of {@code data} from {@code root}. */
    static void bcast(CollectiveSteps ch, MemorySegment data, int root) {
        int n = ch.size();
        int me = ch.rank();
        int v = (me - root + n) % n;
        int mask = 1;
        while (mask < n) {
            if ((v & mask) != 0) {
                ch.receive(data, (me - mask + n) % n, CollectiveChannel.BCAST);
                ch.endRound();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (v + mask < n) {
                ch.send(data, (me + mask) % n, CollectiveChannel.BCAST);
            }
        }
        ch.endRound();
    }

    /**
     * {@code gatherv}: every rank's {@code sendcount} elements into the root's buffer at {@code displs} (null for
     * {@code gather}: blocks of {@code recvcounts[r]} packed in rank order).
     *
     * @param form which overload was called
     */
    public static void gatherv(CommState c, @Nullable Object sendbuf, int sendcount, @Nullable BaseType sendtype,
                               @Nullable Object recvbuf, int @Nullable [] recvcounts, int @Nullable [] displs,
                               @Nullable BaseType recvtype, int root, RootedForm form) {
        gatherv(CollectiveChannel.of(c), sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                form);
    }

    public static void gatherv(CollectiveSteps ch, @Nullable Object sendbuf, int sendcount,
                               @Nullable BaseType sendtype, @Nullable Object recvbuf, int @Nullable [] recvcounts,
                               int @Nullable [] displs, @Nullable BaseType recvtype, int root, RootedForm form) {
        if (ch.comm().isInter()) {
            if (form == RootedForm.IN_PLACE || form == RootedForm.ROOT_ONLY) {
                throw InterCollectives.inPlace(ch.comm(), "gather");
            }
            InterCollectives.gatherv(ch, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
            return;
        }
        CommState c = ch.comm();
        CollectiveArgs.root(c, root);
        int me = c.rank();
        boolean inPlace = form.inPlaceAt(me, root);
        if (me != root) {
            BaseType st = CollectiveArgs.type(sendtype);
            CollectiveArgs.count(sendcount);
            UserData in = UserData.of(sendbuf, sendcount, st, false);
            ch.send(in.all(), root, CollectiveChannel.GATHER);
            ch.endRound();
            return;
        }
        BaseType rt = CollectiveArgs.type(recvtype);
        int[] counts = CollectiveArgs.counts(c, recvcounts);
        long extent = CollectiveArgs.extent(c, counts, displs);
        int[] at = displs == null ? CollectiveArgs.packed(counts, c.size()) : displs;
        UserData out = UserData.of(recvbuf, extent, rt, true);
        if (!inPlace) {
            BaseType st = CollectiveArgs.type(sendtype);
            CollectiveArgs.count(sendcount);
            UserData in = UserData.of(sendbuf, sendcount, st, false);
            CollectiveArgs.copy(in.all(), out.elements(at[me], counts[me]));
        }
        for (int r = 0; r < c.size(); r++) {
            if (r != me) {
                ch.receive(out.elements(at[r], counts[r]), r, CollectiveChannel.GATHER);
            }
        }
        ch.endRound();
        ch.local(out::commit);
    }

    /**
     * {@code scatterv}: the root's blocks at {@code displs} (null for {@code scatter}: packed) to every rank's
     * {@code recvcount} elements.
     *
     * @param form which overload was called
     */
    public static void scatterv(CommState c, @Nullable Object sendbuf, int @Nullable [] sendcounts,
                                int @Nullable [] displs, @Nullable BaseType sendtype, @Nullable Object recvbuf,
                                int recvcount, @Nullable BaseType recvtype, int root, RootedForm form) {
        scatterv(CollectiveChannel.of(c), sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                form);
    }

    public static void scatterv(CollectiveSteps ch, @Nullable Object sendbuf, int @Nullable [] sendcounts,
                                int @Nullable [] displs, @Nullable BaseType sendtype, @Nullable Object recvbuf,
                                int recvcount, @Nullable BaseType recvtype, int root, RootedForm form) {
        if (ch.comm().isInter()) {
            if (form == RootedForm.IN_PLACE || form == RootedForm.ROOT_ONLY) {
                throw InterCollectives.inPlace(ch.comm(), "scatter");
            }
            InterCollectives.scatterv(ch, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
            return;
        }
        CommState c = ch.comm();
        CollectiveArgs.root(c, root);
        int me = c.rank();
        boolean inPlace = form.inPlaceAt(me, root);
        if (me != root) {
            BaseType rt = CollectiveArgs.type(recvtype);
            CollectiveArgs.count(recvcount);
            UserData out = UserData.of(recvbuf, recvcount, rt, true);
            ch.receive(out.all(), root, CollectiveChannel.SCATTER);
            ch.endRound();
            ch.local(out::commit);
            return;
        }
        BaseType st = CollectiveArgs.type(sendtype);
        int[] counts = CollectiveArgs.counts(c, sendcounts);
        long extent = CollectiveArgs.extent(c, counts, displs);
        int[] at = displs == null ? CollectiveArgs.packed(counts, c.size()) : displs;
        UserData in = UserData.of(sendbuf, extent, st, false);
        UserData out = null;
        if (!inPlace) {
            BaseType rt = CollectiveArgs.type(recvtype);
            CollectiveArgs.count(recvcount);
            out = UserData.of(recvbuf, recvcount, rt, true);
            CollectiveArgs.copy(in.elements(at[me], counts[me]), out.all());
        }
        for (int k = 1; k < c.size(); k++) {
            int r = (me + k) % c.size();
            ch.send(in.elements(at[r], counts[r]), r, CollectiveChannel.SCATTER);
        }
        ch.endRound();
        if (out != null) {
            ch.local(out::commit);
        }
    }
}
