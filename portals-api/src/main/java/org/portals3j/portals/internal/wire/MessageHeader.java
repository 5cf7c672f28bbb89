package org.portals3j.portals.internal.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Flyweight over one Portals message header. All five message types share one fixed layout; fields
 * a type does not carry are zero. Little-endian.
 *
 * <pre>
 * offset size field                 put  ack  get  reply getput  spec table
 *  0     1   version (= 1)
 *  1     1   message type            1    2    3    4     5
 *  2     1   interface (target NI)
 *  3     1   reserved (= 0)
 *  4     4   initiator nid           x    x    x    x     x     "initiator" (ack/reply: the put/get target)
 *  8     4   initiator pid           x    x    x    x     x
 * 12     4   user (uid)              x    x    x    x     x     "user"; ack/reply: the responder's uid
 * 16     4   target nid              x    x    x    x     x     "target"
 * 20     4   target pid              x    x    x    x     x
 * 24     4   portal index            x    x    x    x     x     echoed by ack and reply
 * 28     4   cookie (ACL index)      x         x          x
 * 32     8   match bits              x    x    x    x     x
 * 40     8   offset                  x    x    x    x     x
 * 48     8   memory desc (handle)    x    x    x    x     x     initiator's MD; 0 = PTL_MD_NONE (no ack);
 *                                                               getput: the MD the reply goes to
 * 56     8   (requested) length      x    x    x    x     x     getput: the payload, at most
 *                                                               {@link #MAX_GETPUT_LENGTH}
 * 64     8   manipulated length           x         x
 * 72     8   hdr_data                x                    x     missing from the spec's table
 * 80     8   exchange id             x    x    x    x     x     the initiator's operation token, echoed
 * 88         end
 * </pre>
 *
 * The exchange id is not in the spec's tables: it lets the initiator find the pending get a reply
 * answers without trusting anything else in the reply. GETPUT is not in the 3.2 spec: it is the
 * request of the Portals 3.3 reference implementation's {@code PtlGetPut} (its {@code PTL_MSG_GETPUT}),
 * a put whose target answers with a REPLY carrying the bytes the put replaced.
 */
public final class MessageHeader {
    public static final int VERSION = 1;
    public static final int LENGTH = 88;
    /**
     * The most payload a GETPUT carries: the Portals 3.3 reference implementation's {@code max_getput_md}
     * ({@code PTL_GETPUT_BUFLEN}, 64 bytes), which keeps the swap a copy of a few words under the target's lock.
     */
    public static final int MAX_GETPUT_LENGTH = 64;

    // Fields are read and written as little-endian views of a byte[]: an array access with one bounds
    // check, where a MemorySegment access also checks the segment's session and its kind.
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int VERSION_OFF = 0;
    private static final int TYPE_OFF = 1;
    private static final int INTERFACE_OFF = 2;
    private static final int RESERVED_OFF = 3;
    private static final int INITIATOR_NID_OFF = 4;
    private static final int INITIATOR_PID_OFF = 8;
    private static final int USER_OFF = 12;
    private static final int TARGET_NID_OFF = 16;
    private static final int TARGET_PID_OFF = 20;
    private static final int PORTAL_OFF = 24;
    private static final int COOKIE_OFF = 28;
    private static final int MATCH_BITS_OFF = 32;
    private static final int OFFSET_OFF = 40;
    private static final int MD_HANDLE_OFF = 48;
    private static final int LENGTH_OFF = 56;
    private static final int MLENGTH_OFF = 64;
    private static final int HDR_DATA_OFF = 72;
    private static final int EXCHANGE_OFF = 80;

    private byte[] bytes;
    private MemorySegment segment;

    /** A header with a buffer of its own ({@link #segment()}). */
    public MessageHeader() {
        this.bytes = new byte[LENGTH];
        this.segment = MemorySegment.ofArray(bytes);
    }

    /**
     * Points this flyweight at {@code buffer}: what is written through it lands there, what is read
     * comes from there.
     *
     * @param buffer a heap segment over a byte array, from its first byte, of at least {@link #LENGTH}
     *               bytes: {@link #allocate()} or {@code MemorySegment.ofArray(new byte[LENGTH])}
     * @throws IllegalArgumentException if it is not one
     */
    public MessageHeader wrap(MemorySegment buffer) {
        if (buffer.byteSize() < LENGTH) {
            throw new IllegalArgumentException("header buffer of " + buffer.byteSize() + " bytes < " + LENGTH);
        }
        if (!(buffer.heapBase().orElse(null) instanceof byte[] array) || buffer.address() != 0) {
            throw new IllegalArgumentException("a header buffer is a heap segment over a byte[] from its start,"
                    + " not " + buffer);
        }
        this.bytes = array;
        this.segment = buffer;
        return this;
    }

    /**
     * Copies a received header into this one's buffer: it is read from there, so a sender that changes
     * its bytes while they are being checked and used changes nothing (remote input is hostile).
     *
     * @param source at least {@link #LENGTH} bytes
     */
    public MessageHeader load(MemorySegment source) {
        MemorySegment.copy(source, ValueLayout.JAVA_BYTE, 0L, bytes, 0, LENGTH);
        return this;
    }

    /** The buffer this header is written to and read from, as a segment (to hand to a transport). */
    public MemorySegment segment() {
        return segment;
    }

    /** A heap buffer for one header. */
    public static MemorySegment allocate() {
        return MemorySegment.ofArray(new byte[LENGTH]);
    }

    // ---- writing -----------------------------------------------------------------------------

    /** Writes the fixed part and zeroes everything else. */
    public MessageHeader begin(MessageType type, int iface) {
        byte[] b = bytes;
        Arrays.fill(b, 0, LENGTH, (byte) 0);
        b[VERSION_OFF] = (byte) VERSION;
        b[TYPE_OFF] = (byte) type.code();
        b[INTERFACE_OFF] = (byte) iface;
        return this;
    }

    public MessageHeader initiator(int nid, int pid) {
        I32.set(bytes, INITIATOR_NID_OFF, nid);
        I32.set(bytes, INITIATOR_PID_OFF, pid);
        return this;
    }

    public MessageHeader user(int uid) {
        I32.set(bytes, USER_OFF, uid);
        return this;
    }

    public MessageHeader target(int nid, int pid) {
        I32.set(bytes, TARGET_NID_OFF, nid);
        I32.set(bytes, TARGET_PID_OFF, pid);
        return this;
    }

    public MessageHeader portal(int portal) {
        I32.set(bytes, PORTAL_OFF, portal);
        return this;
    }

    public MessageHeader cookie(int cookie) {
        I32.set(bytes, COOKIE_OFF, cookie);
        return this;
    }

    public MessageHeader matchBits(long bits) {
        I64.set(bytes, MATCH_BITS_OFF, bits);
        return this;
    }

    public MessageHeader offset(long offset) {
        I64.set(bytes, OFFSET_OFF, offset);
        return this;
    }

    public MessageHeader mdHandle(long handle) {
        I64.set(bytes, MD_HANDLE_OFF, handle);
        return this;
    }

    public MessageHeader length(long length) {
        I64.set(bytes, LENGTH_OFF, length);
        return this;
    }

    public MessageHeader manipulatedLength(long mlength) {
        I64.set(bytes, MLENGTH_OFF, mlength);
        return this;
    }

    public MessageHeader hdrData(long hdrData) {
        I64.set(bytes, HDR_DATA_OFF, hdrData);
        return this;
    }

    public MessageHeader exchange(long exchange) {
        I64.set(bytes, EXCHANGE_OFF, exchange);
        return this;
    }

    // ---- reading -----------------------------------------------------------------------------

    public int version() {
        return Byte.toUnsignedInt(bytes[VERSION_OFF]);
    }

    public int typeCode() {
        return Byte.toUnsignedInt(bytes[TYPE_OFF]);
    }

    public int iface() {
        return Byte.toUnsignedInt(bytes[INTERFACE_OFF]);
    }

    public int reserved() {
        return Byte.toUnsignedInt(bytes[RESERVED_OFF]);
    }

    public int initiatorNid() {
        return (int) I32.get(bytes, INITIATOR_NID_OFF);
    }

    public int initiatorPid() {
        return (int) I32.get(bytes, INITIATOR_PID_OFF);
    }

    public int user() {
        return (int) I32.get(bytes, USER_OFF);
    }

    public int targetNid() {
        return (int) I32.get(bytes, TARGET_NID_OFF);
    }

    public int targetPid() {
        return (int) I32.get(bytes, TARGET_PID_OFF);
    }

    public int portal() {
        return (int) I32.get(bytes, PORTAL_OFF);
    }

    public int cookie() {
        return (int) I32.get(bytes, COOKIE_OFF);
    }

    public long matchBits() {
        return (long) I64.get(bytes, MATCH_BITS_OFF);
    }

    public long offset() {
        return (long) I64.get(bytes, OFFSET_OFF);
    }

    public long mdHandle() {
        return (long) I64.get(bytes, MD_HANDLE_OFF);
    }

    public long length() {
        return (long) I64.get(bytes, LENGTH_OFF);
    }

    public long manipulatedLength() {
        return (long) I64.get(bytes, MLENGTH_OFF);
    }

    public long hdrData() {
        return (long) I64.get(bytes, HDR_DATA_OFF);
    }

    public long exchange() {
        return (long) I64.get(bytes, EXCHANGE_OFF);
    }

    /**
     * Checks a received header against everything the layout promises, before any field is trusted.
     *
     * @param headerLength  bytes the transport delivered
     * @param payloadLength payload bytes the transport delivered with it
     * @param interfaces    number of interfaces the receiver has
     * @return the message type, or null if the header is malformed
     */
    public @org.checkerframework.checker.nullness.qual.Nullable MessageType validate(
            int headerLength, long payloadLength, int interfaces) {
        if (headerLength != LENGTH || version() != VERSION || reserved() != 0 || iface() >= interfaces) {
            return null;
        }
        MessageType type = MessageType.of(typeCode());
        if (type == null) {
            return null;
        }
        long length = length();
        long mlength = manipulatedLength();
        // ptl_size_t is unsigned 64-bit, but no region in this implementation exceeds 2^63-1 bytes:
        // a length with the top bit set cannot be honest.
        if (length < 0 || mlength < 0 || offset() < 0) {
            return null;
        }
        boolean ok = switch (type) {
            case PUT -> payloadLength == length && mlength == 0;
            case GET -> payloadLength == 0 && mlength == 0;
            case ACK -> payloadLength == 0 && mlength <= length;
            case REPLY -> payloadLength == mlength && mlength <= length;
            case GETPUT -> payloadLength == length && mlength == 0 && length <= MAX_GETPUT_LENGTH;
        };
        return ok ? type : null;
    }
}
