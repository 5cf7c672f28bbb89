package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The operations of a thread's blocking sends and receives, reused from call to call so that a blocking
 * ping-pong allocates no operation, no segment and no memory descriptor per message (bench/README.md,
 * {@code MpiAllocations}). A blocking call takes its thread's operation, waits for it, and gives it back only if it
 * finished: one left under way by an exception (an interrupted wait) is dropped, and the next call makes a new one.
 * Each also keeps the segment of the last {@link Buffer} or array (not a {@code boolean[]}, which is staged) it used,
 * with its datatype and size, which the next call with the same buffer, type and size reuses; the thread's last such
 * buffer therefore stays reachable until its next call with another one.
 *
 * <p>The thread also keeps up to {@link #KEPT} finished operations of each kind of the nonblocking point-to-point
 * calls and of the blocking collectives ({@link #takeKeptSend}, {@link #recycle}): an operation comes back when the
 * request that held it completes (its status read) or its collective round ends, to whichever thread completed it.
 * A kept operation keeps its last buffer reachable, as the thread's collective channel keeps its communicator, until
 * reused.
 */
final class BlockingOperations {
    private static final ThreadLocal<@Nullable BlockingOperations> OF_THREAD = new ThreadLocal<>();

    private @Nullable SendOperation send;
    private @Nullable ReceiveOperation receive;
    private final SegmentCache sendSegments = new SegmentCache();
    private final SegmentCache receiveSegments = new SegmentCache();

    /** One buffer's segment, remembered. */
    private static final class SegmentCache {
        private @Nullable Object buffer;
        private @Nullable BaseType type;
        private long elements;
        private @Nullable MemorySegment segment;

        MemorySegment segment(@Nullable Object buf, long count, BaseType t, boolean receive) {
            MemorySegment s = segment;
            if (s != null && buf == buffer && t == type && count == elements) {
                return s;
            }
            s = Buffers.segment(buf, count, t, receive);
            if (buf instanceof Buffer || buf != null && buf.getClass().isArray() && !(buf instanceof boolean[])) {
                buffer = buf;
                type = t;
                elements = count;
                segment = s;
            }
            return s;
        }
    }

    /** Finished operations of each kind a thread keeps for its next nonblocking calls. */
    static final int KEPT = 8;
    private final @Nullable SendOperation[] keptSends = new SendOperation[KEPT];
    private int keptSendCount;
    private final @Nullable ReceiveOperation[] keptReceives = new ReceiveOperation[KEPT];
    private int keptReceiveCount;

    private @Nullable CollectiveChannel channel;
    /** Largest scratch segments a thread keeps for its blocking reductions; larger ones are made per call. */
    static final long SCRATCH_KEPT = 64 * 1024;
    private @Nullable MemorySegment scratchA;
    private @Nullable MemorySegment scratchB;
    private boolean scratchBusy;

    private BlockingOperations() {
    }

    /**
     * Two scratch segments of {@code bytes} bytes each for a blocking reduction, the thread's own, reused while the
     * size stays the same, until {@link #giveBackScratch}; null if they are in use (a nested call) or
     * {@code bytes} is over {@link #SCRATCH_KEPT}, and the caller makes its own.
     */
    @Nullable MemorySegment takeScratch(long bytes, boolean second) {
        if (bytes > SCRATCH_KEPT || scratchBusy && !second) {
            return null;
        }
        MemorySegment s = second ? scratchB : scratchA;
        if (s == null || s.byteSize() != bytes) {
            s = CollectiveArgs.scratch(bytes);
            if (second) {
                scratchB = s;
            } else {
                scratchA = s;
            }
        }
        scratchBusy = true;
        return s;
    }

    /** The scratch segments of {@link #takeScratch} are free again. */
    void giveBackScratch() {
        scratchBusy = false;
    }

    /** The thread's blocking collective channel on {@code comm} ({@link CollectiveChannel#of}). */
    CollectiveChannel channel(CommState comm) {
        CollectiveChannel ch = channel;
        if (ch == null || ch.comm() != comm) {
            ch = new CollectiveChannel(comm);
            channel = ch;
        }
        return ch;
    }

    static BlockingOperations ofThread() {
        BlockingOperations mine = OF_THREAD.get();
        if (mine == null) {
            mine = new BlockingOperations();
            OF_THREAD.set(mine);
        }
        return mine;
    }

    /** The segment of {@code count} elements of {@code buf} for a send ({@link Buffers#segment}). */
    MemorySegment sendSegment(@Nullable Object buf, long count, BaseType type) {
        return sendSegments.segment(buf, count, type, false);
    }

    /** The segment of {@code count} elements of {@code buf} for a receive ({@link Buffers#segment}). */
    MemorySegment receiveSegment(@Nullable Object buf, long count, BaseType type) {
        return receiveSegments.segment(buf, count, type, true);
    }

    /** The thread's send operation made new over {@code buffer}, or a new one; the thread holds it until given back. */
    SendOperation takeSend(MemorySegment buffer) {
        SendOperation op = send;
        if (op == null) {
            return new SendOperation(buffer);
        }
        send = null;
        op.reuse(buffer);
        return op;
    }

    /** The thread's receive operation, made new, or a new one; the thread holds it until given back. */
    ReceiveOperation takeReceive(MemorySegment buffer, long want, long ignore, boolean @Nullable [] booleans) {
        ReceiveOperation op = receive;
        if (op == null) {
            return new ReceiveOperation(buffer, want, ignore, booleans);
        }
        receive = null;
        op.reuse(buffer, want, ignore, booleans);
        return op;
    }

    /** Gives {@code op} back for the thread's next blocking call, if it finished. */
    void giveBack(Operation op) {
        if (!op.isDone()) {
            return;
        }
        if (op instanceof SendOperation s) {
            send = s;
        } else if (op instanceof ReceiveOperation r && r.state == ReceiveOperation.State.DONE) {
            receive = r;
        }
    }

    /** A send operation over {@code buffer}: one the thread kept, made new, or a new one; {@link #recycle} takes it. */
    SendOperation takeKeptSend(MemorySegment buffer) {
        int n = keptSendCount;
        SendOperation op = n == 0 ? null : keptSends[n - 1];
        if (op == null) {
            op = new SendOperation(buffer);
            op.recyclable = true;
            return op;
        }
        keptSends[n - 1] = null;
        keptSendCount = n - 1;
        op.pooled = false;
        op.reuse(buffer);
        return op;
    }

    /** A receive operation as {@link #takeKeptSend} gives a send. */
    ReceiveOperation takeKeptReceive(MemorySegment buffer, long want, long ignore, boolean @Nullable [] booleans) {
        int n = keptReceiveCount;
        ReceiveOperation op = n == 0 ? null : keptReceives[n - 1];
        if (op == null) {
            op = new ReceiveOperation(buffer, want, ignore, booleans);
            op.recyclable = true;
            return op;
        }
        keptReceives[n - 1] = null;
        keptReceiveCount = n - 1;
        op.pooled = false;
        op.reuse(buffer, want, ignore, booleans);
        return op;
    }

    /**
     * Keeps {@code op} for the thread's next {@link #takeKeptSend} or {@link #takeKeptReceive} if it came from
     * one, finished, and nothing refers to it any more (its request released, its status read); else drops it.
     */
    void recycle(Operation op) {
        if (!op.recyclable || op.pooled || !op.isDone()) {
            return;
        }
        if (op instanceof SendOperation s) {
            if (keptSendCount < KEPT) {
                s.pooled = true;
                keptSends[keptSendCount++] = s;
            }
        } else if (op instanceof ReceiveOperation r && r.state == ReceiveOperation.State.DONE && r.arrival == null
                && keptReceiveCount < KEPT) {
            r.pooled = true;
            keptReceives[keptReceiveCount++] = r;
        }
    }
}
