/*
 * shim_functions.h (internal, not installed): the one list of the functions libportals3 forwards to the
 * Java engine. shim_table.h makes the table's members from it, shim_forward.h the entry points of each
 * dialect (shim.c: Portals 3.2, shim33.c: Portals 3.3), layout_check.c the check of every member against
 * the Java side (org.portals3j.shim.internal.ffm.ShimTable, which lists the same functions). A function
 * both dialects have is one line here; it is added to both by adding that line and its Java upcall.
 *
 * No include guard: the includer defines what each kind of line becomes, then includes this file.
 *
 *   PTL_SHIM_BOTH(form, member, Function, c_params, table_params, forwarded)
 *       in both dialects, with one C signature (each dialect reads it with its own structs)
 *   PTL_SHIM_ONLY_32(...), PTL_SHIM_ONLY_33(...)
 *       in one dialect only, or in two forms that differ (the comment says how): the same arguments
 *   PTL_SHIM_RUNTIME(member, table_params)
 *       portals3_rt.h, the process's exit and lapi.h: one member, the same in both dialects, whose C
 *       functions are written out in shim.c, shim_boot.c and lapi.c
 *
 *   form         how the entry point reaches the table: FORWARD (PTL_NOINIT until PtlInit has started the
 *                engine), START (PtlInit: starts it), VOID (PtlFini: returns nothing)
 *   member       the table member: `member` for Portals 3.2, `member_33` for Portals 3.3
 *   Function     the C function; with PTL_DIALECT_33, portals3.h binds it to the entry point ptl33_Function
 *   c_params     its parameters as portals3.h declares them (the compiler checks the two agree)
 *   table_params the member's parameters: scalars only (see shim_table.h)
 *   forwarded    the member's arguments, made of c_params
 *
 * The order of the lines is the order of the table's members: a 3.2 block (BOTH and ONLY_32 lines), a 3.3
 * block (BOTH and ONLY_33 lines), then the RUNTIME members.
 */

/* ---- 3.2 chapter 3 / 3.3 sections 3.4-3.8: initialisation, interfaces, identification ------------- */
PTL_SHIM_BOTH(START, init, PtlInit,
    (int *max_interfaces),
    (uint64_t max_interfaces),
    (ADDR(max_interfaces)))
PTL_SHIM_BOTH(VOID, fini, PtlFini,
    (void),
    (void),
    ())
/* Where the dialects differ, on the Java side: a NULL actual is PTL_SEGV in 3.2 (Portals 3.2 spec §3.4.1.1),
 * legal in 3.3 (the limits are then not returned); actual and desired are each dialect's ptl_ni_limits_t. */
PTL_SHIM_BOTH(FORWARD, ni_init, PtlNIInit,
    (ptl_interface_t iface, ptl_pid_t pid, ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
     ptl_handle_ni_t *ni_handle),
    (uint32_t iface, uint32_t pid, uint64_t desired, uint64_t actual, uint64_t handle),
    (iface, pid, ADDR(desired), ADDR(actual), ADDR(ni_handle)))
PTL_SHIM_BOTH(FORWARD, ni_fini, PtlNIFini,
    (ptl_handle_ni_t ni_handle),
    (uint64_t ni),
    (ni_handle))
PTL_SHIM_BOTH(FORWARD, ni_status, PtlNIStatus,
    (ptl_handle_ni_t ni_handle, ptl_sr_index_t register_index, ptl_sr_value_t *status),
    (uint64_t ni, uint32_t reg, uint64_t status),
    (ni_handle, register_index, ADDR(status)))
PTL_SHIM_BOTH(FORWARD, ni_dist, PtlNIDist,
    (ptl_handle_ni_t ni_handle, ptl_process_id_t process, unsigned long *distance),
    (uint64_t ni, uint32_t nid, uint32_t pid, uint64_t distance),
    (ni_handle, process.nid, process.pid, ADDR(distance)))
PTL_SHIM_BOTH(FORWARD, ni_handle, PtlNIHandle,
    (ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle),
    (uint64_t handle, uint64_t ni),
    (handle, ADDR(ni_handle)))
PTL_SHIM_BOTH(FORWARD, get_uid, PtlGetUid,
    (ptl_handle_ni_t ni_handle, ptl_uid_t *uid),
    (uint64_t ni, uint64_t uid),
    (ni_handle, ADDR(uid)))
PTL_SHIM_BOTH(FORWARD, get_id, PtlGetId,
    (ptl_handle_ni_t ni_handle, ptl_process_id_t *id),
    (uint64_t ni, uint64_t id),
    (ni_handle, ADDR(id)))
/* 3.3 only: the job id */
PTL_SHIM_ONLY_33(FORWARD, get_jid, PtlGetJid,
    (ptl_handle_ni_t ni_handle, ptl_jid_t *jid),
    (uint64_t ni, uint64_t jid),
    (ni_handle, ADDR(jid)))

/* ---- match entries ------------------------------------------------------------------------------- */
PTL_SHIM_BOTH(FORWARD, me_attach, PtlMEAttach,
    (ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
     ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_ins_pos_t position, ptl_handle_me_t *me_handle),
    (uint64_t ni, uint32_t index, uint32_t nid, uint32_t pid, uint64_t match_bits, uint64_t ignore_bits,
     int32_t unlink, int32_t position, uint64_t handle),
    (ni_handle, pt_index, match_id.nid, match_id.pid, match_bits, ignore_bits, (int32_t) unlink_op,
     (int32_t) position, ADDR(me_handle)))
PTL_SHIM_BOTH(FORWARD, me_attach_any, PtlMEAttachAny,
    (ptl_handle_ni_t ni_handle, ptl_pt_index_t *pt_index, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
     ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_handle_me_t *me_handle),
    (uint64_t ni, uint64_t index, uint32_t nid, uint32_t pid, uint64_t match_bits, uint64_t ignore_bits,
     int32_t unlink, uint64_t handle),
    (ni_handle, ADDR(pt_index), match_id.nid, match_id.pid, match_bits, ignore_bits, (int32_t) unlink_op,
     ADDR(me_handle)))
/* 3.2's listing has no unlink argument (the entry is made with PTL_UNLINK, A-02); 3.3's has one. */
PTL_SHIM_ONLY_32(FORWARD, me_insert, PtlMEInsert,
    (ptl_handle_me_t current, ptl_process_id_t match_id, ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits,
     ptl_ins_pos_t position, ptl_handle_me_t *me_handle),
    (uint64_t current, uint32_t nid, uint32_t pid, uint64_t match_bits, uint64_t ignore_bits, int32_t position,
     uint64_t handle),
    (current, match_id.nid, match_id.pid, match_bits, ignore_bits, (int32_t) position, ADDR(me_handle)))
PTL_SHIM_ONLY_33(FORWARD, me_insert, PtlMEInsert,
    (ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits,
     ptl_unlink_t unlink_op, ptl_ins_pos_t position, ptl_handle_me_t *me_handle),
    (uint64_t base, uint32_t nid, uint32_t pid, uint64_t match_bits, uint64_t ignore_bits, int32_t unlink,
     int32_t position, uint64_t handle),
    (base, match_id.nid, match_id.pid, match_bits, ignore_bits, (int32_t) unlink_op, (int32_t) position,
     ADDR(me_handle)))
PTL_SHIM_BOTH(FORWARD, me_unlink, PtlMEUnlink,
    (ptl_handle_me_t me_handle),
    (uint64_t me),
    (me_handle))

/* ---- memory descriptors: each dialect's ptl_md_t travels as the address of this call's copy -------- */
/* 3.2 has unlink_nofit; 3.3 dropped it (an MD a request does not fit is passed over). */
PTL_SHIM_ONLY_32(FORWARD, md_attach, PtlMDAttach,
    (ptl_handle_me_t me_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_unlink_t unlink_nofit,
     ptl_handle_md_t *md_handle),
    (uint64_t me, uint64_t md, int32_t unlink_op, int32_t unlink_nofit, uint64_t handle),
    (me_handle, ADDR(&md), (int32_t) unlink_op, (int32_t) unlink_nofit, ADDR(md_handle)))
PTL_SHIM_ONLY_33(FORWARD, md_attach, PtlMDAttach,
    (ptl_handle_me_t me_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle),
    (uint64_t me, uint64_t md, int32_t unlink_op, uint64_t handle),
    (me_handle, ADDR(&md), (int32_t) unlink_op, ADDR(md_handle)))
/* 3.3's bound MD can unlink itself: unlink_op. */
PTL_SHIM_ONLY_32(FORWARD, md_bind, PtlMDBind,
    (ptl_handle_ni_t ni_handle, ptl_md_t md, ptl_handle_md_t *md_handle),
    (uint64_t ni, uint64_t md, uint64_t handle),
    (ni_handle, ADDR(&md), ADDR(md_handle)))
PTL_SHIM_ONLY_33(FORWARD, md_bind, PtlMDBind,
    (ptl_handle_ni_t ni_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle),
    (uint64_t ni, uint64_t md, int32_t unlink_op, uint64_t handle),
    (ni_handle, ADDR(&md), (int32_t) unlink_op, ADDR(md_handle)))
PTL_SHIM_BOTH(FORWARD, md_unlink, PtlMDUnlink,
    (ptl_handle_md_t md_handle),
    (uint64_t md),
    (md_handle))
PTL_SHIM_BOTH(FORWARD, md_update, PtlMDUpdate,
    (ptl_handle_md_t md_handle, ptl_md_t *old_md, ptl_md_t *new_md, ptl_handle_eq_t eq_handle),
    (uint64_t md, uint64_t old_md, uint64_t new_md, uint64_t testq),
    (md_handle, ADDR(old_md), ADDR(new_md), eq_handle))

/* ---- event queues: each dialect's ptl_event_t ----------------------------------------------------- */
/* 3.3's queue has a handler, called for every event (and a size rounded up to a power of two, 0 making
 * none: the engine's 3.3 rule); 3.2's has neither. */
PTL_SHIM_ONLY_32(FORWARD, eq_alloc, PtlEQAlloc,
    (ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_handle_eq_t *eq_handle),
    (uint64_t ni, uint64_t count, uint64_t handle),
    (ni_handle, count, ADDR(eq_handle)))
PTL_SHIM_ONLY_33(FORWARD, eq_alloc, PtlEQAlloc,
    (ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_eq_handler_t eq_handler, ptl_handle_eq_t *eq_handle),
    (uint64_t ni, uint64_t count, uint64_t handler, uint64_t handle),
    (ni_handle, count, ADDR(eq_handler), ADDR(eq_handle)))
PTL_SHIM_BOTH(FORWARD, eq_free, PtlEQFree,
    (ptl_handle_eq_t eq_handle),
    (uint64_t eq),
    (eq_handle))
PTL_SHIM_BOTH(FORWARD, eq_get, PtlEQGet,
    (ptl_handle_eq_t eq_handle, ptl_event_t *event),
    (uint64_t eq, uint64_t event),
    (eq_handle, ADDR(event)))
PTL_SHIM_BOTH(FORWARD, eq_wait, PtlEQWait,
    (ptl_handle_eq_t eq_handle, ptl_event_t *event),
    (uint64_t eq, uint64_t event),
    (eq_handle, ADDR(event)))
PTL_SHIM_ONLY_33(FORWARD, eq_poll, PtlEQPoll,
    (const ptl_handle_eq_t *eq_handles, int size, ptl_time_t timeout, ptl_event_t *event, int *which_eq),
    (uint64_t eqs, int32_t size, uint32_t timeout, uint64_t event, uint64_t which),
    (ADDR(eq_handles), size, timeout, ADDR(event), ADDR(which_eq)))

/* ---- access control: 3.3's entry has a job id ------------------------------------------------------ */
PTL_SHIM_ONLY_32(FORWARD, ac_entry, PtlACEntry,
    (ptl_handle_ni_t ni_handle, ptl_ac_index_t ac_index, ptl_process_id_t match_id, ptl_uid_t uid,
     ptl_pt_index_t pt_index),
    (uint64_t ni, uint32_t index, uint32_t nid, uint32_t pid, uint32_t uid, uint32_t portal),
    (ni_handle, ac_index, match_id.nid, match_id.pid, uid, pt_index))
PTL_SHIM_ONLY_33(FORWARD, ac_entry, PtlACEntry,
    (ptl_handle_ni_t ni_handle, ptl_ac_index_t ac_index, ptl_process_id_t match_id, ptl_uid_t uid, ptl_jid_t jid,
     ptl_pt_index_t pt_index),
    (uint64_t ni, uint32_t index, uint32_t nid, uint32_t pid, uint32_t uid, uint32_t jid, uint32_t portal),
    (ni_handle, ac_index, match_id.nid, match_id.pid, uid, jid, pt_index))

/* ---- data movement: 3.3 adds the Region calls and PtlGetPut ---------------------------------------- */
PTL_SHIM_BOTH(FORWARD, put, PtlPut,
    (ptl_handle_md_t md_handle, ptl_ack_req_t ack_req, ptl_process_id_t target_id, ptl_pt_index_t pt_index,
     ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data),
    (uint64_t md, int32_t ack_req, uint32_t nid, uint32_t pid, uint32_t portal, uint32_t cookie,
     uint64_t match_bits, uint64_t offset, uint64_t hdr_data),
    (md_handle, (int32_t) ack_req, target_id.nid, target_id.pid, pt_index, ac_index, match_bits, remote_offset,
     hdr_data))
PTL_SHIM_ONLY_33(FORWARD, put_region, PtlPutRegion,
    (ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
     ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits,
     ptl_size_t remote_offset, ptl_hdr_data_t hdr_data),
    (uint64_t md, uint64_t local_offset, uint64_t length, int32_t ack_req, uint32_t nid, uint32_t pid,
     uint32_t portal, uint32_t cookie, uint64_t match_bits, uint64_t remote_offset, uint64_t hdr_data),
    (md_handle, local_offset, length, (int32_t) ack_req, target_id.nid, target_id.pid, pt_index, ac_index,
     match_bits, remote_offset, hdr_data))
PTL_SHIM_BOTH(FORWARD, get, PtlGet,
    (ptl_handle_md_t md_handle, ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
     ptl_match_bits_t match_bits, ptl_size_t remote_offset),
    (uint64_t md, uint32_t nid, uint32_t pid, uint32_t portal, uint32_t cookie, uint64_t match_bits,
     uint64_t offset),
    (md_handle, target_id.nid, target_id.pid, pt_index, ac_index, match_bits, remote_offset))
PTL_SHIM_ONLY_33(FORWARD, get_region, PtlGetRegion,
    (ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_process_id_t target_id,
     ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset),
    (uint64_t md, uint64_t local_offset, uint64_t length, uint32_t nid, uint32_t pid, uint32_t portal,
     uint32_t cookie, uint64_t match_bits, uint64_t remote_offset),
    (md_handle, local_offset, length, target_id.nid, target_id.pid, pt_index, ac_index, match_bits,
     remote_offset))
/* The 3.3 reference implementation's atomic swap (p3api/move.c). */
PTL_SHIM_ONLY_33(FORWARD, get_put, PtlGetPut,
    (ptl_handle_md_t get_md_handle, ptl_handle_md_t put_md_handle, ptl_process_id_t target_id,
     ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
     ptl_hdr_data_t hdr_data),
    (uint64_t get_md, uint64_t put_md, uint32_t nid, uint32_t pid, uint32_t portal, uint32_t cookie,
     uint64_t match_bits, uint64_t remote_offset, uint64_t hdr_data),
    (get_md_handle, put_md_handle, target_id.nid, target_id.pid, pt_index, ac_index, match_bits, remote_offset,
     hdr_data))

/* ---- portals3_rt.h, and the process's exit (atexit: leaves the job cleanly, closing the endpoint) --- */
PTL_SHIM_RUNTIME(rt_rank, (void))
PTL_SHIM_RUNTIME(rt_size, (void))
PTL_SHIM_RUNTIME(rt_process_id, (int32_t rank, uint64_t id))
PTL_SHIM_RUNTIME(rt_barrier, (void))
PTL_SHIM_RUNTIME(at_exit, (void))

/* ---- lapi.h (lapi.c): LAPI on the Java layer org.portals3j.lapi; handles as int32_t, pointers as addresses */
PTL_SHIM_RUNTIME(lapi_init, (uint64_t hndl, uint64_t info))
PTL_SHIM_RUNTIME(lapi_term, (int32_t hndl))
PTL_SHIM_RUNTIME(lapi_qenv, (int32_t hndl, int32_t query, uint64_t ret_val))
PTL_SHIM_RUNTIME(lapi_senv, (int32_t hndl, int32_t query, int32_t set_val))
PTL_SHIM_RUNTIME(lapi_amsend, (int32_t hndl, uint32_t tgt, uint64_t hdr_hdl, uint64_t uhdr, uint32_t uhdr_len,
    uint64_t udata, uint64_t udata_len, uint64_t tgt_cntr, uint64_t org_cntr, uint64_t cmpl_cntr))
PTL_SHIM_RUNTIME(lapi_put, (int32_t hndl, uint32_t tgt, uint64_t len, uint64_t tgt_addr, uint64_t org_addr,
    uint64_t tgt_cntr, uint64_t org_cntr, uint64_t cmpl_cntr))
PTL_SHIM_RUNTIME(lapi_get, (int32_t hndl, uint32_t tgt, uint64_t len, uint64_t tgt_addr, uint64_t org_addr,
    uint64_t tgt_cntr, uint64_t org_cntr))
PTL_SHIM_RUNTIME(lapi_setcntr, (int32_t hndl, uint64_t cntr, int32_t val))
PTL_SHIM_RUNTIME(lapi_getcntr, (int32_t hndl, uint64_t cntr, uint64_t val))
PTL_SHIM_RUNTIME(lapi_waitcntr, (int32_t hndl, uint64_t cntr, int32_t val, uint64_t cur_cntr_val))
PTL_SHIM_RUNTIME(lapi_fence, (int32_t hndl))
PTL_SHIM_RUNTIME(lapi_gfence, (int32_t hndl))
PTL_SHIM_RUNTIME(lapi_addr_set, (int32_t hndl, uint64_t addr, int32_t addr_hndl))
PTL_SHIM_RUNTIME(lapi_addr_get, (int32_t hndl, uint64_t addr, int32_t addr_hndl))
PTL_SHIM_RUNTIME(lapi_address_init, (int32_t hndl, uint64_t my_addr, uint64_t add_tab))
PTL_SHIM_RUNTIME(lapi_probe, (int32_t hndl))
PTL_SHIM_RUNTIME(lapi_purge_totask, (int32_t hndl, uint32_t dest))
