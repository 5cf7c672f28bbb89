package org.portals3j.tck.lapi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.lapi.CompletionHandler;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.RetFlag;
import org.portals3j.lapi.ReturnInfo;

/**
 * A header handler that records every call (what it was given, on which thread) and answers as configured:
 * where the data goes ({@link #into}), a completion handler and ret_flags.
 */
final class Recorder implements HeaderHandler {
    /** What one call of the handler saw. */
    record Call(LapiContext context, String thread, byte[] uhdr, boolean uhdrReadOnly, long msgLen,
                byte @Nullable [] onePacket, int srcTask) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger count = new AtomicInteger();
    private volatile LongFunction<@Nullable MemorySegment> destination = len -> null;
    private volatile @Nullable CompletionHandler completion;
    private volatile @Nullable Object userInfo;
    private volatile @Nullable RetFlag flags;
    private volatile @Nullable Runnable during;

    /** The data goes into {@code dest.apply(msgLen)} (null: nowhere). */
    Recorder into(LongFunction<@Nullable MemorySegment> dest) {
        this.destination = dest;
        return this;
    }

    /** The data goes into {@code dest} (the same segment for every message). */
    Recorder into(MemorySegment dest) {
        return into(len -> dest);
    }

    Recorder completion(@Nullable CompletionHandler handler, @Nullable Object info) {
        this.completion = handler;
        this.userInfo = info;
        return this;
    }

    /** Sets ret_flags ({@code null}: leaves them as they are). */
    Recorder flags(@Nullable RetFlag f) {
        this.flags = f;
        return this;
    }

    /** Runs {@code action} inside the handler, after recording the call (it may block, to hold the dispatcher). */
    Recorder during(@Nullable Runnable action) {
        this.during = action;
        return this;
    }

    @Override
    public @Nullable MemorySegment onHeader(LapiContext context, MemorySegment uhdr, ReturnInfo info) {
        MemorySegment one = info.udataOnePacket();
        byte @Nullable [] onePacket = one == null ? null : one.toArray(ValueLayout.JAVA_BYTE);
        calls.add(new Call(context, Thread.currentThread().getName(), uhdr.toArray(ValueLayout.JAVA_BYTE),
                uhdr.isReadOnly(), info.msgLen(), onePacket, info.srcTask()));
        CompletionHandler ch = completion;
        if (ch != null) {
            info.setCompletion(ch, userInfo);
        }
        RetFlag f = flags;
        if (f != null) {
            info.setRetFlags(f);
        }
        Runnable r = during;
        if (r != null) {
            r.run();
        }
        count.incrementAndGet();
        return destination.apply(info.msgLen());
    }

    /** Calls that returned so far. */
    int count() {
        return count.get();
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    Call last() {
        return calls.get(calls.size() - 1);
    }
}
