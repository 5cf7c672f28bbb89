package org.portals3j.isotach.internal.siu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The isochron an SIU is receiving from its host: its packets from the start (SOI) to the end (EOI), held in arrival
 * order until the end arrives and they are stamped; at most as many as the host's Isotach send buffer holds.
 */
final class OpenIsochron extends CacheLinePadding {
    private final int[] destination;
    private final int[] subtype;
    private final int[] prefix;
    private final int[] isochronId;
    private final int[] slot;
    private final int[] length;
    private final long[] address;
    private final long[] operand;
    private final boolean[] creditPresent;
    private final long[] credit;
    private final MemorySegment[] payload;
    private final long[] payloadOffset;
    private final long[] completionToken;
    private int packets;
    /** The largest logical distance from this host to a destination of the isochron. */
    private int maxDistance;

    OpenIsochron(int capacity) {
        destination = new int[capacity];
        subtype = new int[capacity];
        prefix = new int[capacity];
        isochronId = new int[capacity];
        slot = new int[capacity];
        length = new int[capacity];
        address = new long[capacity];
        operand = new long[capacity];
        creditPresent = new boolean[capacity];
        credit = new long[capacity];
        payload = new MemorySegment[capacity];
        Arrays.fill(payload, MemorySegment.NULL);
        payloadOffset = new long[capacity];
        completionToken = new long[capacity];
    }

    /**
     * Holds one packet for {@code dest}, {@code distance} away. {@code payload} must stay unchanged until
     * {@code token} completes.
     *
     * @throws IllegalStateException when the isochron is longer than the host's send buffer
     */
    void add(int dest, int distance, int packetSubtype, int packetPrefix, int isoId, int receiveSlot, int packetLength,
             long sharedAddress, long packetOperand, boolean hasCredit, long freedCount, MemorySegment data,
             long dataOffset, long token) {
        int i = packets;
        if (i == destination.length) {
            throw new IllegalStateException("isochron longer than the Isotach send buffer (" + i + " packets)");
        }
        destination[i] = dest;
        subtype[i] = packetSubtype;
        prefix[i] = packetPrefix;
        isochronId[i] = isoId;
        slot[i] = receiveSlot;
        length[i] = packetLength;
        address[i] = sharedAddress;
        operand[i] = packetOperand;
        creditPresent[i] = hasCredit;
        credit[i] = freedCount;
        if (payload[i] != data) {
            payload[i] = data; // only when it changes (the host's send buffer: see Outbox on reference stores)
        }
        payloadOffset[i] = dataOffset;
        completionToken[i] = token;
        packets = i + 1;
        maxDistance = Math.max(maxDistance, distance);
    }

    /** Packets held. */
    int size() {
        return packets;
    }

    boolean isEmpty() {
        return packets == 0;
    }

    int maxDistance() {
        return maxDistance;
    }

    /** The isochron's id (its first packet's: the host writes it in every packet). */
    int isochronId() {
        return isochronId[0];
    }

    int destination(int i) {
        return destination[i];
    }

    MemorySegment payload(int i) {
        return payload[i];
    }

    long payloadOffset(int i) {
        return payloadOffset[i];
    }

    int length(int i) {
        return length[i];
    }

    long completionToken(int i) {
        return completionToken[i];
    }

    /** Writes packet {@code i} as an ISO frame stamped {@code ts}, with an empty clock section, into {@code frame}. */
    void writeIsoFrame(int i, MemorySegment frame, long ts) {
        Frame.start(frame, Frame.ISO);
        Frame.u8(frame, Frame.O_BYTE2, subtype[i]);
        Frame.u8(frame, Frame.O_BYTE3, prefix[i]);
        Frame.u8(frame, Frame.O_BYTE4, isochronId[i]);
        Frame.u8(frame, Frame.O_BYTE5, creditPresent[i] ? 1 : 0);
        Frame.i64(frame, Frame.O_ISO_TIMESTAMP, ts);
        Frame.i64(frame, Frame.O_ISO_CREDIT, credit[i]);
        Frame.i32(frame, Frame.O_ISO_SLOT, slot[i]);
        Frame.i32(frame, Frame.O_ISO_LENGTH, length[i]);
        Frame.i64(frame, Frame.O_ISO_ADDRESS, address[i]);
        Frame.i64(frame, Frame.O_ISO_OPERAND, operand[i]);
        ClockSection.clear(frame, Frame.O_ISO_CLOCK);
    }

    /** Forgets the packets (they have been stamped and queued). */
    void clear() {
        packets = 0;
        maxDistance = 0;
    }
}
