/**
 * The transport service-provider interface: what every layer above (Portals, Isotach, active
 * messages) assumes of a network, and what a transport author implements.
 *
 * <h2>Contract</h2>
 * A {@link org.portals3j.transport.Transport} is one endpoint (one rank) of a job. It gives
 * <b>reliable, exactly-once, per-peer FIFO delivery with message boundaries</b> &mdash; what Myrinet
 * gave the original Portals and Isotach implementations. A transport that cannot give this natively
 * (UDP) builds it.
 *
 * <ul>
 *   <li><b>Gather send.</b> {@link org.portals3j.transport.Transport#send} takes a small header and an
 *       optional payload region of a {@link java.lang.foreign.MemorySegment}; the payload is never
 *       staged through an intermediate array.</li>
 *   <li><b>Two-phase receive.</b> The transport first hands the header to
 *       {@link org.portals3j.transport.MessageHandler#onHeader}; the upper layer answers through the
 *       {@link org.portals3j.transport.Deposit} with a destination region, or discards; the transport
 *       then deposits the payload there and calls
 *       {@link org.portals3j.transport.MessageHandler#onDeposited}. This is what lets a large Put land
 *       straight in the target memory descriptor.</li>
 *   <li><b>Completion.</b> Every send with a token other than {@link org.portals3j.transport.Transport#NO_NOTIFY}
 *       is completed exactly once through {@link org.portals3j.transport.MessageHandler#onSendComplete}.</li>
 *   <li><b>Peer failure</b> is reported through {@link org.portals3j.transport.MessageHandler#onPeerFailure};
 *       sends towards a failed peer complete with {@code delivered == false}.</li>
 *   <li><b>Polling.</b> Application threads that wait may drive the receive path themselves
 *       ({@link org.portals3j.transport.Transport#poll}). A transport with a thread of its own takes it back when
 *       they stop ({@link org.portals3j.transport.Transport#pollingStopped} says so at once) and then tells the upper
 *       layer ({@link org.portals3j.transport.MessageHandler#onPollersGone}), which must not leave work for a
 *       polling thread that is gone.</li>
 *   <li><b>Idle strategy.</b> Every place a transport (or a layer above) waits uses an
 *       {@link org.portals3j.transport.IdleStrategy} chosen with {@link org.portals3j.transport.IdleMode}.</li>
 * </ul>
 *
 * Providers are found with {@link java.util.ServiceLoader} through {@link org.portals3j.transport.Transports}.
 */
package org.portals3j.transport;
