package org.portals3j.transport;

import java.lang.foreign.MemorySegment;

/**
 * The upper layer's side of the two-phase receive. See {@link Transport} for the threading rules.
 *
 * <p>For every message the transport calls {@link #onHeader} once and then {@link #onDeposited} once,
 * for the same {@code source}, with no other message from that source in between (per-peer FIFO).
 * Messages from different sources may interleave between the two calls.
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

    /**
     * No application thread polls this endpoint any more ({@link Transport#poll}): the polling stopped or was announced
     * to stop ({@link Transport#pollingStopped}). An upper layer that holds work back for its polling thread to finish
     * (Isotach's clock frames that wait to ride on a reply, the frames it hands to its host's thread on an inline
     * transport) must do it now: that thread may not come back. Called at most once per stretch of polling, by
     * transports that advertise {@link TransportCapability#REPORTS_POLLERS_GONE}: from the transport's own thread,
     * which has taken the receive path back (udp), or, on a transport without one (inmem), from the thread of another
     * endpoint that noticed, or from the thread that called {@code pollingStopped}; it may run concurrently with the
     * other callbacks. The default does nothing.
     */
    default void onPollersGone() {
    }
}
