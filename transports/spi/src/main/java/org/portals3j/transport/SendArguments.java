package org.portals3j.transport;

import java.lang.foreign.MemorySegment;

/**
 * The argument checks {@link Transport#send} promises, for transports to call first: each failure is an
 * {@link IllegalArgumentException} that names the bad argument and the limit it broke.
 */
public final class SendArguments {
    private SendArguments() {
    }

    /**
     * Checks that {@code peer} is a rank of a job of {@code size}, that {@code headerLength} bytes fit both
     * {@code maxHeader} and {@code header}, and that the payload region lies inside {@code payload} and is at most
     * {@code maxPayload} bytes ({@code provider} names the transport in that message).
     */
    public static void check(int peer, int size, MemorySegment header, int headerLength, int maxHeader,
                             MemorySegment payload, long payloadOffset, long payloadLength, long maxPayload,
                             String provider) {
        if (peer < 0 || peer >= size) {
            throw new IllegalArgumentException("peer " + peer + " is not a rank of this job (size " + size + ")");
        }
        if (headerLength < 0 || headerLength > maxHeader || headerLength > header.byteSize()) {
            throw new IllegalArgumentException("header length " + headerLength + " (max " + maxHeader + ", header of "
                    + header.byteSize() + " bytes)");
        }
        if (payloadOffset < 0 || payloadLength < 0 || payloadOffset > payload.byteSize() - payloadLength) {
            throw new IllegalArgumentException("payload region [" + payloadOffset + ", +" + payloadLength
                    + ") is outside a segment of " + payload.byteSize() + " bytes");
        }
        if (payloadLength > maxPayload) {
            throw new IllegalArgumentException("payload of " + payloadLength + " bytes; the " + provider
                    + " transport carries at most " + maxPayload);
        }
    }
}
