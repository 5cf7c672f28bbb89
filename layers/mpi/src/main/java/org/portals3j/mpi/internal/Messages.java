package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The point-to-point calls of a communicator with their argument checks (each failure an {@link MpiError} with the
 * error class Open MPI gives): ranks, tags, counts, datatypes and buffers, then the engine.
 */
public final class Messages {

    private Messages() {
    }

    /**
     * Starts a send of {@code count} elements of {@code type} from {@code buf} to rank {@code dest} of {@code c}.
     * A send to PROC_NULL is complete at once.
     */
    public static SendOperation send(CommState c, @Nullable Object buf, int count, @Nullable BaseType type, int dest,
                                     int tag, boolean synchronous) {
        BaseType t = checkCountAndType(count, type);
        if (tag < 0) {
            throw new MpiError(ErrorClass.TAG, "invalid tag " + tag + ": a send's tag must be 0.." + MatchBits.TAG_UB);
        }
        checkRank(c, dest, false, "destination");
        MemorySegment memory = Buffers.segment(buf, count, t, false);
        SendOperation op = new SendOperation(memory);
        if (dest == Constants.PROC_NULL) {
            Operation.completeAtOnce(op, Constants.PROC_NULL, Constants.ANY_TAG);
            return op;
        }
        c.engine().startSend(op, c.jobRank(dest), MatchBits.of(c.context(), c.rank(), tag), synchronous);
        return op;
    }

    /** Starts a receive of at most {@code count} elements of {@code type} into {@code buf}. */
    public static ReceiveOperation receive(CommState c, @Nullable Object buf, int count, @Nullable BaseType type,
                                           int source, int tag) {
        return receive(c, buf, count, type, source, tag, null);
    }

    /** {@link #receive}, with {@code arrival} called with the bytes received before the receive completes. */
    public static ReceiveOperation receive(CommState c, @Nullable Object buf, int count, @Nullable BaseType type,
                                           int source, int tag, ReceiveOperation.@Nullable Arrival arrival) {
        BaseType t = checkCountAndType(count, type);
        checkReceiveTag(tag);
        checkRank(c, source, true, "source");
        MemorySegment memory = Buffers.segment(buf, count, t, true);
        boolean[] booleans = buf instanceof boolean[] b ? b : null;
        boolean anySource = source == Constants.ANY_SOURCE;
        boolean anyTag = tag == Constants.ANY_TAG;
        long want = MatchBits.of(c.context(), anySource ? 0 : source, anyTag ? 0 : tag);
        ReceiveOperation op = new ReceiveOperation(memory, want, MatchBits.ignore(anySource, anyTag), booleans);
        op.arrival = arrival;
        if (source == Constants.PROC_NULL) {
            Operation.completeAtOnce(op, Constants.PROC_NULL, Constants.ANY_TAG);
            return op;
        }
        c.engine().startReceive(op);
        return op;
    }

    /**
     * The oldest message {@code source}/{@code tag} would receive that has arrived, or null; PROC_NULL finds an
     * empty message from PROC_NULL at once.
     */
    public static @Nullable ProbeResult probe(CommState c, int source, int tag) {
        checkReceiveTag(tag);
        checkRank(c, source, true, "source");
        if (source == Constants.PROC_NULL) {
            return new ProbeResult(Constants.PROC_NULL, Constants.ANY_TAG, 0);
        }
        boolean anySource = source == Constants.ANY_SOURCE;
        boolean anyTag = tag == Constants.ANY_TAG;
        return c.engine().probe(MatchBits.of(c.context(), anySource ? 0 : source, anyTag ? 0 : tag),
                MatchBits.ignore(anySource, anyTag));
    }

    // ---- blocking calls without allocation (mpi-perf) --------------------------------------------

    /**
     * {@link #send} for a blocking send: the operation and the buffer's segment are the calling thread's, reused
     * ({@link BlockingOperations}); the caller waits for it and then passes it to {@link #finished}.
     */
    public static SendOperation blockingSend(CommState c, @Nullable Object buf, int count, @Nullable BaseType type,
                                             int dest, int tag, boolean synchronous) {
        return reusedSend(c, buf, count, type, dest, tag, synchronous, false);
    }

    /**
     * {@link #send} for {@code iSend} and its kin: the operation is one the thread kept ({@link BlockingOperations}),
     * the buffer's segment the thread's last one if the buffer is the same; {@link #recycle} gives it back.
     */
    public static SendOperation nonblockingSend(CommState c, @Nullable Object buf, int count,
                                                @Nullable BaseType type, int dest, int tag, boolean synchronous) {
        return reusedSend(c, buf, count, type, dest, tag, synchronous, true);
    }

    /** A started send on the thread's operation: {@code kept} for one a request holds, else the blocking call's. */
    private static SendOperation reusedSend(CommState c, @Nullable Object buf, int count, @Nullable BaseType type,
                                            int dest, int tag, boolean synchronous, boolean kept) {
        BaseType t = checkCountAndType(count, type);
        if (tag < 0) {
            throw new MpiError(ErrorClass.TAG, "invalid tag " + tag + ": a send's tag must be 0.." + MatchBits.TAG_UB);
        }
        checkRank(c, dest, false, "destination");
        BlockingOperations mine = BlockingOperations.ofThread();
        MemorySegment memory = mine.sendSegment(buf, count, t);
        SendOperation op = kept ? mine.takeKeptSend(memory) : mine.takeSend(memory);
        if (dest == Constants.PROC_NULL) {
            Operation.completeAtOnce(op, Constants.PROC_NULL, Constants.ANY_TAG);
            return op;
        }
        c.engine().startSend(op, c.jobRank(dest), MatchBits.of(c.context(), c.rank(), tag), synchronous);
        return op;
    }

    /**
     * {@link #receive} for a blocking receive, as {@link #blockingSend} is for a send, not started yet: the caller
     * starts it and waits with {@code PointToPoint.receive} (done at once for PROC_NULL).
     */
    public static ReceiveOperation blockingReceive(CommState c, @Nullable Object buf, int count,
                                                   @Nullable BaseType type, int source, int tag) {
        return reusedReceive(c, buf, count, type, source, tag, false);
    }

    /** {@link #receive} for {@code iRecv}, as {@link #nonblockingSend} is for a send: started. */
    public static ReceiveOperation nonblockingReceive(CommState c, @Nullable Object buf, int count,
                                                      @Nullable BaseType type, int source, int tag) {
        ReceiveOperation op = reusedReceive(c, buf, count, type, source, tag, true);
        if (source != Constants.PROC_NULL) {
            c.engine().startReceive(op);
        }
        return op;
    }

    /** A receive on the thread's operation, not started (done at once for PROC_NULL); {@code kept} as for a send. */
    private static ReceiveOperation reusedReceive(CommState c, @Nullable Object buf, int count,
                                                  @Nullable BaseType type, int source, int tag, boolean kept) {
        BaseType t = checkCountAndType(count, type);
        checkReceiveTag(tag);
        checkRank(c, source, true, "source");
        BlockingOperations mine = BlockingOperations.ofThread();
        MemorySegment memory = mine.receiveSegment(buf, count, t);
        boolean[] booleans = buf instanceof boolean[] b ? b : null;
        boolean anySource = source == Constants.ANY_SOURCE;
        boolean anyTag = tag == Constants.ANY_TAG;
        long want = MatchBits.of(c.context(), anySource ? 0 : source, anyTag ? 0 : tag);
        long ignore = MatchBits.ignore(anySource, anyTag);
        ReceiveOperation op = kept ? mine.takeKeptReceive(memory, want, ignore, booleans)
                : mine.takeReceive(memory, want, ignore, booleans);
        if (source == Constants.PROC_NULL) {
            Operation.completeAtOnce(op, Constants.PROC_NULL, Constants.ANY_TAG);
        }
        return op;
    }

    /**
     * The request that held {@code op} has completed and let it go (its status read): the calling thread keeps it
     * for its next nonblocking call if it came from one and finished.
     */
    public static void recycle(Operation op) {
        if (op.recyclable) {
            BlockingOperations.ofThread().recycle(op);
        }
    }

    /** A blocking call is done with {@code op} (its status read): the thread may reuse it if it finished. */
    public static void finished(Operation op) {
        BlockingOperations.ofThread().giveBack(op);
    }

    static BaseType checkCountAndType(int count, @Nullable BaseType type) {
        if (count < 0) {
            throw new MpiError(ErrorClass.COUNT, "invalid count " + count + ": it must be 0 or more");
        }
        if (type == null) {
            throw new MpiError(ErrorClass.TYPE, "invalid datatype: DATATYPE_NULL (or null) carries no data");
        }
        return type;
    }

    static void checkReceiveTag(int tag) {
        if (tag < 0 && tag != Constants.ANY_TAG) {
            throw new MpiError(ErrorClass.TAG, "invalid tag " + tag + ": a receive's tag must be 0.."
                    + MatchBits.TAG_UB + " or ANY_TAG");
        }
    }

    static void checkRank(CommState c, int rank, boolean receive, String what) {
        if (rank == Constants.PROC_NULL || receive && rank == Constants.ANY_SOURCE) {
            return;
        }
        if (rank < 0 || rank >= c.size()) {
            throw new MpiError(ErrorClass.RANK, "invalid " + what + " rank " + rank + ": " + c.name() + " has ranks 0.."
                    + (c.size() - 1) + (receive ? ", ANY_SOURCE" : "") + " and PROC_NULL");
        }
    }

    // ---- persistent and buffered sends -------------------------------------------------------------

    /**
     * A buffered-mode send ({@code bSend}, {@code ibSend}): the checks of {@link #send}, then the message is copied
     * into {@code attached} and sent from there. The operation returned is complete: the message has been copied.
     *
     * @throws MpiError ERR_BUFFER if no buffer is attached or it has no room (nothing is sent)
     */
    public static SendOperation bufferedSend(CommState c, BufferedSends attached, @Nullable Object buf, int count,
                                             @Nullable BaseType type, int dest, int tag) {
        BaseType t = checkSend(c, count, type, dest, tag);
        MemorySegment memory = Buffers.segment(buf, count, t, false);
        SendOperation op = new SendOperation(memory);
        if (dest != Constants.PROC_NULL) {
            attached.send(c.engine(), memory, c.jobRank(dest), MatchBits.of(c.context(), c.rank(), tag));
        }
        Operation.completeAtOnce(op, Constants.PROC_NULL, Constants.ANY_TAG);
        return op;
    }

    /** The checks of a send with these arguments ({@code sendInit} and its kin make them when the request is made). */
    public static void checkSend(CommState c, @Nullable Object buf, int count, @Nullable BaseType type, int dest,
                                 int tag) {
        Buffers.segment(buf, count, checkSend(c, count, type, dest, tag), false);
    }

    /** The checks of a receive with these arguments ({@code recvInit}). */
    public static void checkReceive(CommState c, @Nullable Object buf, int count, @Nullable BaseType type,
                                    int source, int tag) {
        BaseType t = checkCountAndType(count, type);
        checkReceiveTag(tag);
        checkRank(c, source, true, "source");
        Buffers.segment(buf, count, t, true);
    }

    private static BaseType checkSend(CommState c, int count, @Nullable BaseType type, int dest, int tag) {
        BaseType t = checkCountAndType(count, type);
        if (tag < 0) {
            throw new MpiError(ErrorClass.TAG, "invalid tag " + tag + ": a send's tag must be 0.." + MatchBits.TAG_UB);
        }
        checkRank(c, dest, false, "destination");
        return t;
    }
}
