/**
 * The {@code inmem} transport: every rank of a job in one JVM.
 *
 * <h2>How a message moves</h2>
 * There is no transport thread. The thread that calls {@code send} delivers the message itself: it
 * takes the target endpoint's <em>drain</em> flag, offers the header to the target's handler, copies
 * the payload once, from the source segment straight into the segment the handler named, and reports
 * the send complete, before it tells the target's handler that the deposit is done: so nothing the delivery
 * causes (the target's answer, come back to the sender) can reach the sender before its send's completion.
 * If another thread is already delivering to that endpoint, the message is queued
 * (only the header is copied) and the thread holding the flag delivers it before letting go; the
 * flag is never waited for, so delivery cannot deadlock, and a busy or idle target application never
 * holds up progress (application bypass). On a two-core machine this is the cheapest possible
 * design: no third thread competes for a core.
 *
 * <p>Per-peer FIFO holds because a message is delivered directly only by the flag holder when the
 * queue is empty; otherwise it joins the queue behind its predecessors.
 *
 * <h2>Polling</h2>
 * The endpoint implements {@code Polling}: {@code poll} receives nothing (delivery is inline) but counts: an upper
 * layer may hand what it is given to its own polling thread, and must hear when that thread has gone. Every 64th
 * poll of an endpoint looks at its peers' poll counts, and one whose count has not moved for 0.25 ms is reported gone
 * to its handler ({@code PollingHandler.onPollersGone}) on the looking thread; {@code pollingStopped} reports at once
 * ({@link org.portals3j.transport.inmem.PollWatch}).
 */
package org.portals3j.transport.inmem;
