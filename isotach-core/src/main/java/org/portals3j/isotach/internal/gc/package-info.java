/**
 * Host side of Isotach group communication (digest §2.7, report §3.5 L461-506, §6.4-6.5 L1533-1881, C listing
 * L10040-10811): who owns each signal and barrier channel, the barrier state machine, the signal accumulator,
 * and the translation between the channels and the bits of a bs-marker / EOP marker / bs-notice.
 *
 * <p>Everything here runs on the host thread only (the API methods and {@code poll()} of the engine, one at a
 * time); nothing is thread-safe and nothing needs to be. The engine owns the Isotach send buffer: it asks
 * {@link org.portals3j.isotach.internal.gc.SignalTable} for pending signal bits and gives
 * {@link org.portals3j.isotach.internal.gc.BarrierTable} a
 * {@link org.portals3j.isotach.internal.gc.BarrierTable.MarkerSink} that puts a barrier bs-marker into it.
 * The engine itself refuses signal and barrier calls made between an SOI and its EOI (L1649, L1854), because
 * only it knows whether a net-isochron is open.
 *
 * <p>Return codes are the facade's: {@link org.portals3j.isotach.internal.gc.SignalTable#SUCCESS} (0) and
 * {@link org.portals3j.isotach.internal.gc.SignalTable#FAILURE} (1), as in the C listing (C L5978-5981).
 *
 * <h2>Barriers ({@link BarrierTable})</h2>
 * <p><b>Channels.</b> {@value BarrierTable#NUM_BARRIERS} channels. Channel {@value BarrierTable#SHUTDOWN_BARRIER}
 * ({@code SHUTDOWN_BARRIER}) belongs to the mLayer, starts HOLDING in mode STRONG, and is used only by {@link
 * BarrierTable#mLayerBarrier} ({@code try_close_net}, C L8383); the application can neither register it nor barrier on
 * it (I-074). Channel {@value BarrierTable#APPLICATION_BARRIER} starts unclaimed, in state SEND, mode MAX (L1795-1800,
 * C L10154-10169). Wire bit of channel c in a bits byte: {@code 1 << c} (C L10206).
 *
 * <p><b>Barrier counts (I-073).</b> A bs-marker carries {@code barrier_count[mode]}: WEAK and STRONG = {@code
 * networkDiameter + 1}, TICK = {@value BarrierTable#MIN_BARRIER_COUNT}, MAX = {@value BarrierTable#MAX_BARRIER_COUNT}
 * (L1772-1780, L1804-1813). Nothing clamps WEAK/STRONG to MAX: with Myrinet's diameter of at most 4 (L2677) the
 * question never arose; the emulated token manager decides what a count means.
 *
 * <p><b>State machine</b> (the table of digest §2.7; "enqueue" = {@link BarrierTable.MarkerSink#enqueueBarrier},
 * after which the state is NOT_HOLDING; while the sink refuses, the state stays SEND and {@link BarrierTable#poll}
 * retries):
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
 * SEND or HOLDING            completion                 -                      IsotachFatalError (C L10417-10422)
 * </pre>
 * The invariant the transitions keep: an UNCLAIMED channel is only ever SEND or NOT_HOLDING (so {@code
 * iso_register_barrier}'s removable assertion, L1835, cannot fire), and an MLAYER channel only HOLDING, SEND or
 * NOT_HOLDING.
 *
 * <p><b>Choices where the report is open or wrong.</b>
 * <ul>
 *   <li>A7: the C never calls {@code iso_barrier_poll} (C L8059-8068), so a SEND-state marker whose enqueue failed
 *       is never retried and unclaimed channel 1 never sends its initial participation (L475). Here {@link
 *       BarrierTable#start} sends the initial participation and {@link BarrierTable#poll} retries every SEND
 *       channel.</li>
 *   <li>A9: clearing a channel the application does not own is a successful no-op, as the design and Appendix A say
 *       (L1842, L3578), not a failure as in the C (C L10273-10275).</li>
 *   <li>A10: NOT_HOLDING + APPLICATION on completion goes to HOLDING and notifies without enqueuing, as the C does
 *       (C L10428-10432); the prose's "call enqueue_barrier" (L1869) would violate enqueue's SEND precondition (L1819)
 *       and send a participation the application never asked for.</li>
 *   <li>mLayer barriers: the report treats an mLayer channel like an unclaimed one on completion (re-participate,
 *       L492, C L10436-10441) because "the mLayer cannot initiate its own barriers" (L492). But channel 0 starts
 *       HOLDING (L1799) and its only use is the shutdown barrier that {@code try_close_net} initiates ({@code
 *       iso_mLayer_barrier(SHUTDOWN_BARRIER, STRONG)}, C L8383); re-participating would start a second shutdown
 *       execution that completes on its own and sends a stray marker into a closing network. So an mLayer completion
 *       returns the channel to HOLDING, like an application completion, and is reported to the mLayer through {@link
 *       BarrierTable#mLayerCompleted} instead of to the application.</li>
 *   <li>Completion bits that arrive before {@link BarrierTable#start} are ignored: they can only be the echo of the
 *       priming bits of {@code INITIAL_RESET_SIGNAL} (0x83, L1120, C L10554-10559) in the reset EOP marker - no
 *       execution exists yet, and channel 0 (HOLDING) and channel 1 (SEND) would otherwise trip the SEND/HOLDING
 *       assertion.</li>
 *   <li>The argument order is (channel, mode) as in the design and the code (L1690, L1702, C L6222, L6240), not
 *       Appendix A's (bmode, channel) (A12); the facade chooses its own order.</li>
 * </ul>
 *
 * <p>Host thread only; {@link BarrierTable#notify}, {@link BarrierTable#poll} and the API methods allocate nothing. The
 * sink must not call back into this table.
 *
 * <h2>Signals ({@link SignalTable})</h2>
 * <p><b>Channels (A11).</b> There are {@value SignalTable#NUM_SIGNALS} channels; {@value SignalTable#RESET_SIGNAL} is
 * the reset channel. The report gives four different application ranges: 0-5 (design, L1635), 1-5 (Appendix A, L3546,
 * L3558; header comment C L6208), 1-4 (header comments C L6212, L6230) and "0-1" (L3596, a typo). This class follows
 * the code, which is the only version that is consistent with the rule that the application cannot register or send the
 * reset channel (L3544): channel numbers 0-5 are in range, and the initial owners are {@code [MLAYER, UNCLAIMED x 4,
 * MLAYER]} (L1609, C L10564), so the application can register exactly channels {@value
 * SignalTable#FIRST_APPLICATION_SIGNAL}..{@value SignalTable#LAST_APPLICATION_SIGNAL}; registering 0 or 5 fails because
 * the mLayer owns them, and anything outside 0-5 fails as out of range (I-052).
 *
 * <p><b>Wire bits.</b> Signal channel c is bit {@code 1 << (c + 2)} of a bits byte (bs-marker byte 2, EOP marker bits
 * byte, bs-notice bits; C L10713, L10779, L10808-10810), so the reset channel is bit 7; bits 0-1 belong to the barrier
 * channels ({@link BarrierTable#wireBit}) (I-130).
 *
 * <p><b>Sending.</b> {@link SignalTable#accumulate} ORs the channel's bit into the accumulator; the engine drains the
 * accumulator with {@link SignalTable#takeAccumulated} whenever it can put a bs-marker into {@code iso_send_buf}, right
 * away and again on every poll while bits are pending (the C {@code enqueue_signals} / {@code iso_signal_poll},
 * L1621-1629, L1668-1670). Two sends on one channel that wait in the accumulator together leave as one bit (the open
 * issue noted at C L10702-10711); the report's own signal semantics merge concurrent signals of one channel anyway
 * (L496, I-058). A signal bs-marker carries barrier count 0: {@code enqueue_signals} writes only the prefix tag and the
 * bits (C L10628-10645), and the SIU ignores the count unless a barrier bit is set (L1626).
 *
 * <p>Host thread only; allocation-free after construction.
 */
package org.portals3j.isotach.internal.gc;
