/**
 * The Portals engine: the semantics behind {@link org.portals3j.portals.Portals} (3.2) and
 * {@link org.portals3j.portals.Portals33} (3.3) &mdash; network interface state, match lists, memory
 * descriptors, event queues, access control, and the receive algorithm of chapter 4. One engine follows
 * one {@link org.portals3j.portals.internal.engine.Dialect}. Internal: not API; anything here may change.
 *
 * <h2>Where things are</h2>
 * The engine is cut where the spec is: one class per API object, one per protocol side.
 * <ul>
 *   <li>{@code PortalsEngine}: the entry point. The façade's calls, each delegated to one of the classes below,
 *       and the transport's {@code MessageHandler}, which hands a request (put, get, GetPut) to the target
 *       side and an answer (ack, reply) or a send's report to the side whose operation it is.</li>
 *   <li>The API objects' calls, each taking the lock itself: {@code NetworkInterfaces} (PtlInit, PtlFini,
 *       PtlNI*, PtlGetId, PtlGetUid, PtlGetJid), {@code MatchEntries} (PtlME*), {@code MemoryDescriptors}
 *       (PtlMD*), {@code EventQueues} (PtlEQ*, with the waiting of PtlEQWait and PtlEQPoll) and
 *       {@code AccessControl} (PtlACEntry).</li>
 *   <li>{@code Initiator}: PtlPut, PtlGet, PtlGetPut and their regions; the acks and replies that answer them
 *       and the events that end them (SEND_*, REPLY_*, ACK).</li>
 *   <li>{@code Target}: chapter 4's receive algorithm (admit, match, deposit) for a put, get or GetPut, its
 *       events (PUT_*, GET_*, GETPUT_*), and the ack or reply it sends.</li>
 *   <li>{@code MessageSender}: the one hand-over to the transport, with the staging of small payloads
 *       ({@code SendStaging}); it tells the sending side ({@code SendingSide}) of a staged copy or a refusal.</li>
 *   <li>{@code LibraryState}: what they all share (the lock, the interfaces, the ops in flight, the checks that
 *       turn a handle into an interface). The objects' own state: {@code NetworkInterfaceState} (with its
 *       lifecycle, {@code NetworkInterfaceState.State}), {@code MatchList}, {@code MemoryDescriptorState},
 *       {@code EventQueueState}; operations in flight: {@code PendingOp}, {@code IncomingPut}.</li>
 * </ul>
 *
 * <h2>Concurrency</h2>
 * One lock per process ({@link org.portals3j.portals.internal.engine.LibraryState#lock}) makes every
 * API function atomic with respect to other threads and to incoming operations (Portals 3.2 spec §2.4). The lock is
 * never held while the transport is called: the in-memory transport delivers inline, and a message
 * may come straight back (an ack, a reply). Requests to one peer keep their order by the turns of its
 * {@code SendChannel}: a turn is taken under the lock with the request's SEND_START and waited for after it, so it
 * costs no lock of its own. A 3.3 event handler runs with the lock held, so the engine
 * refuses Portals calls from it ({@code HandlerCalls}).
 *
 * <p>The lock is a {@code SpinLock} (critical sections are short; its unlock is a release store), and a
 * thread handed an event in {@code PtlEQWait} is woken after the lock is released ({@code Wakeups}),
 * for a small put or reply only once its payload is in place ({@code PortalsEngine.DEFERRED_WAKE_LIMIT}).
 *
 * <h2>Choices the spec leaves open</h2>
 * Error precedence (not specified; the kit does not rely on it): {@code PTL_NOINIT}, then an invalid handle,
 * then invalid argument values, then state errors, then {@code PTL_NOSPACE} (our choice, open point: Portals 3.2 spec
 * &sect;3.12 lists the codes, not an order).
 *
 * <p>The Portals 3.3 functions (the methods {@link org.portals3j.portals.Portals33} calls that
 * {@link org.portals3j.portals.Portals} does not) sit beside the 3.2 ones, in the class of their object or
 * side; where a shared function behaves differently in 3.3, the dialect decides, documented at the point it
 * matters. In a 3.3 library events are numbered per queue, an MD's {@code PTL_MD_EVENT_START_DISABLE} and
 * {@code PTL_MD_EVENT_END_DISABLE} options suppress events, a failure ends with the END event, queues may
 * run handlers ({@code NetworkInterfaceState.post}), and acknowledgements count against the MD's threshold
 * ({@code Initiator}).
 */
package org.portals3j.portals.internal.engine;
