package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The dispatcher's {@link ReturnInfo}: one object, refilled for each header handler call. */
final class Reply implements ReturnInfo {
    private long msgLen;
    private int src;
    private @Nullable MemorySegment packet;
    private long dataOffset;
    private @Nullable CompletionHandler handler;
    private @Nullable Object userInfo;
    private RetFlag flags = RetFlag.NORMAL;
    private int ctlFlags;

    /** Fills it for a message; {@code packet} is the read-only receive buffer for a single-packet one, else null. */
    void start(long len, int srcTask, @Nullable MemorySegment onePacket, long offset) {
        msgLen = len;
        src = srcTask;
        packet = onePacket;
        dataOffset = offset;
        handler = null;
        userInfo = null;
        flags = RetFlag.NORMAL;
        ctlFlags = 0;
    }

    /** Moves the handler's outputs into {@code in} and forgets the message. */
    void finish(Incoming in) {
        in.completion = handler;
        in.userInfo = userInfo;
        in.retFlag = flags;
        in.ctlFlags = ctlFlags;
        packet = null;
        handler = null;
        userInfo = null;
    }

    @Override
    public long msgLen() {
        return msgLen;
    }

    @Override
    public @Nullable MemorySegment udataOnePacket() {
        MemorySegment p = packet;
        return p == null ? null : p.asSlice(dataOffset, msgLen);
    }

    @Override
    public int srcTask() {
        return src;
    }

    @Override
    public void setCompletion(@Nullable CompletionHandler completion, @Nullable Object info) {
        this.handler = completion;
        this.userInfo = info;
    }

    @Override
    public void setRetFlags(RetFlag f) {
        this.flags = f == null ? RetFlag.NORMAL : f;
    }

    @Override
    public RetFlag retFlags() {
        return flags;
    }

    @Override
    public void setCtlFlags(int f) {
        this.ctlFlags = f;
    }

    @Override
    public int ctlFlags() {
        return ctlFlags;
    }
}
