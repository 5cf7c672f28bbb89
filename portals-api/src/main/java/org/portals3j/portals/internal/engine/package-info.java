/**
 * The Portals 3.2 engine: the semantics behind {@link org.portals3j.portals.Portals} &mdash; network
 * interface state, match lists, memory descriptors, event queues, access control, and the receive
 * algorithm of chapter 4. Internal: not API; anything here may change.
 *
 * <h2>Concurrency</h2>
 * One lock per process ({@link org.portals3j.portals.internal.engine.PortalsEngine#lock}) makes every
 * API function atomic with respect to other threads and to incoming operations (L2042). The lock is
 * never held while the transport is called: the in-memory transport delivers inline, and a message
 * may come straight back (an ack, a reply).
 */
package org.portals3j.portals.internal.engine;
