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
 */
package org.portals3j.isotach.internal.gc;
