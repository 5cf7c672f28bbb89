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
 * <h2>Nonblocking collectives ({@link org.portals3j.mpi.internal.CollectiveSchedule},
 * {@link org.portals3j.mpi.internal.CollectiveProgress})</h2>
 * One copy of each collective algorithm serves both forms: the algorithms write their steps to a
 * {@link org.portals3j.mpi.internal.CollectiveSteps} (send, receive, end of round, local step). The blocking call
 * runs them at once on a {@code CollectiveChannel}; the nonblocking call records them as a schedule of rounds (the
 * sends and receives that start together, then the local steps, such as a reduction or a copy, that need their
 * data). The algorithms' control flow depends only on ranks and counts, so the recording is exact; even the swap of
 * the reduction's two scratch buffers is decided while recording. Argument checks run at the call, before anything
 * is sent, so wrong use raises the reference's class from the call itself; a failure while the schedule runs (a
 * truncated receive, a user function's error) ends it with that error once its round's operations have finished,
 * reported by the request's completion (ERR_IN_STATUS from the array forms).
 * <ul>
 *   <li><b>Progress.</b> The schedules under way are advanced by every progress round of the rank
 *       ({@code PointToPoint.progress}): every wait and test of any request, every blocking call while it waits
 *       (point-to-point, probe, collectives), and the start of each nonblocking collective. One thread advances
 *       them at a time; a local step that calls MPI does not re-enter. As for rendezvous messages, a rank that
 *       computes without calling MPI does not advance its schedules (weak progress, as Open MPI without a
 *       progress thread).</li>
 *   <li><b>Matching (mpi-java-api.md 4.5).</b> The schedules use the communicator's collective context, like the
 *       blocking collectives, but tags with bit 31 set (blocking ones use the small kind numbers), so a blocking
 *       collective never takes a nonblocking one's message. Above bit 31 the tag holds the number of the
 *       nonblocking collective on the communicator (27 bits, counted per rank, taken only once the call's checks
 *       have passed) and its kind: every rank numbers them in call order, so several outstanding collectives, of
 *       one kind or several, never take each other's messages however their rounds interleave, and a call that
 *       failed its checks on some ranks does not shift the numbering. They would collide only if 2^27 collectives
 *       on one communicator were outstanding at once.</li>
 *   <li><b>Buffers (mpi-java-api.md 4.7, 4.8).</b> The schedule holds the segments of the user's buffers (and so
 *       the buffers) until it ends, whatever happens to the request. Inputs are read, and the reduction's
 *       accumulator copied from them, when the call is made; outputs are written while the schedule runs and are
 *       complete only when the request is. Heap buffers over Java arrays are accepted (no JNI limit here) unless
 *       {@code portals3j.mpi.strictBuffers} is set; a {@code boolean} array is staged and written back by the
 *       schedule's last local step.</li>
 *   <li>{@code cancel} on a collective's request does nothing (MPI 4.1 section 6.12 makes it erroneous); freeing it
 *       lets the schedule run to its end in the background.</li>
 * </ul>
 *
 * <h2>Persistent and buffered point-to-point ({@code mpi.Prequest},
 * {@link org.portals3j.mpi.internal.BufferedSends})</h2>
 * <ul>
 *   <li>A persistent request checks its arguments when it is made ({@code sendInit} and its kin give ERR_RANK,
 *       ERR_TAG, ERR_COUNT, ERR_TYPE, ERR_BUFFER then) and each {@code start} begins an ordinary send or receive
 *       with them, so it follows every rule of the other operations (order, protocols, truncation). Completed, it
 *       is inactive: a wait or test returns MPI's empty status at once and the array forms treat it as null
 *       (MPI 4.1 section 3.7.3), but {@code isNull()} stays false until {@code free()}. Starting an active or
 *       freed request is ERR_REQUEST.</li>
 *   <li>Buffered mode (mpi-java-api.md 4.4, MPI 4.1 section 3.6): a message is copied into the attached array,
 *       in a block of its length rounded up to 8 bytes plus {@code BSEND_OVERHEAD} (128) bytes, placed first-fit,
 *       and sent from there as a standard send; the call, and the request of {@code ibSend} or a buffered
 *       {@code Prequest}, completes once the copy is made. The block is free again once its send has completed.
 *       A message that does not fit, or no buffer attached, is ERR_BUFFER and nothing is sent (the buffer is never
 *       grown: its size is the program's bound on buffered data). {@code detachBuffer} waits for every buffered
 *       message to be sent (an eager one at its SEND_END, a rendezvous one once the receiver has read it) and
 *       returns the array; with none attached it is ERR_BUFFER, as is attaching a second one. A buffered send's
 *       own failure after the copy (its receiver died) has no request left to report it.</li>
 * </ul>
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
