/**
 * The Isotach shared memory model (Isotach report §3.4, pp. 14-18; §7.3.5 to §7.4.5, pp. 66-72): the
 * part of the report that was designed but never implemented. {@link org.portals3j.isotach.internal.smm.SharedMemory}
 * is one host's shared memory: it routes accesses ({@link org.portals3j.isotach.internal.smm.SharedMap}), enforces the
 * sched/assign caveats and the read cap, executes sRefs in isotach order on the local copies with a
 * preallocated pending-read table ({@code PendingReadTable}), and fills the application's lvars when read
 * responses ({@link org.portals3j.isotach.internal.smm.ReadResponseCodec}) arrive. The engine owns transport,
 * ordering and isochrons and calls it on the host thread.
 *
 * <h2>Issuing and executing</h2>
 * When the application issues an access, {@link SharedMemory#copies} and {@link SharedMemory#nearestCopy} route it (a
 * change goes to every copy, a read to the nearest, I-087); {@link SharedMemory#checkChange} and
 * {@link SharedMemory#noteIssued} enforce the sched/assign caveats (I-092); {@link SharedMemory#allocateRead} gives a
 * read its lvar slot, bounded by {@code read_cap} (I-089); {@link SharedMemory#completeRead} delivers a read response
 * into the application's {@code IsoVar} (Isotach report §6.6.2, p. 54). In isotach order (pulse, sender id, issue
 * order), {@link SharedMemory#execute} applies each sRef that reaches a copy held here, exactly as the report's
 * pseudo-code (Isotach report §3.4, pp. 14-18; §7.4.5, pp. 69-72), and hands read responses to the engine's {@link
 * SharedMemory.ReadResponder}.
 *
 * <h2>The variable</h2>
 * Each word of a local copy is the report's {@code {val, unsub}} (Isotach report §3.4, pp. 14-18): when {@code unsub}
 * is set the last post was a sched whose assign has not executed here, and {@code val} holds that sched's vId (the
 * issuing host's id, Isotach report §3.4, pp. 14-18). Every word starts substantiated with value 0.
 *
 * <h2>Write = sched + assign issued together</h2>
 * A write (Isotach report §3.4, pp. 14-18; App. A.6, pp. 99-100) is one sRef that performs its sched and its assign at
 * the same point of the isotach order. Its vId (the writer's id) is therefore never visible: no read can execute
 * between the two halves, so no read ever pends on a write, and the write does not look at the pending-read table —
 * reads pending on an earlier sched of the same host keep waiting for that sched's own assign (Isotach report §3.4,
 * pp. 14-18). For the same reason a write is not an outstanding sched: {@link SharedMemory#checkChange} allows it
 * whether or not the host has one, and it neither opens nor closes one. An assign that arrives after a later write
 * finds the variable substantiated and only answers the reads pending on its sched (I-082, I-084).
 *
 * <h2>Restartable execution</h2>
 * A read or an assign may owe read responses the engine cannot send yet (the report's full {@code send_buf},
 * Isotach report §7.4.3, pp. 69-72; §7.4.4, pp. 69-72). {@link SharedMemory#execute} applies the sRef once, hands every
 * response to the responder, and keeps those refused in a preallocated queue; it then returns false. The engine calls
 * it again with the same sRef (and must not execute any other sRef on this host first): that call only retries the
 * queued responses, in order, and returns true once all are out. The sRef is never applied twice.
 *
 * <h2>Bounds</h2>
 * Everything is allocated in the constructor: the local copies, one bit per shared word for the caveat state,
 * {@code read_cap} lvar slots, and a pending-read table of {@code hosts * read_cap} entries (Isotach report §3.4,
 * pp. 14-18) with the same number of queued responses. Each reader may have at most {@code read_cap} reads pending at
 * this copy, so one host breaking its cap cannot take the table from the others.
 */
package org.portals3j.isotach.internal.smm;
