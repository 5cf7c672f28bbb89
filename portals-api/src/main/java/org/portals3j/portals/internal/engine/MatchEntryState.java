package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.Unlink;

/**
 * A match list entry (Portals 3.2 spec §3.6.2.2): match criteria, the unlink flag, at most one MD, and its list links.
 */
final class MatchEntryState extends Slotted {
    int portal;
    int matchNid;
    int matchPid;
    long matchBits;
    long ignoreBits;
    Unlink unlink = Unlink.RETAIN;
    @Nullable MemoryDescriptorState md;

    // The match list, in spec order.
    @Nullable MatchEntryState prev;
    @Nullable MatchEntryState next;
    /** Position key: increases along the list (see {@link MatchList}). */
    long order;
    // The chain this entry is on within the list: its exact-bits bucket, or the wildcard chain.
    @Nullable MatchEntryState chainPrev;
    @Nullable MatchEntryState chainNext;
    ExactIndex.@Nullable Bucket bucket;

    MatchEntryState(int slot) {
        super(slot);
    }

    /** True if it is indexed by its exact match bits (no ignore bits). */
    boolean exact() {
        return ignoreBits == 0;
    }

    boolean matchesId(int nid, int pid) {
        return (matchNid == -1 || matchNid == nid) && (matchPid == -1 || matchPid == pid);
    }

    /** {@code ((incoming ^ match_bits) & ~ignore_bits) == 0} (Portals 3.2 spec §3.7.1.2, A-22); all 64 bits alike. */
    boolean matchesBits(long incoming) {
        return ((incoming ^ matchBits) & ~ignoreBits) == 0;
    }
}
