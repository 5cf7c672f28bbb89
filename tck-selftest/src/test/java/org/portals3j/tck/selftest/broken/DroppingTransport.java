package org.portals3j.tck.selftest.broken;

import java.lang.foreign.MemorySegment;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;

/**
 * {@code broken-drop}: silently loses every {@value #EVERY}nd data message to each peer (the 2nd, 4th, ...),
 * and reports the send as delivered, so the sender cannot tell. It breaks the contract's <em>reliable</em>
 * delivery; above it, Portals loses puts and replies the initiator believes were sent, and Isotach loses
 * messages that its end-of-pulse counts or its receivers' sequence checks expect.
 */
public final class DroppingTransport extends BrokenTransport {
    static final String NAME = "broken-drop";
    static final int EVERY = 2;

    DroppingTransport(Transport network) {
        super(NAME, network);
    }

    @Override
    protected boolean breaks(long n) {
        return n % EVERY == 0;
    }

    @Override
    protected void misbehave(int peer, MemorySegment header, int headerLength,
                             MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        complete(token, true);
    }

    /** Registered in {@code META-INF/services}. */
    public static final class Provider extends BrokenTransportProvider {
        public Provider() {
            super(NAME, "loses every second data message to a peer, reporting it delivered");
        }

        @Override
        protected Transport wrap(Transport network, EndpointConfig config) {
            return new DroppingTransport(network);
        }
    }
}
