package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Matched probe ({@code mpi.Message}; MPI 4.1 section 3.8.2): a probe that claims the message it finds, so that the
 * receive made with the handle gets exactly that message and no other receive or probe, of any thread, can take it
 * in between. Arguments are checked as for {@link Messages} (same error classes).
 */
public final class MatchedProbe {
    private MatchedProbe() {
    }

    /**
     * Claims the oldest message {@code source}/{@code tag} would receive on {@code c}, or returns null if none has
     * arrived. The caller handles {@code PROC_NULL} (no message to claim).
     */
    public static @Nullable ClaimedMessage claim(CommState c, int source, int tag) {
        Messages.checkReceiveTag(tag);
        Messages.checkRank(c, source, true, "source");
        boolean anySource = source == Constants.ANY_SOURCE;
        boolean anyTag = tag == Constants.ANY_TAG;
        return c.engine().claim(MatchBits.of(c.context(), anySource ? 0 : source, anyTag ? 0 : tag),
                MatchBits.ignore(anySource, anyTag));
    }

    /**
     * Starts receiving the claimed message {@code m} into at most {@code count} elements of {@code type} at
     * {@code buf}; {@code m} null: the message of a probe of {@code PROC_NULL} (complete at once, nothing moves).
     * A bad argument leaves {@code m} claimed and unreceived, so that a corrected call still gets it.
     */
    public static ReceiveOperation receive(CommState c, @Nullable ClaimedMessage m, @Nullable Object buf, int count,
                                           @Nullable BaseType type) {
        BaseType t = Messages.checkCountAndType(count, type);
        MemorySegment memory = Buffers.segment(buf, count, t, true);
        boolean[] booleans = buf instanceof boolean[] b ? b : null;
        if (m == null) {
            ReceiveOperation op = new ReceiveOperation(memory, 0, MatchBits.ignore(true, true), booleans);
            Operation.completeAtOnce(op, Constants.PROC_NULL, Constants.ANY_TAG);
            return op;
        }
        ReceiveOperation op = new ReceiveOperation(memory, MatchBits.of(c.context(), m.source(), m.tag()),
                MatchBits.ignore(false, false), booleans);
        c.engine().receiveClaimed(m, op);
        return op;
    }
}
