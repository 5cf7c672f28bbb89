package org.portals3j.mpi.internal;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An unexpected message a matched probe has claimed ({@link PointToPoint#claim}): its queue entry stays where it is
 * (so that the rest of an eager message, or the body of a rendezvous one, still finds it) but no receive or probe
 * can match it; only {@link PointToPoint#receiveClaimed} takes it, once. What {@code mpi.Message} holds.
 */
public final class ClaimedMessage {
    private @Nullable UnexpectedMessage entry;
    private final int source;
    private final int tag;
    private final long bytes;

    ClaimedMessage(UnexpectedMessage entry, int source, int tag, long bytes) {
        this.entry = entry;
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
    }

    /** The sender's rank in the communicator. */
    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    /** The message's length in bytes. */
    public long bytes() {
        return bytes;
    }

    /** The queue entry, handed out once (called under the engine's lock). */
    UnexpectedMessage spend() {
        UnexpectedMessage e = entry;
        if (e == null) {
            throw new MpiError(ErrorClass.REQUEST, "this matched message has been received already");
        }
        entry = null;
        return e;
    }
}
