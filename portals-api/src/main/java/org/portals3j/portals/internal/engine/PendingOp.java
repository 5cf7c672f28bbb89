package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.internal.wire.MessageHeader;

/**
 * An operation in flight that the engine must finish later: a put being sent (SEND_END), a get waiting
 * for its reply (REPLY_*), a reply being sent for a get this process answered (GET_END), a Portals 3.3
 * {@code PtlGetPut} being sent and waiting for its reply (SEND_END, REPLY_*), or the reply to one this
 * process swapped (GETPUT_END). Pooled; its {@link #token} goes to the transport as the send token and on
 * the wire as the exchange id.
 */
final class PendingOp {
    enum Kind { PUT_SEND, GET_REQUEST, GET_REPLY, GETPUT_REQUEST, GETPUT_REPLY }

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
    /** For GETPUT_REPLY: the initiator's get MD handle and exchange id, which the reply echoes. */
    long peerMdHandle;
    long peerExchange;
    /**
     * For PUT_SEND, GETPUT_REQUEST and GET_REPLY: the {@link SendStaging} buffer the transport reads the payload
     * from, or {@link SendStaging#NONE}. Given back when the op is freed, which is never before the transport's
     * report of the send (not even by {@code PtlNIFini}, which detaches such an op instead).
     */
    int staging = SendStaging.NONE;
    /** For GETPUT_REQUEST: the MD the reply lands in ({@link #md} is the put MD, whose bytes are sent). */
    @Nullable MemoryDescriptorState replyMd;
    /**
     * For GETPUT_REQUEST: SEND_END was logged (by the send's completion, or by the reply that proves it). For
     * PUT_SEND and GET_REPLY: SEND_END (GET_END) was logged once the staged payload was copied, before the
     * transport's report.
     */
    boolean sendEnded;
    /** For PUT_SEND: the target's ack arrived (the message was delivered, whatever the transport reports). */
    boolean acknowledged;
    /** For GETPUT_REQUEST: REPLY_END was logged. The op is freed when both have been. */
    boolean replyEnded;
    /**
     * For GETPUT_REPLY: the bytes the initiator sent, then the bytes they replaced (the reply's payload, read
     * by the transport until the send completes). Made with the op's first swap and kept with it.
     */
    @Nullable MemorySegment swapIn;
    @Nullable MemorySegment swapOut;
    @Nullable PendingOp nextFree;

    PendingOp(int index) {
        this.index = index;
    }

    void clear() {
        ni = null;
        md = null;
        replyMd = null;
        started = false;
        ackWaiting = false;
        acknowledged = false;
        sendEnded = false;
        replyEnded = false;
        link = 0;
        hdrData = 0;
    }

    /**
     * Counts this op's send lost ({@link StatusRegister#SENDS_LOST}) unless {@code delivered}: a staged send whose
     * END event was logged when its payload was copied, and which the transport then could not deliver.
     */
    void countLost(boolean delivered) {
        NetworkInterfaceState on = ni;
        if (!delivered && on != null && on.isLive()) {
            on.registers[StatusRegister.SENDS_LOST.index()]++;
        }
    }

    /** This op's two swap buffers (GETPUT_REPLY), each of {@link MessageHeader#MAX_GETPUT_LENGTH} bytes. */
    MemorySegment swapIn() {
        MemorySegment in = swapIn;
        if (in == null) {
            in = MemorySegment.ofArray(new byte[MessageHeader.MAX_GETPUT_LENGTH]);
            swapIn = in;
            swapOut = MemorySegment.ofArray(new byte[MessageHeader.MAX_GETPUT_LENGTH]);
        }
        return in;
    }
}
