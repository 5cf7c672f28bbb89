/*
 * shim_forward.h (internal, not installed): the entry points of one dialect, made from the list of
 * functions (shim_functions.h). shim.c includes it for Portals 3.2, shim33.c with PTL_DIALECT_33 defined
 * for Portals 3.3, each after portals3.h: every function of the dialect is defined here with the header's
 * signature (so with that dialect's structs and, in 3.3, its ptl33_* symbol) and forwards to the
 * dialect's member of the table (`member` in 3.2, `member_33` in 3.3).
 *
 * Before PtlInit has started the engine, a function answers PTL_NOINIT (PTL_NO_INIT in 3.3: the same
 * code) without starting one (Portals 3.2 spec §3.12); PtlInit starts it, and answers PTL_FAIL if it cannot be started.
 * Structs passed by value travel as the address of this call's copy, process ids as their two fields:
 * see shim_table.h. No include guard: included once by each of the two files.
 */
#include <stdint.h>

#include "shim_entry.h"

_Static_assert(sizeof(unsigned long) == 8, "PtlNIDist's distance is written as 64 bits");

#ifdef PTL_DIALECT_33
#define PTL_SHIM_DIALECT_MEMBER(member) member##_33
#else
#define PTL_SHIM_DIALECT_MEMBER(member) member
#endif

/* The three forms of an entry point (see shim_functions.h). */
#define PTL_SHIM_FORM_FORWARD(member, Function, c_params, forwarded)    \
    PTL_EXPORT int Function c_params {                                 \
        STARTED_OR_RETURN(PTL_NOINIT)                                  \
        return t->PTL_SHIM_DIALECT_MEMBER(member) forwarded;           \
    }
#define PTL_SHIM_FORM_START(member, Function, c_params, forwarded)      \
    PTL_EXPORT int Function c_params {                                 \
        const ptl_shim_table_t *t = ptl_shim_table(__func__);          \
        if (t == NULL) {                                               \
            return PTL_FAIL;                                           \
        }                                                              \
        return t->PTL_SHIM_DIALECT_MEMBER(member) forwarded;           \
    }
#define PTL_SHIM_FORM_VOID(member, Function, c_params, forwarded)       \
    PTL_EXPORT void Function c_params {                                \
        const ptl_shim_table_t *t = ptl_shim_table_if_started();       \
        if (t != NULL) {                                               \
            PTL_SHIM_ATTACHED();                                       \
            t->PTL_SHIM_DIALECT_MEMBER(member) forwarded;              \
        } else {                                                       \
            ptl_shim_not_started(PTL_NOINIT, __func__);                \
        }                                                              \
    }

#define PTL_SHIM_ENTRY_POINT(form, member, Function, c_params, table_params, forwarded) \
    PTL_SHIM_FORM_##form(member, Function, c_params, forwarded)
#define PTL_SHIM_NO_ENTRY_POINT(form, member, Function, c_params, table_params, forwarded)

#define PTL_SHIM_BOTH PTL_SHIM_ENTRY_POINT
#ifdef PTL_DIALECT_33
#define PTL_SHIM_ONLY_32 PTL_SHIM_NO_ENTRY_POINT
#define PTL_SHIM_ONLY_33 PTL_SHIM_ENTRY_POINT
#else
#define PTL_SHIM_ONLY_32 PTL_SHIM_ENTRY_POINT
#define PTL_SHIM_ONLY_33 PTL_SHIM_NO_ENTRY_POINT
#endif
#define PTL_SHIM_RUNTIME(member, table_params)

#include "shim_functions.h"

#undef PTL_SHIM_BOTH
#undef PTL_SHIM_ONLY_32
#undef PTL_SHIM_ONLY_33
#undef PTL_SHIM_RUNTIME
