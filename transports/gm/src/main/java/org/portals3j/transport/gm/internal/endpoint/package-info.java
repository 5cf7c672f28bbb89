/**
 * The gm endpoint, one class per role: {@link org.portals3j.transport.gm.internal.endpoint.GmEndpoint} (the
 * transport's face, its lifecycle under the state lock, and what the parts share), {@code PortSetup} (the port
 * opened, its buffers allocated and posted, the peers' names set), {@code SendPath} (a message staged, queued in a
 * slot, posted on a credit, completed on GM's return and the peer's FIN), {@code PeerFailures} (a peer failed once;
 * every send failed at close), {@code ReceivePath} (who runs the receive path: the polling hand-over and the progress
 * thread), {@code Receiver} (what gmx_poll's events start, and the close) and {@code ControlSender} (FIN, CREDIT and
 * BYE out). Per-peer state is in {@code Peer} and its {@code SendSlot}s; the protocol is described in the package
 * documentation of {@code org.portals3j.transport.gm}.
 *
 * <h2>Locks</h2>
 * Four kinds, always taken in this order, never the other way:
 * <ol>
 * <li>the receive path's lock ({@code ReceivePath}): held for a round of gmx_poll and its events, every handler
 *     callback included, and for the close; pollers and a sender waiting for room only {@code tryLock} it;</li>
 * <li>the endpoint's state lock ({@code GmEndpoint}), under which its {@code State} changes: {@code start} (the
 *     peers' names set, the receive path made), a send before it, and {@code close} (which lets go of it before taking
 *     anything else); the state is read without it;</li>
 * <li>one peer's lock ({@code Peer}, never two at once): its send slots, credits, waiting messages and unsent FINs. A
 *     sender waiting for room lets go of it before it looks at the receive path; the handler is never called under
 *     it (completions and failures are reported after it is released);</li>
 * <li>innermost, held only briefly and calling nothing of this package: the registration cache's monitor, the
 *     {@code GmPort}'s lock around each libgm call, {@code PortCloser}'s monitor.</li>
 * </ol>
 * Per message the peer locks are taken four times, once each: {@code SendPath.enqueue} at the sender,
 * {@code Receiver}'s {@code fin} when the receiver has the payload, {@code SendPath.creditsAndFin} when the FIN (and
 * any returned credits) arrive, {@code SendPath.dataSent} when GM gives the buffer back. A FIN that rides on no data
 * message adds the take in {@code ControlSender.sendFins}.
 */
package org.portals3j.transport.gm.internal.endpoint;
