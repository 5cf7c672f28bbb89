/*
 * shim_table.h (internal, not installed): the table of entry points libportals3 calls through. The
 * Java side (org.portals3j.shim.internal.ffm.ShimTable) fills it with FFM upcall stubs; its layout is
 * ShimTable.LAYOUT, and the layout test (src/test/c/layout_check.c) checks that the two agree.
 *
 * Every argument is a scalar: C pointers travel as 64-bit addresses (the Java side reads and writes the
 * memory behind them), ptl_process_id_t as its two fields, ptl_md_t by the address of a copy. So no
 * upcall passes a struct by value, and the Java side allocates nothing to receive its arguments.
 *
 * The Portals 3.2 functions (shim.c) and the Portals 3.3 ones (shim33.c, the *_33 entries) have entries of
 * their own, so that each upcall knows its dialect and its structs; the Java side serves the dialect of
 * the process's first PtlInit and answers a call of the other one with PTL_FAIL and a message.
 */
#ifndef PORTALS3_SHIM_TABLE_H
#define PORTALS3_SHIM_TABLE_H

#include <stdint.h>

/* Bump when the table or a shared struct changes: the Java side refuses a table of another version. */
#define PTL_SHIM_ABI_VERSION 3

typedef struct ptl_shim_table {
    /* Filled in by C before install: PTL_SHIM_ABI_VERSION and sizeof(ptl_shim_table_t). */
    uint32_t abi_version;
    uint32_t table_size;
    /* Filled in by Java (upcall stubs); return codes as in portals3.h. */
    int32_t (*init)(uint64_t max_interfaces);
    int32_t (*fini)(void);
    int32_t (*ni_init)(uint32_t iface, uint32_t pid, uint64_t desired, uint64_t actual, uint64_t handle);
    int32_t (*ni_fini)(uint64_t ni);
    int32_t (*ni_status)(uint64_t ni, uint32_t reg, uint64_t status);
    int32_t (*ni_dist)(uint64_t ni, uint32_t nid, uint32_t pid, uint64_t distance);
    int32_t (*ni_handle)(uint64_t handle, uint64_t ni);
    int32_t (*get_uid)(uint64_t ni, uint64_t uid);
    int32_t (*get_id)(uint64_t ni, uint64_t id);
    int32_t (*me_attach)(uint64_t ni, uint32_t index, uint32_t nid, uint32_t pid, uint64_t match_bits,
                         uint64_t ignore_bits, int32_t unlink, int32_t position, uint64_t handle);
    int32_t (*me_attach_any)(uint64_t ni, uint64_t index, uint32_t nid, uint32_t pid, uint64_t match_bits,
                             uint64_t ignore_bits, int32_t unlink, uint64_t handle);
    int32_t (*me_insert)(uint64_t current, uint32_t nid, uint32_t pid, uint64_t match_bits,
                         uint64_t ignore_bits, int32_t position, uint64_t handle);
    int32_t (*me_unlink)(uint64_t me);
    int32_t (*md_attach)(uint64_t me, uint64_t md, int32_t unlink_op, int32_t unlink_nofit, uint64_t handle);
    int32_t (*md_bind)(uint64_t ni, uint64_t md, uint64_t handle);
    int32_t (*md_unlink)(uint64_t md);
    int32_t (*md_update)(uint64_t md, uint64_t old_md, uint64_t new_md, uint64_t testq);
    int32_t (*eq_alloc)(uint64_t ni, uint64_t count, uint64_t handle);
    int32_t (*eq_free)(uint64_t eq);
    int32_t (*eq_get)(uint64_t eq, uint64_t event);
    int32_t (*eq_wait)(uint64_t eq, uint64_t event);
    int32_t (*ac_entry)(uint64_t ni, uint32_t index, uint32_t nid, uint32_t pid, uint32_t uid, uint32_t portal);
    int32_t (*put)(uint64_t md, int32_t ack_req, uint32_t nid, uint32_t pid, uint32_t portal, uint32_t cookie,
                   uint64_t match_bits, uint64_t offset, uint64_t hdr_data);
    int32_t (*get)(uint64_t md, uint32_t nid, uint32_t pid, uint32_t portal, uint32_t cookie,
                   uint64_t match_bits, uint64_t offset);
    /* Portals 3.3 (portals3.h with PTL_DIALECT_33): the 3.3 ptl_md_t, ptl_event_t and ptl_ni_limits_t */
    int32_t (*init_33)(uint64_t max_interfaces);
    int32_t (*fini_33)(void);
    int32_t (*ni_init_33)(uint32_t iface, uint32_t pid, uint64_t desired, uint64_t actual, uint64_t handle);
    int32_t (*ni_fini_33)(uint64_t ni);
    int32_t (*ni_status_33)(uint64_t ni, uint32_t reg, uint64_t status);
    int32_t (*ni_dist_33)(uint64_t ni, uint32_t nid, uint32_t pid, uint64_t distance);
    int32_t (*ni_handle_33)(uint64_t handle, uint64_t ni);
    int32_t (*get_uid_33)(uint64_t ni, uint64_t uid);
    int32_t (*get_id_33)(uint64_t ni, uint64_t id);
    int32_t (*get_jid_33)(uint64_t ni, uint64_t jid);
    int32_t (*me_attach_33)(uint64_t ni, uint32_t index, uint32_t nid, uint32_t pid, uint64_t match_bits,
                            uint64_t ignore_bits, int32_t unlink, int32_t position, uint64_t handle);
    int32_t (*me_attach_any_33)(uint64_t ni, uint64_t index, uint32_t nid, uint32_t pid, uint64_t match_bits,
                                uint64_t ignore_bits, int32_t unlink, uint64_t handle);
    int32_t (*me_insert_33)(uint64_t base, uint32_t nid, uint32_t pid, uint64_t match_bits, uint64_t ignore_bits,
                            int32_t unlink, int32_t position, uint64_t handle);
    int32_t (*me_unlink_33)(uint64_t me);
    int32_t (*md_attach_33)(uint64_t me, uint64_t md, int32_t unlink_op, uint64_t handle);
    int32_t (*md_bind_33)(uint64_t ni, uint64_t md, int32_t unlink_op, uint64_t handle);
    int32_t (*md_unlink_33)(uint64_t md);
    int32_t (*md_update_33)(uint64_t md, uint64_t old_md, uint64_t new_md, uint64_t eq);
    int32_t (*eq_alloc_33)(uint64_t ni, uint64_t count, uint64_t handler, uint64_t handle);
    int32_t (*eq_free_33)(uint64_t eq);
    int32_t (*eq_get_33)(uint64_t eq, uint64_t event);
    int32_t (*eq_wait_33)(uint64_t eq, uint64_t event);
    int32_t (*eq_poll_33)(uint64_t eqs, int32_t size, uint32_t timeout, uint64_t event, uint64_t which);
    int32_t (*ac_entry_33)(uint64_t ni, uint32_t index, uint32_t nid, uint32_t pid, uint32_t uid, uint32_t jid,
                           uint32_t portal);
    int32_t (*put_33)(uint64_t md, int32_t ack_req, uint32_t nid, uint32_t pid, uint32_t portal, uint32_t cookie,
                      uint64_t match_bits, uint64_t offset, uint64_t hdr_data);
    int32_t (*put_region_33)(uint64_t md, uint64_t local_offset, uint64_t length, int32_t ack_req, uint32_t nid,
                             uint32_t pid, uint32_t portal, uint32_t cookie, uint64_t match_bits,
                             uint64_t remote_offset, uint64_t hdr_data);
    int32_t (*get_33)(uint64_t md, uint32_t nid, uint32_t pid, uint32_t portal, uint32_t cookie,
                      uint64_t match_bits, uint64_t offset);
    int32_t (*get_region_33)(uint64_t md, uint64_t local_offset, uint64_t length, uint32_t nid, uint32_t pid,
                             uint32_t portal, uint32_t cookie, uint64_t match_bits, uint64_t remote_offset);
    int32_t (*get_put_33)(uint64_t get_md, uint64_t put_md, uint32_t nid, uint32_t pid, uint32_t portal,
                          uint32_t cookie, uint64_t match_bits, uint64_t remote_offset, uint64_t hdr_data);
    /* portals3_rt.h */
    int32_t (*rt_rank)(void);
    int32_t (*rt_size)(void);
    int32_t (*rt_process_id)(int32_t rank, uint64_t id);
    int32_t (*rt_barrier)(void);
    /* Process exit (atexit): leaves the job cleanly (closes the endpoint, so peers are told). */
    int32_t (*at_exit)(void);
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
