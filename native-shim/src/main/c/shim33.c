/*
 * shim33.c: the Portals 3.3 functions of portals3.h (PTL_DIALECT_33), each forwarded to the Java engine
 * through the *_33 members of the table of upcall stubs (shim_table.h), where they reach
 * org.portals3j.portals.Portals33.
 *
 * This file is compiled as a 3.3 program is: portals3.h binds every function defined here to its 3.3
 * entry point (ptl33_<name>), so the 3.2 functions of the same names (shim.c) stay what they are. The
 * forwarded functions are made from the list of functions (shim_functions.h) by shim_forward.h, as in
 * shim.c; what 3.3 writes out is here: the 3.3 names of codes and kinds, and PtlHandleIsEqual.
 */
#define PTL_DIALECT_33 1

#include <stddef.h>
#include <stdint.h>

#include "portals3.h"
#include "shim_entry.h"
#include "shim_forward.h"

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
