package org.portals3j.transport.udp.internal.endpoint;

import java.lang.foreign.MemorySegment;
import org.portals3j.transport.Deposit;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.PollingHandler;
import org.portals3j.transport.Transport;

/**
 * The message handler as the endpoint calls it: a RuntimeException thrown by a callback is logged and the message
 * handled as far as it got; an Error goes on up (it fails the endpoint).
 */
final class UpperLayer {
    private static final System.Logger LOG = System.getLogger(UdpEndpoint.class.getName());

    private final int rank;
    private final MessageHandler handler;
    /** The handler, if it wants to hear when pollers leave. */
    private final @Nullable PollingHandler pollingHandler;

    UpperLayer(int rank, MessageHandler handler) {
        this.rank = rank;
        this.handler = handler;
        this.pollingHandler = handler instanceof PollingHandler p ? p : null;
    }

    /** {@link MessageHandler#onHeader}; false if it threw (the deposit then takes nothing). */
    boolean onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        try {
            handler.onHeader(source, header, headerLength, payloadLength, deposit);
            return true;
        } catch (RuntimeException e) {
            fault("onHeader", e);
            return false;
        }
    }

    void onDeposited(int source, Deposit deposit) {
        try {
            handler.onDeposited(source, deposit);
        } catch (RuntimeException e) {
            fault("onDeposited", e);
        }
    }

    /** {@link MessageHandler#onSendComplete}, unless {@code token} is {@link Transport#NO_NOTIFY}. */
    void onSendComplete(long token, boolean delivered) {
        if (token == Transport.NO_NOTIFY) {
            return;
        }
        try {
            handler.onSendComplete(token, delivered);
        } catch (RuntimeException e) {
            fault("onSendComplete", e);
        }
    }

    void onPeerFailure(int peer) {
        try {
            handler.onPeerFailure(peer);
        } catch (RuntimeException e) {
            fault("onPeerFailure", e);
        }
    }

    /** {@link PollingHandler#onPollersGone}, if the handler is one. */
    void onPollersGone() {
        PollingHandler p = pollingHandler;
        if (p == null) {
            return;
        }
        try {
            p.onPollersGone();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": message handler threw from onPollersGone", e);
        }
    }

    private void fault(String callback, RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "rank " + rank + ": message handler threw from " + callback
                + "; the message was handled as far as it got", e);
    }
}
