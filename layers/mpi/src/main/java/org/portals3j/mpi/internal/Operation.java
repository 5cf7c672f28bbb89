package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.MdHandle;

/**
 * One operation in flight (a send, a receive, or a nonblocking collective): what a {@code Request} stands for.
 * Written by the engine under its lock; {@link #isDone()} may be read by any thread. Its segment keeps the user's
 * buffer reachable until the operation has finished, whatever happens to the request (mpi-java-api.md section 4.7).
 */
public abstract sealed class Operation permits SendOperation, ReceiveOperation, BackgroundDup, CollectiveSchedule {
    /** The user's memory (or a staging copy of it); replaced only when a finished operation is reused. */
    MemorySegment buffer;
    /** The MD bound or attached for the data, while there is one. */
    @Nullable MdHandle md;
    private volatile boolean done;
    private int errorClass = ErrorClass.SUCCESS;
    private String errorMessage = "";
    int source;
    int tag;
    long bytes;
    boolean cancelled;
    /** Whether a thread may keep it for reuse once it is finished and released ({@link BlockingOperations}). */
    boolean recyclable;
    /** Whether it is among a thread's kept operations now (so that it is never kept twice). */
    boolean pooled;

    Operation(MemorySegment buffer) {
        this.buffer = buffer;
    }

    public final boolean isDone() {
        return done;
    }

    /** The error class the operation ended with ({@link ErrorClass#SUCCESS} if none). */
    public final int errorClass() {
        return errorClass;
    }

    public final String errorMessage() {
        return errorMessage;
    }

    /** Status fields: the source rank in the communicator, the tag, the bytes received, whether cancelled. */
    public final int source() {
        return source;
    }

    public final int tag() {
        return tag;
    }

    public final long bytes() {
        return bytes;
    }

    public final boolean isCancelled() {
        return cancelled;
    }

    final void fail(int newErrorClass, String message) {
        if (errorClass == ErrorClass.SUCCESS) {
            errorClass = newErrorClass;
            errorMessage = message;
        }
    }

    /**
     * Makes this finished operation new again over {@code newBuffer} ({@link BlockingOperations}): only an
     * operation the engine no longer refers to (it completed, and its MD is gone) may be reused.
     */
    void reuse(MemorySegment newBuffer) {
        buffer = newBuffer;
        md = null;
        errorClass = ErrorClass.SUCCESS;
        errorMessage = "";
        source = 0;
        tag = 0;
        bytes = 0;
        cancelled = false;
        done = false;
    }

    /** Marks the operation finished; what it produced must be written before. */
    void complete() {
        done = true;
    }

    /** An operation that is finished the moment it starts (to or from PROC_NULL). */
    static void completeAtOnce(Operation op, int source, int tag) {
        op.source = source;
        op.tag = tag;
        op.bytes = 0;
        op.complete();
    }
}
