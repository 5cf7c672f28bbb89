/*
 * shim.c: the Portals 3.2 functions of portals3.h and the job functions of portals3_rt.h, each
 * forwarded to the Java engine through the table of upcall stubs (shim_table.h). The Portals 3.3
 * functions are in shim33.c.
 *
 * PtlInit and ptl_rt_* start the engine if needed; the other functions answer PTL_NOINIT until PtlInit
 * has started it (L10833), without starting a JVM. Structs passed by value travel as the address of
 * this call's copy, process ids as their two fields: see shim_table.h.
 */
#include <stddef.h>
#include <stdint.h>

#include "portals3.h"
#include "portals3_rt.h"
#include "shim_entry.h"

PTL_EXPORT int PtlInit(int *max_interfaces) {
    const ptl_shim_table_t *t = ptl_shim_table(__func__);
    if (t == NULL) {
        return PTL_FAIL;
    }
    return t->init(ADDR(max_interfaces));
}

PTL_EXPORT void PtlFini(void) {
    const ptl_shim_table_t *t = ptl_shim_table_if_started();
    if (t != NULL) {
        PTL_SHIM_ATTACHED();
        t->fini();
    } else {
        ptl_shim_not_started(PTL_NOINIT, __func__);
    }
}

PTL_EXPORT int PtlNIInit(ptl_interface_t interface, ptl_pid_t pid, ptl_ni_limits_t *desired,
                         ptl_ni_limits_t *actual, ptl_handle_ni_t *handle) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->ni_init(interface, pid, ADDR(desired), ADDR(actual), ADDR(handle));
}

PTL_EXPORT int PtlNIFini(ptl_handle_ni_t interface) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->ni_fini(interface);
}

PTL_EXPORT int PtlNIStatus(ptl_handle_ni_t interface, ptl_sr_index_t status_register, ptl_sr_value_t *status) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->ni_status(interface, status_register, ADDR(status));
}

PTL_EXPORT int PtlNIDist(ptl_handle_ni_t interface, ptl_process_id_t process, unsigned long *distance) {
    _Static_assert(sizeof(unsigned long) == 8, "PtlNIDist's distance is written as 64 bits");
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->ni_dist(interface, process.nid, process.pid, ADDR(distance));
}

PTL_EXPORT int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *interface) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->ni_handle(handle, ADDR(interface));
}

PTL_EXPORT int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->get_uid(ni_handle, ADDR(uid));
}

PTL_EXPORT int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_id_t *id) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->get_id(ni_handle, ADDR(id));
}

PTL_EXPORT int PtlMEAttach(ptl_handle_ni_t interface, ptl_pt_index_t index, ptl_process_id_t matchid,
                           ptl_match_bits_t match_bits, ptl_match_bits_t ignorebits, ptl_unlink_t unlink,
                           ptl_ins_pos_t position, ptl_handle_me_t *handle) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->me_attach(interface, index, matchid.nid, matchid.pid, match_bits, ignorebits, (int32_t) unlink,
                        (int32_t) position, ADDR(handle));
}

PTL_EXPORT int PtlMEAttachAny(ptl_handle_ni_t interface, ptl_pt_index_t *index, ptl_process_id_t matchid,
                              ptl_match_bits_t match_bits, ptl_match_bits_t ignorebits, ptl_unlink_t unlink,
                              ptl_handle_me_t *handle) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->me_attach_any(interface, ADDR(index), matchid.nid, matchid.pid, match_bits, ignorebits,
                            (int32_t) unlink, ADDR(handle));
}

PTL_EXPORT int PtlMEInsert(ptl_handle_me_t current, ptl_process_id_t matchid, ptl_match_bits_t match_bits,
                           ptl_match_bits_t ignorebits, ptl_ins_pos_t position, ptl_handle_me_t *handle) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->me_insert(current, matchid.nid, matchid.pid, match_bits, ignorebits, (int32_t) position,
                        ADDR(handle));
}

PTL_EXPORT int PtlMEUnlink(ptl_handle_me_t entry) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->me_unlink(entry);
}

PTL_EXPORT int PtlMDAttach(ptl_handle_me_t match, ptl_md_t mem_desc, ptl_unlink_t unlink_op,
                           ptl_unlink_t unlink_nofit, ptl_handle_md_t *handle) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->md_attach(match, ADDR(&mem_desc), (int32_t) unlink_op, (int32_t) unlink_nofit, ADDR(handle));
}

PTL_EXPORT int PtlMDBind(ptl_handle_ni_t interface, ptl_md_t mem_desc, ptl_handle_md_t *handle) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->md_bind(interface, ADDR(&mem_desc), ADDR(handle));
}

PTL_EXPORT int PtlMDUnlink(ptl_handle_md_t mem_desc) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->md_unlink(mem_desc);
}

PTL_EXPORT int PtlMDUpdate(ptl_handle_md_t mem_desc, ptl_md_t *old_md, ptl_md_t *new_md, ptl_handle_eq_t testq) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->md_update(mem_desc, ADDR(old_md), ADDR(new_md), testq);
}

PTL_EXPORT int PtlEQAlloc(ptl_handle_ni_t interface, ptl_size_t count, ptl_handle_eq_t *handle) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->eq_alloc(interface, count, ADDR(handle));
}

PTL_EXPORT int PtlEQFree(ptl_handle_eq_t eventq) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->eq_free(eventq);
}

PTL_EXPORT int PtlEQGet(ptl_handle_eq_t eventq, ptl_event_t *event) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->eq_get(eventq, ADDR(event));
}

PTL_EXPORT int PtlEQWait(ptl_handle_eq_t eventq, ptl_event_t *event) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->eq_wait(eventq, ADDR(event));
}

PTL_EXPORT int PtlACEntry(ptl_handle_ni_t interface, ptl_ac_index_t index, ptl_process_id_t matchid,
                          ptl_uid_t user_id, ptl_pt_index_t portal) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->ac_entry(interface, index, matchid.nid, matchid.pid, user_id, portal);
}

PTL_EXPORT int PtlPut(ptl_handle_md_t mem_desc, ptl_ack_req_t ack_req, ptl_process_id_t target,
                      ptl_pt_index_t portal, ptl_ac_index_t cookie, ptl_match_bits_t match_bits,
                      ptl_size_t offset, ptl_hdr_data_t hdr_data) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->put(mem_desc, (int32_t) ack_req, target.nid, target.pid, portal, cookie, match_bits, offset,
                  hdr_data);
}

PTL_EXPORT int PtlGet(ptl_handle_md_t mem_desc, ptl_process_id_t target, ptl_pt_index_t portal,
                      ptl_ac_index_t cookie, ptl_match_bits_t match_bits, ptl_size_t offset) {
    STARTED_OR_RETURN(PTL_NOINIT)
    return t->get(mem_desc, target.nid, target.pid, portal, cookie, match_bits, offset);
}

/* ---- names for codes and kinds: answered here, they need no engine (see portals3.h) ------------- */

static const char *const return_code_names[] = {
    "PTL_OK", "PTL_AC_INV_INDEX", "PTL_EQ_DROPPED", "PTL_EQ_EMPTY", "PTL_FAIL", "PTL_ILL_MD", "PTL_INIT_DUP",
    "PTL_INIT_INV", "PTL_INUSE", "PTL_INV_ASIZE", "PTL_INV_EQ", "PTL_INV_HANDLE", "PTL_INV_MD", "PTL_INV_ME",
    "PTL_INV_NI", "PTL_INV_PROC", "PTL_INV_PTINDEX", "PTL_INV_REG", "PTL_INV_SR_INDX", "PTL_ML_TOOLONG",
    "PTL_MD_INUSE", "PTL_NOINIT", "PTL_NOSPACE", "PTL_NOUPDATE", "PTL_PT_FULL", "PTL_SEGV", "PTL_PT_INV_INDEX",
};

static const char *const event_kind_names[] = {
    "PTL_EVENT_GET_START", "PTL_EVENT_GET_END", "PTL_EVENT_GET_FAIL", "PTL_EVENT_PUT_START", "PTL_EVENT_PUT_END",
    "PTL_EVENT_PUT_FAIL", "PTL_EVENT_REPLY_START", "PTL_EVENT_REPLY_END", "PTL_EVENT_REPLY_FAIL",
    "PTL_EVENT_SEND_START", "PTL_EVENT_SEND_END", "PTL_EVENT_SEND_FAIL", "PTL_EVENT_ACK", "PTL_EVENT_UNLINK",
};

_Static_assert(sizeof return_code_names / sizeof return_code_names[0] == PTL_PT_INV_INDEX + 1,
               "a name for every return code");
_Static_assert(sizeof event_kind_names / sizeof event_kind_names[0] == PTL_EVENT_UNLINK + 1,
               "a name for every event kind");

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

/* ---- portals3_rt.h ----------------------------------------------------------------------------- */

PTL_EXPORT int ptl_rt_rank(void) {
    const ptl_shim_table_t *t = ptl_shim_table(__func__);
    return t == NULL ? -1 : t->rt_rank();
}

PTL_EXPORT int ptl_rt_size(void) {
    const ptl_shim_table_t *t = ptl_shim_table(__func__);
    return t == NULL ? -1 : t->rt_size();
}

PTL_EXPORT int ptl_rt_process_id(int rank, ptl_process_id_t *id) {
    const ptl_shim_table_t *t = ptl_shim_table(__func__);
    return t == NULL ? -1 : t->rt_process_id(rank, ADDR(id));
}

PTL_EXPORT int ptl_rt_barrier(void) {
    const ptl_shim_table_t *t = ptl_shim_table(__func__);
    return t == NULL ? -1 : t->rt_barrier();
}
