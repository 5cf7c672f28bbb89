package org.portals3j.transport;

import java.lang.foreign.MemorySegment;

/**
 * The upper layer's side of the two-phase receive. See {@link Transport} for the threading rules.
 *
 * <p>For every message the transport calls {@link #onHeader} once and then {@link #onDeposited} once,
 * for the same {@code source}, with no other message from that source in between (per-peer FIFO).
 * Messages from different sources may interleave between the two calls. A handler that wants to hear when polling
 * threads leave implements {@link PollingHandler} as well.
 */
public interface MessageHandler {

    /**
     * Phase one: a message's header has arrived. The handler inspects it and either calls
     * {@link Deposit#accept} to name where (and how many of) the payload bytes go, or leaves the deposit
     * discarded. Payload bytes beyond the accepted length are discarded by the transport.
     *
     * <p>The header segment is valid only during this call. The handler must treat its content as
     * hostile: it comes from the network.
     *
     * @param payloadLength the payload length the sender sent
     */
    void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit);

    /**
     * Phase two: the accepted payload bytes are in place (or the transfer failed:
     * {@link Deposit#failed()}). Called also for messages without payload and for discarded ones.
     */
    void onDeposited(int source, Deposit deposit);

    /**
     * A send completed: its payload region may be reused. {@code delivered} is false when the message
     * could not be delivered (peer failed, endpoint closed, payload unreadable).
     */
    void onSendComplete(long token, boolean delivered);

    /** A peer failed or left the job; later sends to it complete with {@code delivered == false}. */
    void onPeerFailure(int peer);

}
