package org.portals3j.isotach.internal.noniso;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The noniso module's frame layout: our transport header in place of the report's 20-byte noniso packet header
 * (Isotach report App. B.1.1, pp. 104-107, I-136). Byte 0 is the frame kind (the engine dispatches on it;
 * kinds 0x20-0x2F belong to this module), byte 1 a layout version that every receiver checks. Multi-byte fields are
 * big-endian, as on the report's wire (network byte order).
 *
 * <pre>
 * common prefix (16 bytes), every kind:
 *   0  kind     u8   0x20 data, 0x21 read response, 0x22 credit, 0x23 credit request, 0x24 barrier
 *   1  version  u8   {@link #VERSION}
 *   2  flags    u8   bit 0 = credit present ({@link #FLAG_CREDIT}); other bits must be 0
 *   3  reserved u8   must be 0
 *   4  slot     i32  the receiver slot the SENDER chose (the report's DMA base, remote_t[j], Isotach report
 *                    §7.1.3, pp. 59-62): data ring slot 0..ring-1, or ring + CONTROL_* for control frames
 *                    (Isotach report App. J, host_utils.h, pp. 175-179)
 *   8  credit   i64  freed-slot count of the sender's receive ring for the receiver (the report's receive_h,
 *                    as an unbounded counter); meaningful only when the credit flag is set
 * data (0x20), 20 bytes:            16 length i32 (payload bytes, the payload follows as the transport payload)
 * read response (0x21), 40 bytes:   16 length i32 (= 0), 20 value i64, 28 lvar slot i32, 32 pulse i64
 * credit (0x22), 16 bytes:          credit flag required
 * credit request (0x23), 16 bytes:  credit flag clear
 * barrier (0x24), 24 bytes:         16 generation i64 (1 for the first barrier, then 2, 3, ...)
 * </pre>
 *
 * The report's NULL_CREDIT = 0 encoding is replaced by the explicit flag (our choice), and head pointers by
 * counters that never wrap, so "no credit news" and "head at slot 0" can never be confused.
 */
final class NonisoFrame {
    static final byte KIND_DATA = 0x20;
    static final byte KIND_READ_RESPONSE = 0x21;
    static final byte KIND_CREDIT = 0x22;
    static final byte KIND_CREDIT_REQUEST = 0x23;
    static final byte KIND_BARRIER = 0x24;

    static final byte VERSION = 1;
    static final int FLAG_CREDIT = 0x01;

    /**
     * Control slots follow the data ring (the report puts them before it, Isotach report App. J, host_utils.h,
     * pp. 175-179; the order is ours).
     */
    static final int CONTROL_CREDIT = 0;
    static final int CONTROL_CREDIT_REQUEST = 1;
    static final int CONTROL_BARRIER = 2;

    static final int OFF_KIND = 0;
    static final int OFF_VERSION = 1;
    static final int OFF_FLAGS = 2;
    static final int OFF_RESERVED = 3;
    static final int OFF_SLOT = 4;
    static final int OFF_CREDIT = 8;
    static final int OFF_LENGTH = 16;
    static final int OFF_VALUE = 20;
    /** The read's slot at the reader (the report's lvar). */
    static final int OFF_READ_SLOT = 28;
    static final int OFF_PULSE = 32;
    static final int OFF_GENERATION = 16;

    static final int COMMON_LENGTH = 16;
    static final int DATA_LENGTH = 20;
    static final int READ_RESPONSE_LENGTH = 40;
    static final int CREDIT_LENGTH = COMMON_LENGTH;
    static final int CREDIT_REQUEST_LENGTH = COMMON_LENGTH;
    static final int BARRIER_LENGTH = 24;
    /** The longest frame; the transport must accept headers at least this long. */
    static final int MAX_LENGTH = READ_RESPONSE_LENGTH;

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private NonisoFrame() {
    }

    /** The header length a frame of {@code kind} must have, or -1 for a kind this module does not know. */
    static int lengthOf(byte kind) {
        return switch (kind) {
            case KIND_DATA -> DATA_LENGTH;
            case KIND_READ_RESPONSE -> READ_RESPONSE_LENGTH;
            case KIND_CREDIT -> CREDIT_LENGTH;
            case KIND_CREDIT_REQUEST -> CREDIT_REQUEST_LENGTH;
            case KIND_BARRIER -> BARRIER_LENGTH;
            default -> -1;
        };
    }

    /** Writes the common prefix; returns the offset where kind-specific fields start. */
    static int writePrefix(MemorySegment h, byte kind, boolean creditPresent, int slot, long credit) {
        h.set(ValueLayout.JAVA_BYTE, OFF_KIND, kind);
        h.set(ValueLayout.JAVA_BYTE, OFF_VERSION, VERSION);
        h.set(ValueLayout.JAVA_BYTE, OFF_FLAGS, creditPresent ? (byte) FLAG_CREDIT : 0);
        h.set(ValueLayout.JAVA_BYTE, OFF_RESERVED, (byte) 0);
        h.set(INT, OFF_SLOT, slot);
        h.set(LONG, OFF_CREDIT, creditPresent ? credit : 0L);
        return COMMON_LENGTH;
    }

    static byte kind(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, OFF_KIND);
    }

    static int flags(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, OFF_FLAGS) & 0xFF;
    }

    static int slot(MemorySegment h) {
        return h.get(INT, OFF_SLOT);
    }

    static long credit(MemorySegment h) {
        return h.get(LONG, OFF_CREDIT);
    }
}
