/**
 * The MPI layer's implementation: the point-to-point engine on the public Portals 3.2 API, and the per-rank state
 * behind package {@code mpi}. Nothing here is exported.
 *
 * <h2>Portals set-up of a rank ({@link org.portals3j.mpi.internal.RankPortals})</h2>
 * One Portals 3.2 library per rank on the job's transport, one interface, and one event queue for every event
 * (2^24 events at most; its memory grows only with its backlog). Portal 4 receives every message. Its match list:
 * <ol>
 *   <li>the posted receives above 1 KiB (smaller ones wait on the pending list, below), in the order they were
 *       posted ({@code PtlMEInsert} before the mark), each with a
 *       threshold-1, {@code TRUNCATE} MD over the user's buffer, unlinked when used; and at most one idle entry
 *       (below), whose MD has threshold 0, which Portals skips (Portals 3.2 spec §3.8.1.1: an MD whose threshold
 *       is 0 is inactive);</li>
 *   <li>the mark: an entry without an MD, which nothing matches;</li>
 *   <li>one entry per sender (its {@code matchid}) for its eager messages: an MD over a region of
 *       {@code creditBytes} (default 256 KiB) with {@code MANAGE_REMOTE}: the sender says where each message goes
 *       (below);</li>
 *   <li>one entry for rendezvous headers (protocol bit set): a 0-byte MD that keeps only the event.</li>
 * </ol>
 * Portal 5 holds the rendezvous senders' buffers, portal 6 the credit reports. Access control entry 0 (same user)
 * admits all.
 * <p>
 * The engine ({@link org.portals3j.mpi.internal.PointToPoint}) takes every call and hands each event to the side
 * it concerns, one class per side of the protocol: {@link org.portals3j.mpi.internal.Sends} (the initiator: eager
 * and rendezvous sends, their completion, credit reports received), {@link org.portals3j.mpi.internal.Receives}
 * (posting and cancelling receives), {@link org.portals3j.mpi.internal.Arrivals} (the target: unexpected messages,
 * delivery into a receive, the rendezvous get, credit freed and reported) and
 * {@link org.portals3j.mpi.internal.Probes}.
 *
 * <h2>Match bits ({@link org.portals3j.mpi.internal.MatchBits})</h2>
 * Bit 63 is the protocol (1: rendezvous header), bits 62-48 the communicator's context id (15 bits; each
 * communicator takes an even id, the odd one after it is kept for its collectives), bits 47-32 the sender's rank in
 * the communicator (16 bits: communicators of up to 65536 ranks), bits 31-0 the tag ({@code TAG_UB} = 2^31-1). A
 * receive ignores bit 63, and the source or tag field for {@code ANY_SOURCE} and {@code ANY_TAG}.
 *
 * <h2>Protocols ({@link org.portals3j.mpi.internal.Sends}, {@link org.portals3j.mpi.internal.Arrivals})</h2>
 * <ul>
 *   <li><b>Eager</b> (at most {@code eagerLimit} bytes, 16 KiB by default, and not synchronous, and covered by
 *       credit): one {@code PtlPut} of the data, at the offset the sender reserved in its region at the receiver;
 *       {@code hdr_data} is where that reservation ends (a count of bytes since the start). A posted receive takes it
 *       directly (its MD ignores the offset); otherwise it lands in the region (where a pending small receive, below,
 *       copies it out). The send completes at SEND_END, which the sending thread looks for at once after the put
 *       (unless another thread is the blocker): it is usually logged by then, and the send is over before its wait
 *       begins. The MD (no threshold) stays bound after SEND_END for the next send of the same descriptor, which a
 *       thread's reused blocking send has while its buffer is the same: one MD at a time is kept, and replaced
 *       (unlinked, a new one bound) when a send has another descriptor; one sent while the kept MD is busy gets an
 *       MD of its own, unlinked at its SEND_END. The kept MD holds its buffer until it is replaced.</li>
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
 * <h2>Small receives: the pending list ({@link org.portals3j.mpi.internal.Receives})</h2>
 * A receive of at most 1 KiB ({@code Receives.COPY_LIMIT}), and every receive made while another is pending, posts
 * no match entry. Under the rank's lock it takes the oldest matching unexpected message, or goes to the tail of the
 * rank's pending list. Every message announced afterwards (its PUT_START on the region or the header entry handled,
 * in the queue's order) is first offered to that list, oldest receive first; the first that matches takes it as it
 * would an unexpected message (eager: it completes at the message's PUT_END with the copy out of the region, which
 * frees the credit; rendezvous: it gets the body). Why the order holds: the unexpected queue holds exactly the messages
 * announced before the receive was posted, and the events not yet handled announce later ones, so a message meets the
 * oldest receive posted before it was handled that matches it. A receive posted as an entry while one is pending
 * would take messages ahead of it, hence the second rule; a pending receive made while entries are posted is behind
 * them, as Portals' match list already keeps it (a message reaches the region only if no active entry takes it). No
 * Portals call, no look at the queue, no recall of the blocker: posting needs no empty queue. A pending receive is
 * cancelled by taking it off the list. The list is bounded as the entries are (the interface's match entries,
 * {@code ERR_NO_MEM} beyond). The cost is the copy of at most 1 KiB out of the region, where an entry would have
 * had the data put into the user's buffer.
 *
 * <h2>Posting a receive without a race (Portals 3.2 spec §5.3, rewritten to the chapter-3 API)</h2>
 * This is for a receive above 1 KiB made while none is pending. A receive first handles every waiting event, then
 * takes the oldest matching message of the unexpected queue (the messages whose PUT_START landed after the mark, in
 * arrival order). If there is none, it inserts its entry before
 * the mark with an <em>inactive</em> MD (threshold 0) and activates it with {@code PtlMDUpdate(md, active, eq)},
 * which succeeds only while the event queue is empty. If it fails, the events are handled one by one; a matching
 * unexpected message among them is taken and the entry unlinked; otherwise the update is tried again. Why no
 * message can be lost or overtaken: a message that matched an unexpected entry before the update logged its
 * PUT_START on the queue before it (START events are logged when the message matches), so the update fails until
 * that START has been handled and queued; after the update every matching message meets the active entry first.
 * Handling START events (not only END events) is what makes this exact: an eager message whose START was seen but
 * whose data is still arriving is taken by the receive, which completes at the message's PUT_END. Non-overtaking
 * then follows from Portals' ordered delivery per pair of processes and the order of the match list.
 * <p>
 * The idle entry. A receive posted when no idle entry is kept keeps its entry and MD after they match (the MD is
 * attached with {@code PTL_RETAIN}, so no UNLINK event either): the entry stays in the list, inactive. The next receive
 * with the same match and ignore bits, posted while no other receive is, reuses it: the same
 * {@code PtlMDUpdate(md, active, eq)} as above switches it on over the new buffer (an update replaces the whole
 * MD, Portals 3.2 spec §3.8.5), under the same condition, so no message can slip past it either. Reused only while
 * no other receive is posted, it is then the one active entry before the mark, and where it stands in the list
 * does not matter: the posting order of receives is kept. A receive with other bits posted while no other receive
 * is unlinks the idle entry and keeps its own in its place; one posted while others are unlinks its own when used,
 * as before, unless the idle place is free. A ping-pong's receive so makes one {@code PtlMDUpdate} where it made
 * an insert, an attach, the update and a look at the UNLINK event.
 *
 * <h2>Matched probe ({@link org.portals3j.mpi.internal.MatchedProbe}, {@link org.portals3j.mpi.internal.Probes})</h2>
 * {@code Message.mProbe} (MPI 4.1 section 3.8.2) takes, under the engine's lock, the oldest matching unexpected
 * message that nobody has claimed and marks its queue entry claimed: the entry stays in the queue (so that the rest
 * of an eager message still arriving, or the get of a rendezvous body, finds it as for any unexpected message) but
 * every search for a receive or a probe, of any thread, passes it by. {@code mRecv} then takes exactly that entry as
 * a receive takes an unexpected message: it copies an arrived eager message out (freeing its credit), waits for the
 * rest of one still arriving, or gets a rendezvous body. Messages that reach a posted receive are never probed, as
 * MPI wants. A claimed message that is never received stays in the queue (as an unreceived message does).
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
 * round of a blocking wait, handles the rank's events: a rank blocked in any call serves every message under way
 * (starts the gets of rendezvous messages its posted receives matched, reports credit). A rank that computes without
 * calling MPI does not start those gets until its next call (weak progress, as Open MPI without a progress thread).
 * How the threads of a rank wait ({@code RankWaits}):
 * <ul>
 *   <li><b>Blocking.</b> A wait with nothing to do blocks in {@code PtlEQWait} (in its interruptible form, so that
 *       an interrupt still ends an MPI wait with {@code ERR_OTHER}): the library polls the network while it spins,
 *       then parks until the next event is logged, which wakes the thread at once. Only one thread of a rank, the
 *       <i>blocker</i>, waits there; it handles the event it is handed and the ones behind it, all of them, or
 *       those up to the one that ends the operation it waits for (the rest stay queued for the next call or
 *       waiter, as if they had come a moment later). A wait for a send or receive, with no nonblocking collective
 *       under way, blocks at once rather than first looking at the queue: {@code PtlEQWait} returns the first event
 *       waiting as that look would, and only an event or another thread's change ends such an operation. A blocking
 *       receive left posted becomes the blocker in the same hold of the lock as its posting. Other waiting
 *       threads back off (spin, yield, then park of at most 100 us) and leave the events to it: an event handed to
 *       a waiter never enters the queue, so a second thread draining the queue meanwhile would handle later events
 *       before it.</li>
 *   <li><b>Oversubscription.</b> When the job's ranks on this host outnumber its cores (decided once when the rank
 *       joins, {@code JobBootstrap.oversubscribed}; override {@code portals.idle.oversubscribed}), every spin of
 *       these waits, the blocker's in {@code PtlEQWait} included, lasts 20 rounds rather than 2000 before it yields
 *       and parks, so a waiting rank gives its core to the rank it waits for, as Open MPI's
 *       {@code mpi_yield_when_idle} does (see the package documentation of {@code org.portals3j.runtime}).</li>
 *   <li><b>Recall.</b> Posting a receive as an entry needs every event so far handled and the queue's emptiness to
 *       mean "no message in between" (Portals 3.2 section 5.3, see "Posting a receive" above), which a waiter in
 *       {@code PtlEQWait} breaks: the posting thread wakes the blocker with a 0-byte put of the rank to itself
 *       (portal 7, which only the rank itself matches) and waits until it has handed back; no thread blocks
 *       meanwhile. So does {@code MPI.Finalize}. Probes handle the queue only when no thread is blocked.</li>
 *   <li><b>Changes without an event.</b> A cancel, a background {@code iDup}'s completion, a context-id hold
 *       given up and a nonblocking collective's schedule moved on change what another thread may wait for without an
 *       event: they wake the blocker the same way, and a thread about to block looks again if such a change came
 *       after it last checked.</li>
 *   <li><b>Events another thread handled.</b> So does a thread about to block if any thread handled an event since
 *       it last checked: the blocker may have completed its operation in between (it had found the blocker there
 *       and drained nothing), and then no event would ever end its block.</li>
 *   <li><b>Background iDups.</b> While a background {@code iDup}'s thread runs on the rank, no thread blocks: every
 *       wait backs off as above (a blocked thread is woken to do so), which keeps that thread's agreement, whose
 *       waits depend on other threads' context-id holds, out of the blocker's way.</li>
 * </ul>
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
 *       blocking collectives, but tags with bit 31 set and bit 30 clear (blocking ones use the small kind numbers, the
 *       context-id agreements bits 31 and 30), so a blocking collective never takes a nonblocking one's message. Below
 *       bit 30 the tag holds the number of the nonblocking collective on the communicator (26 bits, counted per rank,
 *       taken only once the call's checks have passed) and its kind: every rank numbers them in call order, so several
 *       outstanding collectives, of one kind or several, never take each other's messages however their rounds
 *       interleave, and a call that failed its checks on some ranks does not shift the numbering. They would collide
 *       only if 2^26 collectives on one communicator were outstanding at once.</li>
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
 * <h2>Blocking calls allocate almost nothing ({@link org.portals3j.mpi.internal.BlockingOperations})</h2>
 * A blocking send or receive of a contiguous type reuses its thread's operation, the memory descriptors bound for it
 * (the eager MD the engine keeps bound, above) and the segment of the last {@code java.nio} buffer it used (same
 * buffer, datatype and count), so a blocking 8 B ping-pong of direct buffers makes no Portals call that returns a new
 * handle, and allocates 0-20 bytes per round trip per rank, what the JIT does not remove of the {@code Status}
 * (bench/README.md, {@code MpiAllocations}). An operation a wait left
 * under way (an interrupted wait) is never reused. The thread's last buffer stays reachable until its next blocking
 * call with another buffer. Nonblocking calls allocate their operation, since their {@code Request} holds it.
 *
 * <h2>Ranks in one JVM ({@link org.portals3j.mpi.internal.MpiRuntime})</h2>
 * A thread acts for the rank {@code JobRuntime.runAsRank} bound it to ({@code portals run --transport inmem}, the
 * tests); otherwise for the process's rank. {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} are one object each;
 * their state (error handler, name) is per rank.
 *
 * <h2>Context ids of new communicators ({@link org.portals3j.mpi.internal.ContextAgreement})</h2>
 * The members of a new communicator agree on its context id by all-reduces over the parent's collective context (over
 * the group's members for {@code createGroup}), each agreement with a tag of its own (bits 31 and 30 set, then its
 * number among the agreements on the parent, or {@code createGroup}'s tag), so that an {@code iDup} agreeing in the
 * background never matches another collective. The rule that keeps threads of one rank apart (MPI 4.1 section
 * 11.6.3 lets them make communicators from different parents at the same time): a rank's right to claim an id is
 * held by one agreement at a time, only by one whose members have all joined (a first all-reduce), and, when several
 * want it, by the one with the lowest key (parent's context id, then its number); a round succeeds only when every
 * member held the right, and then the largest of their lowest unused ids is free on all of them. Rounds never wait
 * for the right, so an agreement blocked on an absent member never stops one the absent member must finish first.
 * One thread per rank: two rounds, 2 ceil(log2 n) exchanges of 8 bytes.
 *
 * <h2>Communicator extras</h2>
 * <ul>
 *   <li>{@code iDup} ({@link org.portals3j.mpi.internal.BackgroundDup}) runs its agreement on a daemon thread of
 *       its own, so the caller returns at once and may send, receive and wait while other members have not called
 *       it yet; its number, the parent's attributes and hints are taken at the call. Using the new communicator
 *       before its agreement is over is {@code ERR_COMM} (MPI 4.1 section 7.4.2 makes it erroneous).</li>
 *   <li>Attributes ({@link org.portals3j.mpi.internal.Attributes}, {@link org.portals3j.mpi.internal.Keyvals}) are
 *       kept Java-serialised as Open MPI keeps them (mpi-java-api.md section 4.6): a value must be
 *       {@code Serializable} and {@code getAttr} returns a copy. Every keyval copies its values on {@code dup},
 *       {@code iDup} and {@code dupWithInfo} (not on {@code split}, {@code create}, {@code splitType},
 *       {@code createGroup}) and drops them on {@code free}: the copy and delete callbacks Open MPI's bindings give
 *       every keyval (the Java API has no user callbacks). Keyvals are per rank, numbered from 16, not reused; a
 *       freed, predefined (for set, delete, free) or other-kind keyval is {@code ERR_KEYVAL}; deleting an attribute
 *       that is not set does nothing (MPI 4.1 section 7.7.2 does not call it an error). The predefined keys are
 *       cached on {@code COMM_WORLD} and copied by its dups, with the values of
 *       {@link org.portals3j.mpi.internal.Keyvals#predefinedValue}.</li>
 *   <li>{@code splitType(TYPE_SHARED)} groups the ranks of one node, a node being one operating-system kernel
 *       ({@link org.portals3j.mpi.internal.NodeIdentity}: host name and boot id, compared by digest, since a job's
 *       process mapping gives each rank a node id of its own and no host): in-JVM ranks and {@code portals run}
 *       processes on one host are one node.</li>
 *   <li>Info hints ({@code setInfo}, {@code dupWithInfo}) are all kept and returned by {@code getInfo}; none changes
 *       what the layer does (MPI 4.1 section 7.4.4 allows ignoring them). {@code dup} and {@code iDup} copy them.
 *       {@code setInfo(INFO_NULL)} is {@code ERR_INFO}; {@code dupWithInfo(INFO_NULL)} means no hints.</li>
 * </ul>
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
 *   <li>An intercommunicator takes two pairs of context ids, free at every process of both groups
 *       ({@link org.portals3j.mpi.internal.InterCommunicators}): one for the traffic between the groups, one for
 *       its local group's hidden intracommunicator ({@link org.portals3j.mpi.internal.InterCollectives} runs the
 *       intra-group steps of its collectives there).</li>
 *   <li>Topologies live in package {@code mpi}'s communicator objects, not in the rank's state: a grid
 *       ({@link org.portals3j.mpi.internal.CartTopology}) is immutable and made identically on every member.</li>
 *   <li>Rendezvous ids are 28 bits and wrap: a sender would have to start 2^28 rendezvous sends while one to the
 *       same receiver stays unreceived for two to collide.</li>
 * </ul>
 *
 * <h2>Derived datatypes ({@link org.portals3j.mpi.internal.TypeMap}, {@link org.portals3j.mpi.internal.Staged})</h2>
 * A derived type is flattened when it is made into its type map: the blocks of bytes one item covers relative to
 * the item's origin, in type-map order, adjacent blocks merged, with its bounds and size in bytes. Item {@code k}
 * of a call starts {@code k * extent} bytes after byte 0 of the buffer, and byte 0 is element 0 of the array, of a
 * heap buffer's {@code arrayOffset()}, or of a direct buffer (mpi-java-api.md section 1.3): the Java array is
 * treated as the memory Open MPI would copy it to. Choices:
 * <ul>
 *   <li>Units (mpi-java-api.md section 1.4, and Open MPI's binding, which passes these to C unscaled):
 *       {@code createVector} strides and {@code createIndexed} displacements count extents of the old type;
 *       {@code createHVector} strides, {@code createHIndexed} and {@code createStruct} displacements, and
 *       {@code createResized}'s lower bound and extent are bytes. The queries answer in base elements (bytes
 *       divided by the base type's size, a partial element dropped, as Open MPI's division does).</li>
 *   <li>Bounds follow MPI 4.1 section 5.1.6 without the alignment padding of struct extents (Open MPI adds none;
 *       {@code createResized} sets what a program needs).</li>
 *   <li>{@code createStruct} has base type BYTE whatever its members (section 1.4): its buffer is a
 *       {@code byte[]} or {@code ByteBuffer} with the values in native order, like {@code Struct}'s; the
 *       predefined operations do not apply to it (ERR_OP). Members of different base types are therefore
 *       allowed.</li>
 *   <li>A type map that reaches before byte 0 of the buffer (a negative displacement or lower bound) is
 *       ERR_BUFFER: slice the buffer ({@code MPI.slice}) instead. A buffer shorter than the bytes the items reach
 *       is ERR_BUFFER, a buffer of another base type ERR_TYPE. A flattened map of more than 2^20 blocks is
 *       ERR_ARG.</li>
 *   <li>Communication and packing need a committed type (ERR_TYPE otherwise, MPI 4.1 section 5.1.9); making
 *       types and querying them do not. {@code free} makes {@code isNull()} true (as Open MPI's handle becomes
 *       {@code MPI_DATATYPE_NULL}), leaves types made from it working, and is ERR_TYPE for a predefined type or a
 *       second time. {@code dup} keeps the committed state (MPI 4.1 section 5.1.10); a new type's name is empty
 *       and {@code dup} does not copy it.</li>
 *   <li>A <em>contiguous</em> derived type (one block from byte 0, lower bound 0, extent equal to size, such as
 *       {@code createContiguous} of a basic type) travels by the predefined path: the user's buffer itself, no
 *       copy.</li>
 *   <li>Any other type is <em>staged</em>: a call gathers the items it reads into a new packed array of the base
 *       type ({@code byte[]} for BOOLEAN) and moves that; the items it writes are received into a packed array and
 *       scattered into the user's buffer, only as far as data arrived. A send (blocking or nonblocking) gathers
 *       when it is posted, so a nonblocking send of a strided type no longer reads the user's buffer after the
 *       call (stronger than mpi-java-api.md section 4.7 requires). A receive scatters on the engine's thread when
 *       its data has arrived and before the request completes ({@code ReceiveOperation.Arrival}), so the buffer
 *       is complete when {@code waitFor} or {@code test} returns; a truncated message delivers the first items.
 *       The cost is one allocation and one copy of the data per call.</li>
 *   <li>{@code Status.getCount} divides the bytes received by the type's size ({@code UNDEFINED} if not whole);
 *       {@code getElements} walks the type map over them ({@code UNDEFINED} if they end inside an element), and
 *       {@code setElements} is its inverse: the bytes of that many basic elements, whole items first and then the
 *       leading elements of one more (MPI 3.1 section 4.1.11), so a partial item reads back as {@code getCount}
 *       {@code UNDEFINED}. A pair type or a {@code Struct}'s type counts one element per item, a complex type
 *       two.</li>
 *   <li>Collectives: each rank stages its own buffers, so ranks may use different types of the same signature.
 *       bcast, gather(v), scatter(v), allGather(v), allToAll(v), the neighbourhood collectives, their in-place
 *       forms and their nonblocking forms (iBcast ... iNeighborAllToAllv) take any type; a nonblocking one packs
 *       what it sends when it is called and unpacks what it received as the last local step of its schedule. A
 *       neighbourhood collective with a {@code PROC_NULL} in-neighbour reads its staged receive buffer too, so that
 *       the block nobody sends is written back as it was (MPI 4.1 section 8.6 leaves it untouched);
 *       {@code allToAllw} takes byte displacements and a type per rank, all the types of one buffer of its base
 *       type (ERR_TYPE otherwise: a Java buffer has one element type), a type with a count of 0 not looked at.
 *       reduce, allReduce, reduceScatter, reduceScatterBlock, scan, exScan and reduceLocal, their in-place forms
 *       and their nonblocking forms (iReduce ... iExScan) reduce a staged type's packed base elements and scatter
 *       the result into the user's layout, gaps untouched (an in-place reduceScatter writes only this rank's block;
 *       exScan leaves rank 0's buffer as it was). A nonblocking one packs its input when it is called (MPI 3.1
 *       section 5.12 forbids changing it before completion), its schedule reduces the packed copy, and its last
 *       local step, after the last round, scatters the result, so the buffer is complete when the request is. A
 *       predefined operation on the packed elements is exact for a type made of basic types only.</li>
 *   <li>A user-defined operation on a staged type is called on the packed elements, never on the user's layout:
 *       its {@code datatype} argument is the basic type ({@code MPI.INT} for a vector of ints) and its
 *       {@code count} the number of packed basic elements, so the arrays or buffers it gets hold {@code count}
 *       times that type's extent (1) elements, as the binding promises (mpi-java-api.md section 1.5). MPI 3.1
 *       section 5.9.5 passes the function the call's datatype; Open MPI then hands the Java function the extent,
 *       gaps included, which a Java function cannot tell from data. Passing the packed data of the basic type
 *       reduces the same elements in the same order and never shows the function the gaps; a function that reads
 *       its {@code count} and {@code datatype} arguments works either way. A staged type with struct, pair or
 *       complex parts (whose packed bytes have no basic type to name) is ERR_OP with either kind of operation:
 *       reduce a contiguous copy.</li>
 * </ul>
 */
package org.portals3j.mpi.internal;
