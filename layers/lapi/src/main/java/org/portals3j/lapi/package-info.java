/**
 * LAPI-style active messages on the public Portals 3.2 API (IBM's LAPI_Amsend man page and the man
 * pages of the calls around it). {@link org.portals3j.lapi.LapiContext} is one task's context; everything else is the
 * types its calls take. The layer uses {@code org.portals3j.portals} only: a program could have written it.
 *
 * <h2>LAPI function &rarr; Java method</h2>
 * A LAPI error is a {@link org.portals3j.lapi.LapiException} whose {@link org.portals3j.lapi.LapiError} is the
 * man page's code; out-arguments are return values; a C {@code NULL} is Java {@code null} (0 for addresses).
 * <table>
 * <caption>Every LAPI call the layer provides</caption>
 * <tr><th>LAPI</th><th>Java</th><th>Notes</th></tr>
 * <tr><td>{@code LAPI_Init}</td><td>{@link org.portals3j.lapi.LapiContext#init}</td><td>{@code lapi_info_t}:
 * {@link org.portals3j.lapi.LapiConfig}; {@code hndl}: {@link org.portals3j.lapi.LapiContext#handle()}</td></tr>
 * <tr><td>{@code LAPI_Term}</td><td>{@link org.portals3j.lapi.LapiContext#term}</td><td>also
 * {@code close()}</td></tr>
 * <tr><td>{@code LAPI_Amsend}</td><td>{@link org.portals3j.lapi.LapiContext#amsend}</td><td>handlers:
 * {@link org.portals3j.lapi.HeaderHandler}, {@link org.portals3j.lapi.CompletionHandler},
 * {@link org.portals3j.lapi.ReturnInfo}, {@link org.portals3j.lapi.RetFlag}</td></tr>
 * <tr><td>{@code LAPI_Put}</td><td>{@link org.portals3j.lapi.LapiContext#put}</td><td>target memory:
 * {@link org.portals3j.lapi.LapiContext#expose}</td></tr>
 * <tr><td>{@code LAPI_Get}</td><td>{@link org.portals3j.lapi.LapiContext#get}</td><td></td></tr>
 * <tr><td>{@code LAPI_Setcntr}</td><td>{@link org.portals3j.lapi.LapiContext#setcntr}</td><td>counters:
 * {@link org.portals3j.lapi.LapiContext#newCounter}, {@link org.portals3j.lapi.LapiContext#counterAt}</td></tr>
 * <tr><td>{@code LAPI_Getcntr}</td><td>{@link org.portals3j.lapi.LapiContext#getcntr}</td><td>{@code val}: the
 * return value</td></tr>
 * <tr><td>{@code LAPI_Waitcntr}</td><td>{@link org.portals3j.lapi.LapiContext#waitcntr}</td>
 * <td>{@code cur_cntr_val}: the return value</td></tr>
 * <tr><td>{@code LAPI_Fence}</td><td>{@link org.portals3j.lapi.LapiContext#fence}</td><td></td></tr>
 * <tr><td>{@code LAPI_Gfence}</td><td>{@link org.portals3j.lapi.LapiContext#gfence}</td><td></td></tr>
 * <tr><td>{@code LAPI_Addr_set}</td><td>{@link org.portals3j.lapi.LapiContext#addrSet}</td><td></td></tr>
 * <tr><td>{@code LAPI_Addr_get}</td><td>{@link org.portals3j.lapi.LapiContext#addrGet}</td><td>{@code addr}: the
 * return value</td></tr>
 * <tr><td>{@code LAPI_Address_init}</td><td>{@link org.portals3j.lapi.LapiContext#addressInit}</td><td>a
 * handler's address: {@link org.portals3j.lapi.LapiContext#address}</td></tr>
 * <tr><td>{@code LAPI_Qenv}</td><td>{@link org.portals3j.lapi.LapiContext#qenv}</td><td>{@code ret_val}: the
 * return value; also {@code taskId()}, {@code numTasks()}</td></tr>
 * <tr><td>{@code LAPI_Senv}</td><td>{@link org.portals3j.lapi.LapiContext#senv}</td><td></td></tr>
 * <tr><td>{@code LAPI_Probe}</td><td>{@link org.portals3j.lapi.LapiContext#probe}</td><td></td></tr>
 * <tr><td>{@code LAPI_Purge_totask}</td><td>{@link org.portals3j.lapi.LapiContext#purgeToTask}</td>
 * <td></td></tr>
 * <tr><td>{@code err_hndlr}</td><td>{@link org.portals3j.lapi.AsyncErrorListener}</td><td>target-side failures
 * no call can return; {@code err_type}: {@link org.portals3j.lapi.AsyncErrorType}</td></tr>
 * <tr><td>{@code ctl_flags}</td><td>{@link org.portals3j.lapi.ReturnInfo#setCtlFlags}</td><td>
 * {@link org.portals3j.lapi.ReturnInfo#BURY_MSG}</td></tr>
 * </table>
 *
 * <h2>Protocols (our design on the Portals 3.2 API)</h2>
 * A context uses two portals from {@link org.portals3j.lapi.LapiConfig#firstPortal()}: the <em>request</em>
 * portal, whose match list is a ring of receive MDs (locally managed offset, {@code max_offset} one packet short
 * of the end, re-attached at the tail when they unlink), and the <em>source</em> portal, where a task exposes a
 * buffer for one operation under match bits equal to the operation's id. Every packet starts with a 56-byte
 * header (kind, lengths, operation id, handler or target address, {@code tgt_cntr}, and the id of one deferred
 * final reply to the receiver, below); the sender is the event's initiator, never a field of the packet.
 * <ul>
 *   <li><b>Eager</b> ({@code uhdr_len + udata_len <= PKT_PAYLOAD_SZ}, O-03): header, {@code uhdr} and data are
 *       copied into a pooled staging MD (bound once; four size classes per power of two) and put; {@code org_cntr}
 *       moves at that copy. The staging MDs' send events go to a queue of their own, read only when a size
 *       class runs out, so a send never wakes the dispatcher. At the target the dispatcher runs the header handler
 *       on a read-only view of the packet ({@code udataOnePacket}), then copies the data into the buffer it
 *       returned (none if it returned null).</li>
 *   <li><b>Rendezvous</b> (larger): the origin exposes {@code udata} on the source portal <em>before</em> it puts
 *       the header; the target runs the header handler on the header alone, then PtlGets the data straight into
 *       the returned buffer (no bounce copy). {@code org_cntr} moves on the source MD's {@code GET_END}.</li>
 *   <li><b>Completion</b>: once the data is in place (T4; T1-T7 are the steps of the LAPI_Amsend man page, Description)
 *       the target sends DATA_DONE (for Fence) if a completion handler is to run on a completion thread; runs it (T5);
 *       increments {@code tgt_cntr} (T6); sends the final reply (T7), which returns the credit and makes the origin
 *       increment {@code org_cntr} if it has not yet (O-10), then {@code cmpl_cntr} (A6). Without a completion handler,
 *       or with one run inline ({@code LAPI_SEND_REPLY}: short and non-blocking by the man page's contract), DATA_DONE
 *       rides on the final reply, so each message costs the origin one reply. The Portals ACK is never used: it would
 *       come before T5 and T6.</li>
 *   <li><b>Deferred replies</b>: an eager request with no {@code cmpl_cntr} has its {@code org_cntr} moved at the
 *       copy, so no counter waits for its final reply; the origin marks it lazy and the target, after T6, owes the
 *       reply instead of sending it: it rides on the next packet the target sends the origin (one per packet, the
 *       header's ACK field), or all owed go in one packet once half the origin's credits are owed, or when the origin
 *       fences (Fence, Gfence and Term send a FLUSH to each target that may owe some; a request sent before a flush
 *       the target has seen is answered at once, and none is lazy while a Fence waits), or at the target's Term. A
 *       ping-pong of Amsends then costs one packet per hop, as one of Puts does. The time order is the man page's:
 *       the reply only returns the credit and tells Fence.</li>
 *   <li><b>Put</b> is an active message with a built-in handler that looks the target address up among the
 *       regions the target exposed ({@link org.portals3j.lapi.LapiContext#expose}, tokens with the region's
 *       number and the byte offset) or through the config's {@link org.portals3j.lapi.AddressResolver}; eager
 *       or rendezvous by size like Amsend. <b>Get</b> sends a request; the origin first exposes its destination
 *       on the source portal and the target puts the bytes there from an MD over its own memory (no copy).
 *       A Put or Get whose address is not valid memory of the target is refused there and reported through
 *       the target's listener; the origin's counters still move (a Get's {@code org_cntr} too, with an
 *       asynchronous error at the origin saying no data came), so no program hangs on a bad address.</li>
 *   <li><b>Flow control</b>: a task may have at most {@link org.portals3j.lapi.LapiConfig#credits()} requests
 *       (eager packets, rendezvous headers, Get requests) unanswered at each target; the final reply returns the
 *       credit. The receive ring is sized so that the credits of every task, their replies and the collectives'
 *       packets always fit: Portals silently drops a put that matches nothing, so nothing may overrun it. Credits
 *       open when the target says hello from its LAPI_Init (so messages to a task wait until it has
 *       initialised). Out of credit, Amsend/Put/Get wait while progress continues; Purge_totask releases them
 *       with {@code TGT_PURGED}, nothing sent. Every queue is bounded by the credits; the eager path allocates
 *       nothing per message but the {@code uhdr} view the handler API requires.</li>
 *   <li><b>Fence</b> waits until every operation this task started has its data delivered (DATA_DONE or final
 *       reply; a Get's data arrived). <b>Gfence</b> is Fence, then a barrier (every task tells task 0, which
 *       releases all). <b>Address_init</b> is an all-to-all exchange of control packets.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * One thread at a time holds the <em>dispatcher's role</em>: it alone takes events from the context's one event queue
 * (an event PtlEQWait hands a waiting thread never enters the queue, so a second taker would reorder them), and it
 * runs the header handlers and the {@code SEND_REPLY} completion handlers of what it takes. Normal completion handlers
 * run on {@code lapi-compl-<task>-<n>} ({@code completionThreads} of them, one FIFO queue in order of delivery,
 * O-11) whoever holds the role. A handler that throws is reported to the
 * {@link org.portals3j.lapi.AsyncErrorListener} and never stops a thread.
 * <ul>
 *   <li><b>Interrupt mode</b> ({@code INTERRUPT_SET} 1, the default): the thread {@code lapi-dispatch-<task>}
 *       runs the handlers while no thread of the program calls LAPI. It parks until an event is deposited while no
 *       thread holds the role (the event queue's handler, the extension {@code Portals.eqAlloc(ni, count,
 *       handler)}, wakes it), then takes the role, takes the events with PtlEQGet until the queue is empty and
 *       gives the role up again; it never holds the role blocked in PtlEQWait. A thread that waits in LAPI
 *       (Waitcntr, Fence, Gfence, Term, Address_init, an Amsend, Put or Get waiting for credit) takes the role
 *       while it waits (leader/follower), past a short spin: the role is free, or the dispatcher thread gives it up
 *       after the event it is handling, so taking it needs no interrupt and no wake-up event. The waiter then blocks
 *       in PtlEQWait itself and handles every event until its condition holds, then gives the role up. So the event
 *       that completes a wait wakes the waiting thread directly: one wake-up, not the dispatcher's and then the
 *       waiter's. A leader that gives the role up wakes the dispatcher thread if an event came that nobody took, so
 *       the next wait of a ping-pong takes the role without waking it (waking it on every give-back cost more than
 *       the hop saved, bench/README.md), and a message that arrives once no thread waits has its handler run as
 *       soon as the transport delivers it. A waiter spins first only while another thread holds the role. One
 *       waiting thread leads at a time; the others sleep on a monitor and are woken when the state they wait for
 *       changes, as before. A change made on a thread other
 *       than the leader (a completion thread's {@code tgt_cntr} increment, Setcntr, Purge_totask) wakes the
 *       leader with an event: a 0-byte put of the task to itself on the source portal, under match bits no
 *       operation uses, one in flight at a time. An interrupt of the leader ends its wait as before
 *       ({@code LAPI_ERR_UNKNOWN}, interrupt status set) and gives the role back.</li>
 *   <li><b>Polling mode</b> ({@code INTERRUPT_SET} 0): there is no dispatcher thread: Waitcntr, Getcntr, Fence,
 *       Gfence, Address_init, Probe and an Amsend waiting for credit drain the event queue on the caller's thread
 *       (one at a time). A waiter that finds nothing to do spins, yields, then blocks in PtlEQWait for the next
 *       event (woken by another thread's change as the leader above) if no other thread polls.</li>
 * </ul>
 * Which thread runs a handler: the man page says "the thread running the LAPI dispatcher" (LAPI_Amsend man page,
 * Description, and Inline execution of completion handlers), which is whoever holds the role; the kit's assertions
 * L-027 and L-043 name {@code lapi-dispatch-<tgt>}, which is what a handler sees when no thread of the target waits
 * in a LAPI call. L-027's "never on the caller's thread" holds: a handler never runs inside the Amsend that sent its
 * message. O-14 follows the role: Waitcntr, Fence, Gfence, Address_init, Term, and an Amsend that would wait for
 * credit, called from a header handler or an inline completion handler (on whichever thread holds the role) fail
 * with {@link org.portals3j.lapi.LapiError#BLOCKING_IN_HANDLER}.
 *
 * <h2>Choices where the man pages are silent</h2>
 * <ul>
 *   <li>O-01: {@code uhdr_len} must be a multiple of {@link org.portals3j.lapi.LapiConfig#uhdrAlign()}, 8 by
 *       default (the "doubleword" reading, which satisfies both).</li>
 *   <li>O-02: {@code MAX_UHDR_SZ} 1024, {@code LAPI_MAX_MSG_SZ} {@code Integer.MAX_VALUE - 8}, both configurable;
 *       Qenv(MAX_DATA_SZ) is the latter.</li>
 *   <li>O-03: single-packet iff {@code uhdr_len + udata_len <= PKT_PAYLOAD_SZ} (4096, configurable, queried with
 *       the extension {@link org.portals3j.lapi.LapiQuery#PKT_PAYLOAD_SZ}).</li>
 *   <li>O-04: {@code SEND_REPLY} runs the completion handler on the dispatcher right after delivery; the reply is
 *       still sent.</li>
 *   <li>O-05: {@code LOCAL_STATE} sends no completion to the origin's {@code cmpl_cntr}; a reply still returns the
 *       flow-control credit (it does not move any counter).</li>
 *   <li>O-06: a header handler that throws, returns null for a multi-packet message, or returns a buffer too small
 *       or read-only: the data is discarded, the listener told, the completion handler set before the failure
 *       still runs, {@code tgt_cntr} and {@code cmpl_cntr} still move. A completion handler that throws: reported,
 *       counters move as if it returned.</li>
 *   <li>{@code ctl_flags} (LAPI_Amsend man page, Role of the header handler; the Programming Guide that defines it was
 *       not read): {@code LAPI_BURY_MSG} is the one flag named. It is taken to mean "discard this message's data": the
 *       same path as O-06 without the report, so nothing is written (even into a returned buffer), a NULL return is
 *       fine for a multi-packet message and a rendezvous message's data is never fetched, while the completion handler
 *       and every counter proceed (the O-06 counter rule, so no origin waits forever). A bit the layer does not know is
 *       reported ({@code AM_ERR}) and the data discarded the same way: a flag the handler set is never silently
 *       ignored.</li>
 *   <li>{@code err_type} ({@code lapi_err_t}; the names are IBM's {@code lapi.h}'s, which report gets which is
 *       this layer's reading): {@code AM_ERR}, {@code PUT_ERR}, {@code GET_ERR} name the kind of the
 *       transfer a report concerns (at its target, or a refused Get at its origin); {@code INT_ERR} is for what
 *       belongs to no transfer (a packet that is not the layer's, a reply for nothing in flight, an event queue
 *       overflow, a Portals failure event). {@code RMW_ERR} is never given: there is no {@code LAPI_Rmw}.</li>
 *   <li>O-07: codes in parameter order; Put and Get: HNDL_INVALID, TGT, DATA_LEN, TGT_ADDR_NULL,
 *       ORG_ADDR_NULL.</li>
 *   <li>O-08: parameters are always checked; Qenv(ERROR_CHK) is 1 and Senv(ERROR_CHK, 0) is {@code SET_VAL}.
 *       INTERRUPT_SET is chosen at Init; Senv accepts only its current value.</li>
 *   <li>O-09: an unregistered index or unknown handler address at the target: dropped, reported, the completion
 *       reply still sent ({@code cmpl_cntr} moves), no {@code tgt_cntr} touched. An unknown {@code tgt_cntr}:
 *       reported, not incremented.</li>
 *   <li>O-10: {@code org_cntr} always moves before {@code cmpl_cntr} for the same message.</li>
 *   <li>O-11: {@code completionThreads} threads (default 1), FIFO in order of data delivery.</li>
 *   <li>O-12: a segment shorter than its length is an {@link java.lang.IndexOutOfBoundsException} before anything
 *       is sent.</li>
 *   <li>O-13: Amsend, Put and Get to self go through Portals like any other and are fully supported.</li>
 *   <li>O-14: Waitcntr, Fence, Gfence, Address_init, Term, and an Amsend that would wait for credit, called in a
 *       header handler or an inline completion handler (on the thread holding the dispatcher's role, see
 *       "Threads") fail with {@link org.portals3j.lapi.LapiError#BLOCKING_IN_HANDLER}.</li>
 *   <li>Addresses (our choice, open point: the LAPI_Addr_set man page does not say what an address is): handler,
 *       counter and region addresses a context issues are tokens with a tag in bits 56..62, so never an Addr_set
 *       index nor a C program's user-space address; an {@code hdr_hdl} in {@code 1 .. LOC_ADDRTBL_SZ-1} is an
 *       index resolved at the target. A counter made with {@code counterAt} is named by its cell's address.</li>
 *   <li>Counters: the value is the {@code int} at offset 0 of the 8-byte cell; increments wrap as a C
 *       {@code int}. Waitcntr returns the value after its subtraction.</li>
 *   <li>Term waits until this task's data is delivered (a Fence), then stops its threads and unlinks its Portals
 *       resources; it does not finalise the Portals library. Messages that arrive later are dropped by
 *       Portals.</li>
 * </ul>
 */

package org.portals3j.lapi;
