package org.portals3j.transport.udp.internal.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The fixed datagram header: offsets and accessors over a little-endian {@link ByteBuffer} (a flyweight:
 * nothing is copied or allocated). The layout is the table in the {@code org.portals3j.transport.udp}
 * package documentation; this class is its single source of truth.
 *
 * <p>Accessors use absolute indices, so they never move the buffer's position or limit.
 */
public final class DatagramHeader {
    /** "P3UD" read as a little-endian int. */
    public static final int MAGIC = 0x44553350;
    /**
     * 4: the reserved field carries the duplicate report, and the DEAD_NOTICE type (3 required the field to be 0;
     * 3 made AES-PMAC the default MAC of datagrams up to 8 KiB, 2 used AES-CMAC); mixed builds see a version drop.
     */
    public static final int VERSION = 5;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 5;
    public static final int FLAGS_OFFSET = 6;
    public static final int JOB_TAG_OFFSET = 8;
    public static final int SOURCE_OFFSET = 12;
    public static final int DESTINATION_OFFSET = 16;
    public static final int WINDOW_OFFSET = 20;
    public static final int SOURCE_INCARNATION_OFFSET = 24;
    public static final int DESTINATION_INCARNATION_OFFSET = 32;
    public static final int COUNTER_OFFSET = 40;
    public static final int SEQ_OFFSET = 48;
    public static final int CUM_ACK_OFFSET = 56;
    public static final int SACK_OFFSET = 64;
    public static final int MESSAGE_LENGTH_OFFSET = 72;
    public static final int FRAGMENT_OFFSET_OFFSET = 80;
    public static final int MESSAGE_HEADER_LENGTH_OFFSET = 88;
    /**
     * Duplicate report, a signed 16-bit distance {@code d}: the sender of this datagram received sequence number
     * {@code cumAck - d} once more than once since its last report; 0: nothing to report.
     */
    public static final int DUPLICATE_OFFSET = 90;
    public static final int BODY_LENGTH_OFFSET = 92;
    /**
     * Deposit failures: bit {@code i} set = the message whose last fragment is {@code cumAck - 1 - i}
     * could not be deposited at the sender of this datagram (its memory went away), so its send failed.
     */
    public static final int FAILED_OFFSET = 96;
    /** CRC32C over bytes {@code [0, CRC_OFFSET)} and the body as sent; computed last, checked first. */
    public static final int CRC_OFFSET = 104;
    /**
     * MAC (or AES-GCM tag) over bytes {@code [0, CRC_OFFSET)} and the body: the CRC is not covered, so
     * that it can be computed over the final (possibly encrypted) bytes.
     */
    public static final int MAC_OFFSET = 108;
    public static final int MAC_LENGTH = 16;
    /**
     * Room a datagram buffer keeps beyond the largest datagram: AES-GCM works on the body followed by its
     * tag, in place.
     */
    public static final int TRAILER_ROOM = 16;
    /** Header length: the body (message header, then payload bytes) starts here. */
    public static final int LENGTH = MAC_OFFSET + MAC_LENGTH;

    /** Flag: the first fragment of a message; its body starts with the message header. */
    public static final int FLAG_FIRST = 1;
    /** Flag: the last fragment of a message. */
    public static final int FLAG_LAST = 2;
    /**
     * Flag: the sender could not read this fragment's payload (its memory went away): the body carries
     * no payload and the message fails at the receiver.
     */
    public static final int FLAG_ABORT = 4;
    public static final int KNOWN_FLAGS = FLAG_FIRST | FLAG_LAST | FLAG_ABORT;

    private DatagramHeader() {
    }

    /** Makes sure {@code b} is little-endian (the layout's byte order); returns it. */
    public static ByteBuffer order(ByteBuffer b) {
        return b.order(ByteOrder.LITTLE_ENDIAN);
    }

    public static int magic(ByteBuffer b) {
        return b.getInt(MAGIC_OFFSET);
    }

    public static int version(ByteBuffer b) {
        return b.get(VERSION_OFFSET) & 0xff;
    }

    public static int type(ByteBuffer b) {
        return b.get(TYPE_OFFSET) & 0xff;
    }

    public static int flags(ByteBuffer b) {
        return b.getShort(FLAGS_OFFSET) & 0xffff;
    }

    public static int jobTag(ByteBuffer b) {
        return b.getInt(JOB_TAG_OFFSET);
    }

    public static int source(ByteBuffer b) {
        return b.getInt(SOURCE_OFFSET);
    }

    public static int destination(ByteBuffer b) {
        return b.getInt(DESTINATION_OFFSET);
    }

    public static int window(ByteBuffer b) {
        return b.getInt(WINDOW_OFFSET);
    }

    public static long sourceIncarnation(ByteBuffer b) {
        return b.getLong(SOURCE_INCARNATION_OFFSET);
    }

    public static long destinationIncarnation(ByteBuffer b) {
        return b.getLong(DESTINATION_INCARNATION_OFFSET);
    }

    public static long counter(ByteBuffer b) {
        return b.getLong(COUNTER_OFFSET);
    }

    public static long seq(ByteBuffer b) {
        return b.getLong(SEQ_OFFSET);
    }

    public static long cumAck(ByteBuffer b) {
        return b.getLong(CUM_ACK_OFFSET);
    }

    public static long sack(ByteBuffer b) {
        return b.getLong(SACK_OFFSET);
    }

    public static long messageLength(ByteBuffer b) {
        return b.getLong(MESSAGE_LENGTH_OFFSET);
    }

    public static long fragmentOffset(ByteBuffer b) {
        return b.getLong(FRAGMENT_OFFSET_OFFSET);
    }

    public static int messageHeaderLength(ByteBuffer b) {
        return b.getShort(MESSAGE_HEADER_LENGTH_OFFSET) & 0xffff;
    }

    /** The duplicate report's distance below the cumulative ack (0: none). */
    public static int duplicate(ByteBuffer b) {
        return b.getShort(DUPLICATE_OFFSET);
    }

    /** Sets the duplicate report's distance ({@link #write} leaves 0, no report). */
    public static void duplicate(ByteBuffer b, int distance) {
        b.putShort(DUPLICATE_OFFSET, (short) distance);
    }

    /**
     * The distance that reports {@code seq} as received again under cumulative ack {@code cumAck}, or 0 when
     * there is nothing to report ({@code seq} negative) or it is too far from the cumulative ack to say.
     */
    public static int duplicateDistance(long cumAck, long seq) {
        long d = cumAck - seq;
        return seq < 0 || d == 0 || d < Short.MIN_VALUE || d > Short.MAX_VALUE ? 0 : (int) d;
    }

    /** The sequence number a duplicate report names, or -1 for none. */
    public static long duplicateSeq(long cumAck, int distance) {
        return distance == 0 ? -1 : cumAck - distance;
    }

    public static int bodyLength(ByteBuffer b) {
        return b.getInt(BODY_LENGTH_OFFSET);
    }

    public static long failed(ByteBuffer b) {
        return b.getLong(FAILED_OFFSET);
    }

    /** Writes the acknowledgement fields (over what {@link #write} put there). */
    public static void writeAcknowledgement(ByteBuffer b, int window, long cumAck, long sack, long failed) {
        b.putInt(WINDOW_OFFSET, window);
        b.putLong(CUM_ACK_OFFSET, cumAck);
        b.putLong(SACK_OFFSET, sack);
        b.putLong(FAILED_OFFSET, failed);
    }

    /**
     * Writes every header field but the CRC and MAC (which {@link DatagramCodec#seal} adds once the body is
     * in place).
     */
    public static void write(ByteBuffer b, int type, int flags, int jobTag, int source, int destination,
                             int window, long sourceIncarnation, long destinationIncarnation, long counter,
                             long seq, long cumAck, long sack, long failed, long messageLength, long fragmentOffset,
                             int messageHeaderLength, int bodyLength) {
        b.putInt(MAGIC_OFFSET, MAGIC);
        b.put(VERSION_OFFSET, (byte) VERSION);
        b.put(TYPE_OFFSET, (byte) type);
        b.putShort(FLAGS_OFFSET, (short) flags);
        b.putInt(JOB_TAG_OFFSET, jobTag);
        b.putInt(SOURCE_OFFSET, source);
        b.putInt(DESTINATION_OFFSET, destination);
        b.putInt(WINDOW_OFFSET, window);
        b.putLong(SOURCE_INCARNATION_OFFSET, sourceIncarnation);
        b.putLong(DESTINATION_INCARNATION_OFFSET, destinationIncarnation);
        b.putLong(COUNTER_OFFSET, counter);
        b.putLong(SEQ_OFFSET, seq);
        b.putLong(CUM_ACK_OFFSET, cumAck);
        b.putLong(SACK_OFFSET, sack);
        b.putLong(MESSAGE_LENGTH_OFFSET, messageLength);
        b.putLong(FRAGMENT_OFFSET_OFFSET, fragmentOffset);
        b.putShort(MESSAGE_HEADER_LENGTH_OFFSET, (short) messageHeaderLength);
        b.putShort(DUPLICATE_OFFSET, (short) 0);
        b.putInt(BODY_LENGTH_OFFSET, bodyLength);
        b.putLong(FAILED_OFFSET, failed);
    }
}
