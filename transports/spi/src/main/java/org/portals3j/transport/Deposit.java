package org.portals3j.transport;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * Where the payload of one incoming message goes: filled in by the upper layer during
 * {@link MessageHandler#onHeader}, used by the transport to deposit the payload, and handed back in
 * {@link MessageHandler#onDeposited}.
 *
 * <p>A transport keeps one {@code Deposit} per source, through its {@link DepositWriter}, and reuses it, so the
 * receive path allocates nothing; only the writer marks bytes deposited or the transfer failed. A deposit made with
 * the public constructor (a test's) is discarded and stays so until accepted. The upper layer may hang its own
 * per-message state on {@link #attachment()}.
 *
 * <p>Each source's deposit is written by the thread that delivers that source's messages (on an inline transport,
 * the source's own), so a deposit's state sits alone on its cache lines, between padding in its superclasses and in
 * this class: next to another source's deposit, or to what the receiving thread writes, every message cost one side
 * a cache miss. For a similar reason the segment last accepted is kept, not cleared, while the deposit is not
 * accepted ({@link #segment()} says {@code NULL} then): a reference store into a long-lived object costs a
 * garbage-collector write barrier, and clearing and setting it made two per message.
 */
public final class Deposit extends DepositState {
    // After the state: HotSpot lays out a superclass's fields first.
    long q0;
    long q1;
    long q2;
    long q3;
    long q4;
    long q5;
    long q6;
    long q7;

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
        if (this.segment != segment) {
            this.segment = segment; // see the class documentation on reference stores
        }
        this.offset = offset;
        this.length = length;
        this.accepted = true;
    }

    /** Discards the payload (the default if {@link #accept} is not called). */
    public void discard() {
        this.offset = 0;
        this.length = 0;
        this.accepted = false;
    }

    public boolean accepted() {
        return accepted;
    }

    /** The segment the payload goes to; {@link MemorySegment#NULL} unless {@link #accepted()}. */
    public MemorySegment segment() {
        return accepted ? segment : MemorySegment.NULL;
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
}

/** A deposit's state, between its padding. */
abstract class DepositState extends CacheLinePadding {
    MemorySegment segment = MemorySegment.NULL;
    long offset;
    long length;
    boolean accepted;
    boolean failed;
    long deposited;
    @Nullable Object attachment;
}
