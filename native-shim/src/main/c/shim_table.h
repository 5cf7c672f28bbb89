/*
 * shim_table.h (internal, not installed): the table of entry points libportals3 calls through. The
 * Java side (org.portals3j.shim.internal.ffm.ShimTable) fills it with FFM upcall stubs; its layout is
 * ShimTable.LAYOUT, and the layout test (src/test/c/layout_check.c) checks that the two agree, member by
 * member and argument by argument.
 *
 * Every argument is a scalar: C pointers travel as 64-bit addresses (the Java side reads and writes the
 * memory behind them), ptl_process_id_t as its two fields, ptl_md_t by the address of a copy. So no
 * upcall passes a struct by value, and the Java side allocates nothing to receive its arguments.
 *
 * The members are made from the list of functions (shim_functions.h): the Portals 3.2 functions
 * (shim.c), then the Portals 3.3 ones (shim33.c, the *_33 members), then the runtime's. Each dialect has
 * members of its own, so that each upcall knows its dialect and its structs; the Java side serves the
 * dialect of the process's first PtlInit and answers a call of the other one with PTL_FAIL and a message.
 */
#ifndef PORTALS3_SHIM_TABLE_H
#define PORTALS3_SHIM_TABLE_H

#include <stdint.h>

/* Bump when the table or a shared struct changes: the Java side refuses a table of another version. */
#define PTL_SHIM_ABI_VERSION 4

typedef struct ptl_shim_table {
    /* Filled in by C before install: PTL_SHIM_ABI_VERSION and sizeof(ptl_shim_table_t). */
    uint32_t abi_version;
    uint32_t table_size;
    /* Filled in by Java (upcall stubs); return codes as in portals3.h. */
#define PTL_SHIM_MEMBER_32(form, member, Function, c_params, table_params, forwarded) \
    int32_t (*member) table_params;
#define PTL_SHIM_MEMBER_33(form, member, Function, c_params, table_params, forwarded) \
    int32_t (*member##_33) table_params;
#define PTL_SHIM_NO_MEMBER(form, member, Function, c_params, table_params, forwarded)

    /* Portals 3.2 (portals3.h) */
#define PTL_SHIM_BOTH PTL_SHIM_MEMBER_32
#define PTL_SHIM_ONLY_32 PTL_SHIM_MEMBER_32
#define PTL_SHIM_ONLY_33 PTL_SHIM_NO_MEMBER
#define PTL_SHIM_RUNTIME(member, table_params)
#include "shim_functions.h"
#undef PTL_SHIM_BOTH
#undef PTL_SHIM_ONLY_32
#undef PTL_SHIM_ONLY_33

    /* Portals 3.3 (portals3.h with PTL_DIALECT_33): the 3.3 ptl_md_t, ptl_event_t and ptl_ni_limits_t */
#define PTL_SHIM_BOTH PTL_SHIM_MEMBER_33
#define PTL_SHIM_ONLY_32 PTL_SHIM_NO_MEMBER
#define PTL_SHIM_ONLY_33 PTL_SHIM_MEMBER_33
#include "shim_functions.h"
#undef PTL_SHIM_BOTH
#undef PTL_SHIM_ONLY_32
#undef PTL_SHIM_ONLY_33
#undef PTL_SHIM_RUNTIME

    /* portals3_rt.h, the process's exit, and lapi.h */
#define PTL_SHIM_BOTH PTL_SHIM_NO_MEMBER
#define PTL_SHIM_ONLY_32 PTL_SHIM_NO_MEMBER
#define PTL_SHIM_ONLY_33 PTL_SHIM_NO_MEMBER
#define PTL_SHIM_RUNTIME(member, table_params) int32_t (*member) table_params;
#include "shim_functions.h"
#undef PTL_SHIM_BOTH
#undef PTL_SHIM_ONLY_32
#undef PTL_SHIM_ONLY_33
#undef PTL_SHIM_RUNTIME
#undef PTL_SHIM_MEMBER_32
#undef PTL_SHIM_MEMBER_33
#undef PTL_SHIM_NO_MEMBER
} ptl_shim_table_t;

/* The table, starting the Java engine if this is the first call (NULL if it cannot be started, or in a
 * process forked after it was: then `function` is named in the one message that says so). */
const ptl_shim_table_t *ptl_shim_table(const char *function);

/* The table if the engine has been started, else NULL; never starts it (NULL in a forked child too). */
const ptl_shim_table_t *ptl_shim_table_if_started(void);

/* Whether this thread was attached to the JVM by ptl_shim_attach_thread, which every entry point calls first
 * (PTL_SHIM_ATTACHED) once the table is there. */
extern __thread int ptl_shim_thread_attached __attribute__((tls_model("initial-exec")));
void ptl_shim_attach_thread(void);

#define PTL_SHIM_ATTACHED()                                             \
    do {                                                                \
        if (__builtin_expect(!ptl_shim_thread_attached, 0)) {           \
            ptl_shim_attach_thread();                                   \
        }                                                               \
    } while (0)

/* The answer of `function` when the table is not there: `code` (PTL_NOINIT: the engine was never
 * started), or PTL_FAIL in a process forked after the engine started, said once on stderr. */
int ptl_shim_not_started(int code, const char *function);

#endif /* PORTALS3_SHIM_TABLE_H */
