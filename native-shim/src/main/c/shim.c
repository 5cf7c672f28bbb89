/*
 * shim.c: the Portals 3.2 functions of portals3.h and the job functions of portals3_rt.h, each
 * forwarded to the Java engine through the table of upcall stubs (shim_table.h). The functions Portals
 * 3.3 shares with 3.2, and every other forwarded one, are made from the list of functions
 * (shim_functions.h) by shim_forward.h, which shim33.c includes for 3.3; what each dialect writes out is
 * here: the names of its codes and kinds, and (3.2 only) the job functions.
 */
#include <stddef.h>
#include <stdint.h>

#include "portals3.h"
#include "portals3_rt.h"
#include "shim_entry.h"
#include "shim_forward.h"

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
