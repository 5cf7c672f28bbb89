/**
 * The Portals engine: the semantics behind {@link org.portals3j.portals.Portals} (3.2) and
 * {@link org.portals3j.portals.Portals33} (3.3) &mdash; network interface state, match lists, memory
 * descriptors, event queues, access control, and the receive algorithm of chapter 4. One engine follows
 * one {@link org.portals3j.portals.internal.engine.Dialect}. Internal: not API; anything here may change.
 *
 * <h2>Concurrency</h2>
 * One lock per process ({@link org.portals3j.portals.internal.engine.PortalsEngine#lock}) makes every
 * API function atomic with respect to other threads and to incoming operations (L2042). The lock is
 * never held while the transport is called: the in-memory transport delivers inline, and a message
 * may come straight back (an ack, a reply). A 3.3 event handler runs with the lock held, so the engine
 * refuses Portals calls from it ({@code HandlerCalls}).
 *
 * <p>The lock is a {@code SpinLock} (critical sections are short; its unlock is a release store), and a
 * thread handed an event in {@code PtlEQWait} is woken after the lock is released ({@code Wakeups}),
 * for a small put or reply only once its payload is in place ({@code PortalsEngine.DEFERRED_WAKE_LIMIT}).
 */
package org.portals3j.portals.internal.engine;
