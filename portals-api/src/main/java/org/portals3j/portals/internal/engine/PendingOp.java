package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An operation in flight that the engine must finish later: a put being sent (SEND_END), a get waiting
 * for its reply (REPLY_*), or a reply being sent for a get this process answered (GET_END). Pooled; its
 * {@link #token} goes to the transport as the send token and on the wire as the exchange id.
 */
final class PendingOp {
    enum Kind { PUT_SEND, GET_REQUEST, GET_REPLY }

    final int index;
    int generation;
    boolean inUse;
    long token;
    Kind kind = Kind.PUT_SEND;
    @Nullable NetworkInterfaceState ni;
    @Nullable MemoryDescriptorState md;
    int peerRank;
    /** The START event's sequence, shared by the END/FAIL event. */
    long link;
    // The fields the operation's events report.
    int peerNid;
    int peerPid;
    int uid;
    int portal;
    long matchBits;
    long rlength;
    long mlength;
    long offset;
    long hdrData;
    /** For GET_REQUEST: where in the MD the reply goes (0, or PtlGetRegion's local_offset). */
    long localOffset;
    /** For GET_REQUEST: the most bytes the reply may place (PtlGetRegion's length; unbounded for PtlGet). */
    long localLength;
    /** For GET_REQUEST: the START event was posted (the reply began arriving). */
    boolean started;
    /** For PUT_SEND: an ack arrived before the send completed; post it after SEND_END. */
    boolean ackWaiting;
    int ackNid;
    int ackPid;
    int ackUid;
    long ackRlength;
    long ackMlength;
    @Nullable PendingOp nextFree;

    PendingOp(int index) {
        this.index = index;
    }

    void clear() {
        ni = null;
        md = null;
        started = false;
        ackWaiting = false;
        link = 0;
        hdrData = 0;
    }
}
