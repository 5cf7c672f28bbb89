/**
 * The host side of the Isotach layer for Protocols 3 and 4 (the report's API, processing and NIU-interface layers,
 * Isotach report §6.2, pp. 41-45; §6.8, pp. 56-58; §3.6, pp. 20-23): {@link
 * org.portals3j.isotach.internal.host.IsotachHost} sends isochrons (lazy EOI, isochron ids, non-specific sender-based
 * flow control with the ordered slots slaved to it) and hands deliveries to {@code iso_receive} with deferred deletion;
 * {@link org.portals3j.isotach.internal.host.OrderingModule} is the report's IOM (buckets, end-of-pulse processing with
 * the count check, order by sort vector or by sender); {@link org.portals3j.isotach.internal.host.OutstandingIsochrons}
 * is {@code hit_q} and {@link org.portals3j.isotach.internal.host.SelfMessageBuffer} {@code hit_buf}.
 *
 * <p>Everything here runs on the host thread except {@link org.portals3j.isotach.internal.host.ReceiveSlots}, which
 * the transport side uses to pick the receive slot of an arriving ISO frame.
 *
 * <p>Bugs of the listing (Isotach report App. J) are not copied: bs-notices are dequeued (A4), self lengths are plain
 * ints (A5), a full {@code hit_buf} fails the call (A6), {@code iso_end} with nothing pending posts nothing (A18),
 * credits are 64-bit counts with an explicit present flag (A15, A16).
 */
package org.portals3j.isotach.internal.host;
