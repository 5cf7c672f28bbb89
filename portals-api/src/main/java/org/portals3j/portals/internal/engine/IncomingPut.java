package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * A put request between its two receive phases: matched and started (PUT_START posted), its payload
 * being deposited. One per source rank, reused: per-peer FIFO means one source has at most one put in
 * this state at a time.
 *
 * <p>Written by the thread delivering from that source, whichever it is, and allocated beside the
 * send channels, which the rank's own threads write: padded on both sides ({@link IncomingPutFields}
 * holds the padding before), so the two do not share a cache line.
 */
final class IncomingPut extends IncomingPutFields {
    long q0, q1, q2, q3, q4, q5, q6, q7;
}

/** The fields of {@link IncomingPut}, after the padding (superclass fields are laid out first). */
abstract class IncomingPutFields extends CacheLinePadding {
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
    /** The offset the request carried: the ack echoes it (Portals 3.2 spec §4.1). */
    long requestOffset;
    long hdrData;
    /** The initiator's MD handle: not PTL_MD_NONE means an ack was asked for (Portals 3.2 spec §4.1). */
    long ackMd;
    long exchange;

    void clear() {
        ni = null;
        md = null;
    }
}
