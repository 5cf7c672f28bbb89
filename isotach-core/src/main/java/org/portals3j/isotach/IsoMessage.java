package org.portals3j.isotach;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * What {@link IsotachNet#isoReceive} fills in: the report's {@code iso_mbm} (Isotach report App. A.5, pp. 98-99;
 * App. J, isotach.h, pp. 162-165), either an Isotach message ({@link #tag()} {@link #ISO_MBM}) or a bs-notice ({@link
 * #BS_NOTICE}) that reports signals and barrier completions. One holder is reused across calls, so receiving allocates
 * nothing.
 *
 * <p>A message's payload is a view of the layer's receive slot, valid only until the next
 * {@code isoReceive} call (Isotach report §3.3.2, pp. 10-14; §6.8.5, pp. 56-59), which frees the slot and returns the
 * Isotach credit. The holder keeps the receive buffer, an offset and a length, and {@link #data()} makes the view when
 * asked: storing a new view in a holder the application keeps for long would run the garbage collector's write barrier
 * on every message.
 *
 * <p>A bs-notice's {@link #bits()}: bits 2-7 are signal channels 0-5 (channel c is bit {@code c + 2}), bits
 * 0-1 are barrier channels 0-1 (Isotach report App. J, iso_signal.c, pp. 231-235). One notice reports the signals of
 * one pulse, a separate one its barrier completions (Isotach report App. J, iom.c, pp. 255-261).
 */
public final class IsoMessage {
    /** Tag of an Isotach message (the report's {@code ISO_MBM}, 0x10). */
    public static final int ISO_MBM = 0x10;
    /**
     * Tag of a bs-notice (the report's {@code BS_MARKER}, 0x16: notices and markers share the value,
     * Isotach report §3.5.4, pp. 18-20).
     */
    public static final int BS_NOTICE = 0x16;

    private int tag;
    private int sender = -1;
    private int bits;
    private long pulse = -1;
    /** The buffer the payload is in (changes only between the layer's buffers), its offset and length. */
    private MemorySegment base = MemorySegment.NULL;
    private long offset;
    private int length;

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
        return length;
    }

    /** The payload of a message, valid until the next {@code isoReceive}; empty for a notice. A new view each call. */
    public MemorySegment data() {
        return length == 0 ? MemorySegment.NULL : base.asSlice(offset, length);
    }

    /** The payload copied into a new array (convenience; allocates). */
    public byte[] toByteArray() {
        byte[] copy = new byte[length];
        MemorySegment.copy(base, ValueLayout.JAVA_BYTE, offset, copy, 0, length);
        return copy;
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
        setMessage(from, payload, 0, Math.toIntExact(payload.byteSize()), atPulse);
    }

    /** Filled in by the layer for a message of {@code size} bytes at {@code at} in {@code buffer}. */
    public void setMessage(int from, MemorySegment buffer, long at, int size, long atPulse) {
        Objects.checkFromIndexSize(at, size, buffer.byteSize());
        this.tag = ISO_MBM;
        this.sender = from;
        this.bits = 0;
        setBase(buffer);
        this.offset = at;
        this.length = size;
        this.pulse = atPulse;
    }

    /** Filled in by the layer for a notice. */
    public void setNotice(int noticeBits, long atPulse) {
        this.tag = BS_NOTICE;
        this.sender = -1;
        this.bits = noticeBits;
        this.length = 0;
        this.pulse = atPulse;
    }

    /** Cleared by the layer when nothing was delivered. */
    public void clear() {
        this.tag = 0;
        this.sender = -1;
        this.bits = 0;
        this.length = 0;
        this.pulse = -1;
    }

    /**
     * Only when it changes (between the layer's receive buffer and its self-message buffer): a reference store into a
     * long-lived object costs a garbage-collector write barrier. A cleared holder keeps its buffer, unused.
     */
    private void setBase(MemorySegment buffer) {
        if (base != buffer) {
            base = buffer;
        }
    }
}
