package org.portals3j.isotach.internal.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The engine's frames on the transport (kinds 0x01-0x1F; 0x20-0x2F belong to the noniso module). Every frame
 * starts with {@code kind (1) | version (1)}; fields are little-endian at fixed offsets. Headers come from the
 * network: {@link #check} validates kind, version and length before anything is read.
 *
 * <pre>
 * SYNC       kind | ver | phase(1) | pad | nonisoSlots(4) | isoCredits(4)                              = 12
 * CLOCK      kind | ver | pad(6) | clock section(48)                                                  = 56
 * BARRIER_SIGNAL_MARKER kind | ver | bits(1) | count(1) | flags(4): BARRIER_SIGNAL_AUTOMATIC          = 8
 * ISO        kind | ver | subtype(1) | prefix(1) | isoId(1) | creditPresent(1) | pad(2) | ts(8) |
 *            credit(8) | slot(4) | length(4) | address(8) | operand(8) | clock section(48)          = 96, + payload
 * ISO_CREDIT kind | ver | pad(6) | freed(8)                                                             = 16
 * LEAVE      kind | ver | pad(2) | host(4)                                                              = 8
 *
 * clock section: flags(1): HAS_TOKEN, HAS_MARK, HAS_NEED, ACK_NOW | tokenBits(1) | tokenRun(1) | pad(5) |
 *                tokenPulse(8) | effectPulse(8) | mark(8) | seen(8) | need(8)                           = 48
 * </pre>
 *
 * The ISO frame is the report's iso-pointer and ordered packet in one (its future-work item, Isotach report §11.3,
 * pp. 89-91): the payload travels with the ordering information, so a message is one transport message, not two.
 *
 * <p>The emulated hardware's own traffic (a token from the TM, a pulse mark between SIUs, a wake-up to the TM) is a
 * {@link ClockSection}: it rides behind an ISO packet still waiting in the sender's outbox for the same link, or
 * goes alone in a CLOCK frame. Either way it is applied right after everything sent before it on that link, which
 * is all the contract's per-link FIFO (Isotach report §1.1.2, p. 1) asks of it.
 */
public final class Frame {
    /**
     * 2: token, pulse mark and wake-up became one clock section, alone or behind an ISO packet. 3: a section carries a
     * run of consecutive tokens ({@link ClockSection#tokenRun}).
     */
    public static final byte VERSION = 3;

    public static final byte SYNC = 0x01;
    public static final byte CLOCK = 0x02;
    /** A bs-marker (the report's barrier/signal marker) on its way to the token manager. */
    public static final byte BARRIER_SIGNAL_MARKER = 0x04;
    public static final byte ISO = 0x06;
    public static final byte ISO_CREDIT = 0x07;
    public static final byte LEAVE = 0x08;

    public static final int SYNC_LENGTH = 12;
    public static final int CLOCK_LENGTH = 8 + ClockSection.LENGTH;
    public static final int BARRIER_SIGNAL_MARKER_LENGTH = 8;
    public static final int ISO_LENGTH = 48 + ClockSection.LENGTH;
    public static final int ISO_CREDIT_LENGTH = 16;
    public static final int LEAVE_LENGTH = 8;
    /** The longest engine frame header. */
    public static final int MAX_LENGTH = ISO_LENGTH;

    /** Bs-marker flag: a barrier participation made automatically by a host that has not registered the channel. */
    public static final int BARRIER_SIGNAL_AUTOMATIC = 1;

    // ISO frame prefix bits (Isotach report App. B.1, pp. 104-107): SOI = SEQ_CON | LOG_TS (| SEQ_CON_SET alternating),
    // EOI.
    /** The report's EOI: the isochron's last net packet. */
    public static final int PREFIX_END_OF_ISOCHRON = 0x20;
    /** The report's SEQ_CON_SET: alternates from one net-isochron to the next. */
    public static final int PREFIX_SEQUENTIAL_CONSISTENCY_SET = 0x08;
    /** The report's SEQ_CON. */
    public static final int PREFIX_SEQUENTIAL_CONSISTENCY = 0x04;
    /** The report's LOG_TS. */
    public static final int PREFIX_LOGICAL_TIMESTAMP = 0x02;
    /** The report's SOI: the isochron's first net packet. */
    public static final int PREFIX_START_OF_ISOCHRON = PREFIX_SEQUENTIAL_CONSISTENCY | PREFIX_LOGICAL_TIMESTAMP;

    // offsets
    public static final long O_BYTE2 = 2;
    public static final long O_BYTE3 = 3;
    public static final long O_BYTE4 = 4;
    public static final long O_BYTE5 = 5;
    public static final long O_INT4 = 4;
    public static final long O_INT8 = 8;
    public static final long O_LONG4 = 4;
    public static final long O_LONG8 = 8;
    public static final long O_LONG12 = 12;
    /** The report's TS: the pulse the SIU stamped the packet with. */
    public static final long O_ISO_TIMESTAMP = 8;
    public static final long O_ISO_CREDIT = 16;
    public static final long O_ISO_SLOT = 24;
    public static final long O_ISO_LENGTH = 28;
    public static final long O_ISO_ADDRESS = 32;
    public static final long O_ISO_OPERAND = 40;
    public static final long O_ISO_CLOCK = 48;
    public static final long O_CLOCK = 8;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Frame() {
    }

    /** Where the clock section of a frame of {@code kind} starts, or -1 when the kind carries none. */
    public static long clockOffset(byte kind) {
        return kind == ISO ? O_ISO_CLOCK : kind == CLOCK ? O_CLOCK : -1;
    }

    /** Whether {@code kind} is one of the engine's. */
    public static boolean engineKind(byte kind) {
        return kind >= SYNC && kind <= LEAVE;
    }

    /** The exact header length of a frame of {@code kind}, or -1 for an unknown kind. */
    public static int lengthOf(byte kind) {
        return switch (kind) {
            case SYNC -> SYNC_LENGTH;
            case CLOCK -> CLOCK_LENGTH;
            case BARRIER_SIGNAL_MARKER -> BARRIER_SIGNAL_MARKER_LENGTH;
            case ISO -> ISO_LENGTH;
            case ISO_CREDIT -> ISO_CREDIT_LENGTH;
            case LEAVE -> LEAVE_LENGTH;
            default -> -1;
        };
    }

    /** Whether a received header is a well-formed engine frame (kind known, version ours, exact length). */
    public static boolean check(MemorySegment h, int length) {
        if (length < 2) {
            return false;
        }
        byte kind = h.get(ValueLayout.JAVA_BYTE, 0);
        return lengthOf(kind) == length && h.get(ValueLayout.JAVA_BYTE, 1) == VERSION;
    }

    public static void start(MemorySegment h, byte kind) {
        h.set(ValueLayout.JAVA_BYTE, 0, kind);
        h.set(ValueLayout.JAVA_BYTE, 1, VERSION);
    }

    public static byte kind(MemorySegment h) {
        return h.get(ValueLayout.JAVA_BYTE, 0);
    }

    public static int u8(MemorySegment h, long offset) {
        return h.get(ValueLayout.JAVA_BYTE, offset) & 0xFF;
    }

    public static void u8(MemorySegment h, long offset, int value) {
        h.set(ValueLayout.JAVA_BYTE, offset, (byte) value);
    }

    public static int i32(MemorySegment h, long offset) {
        return h.get(INT, offset);
    }

    public static void i32(MemorySegment h, long offset, int value) {
        h.set(INT, offset, value);
    }

    public static long i64(MemorySegment h, long offset) {
        return h.get(LONG, offset);
    }

    public static void i64(MemorySegment h, long offset, long value) {
        h.set(LONG, offset, value);
    }
}
