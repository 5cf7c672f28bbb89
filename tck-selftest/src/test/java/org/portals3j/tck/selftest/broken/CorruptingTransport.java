package org.portals3j.tck.selftest.broken;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;

/**
 * {@code broken-corrupt}: inverts every bit of the last payload byte of every {@value #EVERY}nd data message
 * to each peer (the 2nd, 4th, ...), and delivers the message otherwise intact, as a link without a checksum
 * would. It breaks the contract's promise that the payload arrives as it was sent; the header is left alone so
 * that the damaged message still reaches the memory and the receiver it was meant for.
 */
public final class CorruptingTransport extends BrokenTransport {
    static final String NAME = "broken-corrupt";
    static final int EVERY = 2;

    CorruptingTransport(Transport network) {
        super(NAME, network);
    }

    @Override
    protected boolean breaks(long n) {
        return n % EVERY == 0;
    }

    @Override
    protected void misbehave(int peer, MemorySegment header, int headerLength,
                             MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        MemorySegment damaged = copyOf(payload, payloadOffset, payloadLength);
        if (damaged == null) {
            network().send(peer, header, headerLength, payload, payloadOffset, payloadLength, token);
            return;
        }
        long last = payloadLength - 1;
        damaged.set(ValueLayout.JAVA_BYTE, last, (byte) ~damaged.get(ValueLayout.JAVA_BYTE, last));
        network().send(peer, header, headerLength, damaged, 0, payloadLength, token);
    }

    /** Registered in {@code META-INF/services}. */
    public static final class Provider extends BrokenTransportProvider {
        public Provider() {
            super(NAME, "flips the last payload byte of every second data message to a peer");
        }

        @Override
        protected Transport wrap(Transport network, EndpointConfig config) {
            return new CorruptingTransport(network);
        }
    }
}
