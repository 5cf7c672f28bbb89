package org.portals3j.transport.gm.internal.protocol;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The transport's header at the start of every GM message, little-endian (see the package documentation of
 * {@code org.portals3j.transport.gm} for the protocol). Static accessors over a segment: nothing is allocated.
 */
public final class WireHeader {
    /** Bytes of this header; the upper layer's header follows it, then an eager payload. */
    public static final int LENGTH = 48;

    /** u8: the message kind, one of the {@code KIND_*} values. */
    public static final int KIND = 0;
    /** u8: the protocol version, {@link #VERSION}. */
    public static final int VERSION_OFFSET = 1;
    /** u16: the upper layer's header length. */
    public static final int HEADER_LENGTH = 2;
    /** u32: receive buffers of the receiver's that the sender has reposted since its last report (credits). */
    public static final int CREDITS = 4;
    /** u32: per-peer sequence number of data messages (EAGER and RMA), from 0. */
    public static final int SEQUENCE = 8;
    /** u32: the sender's send slot: named again by the FIN of the message. */
    public static final int SLOT = 12;
    /** u64: payload length (EAGER, RMA); FIN: 1 if the payload was read, 0 if not. */
    public static final int PAYLOAD_LENGTH = 16;
    /** u64: RMA: the payload's address at the sender. */
    public static final int RMA_ADDRESS = 24;
    /** u64: RMA: the key of the registration that covers it. */
    public static final int RMA_KEY = 32;
    /**
     * u32: data messages (EAGER, RMA, UNREADABLE): a FIN riding on the message, for a message the receiver of this
     * one sent ({@link #fin}); {@link #NO_FIN} if none. 0 in control messages. Followed by 4 bytes of 0.
     */
    public static final int FIN = 40;

    /** The FIN field of a message that carries none. */
    public static final int NO_FIN = 0;

    public static final int VERSION = 1;

    /** Header and payload in one message. */
    public static final int KIND_EAGER = 1;
    /** Header and (address, key, length) of the payload, which the receiver reads. */
    public static final int KIND_RMA = 2;
    /** The receiver has deposited (or given up) a message's payload: the sender's slot completes. */
    public static final int KIND_FIN = 3;
    /** Credits only. */
    public static final int KIND_CREDIT = 4;
    /** The sender closes its endpoint. */
    public static final int KIND_BYE = 5;
    /**
     * Header and payload length only: the sender could not read the payload (its memory went away). The receiver
     * runs the two-phase receive and ends the message failed; the send completes not delivered.
     */
    public static final int KIND_UNREADABLE = 6;

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private WireHeader() {
    }

    /** Writes a whole header at {@code m}'s start ({@code fin}: {@link #fin}, or {@link #NO_FIN}). */
    public static void write(MemorySegment m, int kind, int headerLength, int credits, int sequence, int slot,
                             int fin, long payloadLength, long rmaAddress, long rmaKey) {
        m.set(ValueLayout.JAVA_BYTE, KIND, (byte) kind);
        m.set(ValueLayout.JAVA_BYTE, VERSION_OFFSET, (byte) VERSION);
        m.set(U16, HEADER_LENGTH, (short) headerLength);
        m.set(U32, CREDITS, credits);
        m.set(U32, SEQUENCE, sequence);
        m.set(U32, SLOT, slot);
        m.set(U64, PAYLOAD_LENGTH, payloadLength);
        m.set(U64, RMA_ADDRESS, rmaAddress);
        m.set(U64, RMA_KEY, rmaKey);
        m.set(U32, FIN, fin);
        m.set(U32, FIN + 4, 0);
    }

    /** The FIN field saying that the message from send slot {@code slot} was deposited ({@code read}) or not. */
    public static int fin(int slot, boolean read) {
        return (slot + 1) | (read ? 0x8000_0000 : 0);
    }

    /** The FIN field ({@link #NO_FIN} if the message carries none). */
    public static int finField(MemorySegment m) {
        return m.get(U32, FIN);
    }

    /** The send slot a FIN field names (the field is not {@link #NO_FIN}). */
    public static int finSlot(int fin) {
        return (fin & 0x7fff_ffff) - 1;
    }

    /** Whether the message a FIN field names was deposited. */
    public static boolean finRead(int fin) {
        return fin < 0;
    }

    public static int kind(MemorySegment m) {
        return m.get(ValueLayout.JAVA_BYTE, KIND) & 0xff;
    }

    public static int version(MemorySegment m) {
        return m.get(ValueLayout.JAVA_BYTE, VERSION_OFFSET) & 0xff;
    }

    public static int headerLength(MemorySegment m) {
        return m.get(U16, HEADER_LENGTH) & 0xffff;
    }

    /** Unsigned, as a non-negative long. */
    public static long credits(MemorySegment m) {
        return m.get(U32, CREDITS) & 0xffff_ffffL;
    }

    public static int sequence(MemorySegment m) {
        return m.get(U32, SEQUENCE);
    }

    /** Unsigned, as a non-negative long (checked against the slot table by the caller). */
    public static long slot(MemorySegment m) {
        return m.get(U32, SLOT) & 0xffff_ffffL;
    }

    public static long payloadLength(MemorySegment m) {
        return m.get(U64, PAYLOAD_LENGTH);
    }

    public static long rmaAddress(MemorySegment m) {
        return m.get(U64, RMA_ADDRESS);
    }

    public static long rmaKey(MemorySegment m) {
        return m.get(U64, RMA_KEY);
    }

    /**
     * Why the message of {@code received} bytes whose header is at {@code m}'s start is malformed, or null if it is
     * well formed. Remote input is hostile: every length is checked before it is used.
     */
    public static @Nullable String malformed(MemorySegment m, long received, int maxHeader, long maxPayload) {
        if (received < LENGTH) {
            return "message of " + received + " bytes is shorter than the " + LENGTH + "-byte header";
        }
        if (version(m) != VERSION) {
            return "protocol version " + version(m) + ", expected " + VERSION;
        }
        int kind = kind(m);
        int headerLength = headerLength(m);
        long payload = payloadLength(m);
        return switch (kind) {
            case KIND_EAGER -> headerLength > maxHeader ? "header of " + headerLength + " bytes"
                    : payload < 0 || payload != received - LENGTH - headerLength
                    ? "eager payload of " + payload + " bytes in a message of " + received : null;
            case KIND_RMA, KIND_UNREADABLE -> headerLength > maxHeader ? "header of " + headerLength + " bytes"
                    : received != LENGTH + headerLength ? "RMA message of " + received + " bytes"
                    : payload < 0 || payload > maxPayload ? "RMA payload of " + payload + " bytes" : null;
            case KIND_FIN, KIND_CREDIT, KIND_BYE -> headerLength != 0 || received != LENGTH
                    ? "control message of " + received + " bytes"
                    : finField(m) != NO_FIN ? "a FIN field in a control message" : null;
            default -> "unknown kind " + kind;
        };
    }
}
