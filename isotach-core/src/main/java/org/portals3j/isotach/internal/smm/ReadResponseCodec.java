package org.portals3j.isotach.internal.smm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The body of a read response (Isotach report §3.4.3, pp. 14-18; §7.4.5, pp. 69-72; App. B.1.1, pp. 104-107): the
 * report's 8-byte payload {@code {value (word), lvar (word)}} in that order (I-140), widened to Java's 64-bit shared
 * words and followed by the logical time the read executed at, which fills {@link
 * org.portals3j.isotach.IsoVar#readPulse()}:
 *
 * <pre>
 *   offset 0   value      8 bytes, big-endian (network order, as the report's packets)
 *   offset 8   lvar slot  4 bytes, big-endian (the id {@link SharedMemory#allocateRead} gave the read)
 *   offset 12  pulse      8 bytes, big-endian
 * </pre>
 *
 * The engine frames it (its kind byte and anything else come before {@code offset}); a read response is a
 * noniso packet and is not isotach-ordered (I-091): the value was fixed when the read executed.
 */
public final class ReadResponseCodec {
    /** Bytes of a read-response body. */
    public static final int LENGTH = 20;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private ReadResponseCodec() {
    }

    /** Writes a body at {@code offset}; returns {@link #LENGTH}. */
    public static int write(MemorySegment segment, long offset, long value, int readSlot, long pulse) {
        segment.set(LONG, offset, value);
        segment.set(INT, offset + 8, readSlot);
        segment.set(LONG, offset + 12, pulse);
        return LENGTH;
    }

    /**
     * Whether {@code length} bytes from {@code offset} can be a body (received bytes are hostile): exactly
     * {@link #LENGTH} bytes inside the segment, a non-negative slot and pulse. The slot itself is checked by
     * {@link SharedMemory#completeRead}.
     */
    public static boolean isValid(MemorySegment segment, long offset, long length) {
        return length == LENGTH && offset >= 0 && offset <= segment.byteSize() - LENGTH
                && readSlot(segment, offset) >= 0 && pulse(segment, offset) >= 0;
    }

    public static long value(MemorySegment segment, long offset) {
        return segment.get(LONG, offset);
    }

    public static int readSlot(MemorySegment segment, long offset) {
        return segment.get(INT, offset + 8);
    }

    public static long pulse(MemorySegment segment, long offset) {
        return segment.get(LONG, offset + 12);
    }
}
