/**
 * The transport service-provider interface: what the upper layer (the messaging engine that runs on an
 * endpoint) assumes of a network, and what a transport author implements.
 *
 * <h2>Contract</h2>
 * A {@link org.portals3j.transport.Transport} is one endpoint (one rank) of a job. It gives
 * <b>reliable, exactly-once, per-peer FIFO delivery with message boundaries</b>, as a Myrinet-class
 * network gives it. A transport whose network cannot give this natively (UDP) builds it.
 *
 * <ul>
 *   <li><b>Gather send.</b> {@link org.portals3j.transport.Transport#send} takes a small header and an
 *       optional payload region of a {@link java.lang.foreign.MemorySegment}; the payload is never
 *       staged through an intermediate array.</li>
 *   <li><b>Two-phase receive.</b> The transport first hands the header to
 *       {@link org.portals3j.transport.MessageHandler#onHeader}; the upper layer answers through the
 *       {@link org.portals3j.transport.Deposit} with a destination region, or discards; the transport
 *       then deposits the payload there and calls
 *       {@link org.portals3j.transport.MessageHandler#onDeposited}. This is what lets a large message land
 *       straight in the memory the upper layer chose for it.</li>
 *   <li><b>Completion.</b> Every send with a token other than {@link org.portals3j.transport.Transport#NO_NOTIFY}
 *       is completed exactly once through {@link org.portals3j.transport.MessageHandler#onSendComplete}.</li>
 *   <li><b>Peer failure</b> is reported through {@link org.portals3j.transport.MessageHandler#onPeerFailure};
 *       sends towards a failed peer complete with {@code delivered == false}.</li>
 *   <li><b>Capabilities</b> are asked of the endpoint ({@link org.portals3j.transport.Transport#capabilities}),
 *       never looked up again through its provider's name.</li>
 *   <li><b>Polling</b>, an optional interface of the endpoint. Application threads that wait may drive the receive
 *       path themselves ({@link org.portals3j.transport.Polling#poll}). A transport with a thread of its own takes it
 *       back when they stop ({@link org.portals3j.transport.Polling#pollingStopped} says so at once) and then tells
 *       the upper layer ({@link org.portals3j.transport.PollingHandler#onPollersGone}), which must not leave work for
 *       a polling thread that is gone. A transport without it does not mention polling; callers reach it through
 *       {@link org.portals3j.transport.Polling#of}.</li>
 *   <li><b>Idle strategy.</b> Every place a transport (or a layer above) waits uses an
 *       {@link org.portals3j.transport.IdleStrategy} chosen with {@link org.portals3j.transport.IdleMode}.</li>
 * </ul>
 *
 * Providers are found with {@link java.util.ServiceLoader} through {@link org.portals3j.transport.Transports}.
 *
 * <h2>The job an endpoint belongs to</h2>
 * A provider opens an endpoint for one rank of a {@link org.portals3j.transport.Job}: {@code N} ranks, each with a
 * process id ({@code nid, pid}: the addressing the upper layer uses) and a user id
 * ({@link org.portals3j.transport.JobMember}); the
 * {@link org.portals3j.transport.PeerTable} maps ranks to process ids and back, and the
 * {@link org.portals3j.transport.JobKey} is the secret the ranks share. Endpoints exchange their addresses through a
 * {@link org.portals3j.transport.Rendezvous} ({@link org.portals3j.transport.LocalRendezvous} within one JVM; the job
 * runtime, {@code org.portals3j.runtime}, provides the TCP one). These types are part of the SPI, not of the runtime
 * that starts jobs, so that this package depends on no other.
 *
 * <p><b>Node ids.</b> A node id names an endpoint of the fabric: the runtime gives rank {@code r} the
 * node id {@code r}. A transport therefore routes by the node id only and never looks at a pid: the upper
 * layer at the target checks the pid on arrival, which is what lets a process take a well-known pid without
 * telling anyone.
 */
package org.portals3j.transport;
