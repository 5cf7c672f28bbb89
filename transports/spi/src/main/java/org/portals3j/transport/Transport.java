package org.portals3j.transport;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * One rank's endpoint of a job's network: reliable, exactly-once, per-peer FIFO delivery of
 * messages made of a small header and an optional payload.
 *
 * <h2>Threading</h2>
 * {@link #send} may be called from any number of threads at once. The handler's
 * {@link MessageHandler#onHeader}/{@link MessageHandler#onDeposited} calls for this endpoint are never
 * concurrent with each other; they may run on a transport thread, inside another thread's
 * {@link #send} call (the in-memory transport delivers inline), or inside a {@link #poll} call.
 * {@link MessageHandler#onSendComplete}
 * and {@link MessageHandler#onPeerFailure} may run on any thread, concurrently with the others, and may
 * run before {@code send} returns. An upper layer therefore never holds a lock of its own while it
 * calls {@code send}.
 */
public interface Transport extends AutoCloseable {

    /** Token meaning "do not report completion of this send". */
    long NO_NOTIFY = -1L;

    /** The provider's name ({@code inmem}, {@code udp}, ...). */
    String provider();

    /** This endpoint's rank in the job. */
    int rank();

    /** Number of ranks in the job. */
    int size();

    /** Largest header, in bytes, that {@link #send} accepts. */
    int maxHeaderLength();

    /** Largest payload, in bytes, of one message. */
    long maxPayloadLength();

    /**
     * Installs the handler and starts delivery to it. Messages that arrive before this call are held
     * (not dropped). May be called once.
     */
    void start(MessageHandler handler);

    /**
     * Sends one message to {@code peer} (which may be this rank itself).
     *
     * <p>The header bytes {@code [0, headerLength)} of {@code header} are taken before the call returns;
     * the caller may reuse the buffer at once. The payload region {@code [payloadOffset,
     * payloadOffset + payloadLength)} of {@code payload} is read without an intermediate copy, and must
     * stay unchanged until the send completes.
     *
     * <p>May block while the transport's queue of messages to {@code peer} is full (a bounded queue is its
     * backpressure), until there is room, the peer fails or the endpoint closes (then the send completes with
     * {@code delivered == false}); never when called from inside a handler callback (the thread that runs the
     * receive path), since only that thread could make room. A caller may therefore hold a lock while it sends only
     * if no handler callback ever waits for that lock.
     *
     * @param token passed back to {@link MessageHandler#onSendComplete}, or {@link #NO_NOTIFY}
     * @throws IllegalArgumentException if {@code peer} is not a rank of the job, the header is larger than
     *         {@link #maxHeaderLength()}, or the payload region lies outside {@code payload}
     * @throws IllegalStateException if this endpoint is closed
     */
    void send(int peer, MemorySegment header, int headerLength,
              MemorySegment payload, long payloadOffset, long payloadLength, long token);

    /**
     * Makes progress on the calling thread, without blocking: receives what has arrived and delivers it
     * through the handler, sends acknowledgements and retransmissions that are due. Returns whether it
     * did anything.
     *
     * <p>Upper layers call this while an application thread waits for an event (PtlEQWait) or polls for
     * one (PtlEQGet), so that the thread that wants a message takes it off the network itself: handing
     * it over from a transport thread costs a wake-up and, on a machine with two cores, a third thread
     * competing for them. A transport thread remains responsible whenever nobody polls. A transport that
     * delivers inline has nothing to receive here; it may still count the polls, to tell the handler when they
     * stop ({@link TransportCapability#REPORTS_POLLERS_GONE}), or keep the default, which does nothing. A call
     * from inside a handler callback does nothing.
     */
    default boolean poll() {
        return false;
    }

    /**
     * Says that the calling thread, which has been calling {@link #poll}, stops doing so for a while (it
     * is about to park). A transport that leaves its receive path to polling threads can take it back at
     * once, rather than when it notices that nobody polls any more: noticing means waking up now and
     * then to look, which costs the spinning threads of a 2-core machine their core. Other threads may
     * still poll. The default does nothing.
     */
    default void pollingStopped() {
    }

    /**
     * Whether {@code peer} is believed alive (false once {@link MessageHandler#onPeerFailure} reported it).
     * For this endpoint's own rank: whether the endpoint is open.
     */
    boolean isPeerAlive(int peer);

    /**
     * A snapshot of the endpoint's counters (datagrams sent, retransmitted, dropped by reason, ...), by
     * name, for diagnostics and tests. Names are the provider's; a transport with nothing to count
     * returns an empty map.
     */
    default Map<String, Long> counters() {
        return Map.of();
    }

    /**
     * Closes the endpoint. Messages still queued for it are discarded and their senders see a failed
     * completion; peers are told through {@link MessageHandler#onPeerFailure}.
     */
    @Override
    void close();
}
