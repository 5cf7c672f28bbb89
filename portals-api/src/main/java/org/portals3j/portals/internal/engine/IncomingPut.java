package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A put request between its two receive phases: matched and started (PUT_START posted), its payload
 * being deposited. One per source rank, reused: per-peer FIFO means one source has at most one put in
 * this state at a time.
 */
final class IncomingPut {
    @Nullable NetworkInterfaceState ni;
    int incarnation;
    @Nullable MemoryDescriptorState md;
    long link;
    int initiatorNid;
    int initiatorPid;
    int uid;
    int portal;
    long matchBits;
    long rlength;
    long mlength;
    /** The offset used in the MD (reported in the PUT events). */
    long offset;
    /** The offset the request carried: the ack echoes it (L13674). */
    long requestOffset;
    long hdrData;
    /** The initiator's MD handle: not PTL_MD_NONE means an ack was asked for (L13099). */
    long ackMd;
    long exchange;

    void clear() {
        ni = null;
        md = null;
    }
}
