/**
 * The Isotach messaging layer (UVa "Ironman", TR CS-2000-17) on the transport SPI: logical time in which a message
 * issued at pulse T is delivered at T + distance, isochrons delivered atomically and in one total order at every
 * host, isotach shared memory, signals and weak/strong barriers, and the non-isotach protocols. Start at
 * {@link org.portals3j.isotach.IsotachNet}: one method per Appendix A function (the table is in its documentation).
 *
 * <h2>The emulated hardware</h2>
 * The report's layer needed a token manager (TM) and switch interface units (SIU) in hardware. Here both are
 * software ({@code internal.siu.SwitchNode}, our design: the report leaves both to hardware specified elsewhere,
 * Isotach report §1.1.3, pp. 1-2): each rank's SIU stamps an isochron once, at its
 * EOI, with {@code TS = max(T + max distance to its destinations, previous TS)}; on every token it sends a pulse mark
 * behind everything it stamped on every link; a host's SIU closes pulse P once every live sender's mark covers
 * {@code P - distance(sender, host)}, and hands its host the EOP marker with the count and sort vector. Signals and
 * barrier completions ride in tokens and take effect at {@code T' + diameter} at every host, after every message their
 * senders issued before them. Logical time is a 64-bit count; distance + token window + 1 stays below 256 so the
 * report's one-byte timestamps would remain unambiguous.
 *
 * <h2>Where the token manager runs</h2>
 * <ul>
 * <li>{@link org.portals3j.isotach.TmPlacement#IN_RANK} (default): inside host 0, driven by host 0's message handler
 *     and its polls. No thread of its own. While any SIU reports work in flight, time advances as fast as the token
 *     window allows; when all are idle it ticks once per {@code idleTickMicros} on host 0's polls (I-144), so an idle
 *     job costs nothing but host 0's poll loop.</li>
 * <li>{@link org.portals3j.isotach.TmPlacement#OWN_PROCESS}: the job's last rank runs only the token manager
 *     ({@link org.portals3j.isotach.IsotachNet#runTokenManager}); it is not a host (Isotach report App. A.2,
 *     pp. 95-96). Marks and bs-markers reach it over the transport; it returns when every host has closed. With {@code
 *     portals run}, put {@code set tm=own-process} in the file named by {@code PORTALS_ISOTACH_CONFIG} and start one
 *     more rank (see {@code examples.IsotachReplicas}). Costs one more process and, per pulse, one more mark per
 *     host.</li>
 * </ul>
 *
 * <h2>Our choices where the report is open, or its prose and its listing (App. J) disagree</h2>
 * <ul>
 * <li>A2: "nothing to receive" is -1 ({@link org.portals3j.isotach.IsotachNet#NO_MESSAGE}), as Appendix A says; poll
 *     returns 0 when something waits, -1 otherwise.</li>
 * <li>A4, A5, A6, A18: bs-notices are dequeued; self-message lengths are exact; a full hit_buf fails the call;
 *     iso_end with nothing pending posts nothing.</li>
 * <li>A7, A9, A10, A11, A12: the barrier poll runs on every poll; clearing a channel not held succeeds as a no-op;
 *     an application barrier's completion notifies without re-participating; application signal channels are 1-4
 *     (0 and 5 are the layer's); barrier calls take (channel, mode).</li>
 * <li>A8: try_close_net runs the STRONG shutdown barrier on channel 0 and succeeds once it completed and the noniso
 *     delivery queue is empty; noniso-only use closes through the noniso barrier.</li>
 * <li>A15, A16: credits are 64-bit counts with an explicit "present" flag, never the ambiguous NULL_CREDIT 0.</li>
 * <li>The reset that open_net sends carries only the reset bit: the report's 0x83 also primed the hardware TM's barrier
 *     credits, which the software TM does not need; barrier bits in the reset pulse would reach barriers in states
 *     where the report treats a completion as impossible.</li>
 * <li>The Isotach MBM sends payload and ordering in one frame (the report's future-work item, Isotach report §11.3,
 * pp. 89-91); the receive slot is
 *     still chosen by the sender's credit count, as the ordered packet's was (§3.2).</li>
 * <li>Shared memory (never implemented in the report): a write is one reference that sets the value and answers no
 *     pending read; reads go to the nearest copy, changes to every copy, all as one isochron's references.</li>
 * </ul>
 */
package org.portals3j.isotach;
