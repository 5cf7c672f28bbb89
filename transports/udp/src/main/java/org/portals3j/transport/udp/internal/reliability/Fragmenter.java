package org.portals3j.transport.udp.internal.reliability;

/**
 * How a message is cut into datagrams: the first fragment carries the message header and as much
 * payload as fits after it; the others carry payload only; a message without payload is one fragment.
 * Pure arithmetic, shared by sender and tests.
 */
public final class Fragmenter {
    private Fragmenter() {
    }

    /**
     * The payload bytes of the next fragment of {@code message}, given {@code bodyCapacity} body bytes per
     * datagram.
     */
    public static int nextLength(OutgoingMessage message, int bodyCapacity) {
        long room = message.started ? bodyCapacity : bodyCapacity - message.headerLength;
        return (int) Math.min(room, message.payloadLength - message.fragmented);
    }

    /** The number of datagrams a message of these lengths takes. */
    public static long fragments(int headerLength, long payloadLength, int bodyCapacity) {
        long firstRoom = bodyCapacity - headerLength;
        if (payloadLength <= firstRoom) {
            return 1;
        }
        long rest = payloadLength - firstRoom;
        return 1 + (rest + bodyCapacity - 1) / bodyCapacity;
    }
}
