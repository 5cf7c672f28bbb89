package org.portals3j.tck.selftest.broken;

import java.lang.foreign.MemorySegment;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.Transport;

/**
 * {@code broken-none}: the wrapper of the broken transports with no fault at all. It is the control that shows
 * the wrapping itself (another provider name, the numbering of data messages) makes no chosen assertion fail,
 * so that what fails on the broken ones fails because of their fault.
 */
public final class PassThroughTransport extends BrokenTransport {
    static final String NAME = "broken-none";

    PassThroughTransport(Transport network) {
        super(NAME, network);
    }

    @Override
    protected boolean breaks(long n) {
        return false;
    }

    @Override
    protected void misbehave(int peer, MemorySegment header, int headerLength,
                             MemorySegment payload, long payloadOffset, long payloadLength, long token) {
        throw new AssertionError("broken-none breaks no message");
    }

    /** Registered in {@code META-INF/services}. */
    public static final class Provider extends BrokenTransportProvider {
        public Provider() {
            super(NAME, "breaks nothing: the control");
        }

        @Override
        protected Transport wrap(Transport network, EndpointConfig config) {
            return new PassThroughTransport(network);
        }
    }
}
