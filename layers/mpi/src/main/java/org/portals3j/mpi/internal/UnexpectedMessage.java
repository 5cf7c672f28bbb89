package org.portals3j.mpi.internal;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A message that arrived before a receive was posted for it, recorded from its PUT_START event on the unexpected
 * entries: an eager message in its sender's credit region, or a rendezvous header. Pooled by
 * {@link UnexpectedQueue}; the fields are valid while it is queued.
 */
final class UnexpectedMessage {
    long bits;
    /** The message's length in bytes (an eager message's rlength; a header's announced length). */
    long length;
    /** Eager: where it is in the sender's region. Rendezvous: the id to get its body with. */
    long offsetOrId;
    /** The sender's rank in the job. */
    int peer;
    /** The START event's link, to find it again at its END. */
    long link;
    /** Its PUT_END (or PUT_FAIL) has been seen: the data is all there. */
    boolean arrived;
    boolean failed;
    /** Taken by a matched probe ({@code Message.mProbe}): no receive or probe may match it any more. */
    boolean claimed;
    /** Eager: the ledger entry of the region space it takes. */
    long ledgerEntry;
    /** A receive that matched it before its data had all arrived. */
    @Nullable ReceiveOperation waiter;
    @Nullable UnexpectedMessage previous;
    @Nullable UnexpectedMessage next;

    boolean isLong() {
        return MatchBits.isLong(bits);
    }
}
