package org.portals3j.transport.gm.internal.protocol;

/**
 * Which way a message goes: eager (header and payload in one GM message, copied through DMA-able buffers) up to
 * the threshold, RMA (the receiver reads the payload straight from the sender's memory) above it. A message whose
 * header and eager payload do not fit the largest preposted buffer goes by RMA too.
 */
public final class Threshold {
    private final long eagerLimit;
    private final SizeClasses sizes;

    /** {@code eagerLimit}: the largest payload sent eagerly. */
    public Threshold(long eagerLimit, SizeClasses sizes) {
        if (eagerLimit < 0) {
            throw new IllegalArgumentException("eager threshold " + eagerLimit + " is negative");
        }
        this.eagerLimit = eagerLimit;
        this.sizes = sizes;
    }

    /** Whether a message with this header and payload goes eagerly. */
    public boolean eager(int headerLength, long payloadLength) {
        return payloadLength <= eagerLimit && WireHeader.LENGTH + headerLength + payloadLength <= sizes.largestLength();
    }

    /** The index of the size class a message of this many bytes (wire header included) is sent with. */
    public int sizeIndex(long messageLength) {
        int index = sizes.indexFor(messageLength);
        if (index < 0) {
            throw new IllegalArgumentException("message of " + messageLength + " bytes fits no preposted buffer");
        }
        return index;
    }

    public long eagerLimit() {
        return eagerLimit;
    }
}
