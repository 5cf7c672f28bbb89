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
 * {@code inPlace}: the single-buffer overload, its buffer the input and the output. Each takes the
 * {@link CollectiveSteps} it runs on (the {@code CommState} forms are the blocking calls); the combining and copying
 * are local steps, so that a recorded schedule runs them once the data they need has arrived. The input is copied to
 * a scratch accumulator when the call is made.
 */
public final class ReductionCollectives {
    private ReductionCollectives() {
    }

    public static void reduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                              @Nullable BaseType type, Reduction op, int root, boolean inPlace) {
        reduce(CollectiveChannel.of(c), sendbuf, recvbuf, count, type, op, root, inPlace);
    }

    public static void reduce(CollectiveSteps ch, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                              @Nullable BaseType type, Reduction op, int root, boolean inPlace) {
        if (ch.comm().isInter()) {
            if (inPlace) {
                throw InterCollectives.inPlace(ch.comm(), "reduce");
            }
            InterCollectives.reduce(ch, sendbuf, recvbuf, count, CollectiveArgs.type(type), op, root);
            return;
        }
        CommState c = ch.comm();
        BaseType t = CollectiveArgs.type(type);
        CollectiveArgs.count(count);
        CollectiveArgs.root(c, root);
        int me = c.rank();
        UserData in = UserData.of(inPlace ? recvbuf : sendbuf, count, t, false);
        UserData out = me == root ? UserData.of(recvbuf, count, t, true) : null;
        MemorySegment result = toRankZero(ch, in.all(), count, op);
        if (out == null) {
            if (result != null) {
                ch.send(result, root, CollectiveChannel.REDUCE);
                ch.endRound();
            }
            return;
        }
        if (result != null) {
            ch.local(copier(result, out.all(), result.byteSize()));
        } else {
            ch.receive(out.all(), 0, CollectiveChannel.REDUCE);
            ch.endRound();
        }
        ch.local(out::commit);
    }

    public static void allReduce(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                                 @Nullable BaseType type, Reduction op, boolean inPlace) {
        CollectiveChannel ch = CollectiveChannel.of(c);
        if (c.isInter() || type == null || type == BaseType.BOOLEAN) {
            allReduce(ch, sendbuf, recvbuf, count, type, op, inPlace);
            return;
        }
        CollectiveArgs.count(count);
        BlockingOperations mine = BlockingOperations.ofThread();
        MemorySegment in = mine.sendSegment(inPlace ? recvbuf : sendbuf, count, type);
        MemorySegment out = mine.receiveSegment(recvbuf, count, type);
        MemorySegment acc = mine.takeScratch(in.byteSize(), false);
        if (acc == null) {
            allReduce(ch, in, out, count, op);
            return;
        }
        try {
            MemorySegment received = mine.takeScratch(in.byteSize(), true);
            MemorySegment.copy(in, 0, acc, 0, in.byteSize());
            MemorySegment result = toRankZero(ch, acc, received, count, op);
            if (result != null) {
                MemorySegment.copy(result, 0, out, 0, result.byteSize());
            }
            RootedCollectives.bcast(ch, out, 0);
        } finally {
            mine.giveBackScratch();
        }
    }

    public static void allReduce(CollectiveSteps ch, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                                 @Nullable BaseType type, Reduction op, boolean inPlace) {
        if (ch.comm().isInter()) {
            if (inPlace) {
                throw InterCollectives.inPlace(ch.comm(), "allReduce");
            }
            InterCollectives.allReduce(ch, sendbuf, recvbuf, count, CollectiveArgs.type(type), op);
            return;
        }
        BaseType t = CollectiveArgs.type(type);
        CollectiveArgs.count(count);
        UserData in = UserData.of(inPlace ? recvbuf : sendbuf, count, t, false);
        UserData out = UserData.of(recvbuf, count, t, true);
        allReduce(ch, in.all(), out.all(), count, op);
        ch.local(out::commit);
    }

    /**
     * {@link #toRankZero} of a blocking call: {@code acc} holds this rank's data and
     * {@code received} is free, both scratch of the same size; each step's reduction runs at once, no closure made.
     */
    private static @Nullable MemorySegment toRankZero(CollectiveChannel ch, MemorySegment acc,
                                                      @Nullable MemorySegment received, int count, Reduction op) {
        int n = ch.size();
        int me = ch.rank();
        MemorySegment lower = acc;
        MemorySegment higher = received != null ? received : CollectiveArgs.scratch(acc.byteSize());
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((me & mask) != 0) {
                ch.send(lower, me - mask, CollectiveChannel.REDUCE);
                ch.endRound();
                return null;
            }
            if (me + mask < n) {
                ch.receive(higher, me + mask, CollectiveChannel.REDUCE);
                ch.endRound();
                op.apply(lower, higher, count);
                MemorySegment t = lower;
                lower = higher;
                higher = t;
            }
        }
        return lower;
    }

    /** The reduction of every rank's {@code in} into every rank's {@code out} (they may be the same memory). */
    static void allReduce(CollectiveSteps ch, MemorySegment in, MemorySegment out, int count, Reduction op) {
        MemorySegment result = toRankZero(ch, in, count, op);
        if (result != null) {
            ch.local(copier(result, out, result.byteSize()));
        }
        RootedCollectives.bcast(ch, out, 0);
    }

    /** {@code reduceScatter}: {@code recvcounts} null for {@code reduceScatterBlock} ({@code blockCount} each). */
    public static void reduceScatter(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf,
                                     int @Nullable [] recvcounts, int blockCount, @Nullable BaseType type,
                                     Reduction op, boolean inPlace) {
        reduceScatter(CollectiveChannel.of(c), sendbuf, recvbuf, recvcounts, blockCount, type, op, inPlace);
    }

    public static void reduceScatter(CollectiveSteps ch, @Nullable Object sendbuf, @Nullable Object recvbuf,
                                     int @Nullable [] recvcounts, int blockCount, @Nullable BaseType type,
                                     Reduction op, boolean inPlace) {
        if (ch.comm().isInter()) {
            if (inPlace) {
                throw InterCollectives.inPlace(ch.comm(), "reduceScatter");
            }
            InterCollectives.reduceScatter(ch, sendbuf, recvbuf, recvcounts, blockCount, CollectiveArgs.type(type),
                    op);
            return;
        }
        CommState c = ch.comm();
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
        MemorySegment result = toRankZero(ch, in.all(), (int) total, op);
        if (result == null) {
            ch.receive(out.all(), 0, CollectiveChannel.SCATTER);
        } else {
            for (int r = 1; r < n; r++) {
                ch.send(result.asSlice((long) at[r] * t.bytes(), (long) counts[r] * t.bytes()), r,
                        CollectiveChannel.SCATTER);
            }
            ch.local(copier(result, out.all(), (long) counts[0] * t.bytes()));
        }
        ch.endRound();
        ch.local(out::commit);
    }

    /** {@code scan} ({@code exclusive} false) and {@code exScan}. */
    public static void scan(CommState c, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                            @Nullable BaseType type, Reduction op, boolean inPlace, boolean exclusive) {
        scan(CollectiveChannel.of(c), sendbuf, recvbuf, count, type, op, inPlace, exclusive);
    }

    public static void scan(CollectiveSteps ch, @Nullable Object sendbuf, @Nullable Object recvbuf, int count,
                            @Nullable BaseType type, Reduction op, boolean inPlace, boolean exclusive) {
        BaseType t = CollectiveArgs.type(type);
        CollectiveArgs.count(count);
        int n = ch.size();
        int me = ch.rank();
        UserData in = UserData.of(inPlace ? recvbuf : sendbuf, count, t, false);
        UserData out = UserData.of(recvbuf, count, t, true);
        MemorySegment acc = CollectiveArgs.copyOf(in.all());
        if (me > 0) {
            MemorySegment prefix = CollectiveArgs.scratch(acc.byteSize());
            ch.receive(prefix, me - 1, CollectiveChannel.SCAN);
            ch.endRound();
            ch.local(() -> {
                if (exclusive) {
                    MemorySegment.copy(prefix, 0, out.all(), 0, prefix.byteSize());
                }
                op.apply(prefix, acc, count);
            });
        }
        if (!exclusive) {
            ch.local(copier(acc, out.all(), acc.byteSize()));
        }
        if (me < n - 1) {
            ch.send(acc, me + 1, CollectiveChannel.SCAN);
            ch.endRound();
        }
        ch.local(out::commit);
    }

    /** A local step copying the first {@code bytes} bytes of {@code from} to {@code to}. */
    private static Runnable copier(MemorySegment from, MemorySegment to, long bytes) {
        return () -> MemorySegment.copy(from, 0, to, 0, bytes);
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
     * segment), the others null. The two scratch segments swap roles after each combining step; the swap is decided
     * when the steps are laid down (the ranks alone say which rounds there are), so a schedule replays it exactly.
     */
    static @Nullable MemorySegment toRankZero(CollectiveSteps ch, MemorySegment in, int count, Reduction op) {
        int n = ch.size();
        int me = ch.rank();
        MemorySegment acc = CollectiveArgs.copyOf(in);
        MemorySegment received = n > 1 ? CollectiveArgs.scratch(in.byteSize()) : acc;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((me & mask) != 0) {
                ch.send(acc, me - mask, CollectiveChannel.REDUCE);
                ch.endRound();
                return null;
            }
            if (me + mask < n) {
                ch.receive(received, me + mask, CollectiveChannel.REDUCE);
                ch.endRound();
                MemorySegment lower = acc;
                MemorySegment higher = received;
                ch.local(() -> op.apply(lower, higher, count));
                acc = higher;
                received = lower;
            }
        }
        return acc;
    }
}
