/**
 * The {@code gm} transport: GM-style messaging (Myricom GM's API, re-implemented over libfabric 1.17 by libgm in
 * {@code native-shim/libgm}) bound through FFM. Each rank opens one GM port.
 *
 * <h2>Setting up</h2>
 * libgm is found through the system property {@code portals3j.gm.library}, the environment variable
 * {@code PORTALS3J_GM_LIBRARY}, else the class-path resource {@code native/linux-x86_64/libgm.so} of the native-gm
 * jar. It needs {@code libfabric1}; when the library or the provider is missing, {@code availability()} (what
 * {@code portals info} shows) and {@code open} say in one line what to install. Rank {@code r} has GM node id
 * {@code r + 1} (GM_NO_SUCH_NODE_ID is 0); it opens GM port {@code gm.port} (or the next free one), publishes
 * "{@code port:hex(gmx_endpoint_name)}" under {@code gm.address} through the job's rendezvous, and at
 * {@code start} gmx_set_peer's every rank's.
 *
 * <h2>Options</h2>
 * (see {@link org.portals3j.transport.gm.GmOptions}; the same on every rank)
 * <table class="striped">
 * <caption>Options</caption>
 * <tr><th>name</th><th>default</th><th>meaning</th></tr>
 * <tr><td>gm.provider</td><td>tcp, or the system property portals3j.gm.provider</td><td>libfabric provider: tcp
 *     (tcp;ofi_rxm), shm (same host), udp (udp;ofi_rxd), net</td></tr>
 * <tr><td>gm.address</td><td>the rendezvous' address, else 127.0.0.1</td><td>address to bind (not shm)</td></tr>
 * <tr><td>gm.port</td><td>2</td><td>GM port id tried first (0..7)</td></tr>
 * <tr><td>gm.eagerThreshold</td><td>8192</td><td>largest payload sent eagerly; above it, RMA</td></tr>
 * <tr><td>gm.credits</td><td>8</td><td>data messages one rank may have in another's buffers at once</td></tr>
 * <tr><td>gm.registrationCache</td><td>64</td><td>registrations of native payload memory kept for reuse</td></tr>
 * <tr><td>gm.ackTimeoutMillis</td><td>10000</td><td>a send not taken in this time fails: the peer failed</td></tr>
 * <tr><td>gm.keepaliveMillis</td><td>1000</td><td>a peer silent for 3 periods failed (0: never)</td></tr>
 * <tr><td>gm.strict</td><td>false</td><td>libgm acknowledges every message as well (GMX_STRICT); sends complete
 *     on the receiver's FIN either way</td></tr>
 * <tr><td>gm.rendezvousTimeoutMillis</td><td>30000</td><td>how long {@code start} waits for the peers'
 *     addresses</td></tr>
 * </table>
 *
 * <h2>Providers</h2>
 * {@code portals info} lists each with whether it works here ({@link GmTransportProvider#notes}). The whole
 * conformance kit runs in CI over tcp, shm and udp (GmKitTest); net is run by hand ({@code portals tck}).
 * <ul>
 * <li><b>tcp</b> (tcp;ofi_rxm, the default): no known limit for gm.</li>
 * <li><b>shm</b>: processes (and ports) of one host. It reads peers' memory by CMA (process_vm_readv), which
 *     containers without CAP_SYS_PTRACE block (libfabric issue #5495): set {@code FI_SHM_DISABLE_CMA=1} there.</li>
 * <li><b>udp</b> (udp;ofi_rxd): rxd never reports a dead peer and has no wait fd, and truncates silently
 *     (gm-libfabric.md sections 2.3 and 2.4). gm needs none of these: its keep-alives and FIN timeouts find failed
 *     peers, it waits by a bounded back-off, and exact-size receive buffers never truncate. The kit passed 3 runs
 *     of 3.</li>
 * <li><b>net</b>: libgm waits on it as on shm and udp, by a bounded back-off, never on the completion queue's
 *     file descriptor. libfabric 1.17's net answers {@code fi_trywait} with "safe to sleep" whatever it holds
 *     ({@code xnet_trywait} returns 0), and the descriptor it hands out is the epoll set of its sockets, which
 *     stays quiet for messages net has already read off a socket into its own buffer; so a sleep there lasted
 *     until a timer ended it (up to the progress thread's 100 ms). Upstream fixed {@code fi_trywait} in 1.18.1
 *     (libfabric issue #8947, PR #8981; the race of issue #9148 in PR #9153). With the descriptor the kit's token
 *     ring (PutGetInitiatorTest, P-310: 3 ranks, 300 trips, 10 s limit) took 7 to over 10 s over net and failed;
 *     without it, 3.1-3.7 s and passes. Neither {@code FI_NET_MAX_SAVED=64} nor
 *     {@code FI_NET_DISABLE_AUTO_PROGRESS=1} changed the first figure.</li>
 * </ul>
 *
 * <h2>Protocol</h2>
 * Every GM message starts with a 48-byte wire header ({@code internal.protocol.WireHeader}, little-endian): kind,
 * version, the upper layer's header length, credits returned, a per-peer sequence number, the sender's slot,
 * payload length, for RMA the payload's address and key, and a FIN riding on a data message. The upper layer's
 * header (at most 256 bytes) follows.
 * <ul>
 * <li><b>Eager</b> (payload at most {@code gm.eagerThreshold}, and the message fits the largest buffer): header
 *     and payload in one GM message at low priority, copied into a gm_dma_malloc'd send buffer (the only copy on
 *     the send side) and, at the receiver, out of the preposted buffer straight into the segment the handler's
 *     {@code Deposit.accept} named; then the receiver sends a FIN naming the sender's slot, which completes the
 *     send ({@code delivered} false if the payload could not be deposited). GM lets a sender use any size class at or
 *     above {@code gm_min_size_for_length(len)} (gm-libfabric.md section 1.2); every rank preposts three classes (9,
 *     12, and the smallest that holds the threshold) and a sender takes the smallest that fits.</li>
 * <li><b>RMA</b> (larger payloads): the message carries the header and (address, key, length) of the registered
 *     payload. The receiver runs {@code onHeader}, reposts the buffer, gmx_get's the accepted bytes straight into
 *     the destination segment, calls {@code onDeposited}, and sends a FIN naming the sender's slot, which
 *     completes the send ({@code delivered} false if the read failed). A native payload or destination is
 *     registered through a bounded registration cache ({@code gm.registrationCache} entries, least recently used
 *     evicted, uncached beyond); a heap one goes through a registered native bounce buffer made for that message
 *     (heap memory cannot back an asynchronous native operation). {@code counters()} has {@code bounceCopies}
 *     (heap payloads copied through a bounce buffer, at either end), {@code rmaPayloadsSent} and
 *     {@code rmaPayloadsRead}: a Put or Get between native MDs moves by RMA with no bounce copy. Until the read
 *     ends, later messages from that peer wait in their receive buffers: per-peer FIFO holds.</li>
 * <li><b>Order</b>: per-peer FIFO (the transport SPI's contract) rests on GM's order per port pair and priority
 *     (gm-libfabric.md section 1.5, R6): every data message goes at low priority from the rank's one port. libgm
 *     asks libfabric for send-after-send order ({@code FI_ORDER_SAS}) and, over tcp;ofi_rxm, holds a send behind
 *     one longer than rxm's eager buffer (gm.h says why). The wire header's sequence number checks it at the
 *     receiver: a message out of order is a protocol violation that fails the peer, never a silent reorder.</li>
 * <li><b>Credits</b> (flow control in the transport; GM's send timeouts only detect failure): a rank has
 *     {@code gm.credits} credits towards each peer and spends one per data message; the peer preposts that many
 *     buffers per size class for it and returns a credit per reposted buffer, on any data message it sends back or,
 *     once half are due, in a CREDIT message. A send without a credit waits in the peer's queue; an application
 *     thread's send blocks while {@code 2 * gm.credits} messages to that peer are in flight (running the receive
 *     path itself meanwhile when nobody else does), a send from a handler callback never blocks, and beyond
 *     {@code 4 * gm.credits} the peer counts as failed.</li>
 * <li><b>FIN</b>: rides on the next data message to the peer when there is one soon (a reply, typically: then the
 *     request's completion costs no message of its own), else goes alone as a control message: at the end of the
 *     progress thread's round, and for a FIN made by a polling application thread at the start of its next round,
 *     or the progress thread's when it takes over (at once when the thread announces it stops polling, within 4 ms
 *     when it just stops).</li>
 * <li><b>Control</b> (FIN, CREDIT, BYE): the wire header alone, at high priority, into buffers of their own
 *     (size class 6) that spend no credit; a rank preposts {@code 4 * gm.credits + 4} per peer and reposts each at
 *     once, and FINs beyond its control send buffers wait in a per-peer queue.</li>
 * <li><b>Failure</b>: GMX_PEER_FAILED (keep-alives unanswered, connection broken), a send or read that completes
 *     with an error, a BYE (the peer closed), or a protocol violation (any malformed, out-of-order or unexpected
 *     message: remote input is checked before use) make the peer failed: {@code onPeerFailure} once, its sends
 *     complete {@code false}, later ones too, {@code isPeerAlive} false, and its messages are dropped. {@code close}
 *     fails what is queued, sends BYE to every live peer (waiting at most a second for them to go), and closes the
 *     port, which releases the port's DMA memory with it. A killed peer, or one whose receive path is stuck (it
 *     answers no keep-alive), is failed about 3 keep-alive periods after it went silent; libgm watches a peer by
 *     keep-alives only once the two have exchanged a message, and before that a send to a silent peer fails by
 *     its timeout ({@code gm.ackTimeoutMillis}).</li>
 * </ul>
 *
 * <h2>Progress</h2>
 * The receive path (gmx_poll and every handler callback) runs on one thread at a time. While an application thread
 * waits for an event (PtlEQWait, Isotach's waits) it runs it itself through the polling hand-over
 * ({@link org.portals3j.transport.Polling}): gmx_poll without waiting, so the message it waits for is delivered on
 * its own thread, with no wake-up of another. Otherwise one platform thread per endpoint does, blocked in
 * {@code gmx_poll} (at most 100 ms at a time, so that the library's timers run; never a busy spin). It stays away
 * while application threads poll (looking again after 1 to 4 ms, or after 10 ms while a thread polls inside a wait:
 * {@code Polling.waitStarted} to {@code waitEnded}; {@code counters()} has {@code progressStayedAway}, how often it
 * looked and stayed away), takes over at once when they say they stop ({@code pollingStopped}, before they
 * park) and within 4 ms when they just stop, and then tells a {@link org.portals3j.transport.PollingHandler} that
 * the pollers have gone (capability REPORTS_POLLERS_GONE); a poller that finds it waiting in gmx_poll wakes it
 * ({@code gmx_wakeup}) to hand the receive path over. {@code close} wakes it too. The receive path allocates
 * nothing per message (the header views of the receive buffers are made once, events are read in place).
 */
package org.portals3j.transport.gm;
