/**
 * The Isotach report's non-Isotach protocols (noniso message passing, Protocol 1, Isotach report §3.1.1,
 * pp. 8-9; §3.1.2, pp. 8-9; the noniso n x n barrier, Protocol 2, Isotach report §3.2, pp. 9-10; §6.3, pp. 45-47;
 * specific sender-based flow control, §3.1, Isotach report §3.6.1, pp. 20-23; §7.1, pp. 59-62) as one
 * module the engine drives: {@link org.portals3j.isotach.internal.noniso.NonisoLayer}. Frames of kinds 0x20-0x2F belong
 * to it.
 *
 * <h2>Emulating the report's DMA</h2>
 * Each host reserves, for each peer, a receive ring of {@code config.nonisoSlotsPerPeer()} slots of
 * {@code maxPayload} bytes in one off-heap region (the report's pinned noniso region, Isotach report §4.1, pp. 26-30,
 * §3.5). The SENDER chooses the slot of every data packet (the report's DMA base = {@code remote_t[j]},
 * Isotach report §7.1.3, pp. 59-62) and writes it in the frame; the receiver ({@link
 * org.portals3j.isotach.internal.noniso.NonisoFrameReceiver}) checks that it is exactly the next slot of that sender's
 * ring and deposits the payload straight into it (two-phase receive: no copy). Credit, credit-request and barrier
 * frames name control slots beyond the ring and never consume ring credits (Isotach report §3.2.1, pp. 9-10; §5.4,
 * pp. 36-37; App. J, host_utils.h, pp. 175-179; I-102).
 *
 * <h2>Threads</h2>
 * Host state (send_buf, delivery_q, credits the host owns, the barrier) is touched only by the API methods and
 * {@code poll()}, on the application thread, one call at a time. The transport callbacks (the receiver's
 * {@code onHeader} and {@code onDeposited}, the layer's {@code onSendComplete} and {@code onPeerFailure}) touch
 * only their own state and hand the rest over: data-ring arrivals through a preallocated bounded queue
 * ({@link org.portals3j.isotach.internal.noniso.HandoffQueue}, the report's niu_delivery_q), control frames through
 * per-peer atomics ({@link org.portals3j.isotach.internal.noniso.NonisoPeerState}: highest credit heard, credit
 * request pending, barrier generation reached) that the host reads in {@code poll()}. Control frames carry state,
 * not events, so they need no queue slot and cannot overflow one however often a peer sends them.
 *
 * <h2>Counters instead of pointers</h2>
 * The report's head and tail pointers ({@code remote_t}, {@code remote_h}, {@code receive_h},
 * {@code receive_last_h}) are kept as counters that never wrap (slot = counter mod ring), and piggybacked credit
 * carries an explicit "present" flag instead of the NULL_CREDIT = 0 encoding (our choice: the
 * listing's NULL_CREDIT = 0, App. J, collides with a credit count of 0).
 *
 * <h2>Fixed listing bugs (where the listing, App. J, disagrees with the report's prose)</h2>
 * <ul>
 * <li>A1: {@code send} on a full send_buf fails and leaves every queued packet untouched (Isotach report App. J,
 *     send.c, pp. 199-201 overwrote the tail).</li>
 * <li>A14: MAX_SEND_ATTEMPTS comes from the configuration (the prose's 50, Isotach report §7.1.2, pp. 59-62, not the
 *     listing's 500000); the explicit-credit threshold is compared with {@code >=} against a threshold clamped to what
 *     can be outstanding, so strictly one-way traffic always gets explicit credit back (I-100) and the credit request
 *     remains the escape for a lost one.</li>
 * <li>A17: the shipping loop here advances only this module's own send pointer (the listing advanced
 *     {@code send_h} for ordered packets, Isotach report App. J, shipping.c, pp. 267-271); ordered packets are the
 *     engine's.</li>
 * <li>A25: {@code barrierCompleted()} runs this module's {@code poll()} whatever else the engine runs
 *     (the listing polled with {@code noniso_poll()} even in ISOTACH builds, Isotach report App. J, barrier.c,
 *     pp. 207-210); the engine's facade runs its full poll around it.</li>
 * <li>The barrier race of Isotach report §6.3.4, pp. 45-47 (a barrier packet for the next barrier, sent by a host that
 *     finished early, was lost): barrier frames carry a generation and every peer's generation is counted.</li>
 * </ul>
 */
package org.portals3j.isotach.internal.noniso;
