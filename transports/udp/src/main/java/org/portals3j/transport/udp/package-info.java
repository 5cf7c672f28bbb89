/**
 * Transport {@code udp}: reliable, exactly-once, per-peer FIFO messaging over UDP datagrams (system calls
 * through FFM, or {@link java.nio.channels.DatagramChannel}; see "The socket"), authenticated with the job key.
 * Options: {@link org.portals3j.transport.udp.UdpOptions}.
 *
 * <h2>Datagram layout</h2>
 * Every datagram is a fixed 124-byte little-endian header followed by a body (for DATA: the message
 * header on the first fragment, then payload bytes).
 * <table>
 * <caption>Header</caption>
 * <tr><th>Offset</th><th>Size</th><th>Field</th></tr>
 * <tr><td>0</td><td>4</td><td>magic "P3UD" (0x44553350)</td></tr>
 * <tr><td>4</td><td>1</td><td>version (5)</td></tr>
 * <tr><td>5</td><td>1</td><td>type (below)</td></tr>
 * <tr><td>6</td><td>2</td><td>flags: 1 FIRST, 2 LAST, 4 ABORT (DATA only)</td></tr>
 * <tr><td>8</td><td>4</td><td>job tag (first 4 bytes of SHA-256 of the job id)</td></tr>
 * <tr><td>12</td><td>4</td><td>source rank</td></tr>
 * <tr><td>16</td><td>4</td><td>destination rank</td></tr>
 * <tr><td>20</td><td>4</td><td>receive window the sender advertises (datagrams)</td></tr>
 * <tr><td>24</td><td>8</td><td>source incarnation (random per endpoint, published at the rendezvous)</td></tr>
 * <tr><td>32</td><td>8</td><td>destination incarnation</td></tr>
 * <tr><td>40</td><td>8</td><td>datagram counter (unique per sender; GMAC's IV)</td></tr>
 * <tr><td>48</td><td>8</td><td>sequence number (DATA)</td></tr>
 * <tr><td>56</td><td>8</td><td>cumulative ack: every sequence number below it was received</td></tr>
 * <tr><td>64</td><td>8</td><td>selective ack: bit i = cumAck + 1 + i was received</td></tr>
 * <tr><td>72</td><td>8</td><td>message payload length</td></tr>
 * <tr><td>80</td><td>8</td><td>payload offset of this fragment</td></tr>
 * <tr><td>88</td><td>2</td><td>message header length (FIRST only, at most 256)</td></tr>
 * <tr><td>90</td><td>2</td><td>duplicate report, signed: d &ne; 0 = the sender of this datagram received sequence
 *     number cumAck - d once more (each duplicate is reported once, in a standalone ACK or HEARTBEAT); 0 =
 *     none</td></tr>
 * <tr><td>92</td><td>4</td><td>body length</td></tr>
 * <tr><td>96</td><td>8</td><td>deposit failures: bit i = the message ending at cumAck - 1 - i failed at the
 *     receiver (its memory went away); its sender completes that send as not delivered</td></tr>
 * <tr><td>104</td><td>4</td><td>CRC32C of bytes [0, 104) and the body</td></tr>
 * <tr><td>108</td><td>16</td><td>MAC of bytes [0, 108) and the body</td></tr>
 * </table>
 * <table>
 * <caption>Types (every one carries the acknowledgement fields)</caption>
 * <tr><th>Type</th><th>Name</th><th>Sent</th><th>The receiver</th></tr>
 * <tr><td>1</td><td>DATA</td><td>a fragment of a message</td><td>delivers it in sequence order</td></tr>
 * <tr><td>2</td><td>ACK</td><td>when acknowledgements are due and no data goes back</td><td>applies them</td></tr>
 * <tr><td>3</td><td>HEARTBEAT</td><td>to a peer nothing was sent to for a heartbeat period</td><td>notes the sign
 *     of life</td></tr>
 * <tr><td>4</td><td>BYE</td><td>three times by {@code close()}, and when the endpoint fails</td><td>declares the
 *     sender dead at once</td></tr>
 * <tr><td>5</td><td>DEAD_NOTICE</td><td>in answer to a provably new datagram from a peer this endpoint declared
 *     dead, at most once a heartbeat period per peer</td><td>declares the sender dead at once, with a log line
 *     saying it was declared dead itself (see Liveness)</td></tr>
 * </table>
 *
 * <h2>Reliability</h2>
 * Each direction of each peer pair numbers its DATA datagrams from 0 (64-bit, never wraps). A message is
 * cut into fragments with consecutive sequence numbers; the sequence number is given when a fragment is
 * first sent. Every datagram carries the cumulative and a 64-bit selective acknowledgement plus the
 * receive window; a standalone ACK goes out when the receiving thread has drained its socket and data is
 * unacknowledged for {@code udp.ackDelayMicros}, after every 16 data datagrams, at once when a gap or a
 * duplicate shows the sender needs it. The sender keeps at most min(window, congestion window, receiver's
 * advertised room) fragments in flight; the congestion window grows per acknowledged fragment (slow start,
 * then one per window), because on a local network loss means an overrun kernel socket buffer.
 *
 * <p><b>Round trip and timeout.</b> Every fragment acknowledged for the first time that was sent only once
 * is a round-trip sample (Karn's rule: a retransmitted one is not). The retransmission timeout follows RFC
 * 6298 (alpha 1/8, beta 1/4, K = 4, doubling back-off), with two changes: alpha and beta are divided by the
 * number of fragments in flight, the samples expected per round trip (RFC 7323, appendix G), so that RTTVAR
 * keeps the spread of a whole round trip (under reordering or jitter, the late ones too); and the variance
 * term is at least {@code udp.rtoMinMicros} (RTO = SRTT + max(rtoMin, 4 RTTVAR), as Linux floors its
 * deviation at its minimum RTO), so that a steady round trip cannot bring the RTO down to SRTT itself. The
 * RTO is clamped to {@code [udp.rtoMinMicros, udp.rtoMaxMillis]}. When the oldest unacknowledged fragment
 * waited an RTO, the timer backs off, the congestion window collapses to 4 (the slow-start threshold to
 * half) and every fragment unacknowledged for an RTO is sent again.
 *
 * <p><b>Loss detection</b> is time-based, as RACK (RFC 8985, section 6.2): the sender remembers the most
 * recently sent fragment known delivered (cumulatively or selectively acknowledged; a retransmitted one only
 * if acknowledged no sooner than the minimum round trip after its retransmission, else the acknowledgement
 * was for an earlier copy) and its round trip, RACK.rtt. A fragment not acknowledged is lost when it was
 * sent (last sent) before that one and RACK.rtt plus the reordering window has passed since. It is then
 * retransmitted at once, whatever the windows; the first loss of a recovery halves the congestion window
 * and the recovery lasts until the cumulative ack passes what was sent at its start. A fragment that is not
 * lost yet but would be sets a timer that the endpoint runs. A lost retransmission is found the same way,
 * once a fragment sent after it arrives.
 *
 * <p><b>The reordering window</b> ({@code ReorderWindow}): until reordering has been seen it is a quarter of
 * the minimum round trip, and 0 once three fragments beyond a hole were selectively acknowledged or during a
 * recovery (so a loss on a network that does not reorder is repaired as soon as TCP's three duplicate acks
 * would). Reordering is seen when a fragment sent once is acknowledged after one with a higher sequence
 * number was: its delay beyond RACK.rtt at that moment is a measure of the reordering, and the window becomes
 * a quarter of the minimum round trip plus the largest such delay. A retransmission reported spurious (below)
 * also counts as reordering seen, and grows the window by a quarter of the minimum round trip, at most once
 * per round trip (until the cumulative ack passes what was sent when it grew; RFC 8985's D-SACK rule). The
 * window is at most SRTT. After 16 recoveries with no reordering seen, it starts over.
 *
 * <p><b>Undo.</b> A receiver that gets a DATA datagram it already has reports its sequence number once, in the
 * duplicate field of its next standalone acknowledgement (a second duplicate before that acknowledgement went
 * out sends it at once), as D-SACK does (RFC 2883). At the sender, a report for a fragment that was
 * retransmitted means one retransmission was not needed (RFC 3708); a report for one never retransmitted (a
 * copy made by the network) means nothing. A window cut (loss or timeout) opens an undo episode that remembers
 * the congestion window and threshold before it; each retransmission during the episode is counted in it, and
 * each report for a fragment whose last retransmission was counted in it discounts one. When none is left, every
 * retransmission of the episode was spurious: the congestion window and threshold go back to at least what
 * they were, the recovery ends and the RTO back-off is dropped (RFC 4015's response). A cut within an RTO of
 * the open episode's last retransmission joins that episode; a later one starts a new one (the open one had
 * its time, so something in it was really lost).
 *
 * <p>The receiver delivers in sequence order. An in-order fragment is processed straight from the
 * receive buffer: the first fragment's header goes to {@code onHeader}, whose {@code Deposit} names the
 * destination; each fragment's payload is copied from the datagram buffer into that destination (the only
 * copy) and bytes beyond the accepted length are dropped; the last fragment triggers {@code onDeposited}.
 * Out-of-order datagrams wait in pooled buffers, at most {@code udp.window} per peer, until the gap fills.
 * A sender whose payload memory is gone sends ABORT fragments: the receiver fails the deposit, the send
 * completes false. Messages carry at most 2^40 bytes of payload ({@code maxPayloadLength()}).
 *
 * <h2>Backpressure</h2>
 * The messages to one peer not yet acknowledged (queued, or with fragments in flight) are bounded by
 * {@code udp.sendQueueMessages} (default 4096) and {@code udp.sendQueueBytes} of payload (default 64 MiB; a
 * larger message goes when the queue is empty). Payloads are never copied, so the transport's memory grows with
 * the number of messages, the bytes bound keeps a stream's pinned memory in check, and both defaults are far above
 * what keeps the window full (1 MiB streaming with and without them: within the noise, bench/README.md).
 * <ul>
 * <li>A {@code send()} from an application thread that finds the queue full waits until acknowledgements make
 *     room, the peer is declared dead, or the endpoint closes; in the last two cases the send completes false, as
 *     every send to a dead peer or a closed endpoint does. Waits are counted ({@code sends.waited}); the most
 *     messages ever unacknowledged to one peer is {@code sendQueue.highWater}. A waiting thread is woken by the
 *     acknowledgements; should the receive path be unattended (its thread inside a callback outside it), the
 *     waiting thread runs it itself every 10 ms, as {@code poll()} would. An interrupt does not end the wait (the
 *     interrupt status is kept).</li>
 * <li>A {@code send()} from the thread that runs the receive path (the protocol thread, or an application
 *     thread inside {@code poll()}, i.e. from inside a handler callback) never waits: the acknowledgements it would
 *     wait for are processed by that very thread. It is admitted beyond the bound, up to four times
 *     {@code udp.sendQueueMessages}. Only a peer that keeps sending requests while it takes none of the responses
 *     can go beyond that: the send that would completes false, so does every later send to that peer, and the
 *     receive path declares the peer dead with a log line.</li>
 * </ul>
 * The Portals engine calls {@code send()} outside its own lock (a put or get holds only the per-peer channel lock,
 * which no handler takes; responses are sent from the receive path), and the Isotach layer sends holding no lock a
 * handler takes. Its one wait on a sender is Isotach's onPollersGone, which the protocol thread calls outside the
 * receive path and which waits for a flush in progress to end: the receive path is then unattended, and the
 * waiting flusher runs it itself (above), so the flush ends.
 *
 * <h2>Liveness</h2>
 * A HEARTBEAT goes to a peer nothing was sent to for {@code udp.heartbeatMillis} (default 1 s). The receive
 * path sends it on time; while the receive path is stuck (a handler call that lasts, such as one waiting for
 * the upper layer's lock) a timer thread sends it instead, with the acknowledgement state last published: it
 * sleeps half a heartbeat period at a time and acts only for peers nothing was sent to for one and a half
 * periods, so a rank whose process runs is never declared dead by its peers because its receive path is busy.
 *
 * <p>A peer from which nothing provably new (see Replay protection) was heard for {@code udp.peerTimeoutMillis}
 * (default 15 s: a GC pause or SIGSTOP of several seconds must not kill a job) of this endpoint's own running
 * time is dead: {@code onPeerFailure} once, every pending and queued send to it completes false, a message half
 * received from it ends with {@code deposit.fail()}, later sends complete false, and its datagrams are dropped
 * ({@code drop.deadPeer}). Time during which this endpoint's receive path did not run (its process stopped or
 * paused, its thread descheduled, a handler call) is not counted against its peers: it runs its timers at least
 * every min(heartbeat period, 1 s), and a longer gap moves every peer's silence clock forward by the excess
 * (counted as {@code stalls}), since the peers' datagrams may be waiting unread in the socket, or were lost when
 * it overflowed. {@code close()} sends BYE three times, so peers learn of an orderly exit at once.
 *
 * <p>Fail-stop: a peer declared dead stays dead for this endpoint; it is never readmitted (what was under way to
 * and from it has failed, and exactly-once FIFO delivery cannot resume after that). A rank stopped longer than
 * its peers' timeout (SIGSTOP, a debugger, a suspended machine) is declared dead by them. When it runs again,
 * each peer that declared it dead answers its first provably new datagram with a DEAD_NOTICE (then at most one
 * per heartbeat period), and the rank fails that peer at once, logging that this rank was declared dead for
 * having been silent longer than {@code udp.peerTimeoutMillis}; without the notice it would wait for its own
 * timeout, since those peers drop what it sends. A rank stopped for less than the timeout goes on as if nothing
 * happened.
 *
 * <h2>Failure of the endpoint</h2>
 * Anything that escapes the receive path or the heartbeat timer (an {@code Error} such as OutOfMemoryError, one
 * thrown by a handler, or a bug; a handler's RuntimeException is logged and the message handled as far as it
 * got) fails the endpoint at once, never silently: one ERROR log line with the cause, BYE to every peer (so they
 * learn at once), {@code onPeerFailure} for every peer with every pending and queued send completed false and
 * waiting senders released, and the endpoint counts as closed ({@code isPeerAlive(self)} false, later sends throw
 * IllegalStateException). An application thread inside {@code poll()} gets the Error rethrown; one inside
 * {@code send()}, which ran the receive path while it waited for room, does not: its send completes false.
 * {@code close()} still releases the socket.
 *
 * <h2>Authentication</h2>
 * Every datagram is checked in this order: length, magic, version, CRC32C, MAC, and only then its
 * fields (job tag, ranks, incarnations, type, flags, lengths and offsets against the message, header
 * length, acknowledgements against what was sent, sequence numbers against the window). Anything that
 * fails is dropped and counted ({@code drop.*} in {@code counters()}); no input can throw out of the
 * receive loop. The CRC covers the header up to it and the body as sent and is computed last; the MAC
 * covers the header up to the CRC and the body. By default ({@code udp.mac=auto}) every datagram carries an
 * AES-PMAC (Black-Rogaway PMAC, AES-128, 16-byte tag in the MAC field) keyed with a key derived from the job key
 * (HMAC-SHA256(job key, label)); the body goes as it is, not encrypted.
 *
 * <p>A message pays two MACs, one to seal and one to check: AES-PMAC is the cheapest authenticator here on small
 * and on 64 KB datagrams alike, and allocates nothing (the measurements: docs/udp-notes.md, bench/README.md).
 * {@code udp.mac=aes-pmac}, {@code aes-cmac}, {@code hmac-sha256}, {@code aes-gcm} (the body encrypted in place,
 * the header authenticated data; its IV is the sender's rank and the 64-bit datagram counter, which starts at a
 * random value per endpoint and is never reused) or {@code gmac} (AES-GMAC, which buffers and copies a 64 KB
 * datagram internally) force one algorithm, keyed with the job key.
 *
 * <p>The MAC protects against injection and spoofing by anyone who does not hold the job key, against
 * stray traffic of other jobs (a different key, and a job tag checked too) and of earlier incarnations of
 * an endpoint (incarnation ids), and against tampering in transit; the replay window below against replays.
 * It does not give confidentiality: payloads are visible on the network (only {@code udp.mac=aes-gcm} happens to
 * encrypt them, and no confidentiality is claimed for it either). It cannot stop a party
 * that holds the key (one could, for example, send a datagram counter far ahead and make a peer's later
 * datagrams look old), and it does not prevent denial of service by flooding (a flood costs a CRC, and a
 * MAC for datagrams that pass the CRC).
 *
 * <p><b>Integrity only, for private networks ({@code udp.mac=crc32c}, off by default).</b> With {@code
 * udp.mac=crc32c} and {@code udp.allowUnauthenticated=true} datagrams carry no MAC (the field is zero, and a
 * datagram whose field is not is dropped as {@code drop.mac}, so a rank configured otherwise is refused rather
 * than trusted); the CRC32C above is their only check, which catches corruption in transit and nothing else.
 * Nothing then authenticates a datagram: anyone who can send to the job's ports (any host on the network, any
 * process on the hosts) can inject datagrams that ranks act on (data delivered into memory a match list
 * exposes, acknowledgements that complete sends that never arrived, BYE that declares a rank dead), alter them
 * in transit, or replay captured ones with a new datagram counter (the replay window below only stops exact
 * copies). It is for networks where every host and process that can reach the job is trusted with its data
 * and its control, such as a cluster's private interconnect behind the job's own firewall; it buys the cost
 * of the MAC back (bench/README.md). {@code udp.mac=crc32c} alone is refused with a message saying this,
 * {@code portals info} shows it when {@code PORTALS_TRANSPORT_OPTIONS} selects it, and each endpoint logs a
 * warning when it opens.
 *
 * <h2>Replay protection</h2>
 * Every datagram, whatever its type, is acted on at most once. After the MAC and the field checks, and before
 * anything in it is acted on (acknowledgements, liveness, delivery, BYE, notices), its datagram counter
 * (offset 40, covered by the MAC) must be provably new: each endpoint keeps, per peer, a window over the
 * 16384 (2^14) counter values up to the highest
 * it accepted from that peer, as IPsec (RFC 4303, section 3.4.3) and DTLS (RFC 6347, section 4.1.2.6) do, kept
 * as a ring bitmap (RFC 6479; 2 KiB per peer). A counter above the highest is new and moves the window up; one
 * inside the window is new once; one seen before, or below the window, is dropped and counted
 * ({@code drop.replay}). Counters compare modulo 2^64: each endpoint starts its counter at a random value, and
 * it may wrap. The first datagram from a peer is new (it is authentic and names both current incarnations, so
 * the peer sent it to this endpoint). Only provably new datagrams refresh a peer's liveness: a captured
 * datagram replayed any number of times counts once, so a crashed rank is declared dead within
 * {@code udp.peerTimeoutMillis} whatever an attacker replays. (DATA sequence numbers still drop a
 * retransmission that arrives twice: it carries a new counter, and counts as {@code drop.duplicate}.)
 *
 * <p>Why this width. An endpoint has one counter for all its destinations, taken by several threads. Every
 * datagram to a given peer (data from application threads, acknowledgements, heartbeats, BYE and notices from
 * the receive path, heartbeats from the timer thread) takes its counter and enters the socket under that peer's
 * lock, so
 * datagrams to one peer leave in counter order and only the network can reorder them; but the counter values
 * between two datagrams to one peer include everything the sender sent to its other peers meanwhile. At the
 * fastest rate an endpoint sends here (~0.5 M datagrams/s, small messages), 16384 values are ~30 ms of
 * reordering, far more than a local network's, and more than {@code udp.fault.*} injects. A legitimate datagram
 * that arrives later than that is dropped as a lost one would be, and repaired the same way: DATA is
 * retransmitted (with a new counter), a later acknowledgement or heartbeat carries what a lost one did, and BYE
 * is sent three times.
 *
 * <h2>The socket</h2>
 * By default ({@code udp.io=auto}) the socket is driven by direct system calls through FFM ({@code recv} with
 * {@code MSG_DONTWAIT}, {@code sendto}, {@code poll} on the socket and an {@code eventfd}), without the JDK's
 * {@code DatagramChannel} locks, address objects and selector bookkeeping, which cost about 0.7 µs of each half
 * round trip on loopback (bench/README.md). It takes an IPv4 address on 64-bit Linux with native access enabled
 * ({@code --enable-native-access=ALL-UNNAMED} on the class path); anywhere else, or with {@code udp.io=channel},
 * the endpoint uses the {@code DatagramChannel}, with the same behaviour: a datagram longer than the receive
 * buffer is cut to it, a send that finds the socket buffer full drops the datagram (the retransmission timer
 * covers it), a failed bind reports the system's words ("Address already in use"). {@code udp.io=native} where
 * the native socket cannot be used fails, saying why.
 *
 * <h2>Datagram size and MTU</h2>
 * <table>
 * <caption>udp.datagramSize</caption>
 * <tr><th>Network</th><th>udp.datagramSize</th><th>payload bytes per datagram</th></tr>
 * <tr><td>loopback (default)</td><td>65000</td><td>64876</td></tr>
 * <tr><td>jumbo frames, MTU 9000</td><td>8972</td><td>8848</td></tr>
 * <tr><td>Ethernet, MTU 1500</td><td>1472</td><td>1348</td></tr>
 * </table>
 */
package org.portals3j.transport.udp;
