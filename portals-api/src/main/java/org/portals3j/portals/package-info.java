/**
 * The Portals 3.2 API (Sandia, Revision 1.1) for Java, and its Portals 3.3 dialect.
 * {@link org.portals3j.portals.Portals} is the 3.2 library of one process,
 * {@link org.portals3j.portals.Portals33} the 3.3 one, and {@link org.portals3j.portals.PortalsLibrary}
 * their common supertype, which has the functions the two dialects share; everything else here is the
 * types their functions take and return.
 *
 * <p>Line references ({@code Portals 3.2 spec §1.1}) are to {@code portals-3.2.numbered.lyx}; {@code A-xx} name
 * points the spec leaves open, each with our choice written at the place it matters.
 *
 * <h2>Spec function &rarr; Java method</h2>
 * Methods that both dialects share are declared by {@link org.portals3j.portals.PortalsLibrary} and
 * inherited by {@code Portals}: {@code init}, {@code fini}, the {@code ni*} and {@code getUid}/{@code getId}
 * methods, {@code meAttach}, {@code meAttachAny}, {@code meInsert} with {@code unlink}, {@code meUnlink},
 * {@code mdUnlink}, {@code mdUpdate}, {@code eqFree}, {@code eqGet}, {@code eqWait}, {@code put} and
 * {@code get}.
 * <table>
 * <caption>Every function of chapter 3</caption>
 * <tr><th>Spec function</th><th>Java</th><th>C out-arguments become</th></tr>
 * <tr><td>{@code PtlInit} (Portals 3.2 spec §3.3.1)</td> <td>{@link org.portals3j.portals.Portals#init()}</td>
 * <td>{@code max_interfaces}: the return value</td></tr>
 * <tr><td>{@code PtlFini} (Portals 3.2 spec §3.3.2)</td><td>{@link
 * org.portals3j.portals.Portals#fini()}</td><td></td></tr> <tr><td>{@code PtlNIInit} (Portals 3.2 spec §3.4.1)</td>
 * <td>{@link org.portals3j.portals.Portals#niInit}</td> <td>{@code handle}, {@code actual}: {@link
 * org.portals3j.portals.NiInit}</td></tr> <tr><td>{@code PtlNIFini} (Portals 3.2 spec §3.4.2)</td><td>{@link
 * org.portals3j.portals.Portals#niFini}</td><td></td></tr> <tr><td>{@code PtlNIStatus} (Portals 3.2 spec §3.4.3)</td>
 * <td>{@link org.portals3j.portals.Portals#niStatus}</td> <td>{@code status}: the return value</td></tr>
 * <tr><td>{@code PtlNIDist} (Portals 3.2 spec §3.4.4)</td> <td>{@link org.portals3j.portals.Portals#niDist}</td>
 * <td>{@code distance}: the return value</td></tr>
 * <tr><td>{@code PtlNIHandle} (Portals 3.2 spec §3.4.5)</td> <td>{@link org.portals3j.portals.Portals#niHandle}</td>
 * <td>{@code interface}: the return value</td></tr>
 * <tr><td>{@code PtlGetUid} (Portals 3.2 spec §3.5.1)</td> <td>{@link org.portals3j.portals.Portals#getUid}</td>
 * <td>{@code uid}: the return value</td></tr>
 * <tr><td>{@code PtlGetId} (Portals 3.2 spec §3.6.2)</td> <td>{@link org.portals3j.portals.Portals#getId}</td>
 * <td>{@code id}: the return value</td></tr>
 * <tr><td>{@code PtlMEAttach} (Portals 3.2 spec §3.7.1)</td> <td>{@link org.portals3j.portals.Portals#meAttach}</td>
 * <td>{@code handle}: the return value</td></tr>
 * <tr><td>{@code PtlMEAttachAny} (Portals 3.2 spec §3.7.2)</td> <td>{@link
 * org.portals3j.portals.Portals#meAttachAny}</td> <td>{@code index}, {@code handle}: {@link
 * org.portals3j.portals.AttachedEntry}</td></tr> <tr><td>{@code PtlMEInsert} (Portals 3.2 spec §3.7.3)</td>
 * <td>{@link org.portals3j.portals.Portals#meInsert(MeHandle, ProcessId, long, long, InsertPosition)},
 *     and with {@code unlink}
 *     {@link org.portals3j.portals.Portals#meInsert(MeHandle, ProcessId, long, long, Unlink, InsertPosition)}</td>
 *     <td>{@code handle}: the return value</td></tr>
 * <tr><td>{@code PtlMEUnlink} (Portals 3.2 spec §3.7.4)</td><td>{@link
 * org.portals3j.portals.Portals#meUnlink}</td><td></td></tr> <tr><td>{@code PtlMDAttach} (Portals 3.2 spec §3.8.2)</td>
 * <td>{@link org.portals3j.portals.Portals#mdAttach}</td> <td>{@code handle}: the return value (may be ignored, as NULL
 * may be passed in C)</td></tr> <tr><td>{@code PtlMDBind} (Portals 3.2 spec §3.8.3)</td> <td>{@link
 * org.portals3j.portals.Portals#mdBind}</td> <td>{@code handle}: the return value</td></tr>
 * <tr><td>{@code PtlMDUnlink} (Portals 3.2 spec §3.8.4)</td><td>{@link
 * org.portals3j.portals.Portals#mdUnlink}</td><td></td></tr> <tr><td>{@code PtlMDUpdate} (Portals 3.2 spec §3.8.5)</td>
 * <td>{@link org.portals3j.portals.Portals#mdUpdate}</td> <td>{@code old_md} and the status: {@link
 * org.portals3j.portals.MdUpdateResult}</td></tr> <tr><td>{@code PtlEQAlloc} (Portals 3.2 spec §3.9.5)</td> <td>{@link
 * org.portals3j.portals.Portals#eqAlloc}</td> <td>{@code handle}: the return value; an extension gives a 3.2 queue
 * a 3.3 {@code eq_handler} ({@link org.portals3j.portals.EventHandler})</td></tr>
 * <tr><td>{@code PtlEQFree} (Portals 3.2 spec §3.9.6)</td><td>{@link
 * org.portals3j.portals.Portals#eqFree}</td><td></td></tr> <tr><td>{@code PtlEQGet} (Portals 3.2 spec §3.9.7)</td>
 * <td>{@link org.portals3j.portals.Portals#eqGet}</td> <td>{@code event}: a caller-owned {@link
 * org.portals3j.portals.Event}, filled</td></tr> <tr><td>{@code PtlEQWait} (Portals 3.2 spec §3.9.8)</td> <td>{@link
 * org.portals3j.portals.Portals#eqWait}</td> <td>{@code event}: a caller-owned {@link org.portals3j.portals.Event},
 * filled; {@link org.portals3j.portals.Portals#eqWaitInterruptibly} is the same wait ended by a Java interrupt (the
 * spec's has no such end)</td></tr> <tr><td>{@code PtlACEntry} (Portals 3.2 spec §3.10.1)</td><td>{@link
 * org.portals3j.portals.Portals#acEntry}</td><td></td></tr> <tr><td>{@code PtlPut}
 * (Portals 3.2 spec §3.11.1)</td><td>{@link org.portals3j.portals.Portals#put}</td><td></td></tr> <tr><td>{@code
 * PtlGet} (Portals 3.2 spec §3.11.2)</td><td>{@link org.portals3j.portals.Portals#get}</td><td></td></tr> </table>
 *
 * <p>Return codes: a failure is a {@link org.portals3j.portals.PortalsException} carrying the
 * {@link org.portals3j.portals.ReturnCode}; {@code PTL_EQ_EMPTY}, {@code PTL_EQ_DROPPED} and
 * {@code PTL_NOUPDATE} are returned. {@code PTL_SEGV} ("not a legal address") is the answer to a
 * {@code null} argument; the C shim produces it for {@code NULL} pointers. The union of the codes that
 * the function texts and the summary table list is reachable.
 *
 * <h2>Types</h2>
 * <table>
 * <caption>C types and their Java form</caption>
 * <tr><th>C</th><th>Java</th></tr>
 * <tr><td>{@code ptl_process_id_t}</td> <td>{@link org.portals3j.portals.ProcessId}; wildcards {@code PTL_NID_ANY},
 * {@code PTL_PID_ANY} = -1</td></tr>
 * <tr><td>{@code ptl_md_t}</td> <td>{@link org.portals3j.portals.MemoryDescriptor}: {@code start} is a
 * {@link java.lang.foreign.MemorySegment}</td></tr>
 * <tr><td>{@code ptl_event_t}</td><td>{@link org.portals3j.portals.Event}</td></tr>
 * <tr><td>{@code ptl_ni_limits_t}</td><td>{@link org.portals3j.portals.NiLimits}</td></tr>
 * <tr><td>{@code ptl_handle_*_t}</td> <td>{@link org.portals3j.portals.NiHandle},
 * {@link org.portals3j.portals.MeHandle}, {@link org.portals3j.portals.MdHandle},
 *     {@link org.portals3j.portals.EqHandle}, {@link org.portals3j.portals.AnyHandle}</td></tr>
 * <tr><td>{@code ptl_interface_t}</td><td>{@link org.portals3j.portals.InterfaceId}</td></tr>
 * <tr><td>{@code ptl_sr_index_t}</td><td>{@link org.portals3j.portals.StatusRegister}</td></tr>
 * <tr><td>{@code ptl_event_kind_t}, {@code ptl_unlink_t}, {@code ptl_ins_pos_t}, {@code ptl_ack_req_t}</td>
 *     <td>{@link org.portals3j.portals.EventKind}, {@link org.portals3j.portals.Unlink},
 *     {@link org.portals3j.portals.InsertPosition},
 *     {@link org.portals3j.portals.AckRequest} (ordinals = the C enums' implied values)</td></tr>
 * <tr><td>{@code ptl_ni_fail_t}</td><td>{@link org.portals3j.portals.NiFailType}</td></tr>
 * <tr><td>{@code ptl_size_t}, {@code ptl_match_bits_t}, {@code ptl_hdr_data_t}, {@code ptl_seq_t}</td> <td>{@code long}
 * (all 64 bits of match bits and hdr_data are used)</td></tr>
 * <tr><td>{@code ptl_pt_index_t}, {@code ptl_ac_index_t}, {@code ptl_uid_t}</td> <td>{@code int};
 * {@code PTL_PT_INDEX_ANY}, {@code PTL_UID_ANY} = -1</td></tr>
 * <tr><td>{@code PTL_MD_*} options</td><td>{@link org.portals3j.portals.MdOption}</td></tr>
 * </table>
 *
 * <h2>What each event field holds</h2>
 * Our reading of Portals 3.2 spec §3.9.4 (The Event Type), as implemented. "Request" means the put or get request as it
 * arrived.
 * <table>
 * <caption>ptl_event_t fields by event kind</caption>
 * <tr><th>Field</th><th>PUT_* / GET_* (target)</th><th>SEND_* (put initiator)</th><th>ACK</th><th>REPLY_* (get
 * initiator)</th><th>UNLINK</th></tr>
 * <tr><td>initiator</td> <td>the requester</td> <td>this process</td> <td>the put's target</td> <td>the get's
 * target</td> <td>from the causing request</td></tr>
 * <tr><td>uid</td> <td>request's user</td> <td>own uid</td> <td>the target's uid</td> <td>the target's uid</td>
 * <td>from the causing request</td></tr>
 * <tr><td>portal, match_bits</td> <td>request</td> <td>PtlPut arguments</td> <td>echoed</td> <td>echoed</td> <td>from
 * the causing request</td></tr>
 * <tr><td>rlength</td> <td>request length</td> <td>MD length</td> <td>echoed requested length</td> <td>echoed requested
 * length</td> <td>from the causing request</td></tr>
 * <tr><td>mlength</td> <td>bytes accepted (truncated if so)</td> <td>MD length</td> <td>manipulated length at the
 * target</td> <td>bytes placed (at most the local length)</td> <td>from the causing request</td></tr>
 * <tr><td>offset</td> <td>offset used in the MD</td> <td>PtlPut offset</td> <td>echoed</td> <td>echoed request offset
 * (data lands at 0, A-34)</td> <td>from the causing request</td></tr>
 * <tr><td>md_handle, mem_desc</td><td colspan="5">the MD, and its state right after the event (a START already shows
 * the decremented threshold, A-58)</td></tr>
 * <tr><td>hdr_data</td><td>PtlPut's (PUT_*), 0 (GET_*)</td><td>PtlPut's</td><td>0</td><td>0</td><td>0</td></tr>
 * <tr><td>link</td><td colspan="2">START: its own sequence; END/FAIL: the START's sequence</td> <td>its own
 * sequence</td> <td>as PUT</td> <td>sequence of the causing END event; 0 for unlink_nofit</td></tr>
 * <tr><td>ni_fail_type</td><td colspan="5">{@link org.portals3j.portals.NiFailType#OK} except on *_FAIL
 * events</td></tr>
 * <tr><td>sequence</td><td colspan="5">per interface, starting at 1, increasing (A-51)</td></tr>
 * </table>
 *
 * <h2>Choices where the spec is open</h2>
 * <ul>
 *   <li>A-02: {@code PtlMEInsert} without {@code unlink} creates the entry with {@code PTL_UNLINK}.</li>
 *   <li>A-04: unlinking an MD (automatically or not) removes its entry only if the entry has {@code PTL_UNLINK}.</li>
 *   <li>A-06: {@code PtlMEAttachAny} takes the lowest portal index whose list is empty.</li>
 *   <li>A-07: {@code PTL_ML_TOOLONG} only when {@link org.portals3j.portals.PortalsConfig#maxMatchListLength()} is
 *   set.</li>
 *   <li>A-08: a repeated {@code PtlNIInit} with the same pid or {@code PTL_PID_ANY} returns the same handle; another
 *       explicit pid is {@code PTL_INIT_DUP}; a negative {@code desired.max_atable_index} is
 *       {@code PTL_INV_ASIZE}.</li>
 *   <li>A-10, A-11: {@code PTL_INV_SR_INDX} for a bad register; {@code PTL_INV_PTINDEX} from {@code PtlMEAttach},
 *       {@code PTL_PT_INV_INDEX} from {@code PtlACEntry}.</li>
 *   <li>A-14: a bad {@code eventq} is {@code PTL_ILL_MD} in {@code PtlMDAttach}, {@code PTL_INV_EQ} in
 *   {@code PtlMDBind}.</li>
 *   <li>A-16: fourteen event kinds; no {@code PTL_EVENT_ACK_START/END/FAIL}.</li>
 *   <li>A-19: {@code PtlEQWait} wakes exactly one waiter per event, in FIFO order.</li>
 *   <li>A-20, A-21: delivery is FIFO per pair of processes; SEND_START order equals the target's PUT_START order.</li>
 *   <li>A-22: match when {@code ((incoming ^ match_bits) & ~ignore_bits) == 0}.</li>
 *   <li>A-23: the local offset advances by {@code mlength}. A-24: inactive when the local offset is strictly greater
 *   than {@code max_offset}.</li>
 *   <li>A-25: {@code unlink_nofit} unlinks (posting UNLINK with link 0) and the request goes on down the list.</li>
 *   <li>A-26: the automatic unlink is checked only after a successful completion.</li>
 *   <li>A-27: a put or get takes one unit of threshold when called ({@code PTL_INV_MD} at 0); acks and replies take
 *   none.</li>
 *   <li>A-29: the uid is checked too; ACL entry 0 allows same-uid processes on every interface
 *       ({@link org.portals3j.portals.PortalsConfig#aclEntryZeroEverywhere()}); other entries start empty.</li>
 *   <li>A-30: an ack is asked for only with {@code PTL_ACK_REQ} and an event queue on the local MD.</li>
 *   <li>A-34: reply data lands at offset 0 of the local MD, truncated to its length.</li>
 *   <li>A-35, A-36: an ack to a full event queue is dropped and counted; otherwise a full queue loses the newest
 *   event.</li>
 *   <li>A-37: {@code PtlMEUnlink} with operations pending succeeds; they complete; no UNLINK event.</li>
 *   <li>A-38: {@code PtlMDUpdate} always returns the old value, and an update (a new value given and
 *       taken) restarts the local offset at 0, in both dialects. Our choice (open point: Portals 3.2 spec §3.8.5
 *       does not say); both reference implementations rebuild the MD with offset 0 (the 3.3
 *       reference, {@code p3lib/md.c lib_PtlMDUpdate}, and the 3.2-era Sandia code kept in early Lustre,
 *       {@code lib/lib-md.c do_PtlMDUpdate_internal}, which rebuilds it with {@code lib_md_build}),
 *       and programs rely on it to reuse an MD: a put ping-pong that re-arms its receive MD with
 *       {@code PtlMDUpdate} for each message expects every message at offset 0, and with the offset kept
 *       it hangs once the messages no longer fit after the earlier ones.</li>
 *   <li>A-39: an MD whose event queue was freed logs nothing. A-40: {@code PtlNIFini} invalidates every handle of the
 *   interface.</li>
 *   <li>A-50: a bound MD is never unlinked automatically. A-51: see the event table. A-52: distance 0 to oneself, 1 to
 *   others.</li>
 *   <li>A-53: a get nobody answers stays pending ({@code PTL_MD_INUSE}) until the target fails or the interface is
 *   finalised.</li>
 *   <li>A-55: {@code start == NULL} with {@code length > 0} is {@code PTL_ILL_MD}. A-57: {@code PtlEQAlloc(0)} is
 *   {@code PTL_NOSPACE}.</li>
 *   <li>Event queue memory ({@code PtlEQAlloc}, Portals 3.2 section 3.9.5): a queue holds 1 to 2^24 events
 *       (a larger {@code count} is {@code PTL_NOSPACE}), but its memory is not allocated for {@code count}
 *       events at once: it grows with the queue's backlog, in chunks of 256 events allocated when first
 *       needed and reused once taken, so a queue of 2^24 costs what its deepest backlog needs. The first
 *       chunk is allocated by {@code PtlEQAlloc} without holding the library's lock (other threads' calls
 *       and deliveries go on); a JVM without the memory makes {@code PtlEQAlloc} fail with
 *       {@code PTL_NOSPACE}, taking no queue. A chunk the JVM cannot allocate later loses its event as a
 *       full queue does ({@code PTL_EQ_DROPPED}, {@code PTL_SR_EVENTS_DROPPED}: "dropped due to limited
 *       space in the event queue", Portals 3.2 spec §3.9.7.1).</li>
 *   <li>A-59: SEND_END is always logged before the ACK of the same put. An ack that arrives before the
 *       transport has reported the send complete proves the target has the whole message: SEND_END and
 *       ACK are logged then, not when the transport's report comes.</li>
 *   <li>An ack leaves before its PUT_END can be seen: the target hands the ack to the transport, then logs
 *       PUT_END (waking a PtlEQWait, or visible to PtlEQGet and a 3.3 handler). With FIFO delivery per pair
 *       and the rule above, a message the target sends once it has seen PUT_END (an answer) is
 *       logged at the initiator after that put's ACK (kit P-309).</li>
 *   <li><b>When SEND_END is logged.</b> SEND_END is "completion of the send on the local node", logged once
 *       "it is safe for the application to reuse the buffer" (Portals 3.2 sections 3.11.1 and 3.9.1); delivery
 *       is what the ACK reports. The 3.3 reference implementation logs it when its network layer has taken the
 *       data (portals3ib {@code p3lib/msg.c lib_finalize}, called by the NAL once the bytes are in the socket),
 *       and programs written for it rely on that: a ring program waits for its put's SEND_END before the
 *       token's PUT_END on one queue, and the token may already be back. So a put whose payload is at most
 *       {@link org.portals3j.portals.PortalsConfig#stagedSendLimit()} bytes (8 KiB by default) is
 *       <em>staged</em>: its bytes are copied into one of the library's own buffers
 *       ({@link org.portals3j.portals.PortalsConfig#stagingBuffers()} of them, 64 by default, allocated once when
 *       the library is created), SEND_END is logged, and then the copy is handed to the network, all before
 *       {@code PtlPut} returns. The same holds for the reply to a get: GET_END ("after the reply has been sent by
 *       the local node", section 3.9.1; the reference logs it as SEND_END) is logged once the reply's bytes are
 *       copied. Nothing the message causes (the target's answer, a token come round a ring) can therefore be
 *       logged on the same queue before it (kit P-310), and a change to the MD after SEND_END never reaches the
 *       target (P-170). A buffer goes back to the library when the network has finished with the message. A
 *       larger payload, or one that finds every buffer taken, is read from the MD by the network, and its
 *       SEND_END (GET_END) waits for the network's report that the message was delivered, as before; so does
 *       every message on a transport that delivers inline ({@code inmem}), which reports the send complete as
 *       soon as it has copied the payload into the target, before the target's handler can see it. A
 *       {@code PtlGetPut}'s SEND_END is not staged (its reply, which always follows, proves the bytes arrived).
 *       Failures: a put to a process the network already knows dead, or from a closed endpoint, is not staged
 *       and fails as before (SEND_FAIL; 3.3: SEND_END with {@code ni_fail_type}). A staged message the network
 *       fails to deliver later (the peer dies meanwhile) cannot take its SEND_END back, as in the reference
 *       implementation: only the ACK, if one was asked for, reports delivery, and it never comes; the
 *       interface counts such messages in {@link org.portals3j.portals.StatusRegister#SENDS_LOST}
 *       ({@code PTL_SR_SENDS_LOST}, not part of the drop count). So a put to a process that has died but is
 *       not yet known dead may end with SEND_END and no ACK rather than SEND_FAIL, and a get's reply that cannot
 *       be delivered ends with GET_FAIL at the target only if it was not staged; the initiator of such a
 *       get still ends it with REPLY_START and REPLY_FAIL (3.3: REPLY_END with {@code ni_fail_type}).</li>
 *   <li>The transport's largest message ({@code Transport.maxPayloadLength()}: 2^40 bytes on udp): a
 *       {@code PtlPut} whose MD is longer, or a {@code PtlGet} asking for more, fails with {@code PTL_INV_MD}
 *       (the one MD code of {@code PtlPut} and {@code PtlGet}, sections 3.11.1.1 and 3.11.2.1: the MD is not
 *       valid for a message of this network), a 3.3 {@code PtlPutRegion}/{@code PtlGetRegion} of such a
 *       region with {@code PTL_ILL_MD}, as any region the call cannot use; checked before anything is
 *       taken or logged, so the MD keeps its threshold and has nothing pending. The MD itself is legal
 *       ({@code PtlMDAttach} and {@code PtlMDBind} accept it): it can still receive puts and answer gets
 *       of up to that size, and send regions of it. A get that asks a process for more than its transport
 *       carries (a peer that ignores the limit) is answered with a reply truncated to that limit, reported
 *       in the GET and REPLY events' {@code mlength}, so that it does not stay pending for ever. A message
 *       the transport refuses for any other reason fails its operation as an undelivered one would
 *       ({@code SEND_FAIL}, {@code GET_FAIL}, or {@code REPLY_START} and {@code REPLY_FAIL}), and an ack it
 *       refuses is lost as one the network lost: no operation is left half done.</li>
 *   <li>Back-pressure: {@code PtlPut}, {@code PtlGet} (and the 3.3 region calls and {@code PtlGetPut}) may
 *       block. A transport bounds what it keeps for a peer that has not yet acknowledged it (udp: at most
 *       {@code udp.sendQueueMessages} messages and {@code udp.sendQueueBytes} bytes of payload per peer,
 *       package {@code org.portals3j.transport.udp}, "Backpressure"), and a call that finds the bound reached
 *       waits until acknowledgements make room, the target is declared dead or the endpoint closes (then
 *       the operation fails as an undelivered one: {@code SEND_FAIL}, or {@code REPLY_START} and
 *       {@code REPLY_FAIL}; 3.3: the END event with {@code ni_fail_type}). Why a wait and not a code: the
 *       spec gives {@code PtlPut} and {@code PtlGet} no code for "no room" ({@code PTL_NOSPACE} is not among
 *       those of sections 3.11.1.1 and 3.11.2.1, which list only {@code PTL_NOINIT}, {@code PTL_INV_MD} and
 *       {@code PTL_INV_PROC}), the call "initiates an asynchronous put operation" whose outcome is an event,
 *       and programs written for it do not retry; an unbounded queue instead lets a rank that puts in a loop
 *       exhaust its memory. The wait holds no engine lock, only the turn on the channel to that target (another
 *       thread's put to it waits too; calls to other targets and the network go on), and ends only on room or
 *       failure, never on a timer. The acks and replies the engine sends from the network's own thread never
 *       wait, since the acknowledgements they would wait for are processed by that very thread.</li>
 *   <li>A-61, A-62, A-63: {@code PTL_PT_INDEX_ANY} only in {@code PtlACEntry}; wildcards, negative values and
 *       nids outside the job are {@code PTL_INV_PROC} where a concrete process is needed.</li>
 *   <li>A-63 for match ids: a {@code matchid} of {@code PtlMEAttach}, {@code PtlMEAttachAny},
 *       {@code PtlMEInsert} or {@code PtlACEntry} whose nid is neither {@code PTL_NID_ANY} nor a node of the job
 *       is {@code PTL_INV_PROC} ("matchid is not a valid process identifier", sections 3.7.1.1, 3.7.2.1,
 *       3.7.3.1, 3.10.1.1), the rule {@code PtlPut}, {@code PtlGet} and {@code PtlNIDist} follow for the same
 *       nid: no process there can ever send a request, so such an entry could never match. The wildcards
 *       stay legal in either field, and a concrete pid is not checked (which pids another node has is not
 *       known locally; a request for a pid a node does not have is dropped there, Portals 3.2 spec §4.2).</li>
 * </ul>
 *
 * <h2>The Portals 3.3 dialect</h2>
 * {@link org.portals3j.portals.Portals33} is the Portals 3.3 API (The Portals 3.3 Message Passing
 * Interface, SAND2006-0420) over the same engine; the native shim's {@code -DPTL_DIALECT_33} forwards to
 * it. No 3.3 text is among the project's specs: each 3.3 rule is documented where it is implemented,
 * with its source (the 3.3 reference implementation {@code github.com/jkmcnk/portals3ib}, whose comments
 * cite the 3.3 sections, and the 3.3 text as Lustre's LNet API keeps it), and the conformance kit checks
 * them as P-275 to P-307.
 *
 * <h3>Why a class of its own</h3>
 * <ul>
 *   <li>Some 3.3 rules cannot be chosen per call: events are numbered per queue, an acknowledgement takes
 *       a unit of threshold, a failure ends with the END event, access control sees job ids. A library
 *       follows one dialect for its whole life, and the class says which: {@code Portals.create} or
 *       {@code Portals33.create}.</li>
 *   <li>The compiler keeps the dialects apart. A 3.3 program cannot call 3.2's
 *       {@code mdAttach(me, md, unlinkOp, unlinkNofit)} by mistake, nor a 3.2 program pass
 *       {@link org.portals3j.portals.MdOption#MAX_SIZE}: the 3.2 calls refuse the three 3.3 options with
 *       {@code PTL_ILL_MD}, exactly as before; {@link org.portals3j.portals.Portals} has every method it had.</li>
 *   <li>What the dialects share is written once: {@link org.portals3j.portals.PortalsLibrary}, the sealed
 *       supertype of both classes, has every function whose signature and meaning are the same in 3.2 and
 *       3.3, and code that needs only those (a barrier, a ping-pong) can take either library. A function
 *       whose signature differs (the table below) is declared by each class in its own form.</li>
 *   <li>For the C shim, each function of the 3.3 header is the method of the same name in
 *       {@code Portals33}, whatever its signature, so the mapping stays one to one.</li>
 * </ul>
 * Shared types serve both: {@link org.portals3j.portals.MemoryDescriptor} has the 3.3
 * {@code max_size} beside the 3.2 {@code max_offset} (each dialect reads its own), and
 * {@link org.portals3j.portals.Event} has the 3.3 {@code jid}.
 *
 * <table>
 * <caption>Portals 3.3 functions that differ from 3.2, and their Java methods</caption>
 * <tr><th>3.3 function</th><th>Java</th><th>Differs from 3.2 in</th></tr>
 * <tr><td>{@code PtlMDAttach(me, md, unlink_op, &h)}</td> <td>{@link org.portals3j.portals.Portals33#mdAttach}</td>
 * <td>no {@code unlink_nofit}: an MD a request does not fit is passed over</td></tr>
 * <tr><td>{@code PtlMDBind(ni, md, unlink_op, &h)}</td> <td>{@link org.portals3j.portals.Portals33#mdBind}</td>
 * <td>{@code unlink_op}: a bound MD can unlink itself</td></tr>
 * <tr><td>{@code PtlMEInsert(base, id, bits, ignore, unlink, pos, &h)}</td>
 * <td>{@link org.portals3j.portals.Portals33#meInsert}</td> <td>{@code unlink} in the signature (3.2's argument table
 * had it, A-02)</td></tr>
 * <tr><td>{@code PtlEQAlloc(ni, count, handler, &h)}</td> <td>{@link org.portals3j.portals.Portals33#eqAlloc}</td>
 * <td>a handler ({@link org.portals3j.portals.EventHandler}), or {@code PTL_EQ_HANDLER_NONE}</td></tr>
 * <tr><td>{@code PtlEQPoll(eqs, size, timeout, &ev, &which)}</td>
 * <td>{@link org.portals3j.portals.Portals33#eqPoll}</td> <td>new; the result is an
 * {@link org.portals3j.portals.EqPollResult}</td></tr>
 * <tr><td>{@code PtlACEntry(ni, i, id, uid, jid, pt)}</td> <td>{@link org.portals3j.portals.Portals33#acEntry}</td>
 * <td>a job id, or {@code PTL_JID_ANY}</td></tr>
 * <tr><td>{@code PtlGetJid(ni, &jid)}</td><td>{@link org.portals3j.portals.Portals33#getJid}</td><td>new</td></tr>
 * <tr><td>{@code PtlPutRegion}, {@code PtlGetRegion}</td> <td>{@link org.portals3j.portals.Portals33#putRegion},
 * {@link org.portals3j.portals.Portals33#getRegion}</td> <td>new: a region {@code [local_offset, +length)} of the
 * MD</td></tr>
 * <tr><td>{@code PtlHandleIsEqual(h1, h2)}</td> <td>{@link org.portals3j.portals.Portals33#handleIsEqual}</td> <td>new;
 * a truth value</td></tr>
 * <tr><td>{@code PtlGetPut(get_md, put_md, target, pt, ac, bits, offset, hdr)}</td>
 * <td>{@link org.portals3j.portals.Portals33#getPut}</td> <td>new (the reference implementation's atomic swap,
 * below)</td></tr>
 * </table>
 * The other functions have 3.2's signatures and are the methods of the same names that both classes inherit
 * from {@link org.portals3j.portals.PortalsLibrary}.
 *
 * <h3>Semantics that differ in a 3.3 library</h3>
 * <ul>
 *   <li>{@code ptl_md_t}: no {@code max_offset} (ignored); {@code max_size} with {@code PTL_MD_MAX_SIZE}
 *       is the largest request the MD accepts, and the MD is inactive once
 *       {@code length - local offset < max_size}; {@code PTL_MD_EVENT_START_DISABLE} and
 *       {@code PTL_MD_EVENT_END_DISABLE} suppress START and END events (not ACK or UNLINK).</li>
 *   <li>Threshold: an acknowledgement takes a unit when it arrives, and is dropped (counted) if the
 *       initiator's MD is inactive. Puts and gets take theirs when issued, as in 3.2.</li>
 *   <li>Events: each queue numbers its events 1, 2, 3, ...; an END whose START was not logged, and an
 *       UNLINK whose END was not logged, have {@code link} 0; a failure is reported in the END event
 *       ({@code ni_fail_type}), never with a {@code *_FAIL} kind; every event carries the initiator's
 *       {@code jid}; REPLY events report the local offset the reply was placed at.</li>
 *   <li>Access control: an entry's job id must match the requester's (all processes that can reach
 *       this one belong to its job; their job id is {@code PtlGetJid}'s).</li>
 *   <li>Event queue sizes: {@code PtlEQAlloc} makes a queue of {@code count} rounded up to a power of
 *       two, at least 2, and {@code count} 0 returns {@code PTL_OK} with {@code PTL_EQ_NONE}, allocating
 *       nothing (the handler is not kept). This is what the 3.3 reference implementation does
 *       ({@code p3api/eq.c PtlEQAlloc}: its rings need a power of two for their sequence numbers to wrap),
 *       and 3.3 programs size their queues around it: a queue of count 1 for a put's SEND_START and
 *       SEND_END, a PTL_EQ_NONE from count 0. A 3.2 library keeps A-57 and {@code count} exactly: the
 *       3.2 text makes {@code count} "the number of events that can be stored in the event queue"
 *       (section 3.9.5), the kit checks the overflow at exactly {@code count} (P-137), and the 3.2-era
 *       Sandia code kept in early Lustre, which also rounds up, refuses 0 as well (with its own
 *       {@code PTL_VAL_FAILED}, which 3.2 does not have).</li>
 * </ul>
 *
 * <h3>PtlGetPut</h3>
 * The reference implementation's atomic swap ({@code p3api/api.h} declares it with the &sect;3.13 functions;
 * {@code p3lib/move.c lib_PtlGetPut}, {@code parse_getput}, {@code p3lib/msg.c lib_finalize} implement it),
 * which three of its test programs need (its lock test among them). As implemented here:
 * <ul>
 *   <li>The initiator sends the put MD's bytes, at most {@link org.portals3j.portals.Portals33#MAX_GETPUT_MD}
 *       (64, the reference's {@code max_getput_md}), in a GETPUT message. The target matches it against an
 *       MD that accepts both puts and gets, at the offset and length a put would get, and, once the bytes
 *       are in, under its lock, copies the MD's {@code mlength} bytes there out and the request's in; a REPLY
 *       carries the old bytes to offset 0 of the get MD, truncated to it (as a get's reply, A-34). So the swap
 *       is atomic with respect to every other {@code PtlGetPut} on the target, not with respect to a put into
 *       the same bytes or the target's own stores (the reference's neither).</li>
 *   <li>Events: SEND_START and SEND_END on the put MD, REPLY_START and REPLY_END on the get MD (SEND_END
 *       first: a reply that overtakes the send's completion logs it, since it proves the bytes arrived);
 *       GETPUT_START when the target matches, GETPUT_END when its reply has been sent, both with the
 *       request's {@code hdr_data} (the reference reports 0: the initiator's value is more use). No ACK.</li>
 *   <li>Threshold: each MD gives one unit when {@code getPut} is called, as a put and a get do here (the
 *       reference takes the get MD's when the reply arrives and drops a reply to an MD gone inactive); the
 *       target's MD gives one.</li>
 *   <li>Codes: {@code PTL_MD_ILLEGAL} for a put MD longer than 64 bytes or MDs of two interfaces,
 *       {@code PTL_MD_INVALID} for a dead or inactive MD; a target that dies ends the operation as a get's
 *       (P-300); a 3.2 library drops a GETPUT message as malformed.</li>
 * </ul>
 *
 * <h3>Not implemented</h3>
 * {@code PTL_MD_IOVEC} (refused with {@code PTL_ILL_MD}); the reference implementation's extensions
 * {@code PtlEQWait_timeout} (declared, never defined there: {@code PtlEQPoll} waits with a timeout),
 * {@code PtlProgress} (for an implementation without a progress thread; this engine progresses on its own
 * threads), {@code PtlNIEqDump} and {@code PtlMEMDPost} (no program of the reference calls them); the 3.3
 * {@code ptl_ni_limits_t} fields {@code max_md_iovecs}, {@code max_me_list} and {@code max_getput_md}, which
 * the C binding derives from {@link org.portals3j.portals.NiLimits}, {@link org.portals3j.portals.PortalsConfig}
 * and {@link org.portals3j.portals.Portals33#MAX_GETPUT_MD}. The 3.3 {@code ptl_event_kind_t} has twelve kinds
 * in another order than 3.2's fourteen: the C binding maps {@link org.portals3j.portals.EventKind} (a 3.3
 * library never logs a {@code *_FAIL} kind, a 3.2 library never a {@code GETPUT_*} one).
 */
package org.portals3j.portals;
