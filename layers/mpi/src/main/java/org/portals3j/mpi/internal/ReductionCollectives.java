package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The reductions. Every one combines in ascending rank order, so a non-commutative operation gets MPI's result and
 * every call gives the same result for the same inputs (mpi-java-api.md section 4.5):
 * <ul>
 *   <li>{@code reduce}: a binomial tree over the ranks towards rank 0 (a rank receives the block of the ranks just
 *       above its own and combines it as the higher operand), then rank 0 sends the result to the root if that is
 *       another rank;</li>
 *   <li>{@code allReduce}: that reduction to rank 0, then a binomial broadcast of its result, so every rank has the
 *       same bits (no rank-dependent floating-point rounding, unlike recursive doubling);</li>
 *   <li>{@code reduceScatter(Block)}: the reduction to rank 0, then a scatter of the result;</li>
 *   <li>{@code scan}, {@code exScan}: a chain, each rank receiving the prefix of the ranks below it.</li>
 * </ul>
 * {@code inPlace}: the single-buffer overload, its buffer the input and the output.
 */
public final class ReductionCollectives {
    private ReductionCollectives() {
    }

    public static void reduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                              @Nullable BaseType type, Reduction op, int root, boolean inPlace) {
        BaseType t = CollectiveArgs.type(type);
        if (c.isInter()) {
            if (inPlace) {
                throw InterCollectives.inPlace(c, "reduce");
            }
            InterCollectives.reduce(c, sendbuf, recvbuf, count, t, op, root);
            return;
        }
        CollectiveArgs.count(count);
        CollectiveArgs.root(c, root);
        int me = c.rank();
        UserData in = UserData.of(inPlace ? recvbuf : sendbuf, count, t, false);
        UserData out = me == root ? UserData.of(recvbuf, count, t, true) : null;
        CollectiveChannel ch = new CollectiveChannel(c);
        MemorySegment result = toRankZero(ch, in.all(), count, op);
        if (out == null) {
            if (result != null) {
                ch.send(result, root, CollectiveChannel.REDUCE);
                ch.complete();
            }
            return;
        }
        if (result != null) {
            MemorySegment.copy(result, 0, out.all(), 0, result.byteSize());
        } else {
            ch.receive(out.all(), 0, CollectiveChannel.REDUCE);
            ch.complete();
        }
        out.commit();
    }

    public static void allReduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                                 @Nullable BaseType type, Reduction op, boolean inPlace) {
        BaseType t = CollectiveArgs.type(type);
        if (c.isInter()) {
            if (inPlace) {
                throw InterCollectives.inPlace(c, "allReduce");
            }
            InterCollectives.allReduce(c, sendbuf, recvbuf, count, t, op);
            return;
        }
        CollectiveArgs.count(count);
        UserData in = UserData.of(inPlace ? recvbuf : sendbuf, count, t, false);
        UserData out = UserData.of(recvbuf, count, t, true);
        allReduce(new CollectiveChannel(c), in.all(), out.all(), count, op);
        out.commit();
    }

    /** The reduction of every rank's {@code in} into every rank's {@code out} (they may be the same memory). */
    static void allReduce(CollectiveChannel ch, MemorySegment in, MemorySegment out, int count, Reduction op) {
        MemorySegment result = toRankZero(ch, in, count, op);
        if (result != null) {
            MemorySegment.copy(result, 0, out, 0, result.byteSize());
        }
        RootedCollectives.bcast(ch, out, 0);
    }

    /** {@code reduceScatter}: {@code recvcounts} null for {@code reduceScatterBlock} ({@code blockCount} each). */
    public static void reduceScatter(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf,
                                     int @Nullable [] recvcounts, int blockCount, @Nullable BaseType type,
                                     Reduction op, boolean inPlace) {
        if (c.isInter()) {
            throw new MpiError(ErrorClass.UNSUPPORTED_OPERATION, "reduceScatter on the intercommunicator "
                    + c.name() + " is not implemented in this version: use reduce and scatterv");
        }
        BaseType t = CollectiveArgs.type(type);
        int n = c.size();
        int me = c.rank();
        int[] counts;
        if (recvcounts == null) {
            CollectiveArgs.count(blockCount);
            counts = CollectiveArgs.uniform(blockCount, n);
        } else {
            counts = CollectiveArgs.counts(c, recvcounts);
        }
        long total = CollectiveArgs.extent(c, counts, null);
        if (total > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.COUNT, "the counts add up to " + total + " elements, more than an int");
        }
        int[] at = CollectiveArgs.packed(counts, n);
        UserData in = UserData.of(inPlace ? recvbuf : sendbuf, total, t, false);
        UserData out = UserData.of(recvbuf, counts[me], t, true);
        CollectiveChannel ch = new CollectiveChannel(c);
        MemorySegment result = toRankZero(ch, in.all(), (int) total, op);
        if (result == null) {
            ch.receive(out.all(), 0, CollectiveChannel.SCATTER);
        } else {
            for (int r = 1; r < n; r++) {
                ch.send(result.asSlice((long) at[r] * t.bytes(), (long) counts[r] * t.bytes()), r,
                        CollectiveChannel.SCATTER);
            }
            MemorySegment.copy(result, 0, out.all(), 0, (long) counts[0] * t.bytes());
        }
        ch.complete();
        out.commit();
    }

    /** {@code scan} ({@code exclusive} false) and {@code exScan}. */
    public static void scan(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                            @Nullable BaseType type, Reduction op, boolean inPlace, boolean exclusive) {
        BaseType t = CollectiveArgs.type(type);
        CollectiveArgs.count(count);
        int n = c.size();
        int me = c.rank();
        UserData in = UserData.of(inPlace ? recvbuf : sendbuf, count, t, false);
        UserData out = UserData.of(recvbuf, count, t, true);
        CollectiveChannel ch = new CollectiveChannel(c);
        MemorySegment acc = CollectiveArgs.copyOf(in.all());
        if (me > 0) {
            MemorySegment prefix = CollectiveArgs.scratch(acc.byteSize());
            ch.receive(prefix, me - 1, CollectiveChannel.SCAN);
            ch.complete();
            if (exclusive) {
                MemorySegment.copy(prefix, 0, out.all(), 0, prefix.byteSize());
            }
            op.apply(prefix, acc, count);
        }
        if (!exclusive) {
            MemorySegment.copy(acc, 0, out.all(), 0, acc.byteSize());
        }
        if (me < n - 1) {
            ch.send(acc, me + 1, CollectiveChannel.SCAN);
            ch.complete();
        }
        out.commit();
    }

    /** {@code Comm.reduceLocal}: {@code inOut = in op inOut}, no communication. */
    public static void local(@Nullable Object in, @Nullable Object inOut, int count, @Nullable BaseType type,
                             Reduction op) {
        BaseType t = CollectiveArgs.type(type);
        CollectiveArgs.count(count);
        UserData a = UserData.of(in, count, t, false);
        UserData b = UserData.of(inOut, count, t, true);
        op.apply(a.all(), b.all(), count);
        b.commit();
    }

    /**
     * The binomial reduction of every rank's {@code in} towards rank 0: rank 0 gets the result (a scratch
     * segment), the others null.
     */
    static @Nullable MemorySegment toRankZero(CollectiveChannel ch, MemorySegment in, int count, Reduction op) {
        int n = ch.size();
        int me = ch.rank();
        MemorySegment acc = CollectiveArgs.copyOf(in);
        MemorySegment received = n > 1 ? CollectiveArgs.scratch(in.byteSize()) : acc;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((me & mask) != 0) {
                ch.send(acc, me - mask, CollectiveChannel.REDUCE);
                ch.complete();
                return null;
            }
            if (me + mask < n) {
                ch.receive(received, me + mask, CollectiveChannel.REDUCE);
                ch.complete();
                op.apply(acc, received, count);
                MemorySegment t = acc;
                acc = received;
                received = t;
            }
        }
        return acc;
    }
}
