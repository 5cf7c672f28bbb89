package org.portals3j.tck.selftest.broken;

import java.lang.foreign.MemorySegment;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;

/**
 * {@code broken-duplicate}: delivers every {@value #EVERY}nd data message to each peer (the 2nd, 4th, ...)
 * twice, back to back; the copy carries the same header and payload, and its send completes only once, so the
 * sender cannot tell. It breaks the contract's <em>exactly-once</em> delivery.
 */
public final class DuplicatingTransport extends BrokenTransport {
    static final String NAME = "broken-duplicate";
    static final int EVERY = 2;

    DuplicatingTransport(Transport network) {
        super(NAME, network);
    }

    @Override
    protected boolean breaks(long n) {
        return n % EVERY == 0;
    }

    @Override
    protected void misbehave(int peer, MemorySegment header, int headerLength,
                             MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        // Copies first: the sender may reuse its payload as soon as the original's send completes.
        MemorySegment headerCopy = copyOf(header, 0, headerLength);
        MemorySegment payloadCopy = copyOf(payload, payloadOffset, payloadLength);
        network().send(peer, header, headerLength, payload, payloadOffset, payloadLength, token);
        if (headerCopy != null && payloadCopy != null) {
            network().send(peer, headerCopy, headerLength, payloadCopy, 0, payloadLength, NO_NOTIFY);
        }
    }

    /** Registered in {@code META-INF/services}. */
    public static final class Provider extends BrokenTransportProvider {
        public Provider() {
            super(NAME, "delivers every second data message to a peer twice");
        }

        @Override
        protected Transport wrap(Transport network, EndpointConfig config) {
            return new DuplicatingTransport(network);
        }
    }
}
