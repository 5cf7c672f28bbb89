package org.portals3j.transport;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where the payload of one incoming message goes: filled in by the upper layer during
 * {@link MessageHandler#onHeader}, used by the transport to deposit the payload, and handed back in
 * {@link MessageHandler#onDeposited}.
 *
 * <p>A transport keeps one {@code Deposit} per source and reuses it, so the receive path allocates
 * nothing. The upper layer may hang its own per-message state on {@link #attachment()}.
 */
public final class Deposit {
    private MemorySegment segment = MemorySegment.NULL;
    private long offset;
    private long length;
    private boolean accepted;
    private boolean failed;
    private long deposited;
    private @Nullable Object attachment;

    /**
     * Accepts up to {@code length} payload bytes into {@code segment} at {@code offset}.
     *
     * @throws IndexOutOfBoundsException if the region is outside {@code segment}: a deposit can never
     *         write outside the memory it was given
     */
    public void accept(MemorySegment segment, long offset, long length) {
        if (offset < 0 || length < 0 || offset > segment.byteSize() - length) {
            throw new IndexOutOfBoundsException("deposit region [" + offset + ", +" + length
                    + ") is outside a segment of " + segment.byteSize() + " bytes");
        }
        this.segment = segment;
        this.offset = offset;
        this.length = length;
        this.accepted = true;
    }

    /** Discards the payload (the default if {@link #accept} is not called). */
    public void discard() {
        this.segment = MemorySegment.NULL;
        this.offset = 0;
        this.length = 0;
        this.accepted = false;
    }

    public boolean accepted() {
        return accepted;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long offset() {
        return offset;
    }

    /** The number of bytes accepted (at most the payload length). */
    public long length() {
        return length;
    }

    /** True when the transfer failed before every accepted byte was deposited. */
    public boolean failed() {
        return failed;
    }

    /** Bytes actually deposited so far. */
    public long deposited() {
        return deposited;
    }

    public @Nullable Object attachment() {
        return attachment;
    }

    public void attach(@Nullable Object attachment) {
        this.attachment = attachment;
    }

    // ---- for transports ----------------------------------------------------------------------

    /** Resets the deposit before a new message's header is offered (transport use). */
    public void reset() {
        discard();
        failed = false;
        deposited = 0;
        attachment = null;
    }

    /** Records that {@code bytes} more bytes landed (transport use). */
    public void addDeposited(long bytes) {
        deposited += bytes;
    }

    /** Marks the transfer failed (transport use). */
    public void fail() {
        failed = true;
    }
}
