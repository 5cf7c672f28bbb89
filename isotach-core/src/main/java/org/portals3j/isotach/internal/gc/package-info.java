/**
 * Host side of Isotach group communication (Isotach report §3.5, pp. 18-20; §6.4 to §6.5.5, pp. 47-54, C
 * listing Isotach report App. J, api/iso_barrier/locals.h to iso_signal.c, pp. 223-235): who owns each signal and
 * barrier channel, the barrier state machine, the signal accumulator, and the translation between the channels and the
 * bits of a bs-marker / EOP marker / bs-notice.
 *
 * <p>Everything here runs on the host thread only (the API methods and {@code poll()} of the engine, one at a
 * time); nothing is thread-safe and nothing needs to be. The engine owns the Isotach send buffer: it asks
 * {@link org.portals3j.isotach.internal.gc.SignalTable} for pending signal bits and gives
 * {@link org.portals3j.isotach.internal.gc.BarrierTable} a
 * {@link org.portals3j.isotach.internal.gc.BarrierTable.MarkerSink} that puts a barrier bs-marker into it.
 * The engine itself refuses signal and barrier calls made between an SOI and its EOI (Isotach report §6.4.5, pp. 47-50;
 * §6.5.5, pp. 50-54), because only it knows whether a net-isochron is open.
 *
 * <p>Return codes are the facade's: {@link org.portals3j.isotach.internal.gc.SignalTable#SUCCESS} (0) and
 * {@link org.portals3j.isotach.internal.gc.SignalTable#FAILURE} (1), as in the C listing (Isotach report App. J,
 * noniso.h, pp. 159-162).
 *
 * <h2>Barriers ({@link BarrierTable})</h2>
 * <p><b>Channels.</b> {@value BarrierTable#NUM_BARRIERS} channels. Channel {@value BarrierTable#SHUTDOWN_BARRIER}
 * ({@code SHUTDOWN_BARRIER}) belongs to the mLayer, starts HOLDING in mode STRONG, and is used only by {@link
 * BarrierTable#mLayerBarrier} ({@code try_close_net}, Isotach report App. J, hostman.c, pp. 181-197); the application
 * can neither register it nor barrier on it (I-074). Channel {@value BarrierTable#APPLICATION_BARRIER} starts
 * unclaimed, in state SEND, mode MAX (Isotach report §6.5.5, pp. 50-54; App. J, iso_barrier.c,
 * pp. 224-229). Wire bit of channel c in a bits byte: {@code 1 << c} (Isotach report App. J, iso_barrier.c,
 * pp. 224-229).
 *
 * <p><b>Barrier counts (I-073).</b> A bs-marker carries {@code barrier_count[mode]}: WEAK and STRONG = {@code
 * networkDiameter + 1}, TICK = {@value BarrierTable#MIN_BARRIER_COUNT}, MAX = {@value BarrierTable#MAX_BARRIER_COUNT}
 * (Isotach report §6.5.4, pp. 50-54; §6.5.5, pp. 50-54). Nothing clamps WEAK/STRONG to MAX: with Myrinet's diameter of
 * at most 4 (Isotach report §8.2, p. 73) the question never arose; the emulated token manager decides what a count
 * means.
 *
 * <p><b>State machine</b> (after Isotach report §6.5, pp. 50-54; "enqueue" = {@link
 * BarrierTable.MarkerSink#enqueueBarrier}, after which the state is NOT_HOLDING; while the sink refuses, the state
 * stays SEND and {@link BarrierTable#poll} retries):
 * <pre>
 * state (owner)              event                      next state             notice / action
 * SEND (any)                 enqueue succeeds           NOT_HOLDING            bs-marker leaves
 * SEND (UNCLAIMED)           register(c, WEAK|STRONG)   HOLDING                owner APPLICATION, mode set
 * NOT_HOLDING (UNCLAIMED)    register                   TRANSITION             owner APPLICATION, mode set
 * HOLDING (APPLICATION)      barrier(c, mode)           SEND -&gt; NOT_HOLDING    enqueue
 * TRANSITION (APPLICATION)   barrier(c, mode)           READY                  remembered
 * NOT_HOLDING/SEND/READY(A.) barrier                    unchanged              FAILURE (I-065)
 * NOT_HOLDING (APPLICATION)  completion                 HOLDING                notice bit c (A10: no enqueue)
 * NOT_HOLDING (UNCLAIMED)    completion                 SEND -&gt; NOT_HOLDING    re-participate, masked (I-069)
 * NOT_HOLDING (MLAYER)       completion                 HOLDING                masked; mLayerCompleted(c) true
 * TRANSITION (APPLICATION)   completion (old, unclaimed) HOLDING               masked
 * READY (APPLICATION)        completion (old, unclaimed) SEND -&gt; NOT_HOLDING  enqueue app's marker, masked
 * TRANSITION/READY (A.)      clear                      NOT_HOLDING            owner UNCLAIMED, mode MAX
 * HOLDING (APPLICATION)      clear                      SEND -&gt; NOT_HOLDING    owner UNCLAIMED, mode MAX, enqueue
 * SEND/NOT_HOLDING (A.)      clear                      unchanged (SEND: enq.) owner UNCLAIMED, mode MAX
 * HOLDING (MLAYER)           mLayerBarrier(c)           SEND -&gt; NOT_HOLDING    enqueue
 * SEND or HOLDING            completion                 -                      IsotachFatalError (a)
 * </pre>
 * (a) as the C listing does: Isotach report App. J, iso_barrier.c, pp. 224-229.
 * The invariant the transitions keep: an UNCLAIMED channel is only ever SEND or NOT_HOLDING (so {@code
 * iso_register_barrier}'s removable assertion, Isotach report §6.5.5, pp. 50-54, cannot fire), and an MLAYER channel
 * only HOLDING, SEND or NOT_HOLDING.
 *
 * <p><b>Choices where the report is open or wrong.</b>
 * <ul>
 *   <li>A7: the C never calls {@code iso_barrier_poll} (Isotach report App. J, hostman.c, pp. 181-197), so a SEND-state
 *       marker whose enqueue failed is never retried and unclaimed channel 1 never sends its initial participation
 *       (Isotach report §3.5.1, pp. 18-20). Here {@link BarrierTable#start} sends the initial participation and {@link
 *       BarrierTable#poll} retries every SEND channel.</li>
 *   <li>A9: clearing a channel the application does not own is a successful no-op, as the design and Appendix A say
 *       (Isotach report §6.5.5, pp. 50-54; App. A.8.1, pp. 100-104), not a failure as in the C (Isotach report App. J,
 *       iso_barrier.c, pp. 224-229).</li>
 *   <li>A10: NOT_HOLDING + APPLICATION on completion goes to HOLDING and notifies without enqueuing, as the C does
 *       (Isotach report App. J, iso_barrier.c, pp. 224-229); the prose's "call enqueue_barrier" (Isotach report §6.5.5,
 *       pp. 50-54) would violate enqueue's SEND precondition (Isotach report §6.5.5, pp. 50-54) and send a
 *       participation the application never asked for.</li>
 *   <li>mLayer barriers: the report treats an mLayer channel like an unclaimed one on completion (re-participate,
 *       Isotach report §3.5.1, pp. 18-20; App. J, iso_barrier.c, pp. 224-229) because "the mLayer cannot initiate its
 *       own barriers" (Isotach report §3.5.1, pp. 18-20). But channel 0 starts HOLDING (Isotach report §6.5.5,
 *       pp. 50-54) and its only use is the shutdown barrier that {@code try_close_net} initiates ({@code
 *       iso_mLayer_barrier(SHUTDOWN_BARRIER, STRONG)}, Isotach report App. J, hostman.c, pp. 181-197); re-participating
 *       would start a second shutdown execution that completes on its own and sends a stray marker into a closing
 *       network. So an mLayer completion returns the channel to HOLDING, like an application completion, and is
 *       reported to the mLayer through {@link BarrierTable#mLayerCompleted} instead of to the application.</li>
 *   <li>Completion bits that arrive before {@link BarrierTable#start} are ignored: no execution exists yet, and
 *       channel 0 (HOLDING) and channel 1 (SEND) would otherwise trip the SEND/HOLDING assertion. None are expected:
 *       the reset open_net sends carries the reset bit only (0x80, I-134), not the report's {@code
 *       INITIAL_RESET_SIGNAL} 0x83, whose two barrier bits primed the hardware token manager's barrier credits
 *       (Isotach report §5.2, pp. 35-36; App. J, api/iso_signal/locals.h, pp. 230-231; isotach package
 *       documentation); the rule keeps a peer that sends them anyway from stopping this host.</li>
 *   <li>The argument order is (channel, mode) as in the design and the code (Isotach report §6.5.1, pp. 50-54; App. J,
 *       isotach.h, pp. 162-165), not Appendix A's (bmode, channel) (A12); the facade chooses its own order.</li>
 * </ul>
 *
 * <p>Host thread only; {@link BarrierTable#notify}, {@link BarrierTable#poll} and the API methods allocate nothing. The
 * sink must not call back into this table.
 *
 * <h2>Signals ({@link SignalTable})</h2>
 * <p><b>Channels (A11).</b> There are {@value SignalTable#NUM_SIGNALS} channels; {@value SignalTable#RESET_SIGNAL} is
 * the reset channel. The report gives four different application ranges: 0-5 (design, Isotach report §6.4.5,
 * pp. 47-50), 1-5 (Isotach report App. A.8.1, pp. 100-104; header comment
 * Isotach report App. J, isotach.h, pp. 162-165), 1-4 (header comments Isotach report App. J, isotach.h, pp. 162-165)
 * and "0-1" (Isotach report App. A.8.2, pp. 100-104, a typo). This class follows the code, which is the only version
 * that is consistent with the rule that the application cannot register or send the reset channel (Isotach report
 * App. A.8.1, pp. 100-104): channel numbers 0-5 are in range, and the initial owners are {@code [MLAYER, UNCLAIMED x 4,
 * MLAYER]} (Isotach report §6.4.4, pp. 47-50; App. J, api/iso_signal/locals.h, pp. 230-231), so the application can
 * register exactly channels {@value SignalTable#FIRST_APPLICATION_SIGNAL}..{@value
 * SignalTable#LAST_APPLICATION_SIGNAL}; registering 0 or 5 fails because the mLayer owns them, and anything outside 0-5
 * fails as out of range (I-052).
 *
 * <p><b>Wire bits.</b> Signal channel c is bit {@code 1 << (c + 2)} of a bits byte (bs-marker byte 2, EOP marker bits
 * byte, bs-notice bits; Isotach report App. J, iso_signal.c, pp. 231-235), so the reset channel is bit 7; bits 0-1
 * belong to the barrier channels ({@link BarrierTable#wireBit}) (I-130).
 *
 * <p><b>Sending.</b> {@link SignalTable#accumulate} ORs the channel's bit into the accumulator; the engine drains the
 * accumulator with {@link SignalTable#takeAccumulated} whenever it can put a bs-marker into {@code iso_send_buf}, right
 * away and again on every poll while bits are pending (the C {@code enqueue_signals} / {@code iso_signal_poll},
 * Isotach report §6.4.5, pp. 47-50). Two sends on one channel that wait in the accumulator together leave as one bit
 * (the open issue noted at Isotach report App. J, iso_signal.c, pp. 231-235); the report's own signal semantics merge
 * concurrent signals of one channel anyway (Isotach report §3.5.2, pp. 18-20, I-058). A signal bs-marker carries
 * barrier count 0: {@code enqueue_signals} writes only the prefix tag and the bits (Isotach report App. J,
 * iso_signal.c, pp. 231-235), and the SIU ignores the count unless a barrier bit is set (Isotach report §6.4.5,
 * pp. 47-50).
 *
 * <p>Host thread only; allocation-free after construction.
 */
package org.portals3j.isotach.internal.gc;
