package org.portals3j.isotach;

import java.lang.foreign.MemorySegment;

/**
 * What {@link IsotachNet#isoReceive} fills in: the report's {@code iso_mbm} (L3438-3449, C L6250-6265), either
 * an Isotach message ({@link #tag()} {@link #ISO_MBM}) or a bs-notice ({@link #BS_NOTICE}) that reports
 * signals and barrier completions. One holder is reused across calls, so receiving allocates nothing.
 *
 * <p>A message's payload is a view of the layer's receive slot, valid only until the next
 * {@code isoReceive} call (L333, L2055-2059), which frees the slot and returns the Isotach credit.
 *
 * <p>A bs-notice's {@link #bits()}: bits 2-7 are signal channels 0-5 (channel c is bit {@code c + 2}), bits
 * 0-1 are barrier channels 0-1 (C L10779-10810). One notice reports the signals of one pulse, a separate one
 * its barrier completions (C L12105-12127).
 */
public final class IsoMessage {
    /** Tag of an Isotach message (the report's {@code ISO_MBM}, 0x10). */
    public static final int ISO_MBM = 0x10;
    /** Tag of a bs-notice (the report's {@code BS_MARKER}, 0x16: notices and markers share the value, L506). */
    public static final int BS_NOTICE = 0x16;

    private int tag;
    private int sender = -1;
    private int bits;
    private long pulse = -1;
    private MemorySegment data = MemorySegment.NULL;

    /** {@link #ISO_MBM} or {@link #BS_NOTICE}. */
    public int tag() {
        return tag;
    }

    public boolean isNotice() {
        return tag == BS_NOTICE;
    }

    /** The sending node of a message (this node for a self-message); -1 for a notice. */
    public int sender() {
        return sender;
    }

    /** Payload length of a message; 0 for a notice. */
    public int length() {
        return (int) data.byteSize();
    }

    /** The payload of a message, valid until the next {@code isoReceive}; empty for a notice. */
    public MemorySegment data() {
        return data;
    }

    /** The payload copied into a new array (convenience; allocates). */
    public byte[] toByteArray() {
        return data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** A notice's bits (see the class documentation); 0 for a message. */
    public int bits() {
        return bits;
    }

    /** Whether this notice reports signal channel {@code channel}. */
    public boolean signalled(int channel) {
        return tag == BS_NOTICE && (bits & (1 << (channel + 2))) != 0;
    }

    /** Whether this notice reports the completion of barrier channel {@code channel}. */
    public boolean barrierCompleted(int channel) {
        return tag == BS_NOTICE && (bits & (1 << channel)) != 0;
    }

    /**
     * The logical time (pulse) at which the message or notice was delivered: the timestamp its isochron or
     * signal was given, as a 64-bit count (the report's one-byte TS is this value modulo 256). Exposed so
     * that applications and the conformance kit can observe the isotach invariant.
     */
    public long pulse() {
        return pulse;
    }

    /** Filled in by the layer for a message. */
    public void setMessage(int from, MemorySegment payload, long atPulse) {
        this.tag = ISO_MBM;
        this.sender = from;
        this.bits = 0;
        setData(payload);
        this.pulse = atPulse;
    }

    /** Filled in by the layer for a notice. */
    public void setNotice(int noticeBits, long atPulse) {
        this.tag = BS_NOTICE;
        this.sender = -1;
        this.bits = noticeBits;
        setData(MemorySegment.NULL);
        this.pulse = atPulse;
    }

    /** Cleared by the layer when nothing was delivered. */
    public void clear() {
        this.tag = 0;
        this.sender = -1;
        this.bits = 0;
        setData(MemorySegment.NULL);
        this.pulse = -1;
    }

    /**
     * Only when it changes: a reference store into a long-lived object costs a garbage-collector write barrier, and the
     * layer clears the holder on every iso_receive that finds nothing, hundreds of times per message in a poll loop.
     */
    private void setData(MemorySegment payload) {
        if (data != payload) {
            data = payload;
        }
    }
}
