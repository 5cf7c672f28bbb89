/*
 * shim33.c: the Portals 3.3 functions of portals3.h (PTL_DIALECT_33), each forwarded to the Java engine
 * through the *_33 entries of the table of upcall stubs (shim_table.h), where they reach
 * org.portals3j.portals.Portals33.
 *
 * This file is compiled as a 3.3 program is: portals3.h binds every function defined here to its 3.3
 * entry point (ptl33_<name>), so the 3.2 functions of the same names (shim.c) stay what they are. As in
 * shim.c, PtlInit starts the engine if needed and the other functions answer PTL_NO_INIT before it has.
 */
#define PTL_DIALECT_33 1

#include <stddef.h>
#include <stdint.h>

#include "portals3.h"
#include "shim_entry.h"

PTL_EXPORT int PtlInit(int *max_interfaces) {
    const ptl_shim_table_t *t = ptl_shim_table(__func__);
    if (t == NULL) {
        return PTL_FAIL;
    }
    return t->init_33(ADDR(max_interfaces));
}

PTL_EXPORT void PtlFini(void) {
    const ptl_shim_table_t *t = ptl_shim_table_if_started();
    if (t != NULL) {
        PTL_SHIM_ATTACHED();
        t->fini_33();
    } else {
        ptl_shim_not_started(PTL_NO_INIT, __func__);
    }
}

PTL_EXPORT int PtlNIInit(ptl_interface_t iface, ptl_pid_t pid, ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
                         ptl_handle_ni_t *ni_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->ni_init_33(iface, pid, ADDR(desired), ADDR(actual), ADDR(ni_handle));
}

PTL_EXPORT int PtlNIFini(ptl_handle_ni_t ni_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->ni_fini_33(ni_handle);
}

PTL_EXPORT int PtlNIStatus(ptl_handle_ni_t ni_handle, ptl_sr_index_t register_index, ptl_sr_value_t *status) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->ni_status_33(ni_handle, register_index, ADDR(status));
}

PTL_EXPORT int PtlNIDist(ptl_handle_ni_t ni_handle, ptl_process_id_t process, unsigned long *distance) {
    _Static_assert(sizeof(unsigned long) == 8, "PtlNIDist's distance is written as 64 bits");
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->ni_dist_33(ni_handle, process.nid, process.pid, ADDR(distance));
}

PTL_EXPORT int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->ni_handle_33(handle, ADDR(ni_handle));
}

PTL_EXPORT int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->get_uid_33(ni_handle, ADDR(uid));
}

PTL_EXPORT int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_id_t *id) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->get_id_33(ni_handle, ADDR(id));
}

PTL_EXPORT int PtlGetJid(ptl_handle_ni_t ni_handle, ptl_jid_t *jid) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->get_jid_33(ni_handle, ADDR(jid));
}

PTL_EXPORT int PtlMEAttach(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, ptl_process_id_t match_id,
                           ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                           ptl_ins_pos_t position, ptl_handle_me_t *me_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->me_attach_33(ni_handle, pt_index, match_id.nid, match_id.pid, match_bits, ignore_bits,
                           (int32_t) unlink_op, (int32_t) position, ADDR(me_handle));
}

PTL_EXPORT int PtlMEAttachAny(ptl_handle_ni_t ni_handle, ptl_pt_index_t *pt_index, ptl_process_id_t match_id,
                              ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                              ptl_handle_me_t *me_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->me_attach_any_33(ni_handle, ADDR(pt_index), match_id.nid, match_id.pid, match_bits, ignore_bits,
                               (int32_t) unlink_op, ADDR(me_handle));
}

PTL_EXPORT int PtlMEInsert(ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                           ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_ins_pos_t position,
                           ptl_handle_me_t *me_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->me_insert_33(base, match_id.nid, match_id.pid, match_bits, ignore_bits, (int32_t) unlink_op,
                           (int32_t) position, ADDR(me_handle));
}

PTL_EXPORT int PtlMEUnlink(ptl_handle_me_t me_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->me_unlink_33(me_handle);
}

PTL_EXPORT int PtlMDAttach(ptl_handle_me_t me_handle, ptl_md_t md, ptl_unlink_t unlink_op,
                           ptl_handle_md_t *md_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->md_attach_33(me_handle, ADDR(&md), (int32_t) unlink_op, ADDR(md_handle));
}

PTL_EXPORT int PtlMDBind(ptl_handle_ni_t ni_handle, ptl_md_t md, ptl_unlink_t unlink_op,
                         ptl_handle_md_t *md_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->md_bind_33(ni_handle, ADDR(&md), (int32_t) unlink_op, ADDR(md_handle));
}

PTL_EXPORT int PtlMDUnlink(ptl_handle_md_t md_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->md_unlink_33(md_handle);
}

PTL_EXPORT int PtlMDUpdate(ptl_handle_md_t md_handle, ptl_md_t *old_md, ptl_md_t *new_md,
                           ptl_handle_eq_t eq_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->md_update_33(md_handle, ADDR(old_md), ADDR(new_md), eq_handle);
}

PTL_EXPORT int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_eq_handler_t eq_handler,
                          ptl_handle_eq_t *eq_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->eq_alloc_33(ni_handle, count, ADDR(eq_handler), ADDR(eq_handle));
}

PTL_EXPORT int PtlEQFree(ptl_handle_eq_t eq_handle) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->eq_free_33(eq_handle);
}

PTL_EXPORT int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t *event) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->eq_get_33(eq_handle, ADDR(event));
}

PTL_EXPORT int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t *event) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->eq_wait_33(eq_handle, ADDR(event));
}

PTL_EXPORT int PtlEQPoll(const ptl_handle_eq_t *eq_handles, int size, ptl_time_t timeout, ptl_event_t *event,
                         int *which_eq) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->eq_poll_33(ADDR(eq_handles), size, timeout, ADDR(event), ADDR(which_eq));
}

PTL_EXPORT int PtlACEntry(ptl_handle_ni_t ni_handle, ptl_ac_index_t ac_index, ptl_process_id_t match_id,
                          ptl_uid_t uid, ptl_jid_t jid, ptl_pt_index_t pt_index) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->ac_entry_33(ni_handle, ac_index, match_id.nid, match_id.pid, uid, jid, pt_index);
}

PTL_EXPORT int PtlPut(ptl_handle_md_t md_handle, ptl_ack_req_t ack_req, ptl_process_id_t target_id,
                      ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits,
                      ptl_size_t remote_offset, ptl_hdr_data_t hdr_data) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->put_33(md_handle, (int32_t) ack_req, target_id.nid, target_id.pid, pt_index, ac_index, match_bits,
                     remote_offset, hdr_data);
}

PTL_EXPORT int PtlPutRegion(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length,
                            ptl_ack_req_t ack_req, ptl_process_id_t target_id, ptl_pt_index_t pt_index,
                            ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                            ptl_hdr_data_t hdr_data) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->put_region_33(md_handle, local_offset, length, (int32_t) ack_req, target_id.nid, target_id.pid,
                            pt_index, ac_index, match_bits, remote_offset, hdr_data);
}

PTL_EXPORT int PtlGet(ptl_handle_md_t md_handle, ptl_process_id_t target_id, ptl_pt_index_t pt_index,
                      ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->get_33(md_handle, target_id.nid, target_id.pid, pt_index, ac_index, match_bits, remote_offset);
}

PTL_EXPORT int PtlGetRegion(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length,
                            ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
                            ptl_match_bits_t match_bits, ptl_size_t remote_offset) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->get_region_33(md_handle, local_offset, length, target_id.nid, target_id.pid, pt_index, ac_index,
                            match_bits, remote_offset);
}

PTL_EXPORT int PtlGetPut(ptl_handle_md_t get_md_handle, ptl_handle_md_t put_md_handle, ptl_process_id_t target_id,
                         ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits,
                         ptl_size_t remote_offset, ptl_hdr_data_t hdr_data) {
    STARTED_OR_RETURN(PTL_NO_INIT)
    return t->get_put_33(get_md_handle, put_md_handle, target_id.nid, target_id.pid, pt_index, ac_index, match_bits,
                         remote_offset, hdr_data);
}

/* ---- names for codes and kinds: answered here, they need no engine (see portals3.h) ------------- */

/* By value: 3.3's names (the reference implementation's p3/errno.h); the two codes 3.3 has no name for keep
 * their 3.2 names, and PTL_PT_INV_INDEX's value is never returned in 3.3 (PTL_PT_INDEX_INVALID is). */
static const char *const return_code_names[] = {
    "PTL_OK", "PTL_AC_INDEX_INVALID", "PTL_EQ_DROPPED", "PTL_EQ_EMPTY", "PTL_FAIL", "PTL_MD_ILLEGAL",
    "PTL_PID_INVALID", "PTL_IFACE_INVALID", "PTL_ME_IN_USE", "PTL_INV_ASIZE", "PTL_EQ_INVALID",
    "PTL_HANDLE_INVALID", "PTL_MD_INVALID", "PTL_ME_INVALID", "PTL_NI_INVALID", "PTL_PROCESS_INVALID",
    "PTL_PT_INDEX_INVALID", "PTL_INV_REG", "PTL_SR_INDEX_INVALID", "PTL_ME_LIST_TOO_LONG", "PTL_MD_IN_USE",
    "PTL_NO_INIT", "PTL_NO_SPACE", "PTL_MD_NO_UPDATE", "PTL_PT_FULL", "PTL_SEGV",
};

static const char *const event_kind_names[] = {
    "PTL_EVENT_GET_START", "PTL_EVENT_GET_END", "PTL_EVENT_PUT_START", "PTL_EVENT_PUT_END",
    "PTL_EVENT_GETPUT_START", "PTL_EVENT_GETPUT_END", "PTL_EVENT_REPLY_START", "PTL_EVENT_REPLY_END",
    "PTL_EVENT_SEND_START", "PTL_EVENT_SEND_END", "PTL_EVENT_ACK", "PTL_EVENT_UNLINK",
};

_Static_assert(sizeof return_code_names / sizeof return_code_names[0] == PTL_SEGV + 1,
               "a name for every return code of 3.3");
_Static_assert(sizeof event_kind_names / sizeof event_kind_names[0] == PTL_EVENT_UNLINK + 1,
               "a name for every 3.3 event kind");

PTL_EXPORT const char *PtlErrorStr(unsigned int ptl_errno) {
    return ptl_errno < sizeof return_code_names / sizeof return_code_names[0] ? return_code_names[ptl_errno]
                                                                              : "PTL_UNKNOWN_ERROR";
}

PTL_EXPORT const char *PtlNIFailStr(ptl_handle_ni_t ni_handle, ptl_ni_fail_t ni_fail) {
    (void) ni_handle;
    return ptl_shim_ni_fail_name(ni_fail);
}

PTL_EXPORT const char *PtlEventKindStr(ptl_event_kind_t kind) {
    return (unsigned int) kind < sizeof event_kind_names / sizeof event_kind_names[0]
            ? event_kind_names[(unsigned int) kind] : "PTL_UNKNOWN_EVENT_KIND";
}

/*
 * Handle equality is answered here too, not by an upcall: it needs no PtlInit (so no
 * engine may be running to ask), and a handle's identity is its value in every layer, so this is the
 * rule of Portals33.handleIsEqual itself (two handles are the same handle whatever type each has).
 */
PTL_EXPORT int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2) {
    return handle1 == handle2;
}
