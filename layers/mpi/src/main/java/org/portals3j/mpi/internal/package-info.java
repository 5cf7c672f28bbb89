/**
 * The MPI layer's implementation: the point-to-point engine on the public Portals 3.2 API, and the per-rank state
 * behind package {@code mpi}. Nothing here is exported.
 *
 * <h2>Portals set-up of a rank ({@link org.portals3j.mpi.internal.PointToPoint})</h2>
 * One Portals 3.2 library per rank on the job's transport, one interface, and one event queue for every event
 * (2^24 events at most; its memory grows only with its backlog). Portal 4 receives every message. Its match list:
 * <ol>
 *   <li>the posted receives, in the order they were posted ({@code PtlMEInsert} before the mark), each with a
 *       threshold-1, {@code TRUNCATE} MD over the user's buffer, unlinked when used;</li>
 *   <li>the mark: an entry without an MD, which nothing matches;</li>
 *   <li>one entry per sender (its {@code matchid}) for its eager messages: an MD over a region of
 *       {@code creditBytes} (default 256 KiB) with {@code MANAGE_REMOTE}: the sender says where each message goes
 *       (below);</li>
 *   <li>one entry for rendezvous headers (protocol bit set): a 0-byte MD that keeps only the event.</li>
 * </ol>
 * Portal 5 holds the rendezvous senders' buffers, portal 6 the credit reports. Access control entry 0 (same user)
 * admits all.
 *
 * <h2>Match bits ({@link org.portals3j.mpi.internal.MatchBits})</h2>
 * Bit 63 is the protocol (1: rendezvous header), bits 62-48 the communicator's context id (15 bits; each
 * communicator takes an even id, the odd one after it is kept for its collectives), bits 47-32 the sender's rank in
 * the communicator (16 bits: communicators of up to 65536 ranks), bits 31-0 the tag ({@code TAG_UB} = 2^31-1). A
 * receive ignores bit 63, and the source or tag field for {@code ANY_SOURCE} and {@code ANY_TAG}.
 *
 * <h2>Protocols</h2>
 * <ul>
 *   <li><b>Eager</b> (at most {@code eagerLimit} bytes, 16 KiB by default, and not synchronous, and covered by
 *       credit): one {@code PtlPut} of the data, at the offset the sender reserved in its region at the receiver;
 *       {@code hdr_data} is where that reservation ends (a count of bytes since the start). A posted receive takes it
 *       directly (its MD ignores the offset); otherwise it lands in the region. The send completes at SEND_END.</li>
 *   <li><b>Rendezvous</b> (longer messages, every {@code sSend}/{@code isSend}, and eager messages without credit):
 *       the sender attaches an MD over its buffer on portal 5 (matchid: the receiver; match bits: a fresh id), then
 *       puts a 0-byte header with the protocol bit and {@code hdr_data} = id &lt;&lt; 36 | length. When a receive
 *       matches the header (posted, or later from the unexpected queue) the receiver {@code PtlGet}s
 *       min(length, its capacity) bytes into its buffer. The send completes at GET_END, so a synchronous send
 *       completes only once the receive has matched (MPI's rule for {@code MPI_Ssend}).</li>
 *   <li><b>Truncation</b>: a message longer than the receive is cut to the receive's size (the MD's
 *       {@code TRUNCATE}, or the get's length); the status counts the bytes that fit, and the receive fails with
 *       {@code ERR_TRUNCATE}.</li>
 * </ul>
 *
 * <h2>Posting a receive without a race (Portals 3.2 section 5.3, the digest's section 6.3)</h2>
 * A receive first handles every waiting event, then takes the oldest matching message of the unexpected queue (the
 * messages whose PUT_START landed after the mark, in arrival order). If there is none, it inserts its entry before
 * the mark with an <em>inactive</em> MD (threshold 0) and activates it with {@code PtlMDUpdate(md, active, eq)},
 * which succeeds only while the event queue is empty. If it fails, the events are handled one by one; a matching
 * unexpected message among them is taken and the entry unlinked; otherwise the update is tried again. Why no
 * message can be lost or overtaken: a message that matched an unexpected entry before the update logged its
 * PUT_START on the queue before it (START events are logged when the message matches), so the update fails until
 * that START has been handled and queued; after the update every matching message meets the active entry first.
 * Handling START events (not only END events) is what makes this exact: an eager message whose START was seen but
 * whose data is still arriving is taken by the receive, which completes at the message's PUT_END. Non-overtaking
 * then follows from Portals' ordered delivery per pair of processes and the order of the match list.
 *
 * <h2>Flow control for eager messages ({@link org.portals3j.mpi.internal.EagerCredit},
 * {@link org.portals3j.mpi.internal.CreditLedger})</h2>
 * Each sender owns its region at each receiver as a ring: it reserves whole 64-byte slots for a message (skipping
 * to offset 0 when the message would not fit before the end) and sends eagerly only if the ring has room by its
 * count of bytes the receiver has freed. The receiver records the eager messages of each sender in arrival order
 * (the order of the reservations); one that went straight into a posted receive frees its slots at once, one in the
 * region when it is copied out. The longest freed prefix is reported to the sender with a 0-byte put on portal 6
 * ({@code hdr_data}: the end of the freed prefix) whenever a quarter of the region has been freed since the last
 * report. A sender without room sends by rendezvous instead, which needs no space at the receiver beyond the
 * header's event and queue entry; so no eager message is ever dropped, the unexpected data a rank holds is bounded
 * by {@code creditBytes} per sender, and no correct program can deadlock for want of credit (nonblocking sends never
 * wait for it). What stays unbounded is one queue entry (about 80 bytes, pooled) per unexpected rendezvous header,
 * which the sender's request pays for in turn.
 *
 * <h2>Progress</h2>
 * Portals itself moves data and answers gets on its own threads, without the program. Every MPI call, and every
 * round of a blocking wait (a back-off of spin, yield, then park of at most 100 us), handles the rank's events: a
 * rank blocked in any call serves every message under way (starts the gets of rendezvous messages its posted
 * receives matched, reports credit). A rank that computes without calling MPI does not start those gets until its
 * next call (weak progress, as Open MPI without a progress thread).
 *
 * <h2>Blocking calls allocate almost nothing ({@link org.portals3j.mpi.internal.BlockingOperations})</h2>
 * A blocking send or receive reuses its thread's operation, the memory descriptors bound for it and the segment of
 * the last {@code java.nio} buffer it used (same buffer, datatype and count), so a blocking ping-pong of direct
 * buffers allocates about 110 bytes per round trip per rank (the handles the Portals calls return and the
 * {@code Status}) instead of about 800 (bench/README.md, {@code MpiAllocations}). An operation a wait left under
 * way (an interrupted wait) is never reused. The thread's last buffer stays reachable until its next blocking call
 * with another buffer. Nonblocking calls allocate their operation, since their {@code Request} holds it.
 *
 * <h2>Ranks in one JVM ({@link org.portals3j.mpi.internal.MpiRuntime})</h2>
 * A thread acts for the rank {@code JobRuntime.runAsRank} bound it to ({@code portals run --transport inmem}, the
 * tests); otherwise for the process's rank. {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} are one object each;
 * their state (error handler, name) is per rank.
 *
 * <h2>Choices where the references leave it open</h2>
 * <ul>
 *   <li>A job abort ({@code ERRORS_ARE_FATAL}, {@code ERRORS_ABORT}, {@code Comm.abort}) exits the JVM with the
 *       error code as status (1 if it is not 1..255); the launcher ends the other ranks
 *       ({@link org.portals3j.mpi.internal.JobAbort}).</li>
 *   <li>A buffer of the wrong element type is {@code ERR_TYPE}; too short, null with data, read-only for a receive,
 *       or no array or buffer, {@code ERR_BUFFER} ({@link org.portals3j.mpi.internal.Buffers}).</li>
 *   <li>{@code MPI.Finalize} completes every send under way and every receive that has matched (freed requests
 *       included), then waits for every rank (the job's rendezvous barrier) before releasing Portals, so that no
 *       rank's endpoint closes while a message to or from it is still on the way.</li>
 *   <li>Rendezvous ids are 28 bits and wrap: a sender would have to start 2^28 rendezvous sends while one to the
 *       same receiver stays unreceived for two to collide.</li>
 * </ul>
 */
package org.portals3j.mpi.internal;
