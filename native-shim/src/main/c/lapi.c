/*
 * lapi.c: the functions of lapi.h, each forwarded to the Java layer org.portals3j.lapi through the lapi_*
 * members of the table of upcall stubs (shim_functions.h; org.portals3j.shim.internal.ffm.LapiUpcalls on the
 * Java side). LAPI_Init starts the engine as PtlInit does (shim_boot.c); before it, every other call answers
 * LAPI_ERR_HNDL_INVALID, as for a handle never returned by LAPI_Init. LAPI_Msg_string and LAPI_Address need no
 * engine and are answered here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lapi.h"
#include "shim_entry.h"

_Static_assert(sizeof(ulong) == 8 && sizeof(void *) == 8, "lapi.h's ulong and addresses travel as 64 bits");
_Static_assert(sizeof(lapi_cntr_t) == 8, "a lapi_cntr_t is the Java layer's 8-byte counter cell");

/* The started table, or return LAPI_ERR_HNDL_INVALID (no LAPI_Init yet: no handle is valid), or
 * LAPI_ERR_UNKNOWN in a process forked after the engine started (said once by ptl_shim_not_started). */
#define LAPI_STARTED_OR_RETURN()                                                        \
    const ptl_shim_table_t *t = ptl_shim_table_if_started();                           \
    if (__builtin_expect(t == NULL, 0)) {                                              \
        return ptl_shim_not_started(LAPI_ERR_HNDL_INVALID, __func__) == LAPI_ERR_HNDL_INVALID \
                ? LAPI_ERR_HNDL_INVALID : LAPI_ERR_UNKNOWN;                            \
    }                                                                                  \
    PTL_SHIM_ATTACHED();

PTL_EXPORT int LAPI_Init(lapi_handle_t *hndl, lapi_info_t *lapi_info) {
    const ptl_shim_table_t *t = ptl_shim_table(__func__);
    if (t == NULL) {
        return LAPI_ERR_UNKNOWN; /* the boot said why */
    }
    return t->lapi_init(ADDR(hndl), ADDR(lapi_info));
}

PTL_EXPORT int LAPI_Term(lapi_handle_t hndl) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_term((int32_t) hndl);
}

PTL_EXPORT int LAPI_Qenv(lapi_handle_t hndl, lapi_query_t query, int *ret_val) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_qenv((int32_t) hndl, (int32_t) query, ADDR(ret_val));
}

PTL_EXPORT int LAPI_Senv(lapi_handle_t hndl, lapi_query_t query, int set_val) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_senv((int32_t) hndl, (int32_t) query, set_val);
}

PTL_EXPORT int LAPI_Amsend(lapi_handle_t hndl, uint tgt, void *hdr_hdl, void *uhdr, uint uhdr_len, void *udata,
                           ulong udata_len, lapi_cntr_t *tgt_cntr, lapi_cntr_t *org_cntr, lapi_cntr_t *cmpl_cntr) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_amsend((int32_t) hndl, tgt, ADDR(hdr_hdl), ADDR(uhdr), uhdr_len, ADDR(udata), udata_len,
                          ADDR(tgt_cntr), ADDR(org_cntr), ADDR(cmpl_cntr));
}

PTL_EXPORT int LAPI_Put(lapi_handle_t hndl, uint tgt, ulong len, void *tgt_addr, void *org_addr,
                        lapi_cntr_t *tgt_cntr, lapi_cntr_t *org_cntr, lapi_cntr_t *cmpl_cntr) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_put((int32_t) hndl, tgt, len, ADDR(tgt_addr), ADDR(org_addr), ADDR(tgt_cntr), ADDR(org_cntr),
                       ADDR(cmpl_cntr));
}

PTL_EXPORT int LAPI_Get(lapi_handle_t hndl, uint tgt, ulong len, void *tgt_addr, void *org_addr,
                        lapi_cntr_t *tgt_cntr, lapi_cntr_t *org_cntr) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_get((int32_t) hndl, tgt, len, ADDR(tgt_addr), ADDR(org_addr), ADDR(tgt_cntr), ADDR(org_cntr));
}

PTL_EXPORT int LAPI_Setcntr(lapi_handle_t hndl, lapi_cntr_t *cntr, int val) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_setcntr((int32_t) hndl, ADDR(cntr), val);
}

PTL_EXPORT int LAPI_Getcntr(lapi_handle_t hndl, lapi_cntr_t *cntr, int *val) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_getcntr((int32_t) hndl, ADDR(cntr), ADDR(val));
}

PTL_EXPORT int LAPI_Waitcntr(lapi_handle_t hndl, lapi_cntr_t *cntr, int val, int *cur_cntr_val) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_waitcntr((int32_t) hndl, ADDR(cntr), val, ADDR(cur_cntr_val));
}

PTL_EXPORT int LAPI_Fence(lapi_handle_t hndl) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_fence((int32_t) hndl);
}

PTL_EXPORT int LAPI_Gfence(lapi_handle_t hndl) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_gfence((int32_t) hndl);
}

PTL_EXPORT int LAPI_Addr_set(lapi_handle_t hndl, void *addr, int addr_hndl) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_addr_set((int32_t) hndl, ADDR(addr), addr_hndl);
}

PTL_EXPORT int LAPI_Addr_get(lapi_handle_t hndl, void **addr, int addr_hndl) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_addr_get((int32_t) hndl, ADDR(addr), addr_hndl);
}

PTL_EXPORT int LAPI_Address_init(lapi_handle_t hndl, void *my_addr, void *add_tab[]) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_address_init((int32_t) hndl, ADDR(my_addr), ADDR(add_tab));
}

PTL_EXPORT int LAPI_Probe(lapi_handle_t hndl) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_probe((int32_t) hndl);
}

PTL_EXPORT int LAPI_Purge_totask(lapi_handle_t hndl, uint dest) {
    LAPI_STARTED_OR_RETURN()
    return t->lapi_purge_totask((int32_t) hndl, dest);
}

PTL_EXPORT int LAPI_Address(void *my_addr, ulong *ret_addr) {
    if (my_addr == NULL) {
        return LAPI_ERR_ORG_ADDR_NULL;
    }
    if (ret_addr == NULL) {
        return LAPI_ERR_TGT_ADDR_NULL;
    }
    *ret_addr = (ulong) (uintptr_t) my_addr;
    return LAPI_SUCCESS;
}

/* ---- LAPI_Msg_string ------------------------------------------------------------------------ */

static const struct {
    int code;
    const char *text;
} messages[] = {
    {LAPI_SUCCESS, "LAPI_SUCCESS: the call succeeded"},
    {LAPI_ERR_HNDL_INVALID, "LAPI_ERR_HNDL_INVALID: the handle was never returned by LAPI_Init, or was terminated"},
    {LAPI_ERR_TGT, "LAPI_ERR_TGT: the target task is outside 0 .. NUM_TASKS-1"},
    {LAPI_ERR_HDR_HNDLR_NULL, "LAPI_ERR_HDR_HNDLR_NULL: the header handler is NULL"},
    {LAPI_ERR_UHDR_NULL, "LAPI_ERR_UHDR_NULL: uhdr is NULL but uhdr_len is not 0"},
    {LAPI_ERR_UHDR_LEN, "LAPI_ERR_UHDR_LEN: uhdr_len is over MAX_UHDR_SZ or not a multiple of 8"},
    {LAPI_ERR_ORG_ADDR_NULL, "LAPI_ERR_ORG_ADDR_NULL: the origin buffer is NULL but the length is not 0"},
    {LAPI_ERR_DATA_LEN, "LAPI_ERR_DATA_LEN: the data length is over LAPI_MAX_MSG_SZ (Qenv MAX_DATA_SZ)"},
    {LAPI_ERR_TGT_PURGED, "LAPI_ERR_TGT_PURGED: the call returned early because LAPI_Purge_totask was called"},
    {LAPI_ERR_CNTR_NULL, "LAPI_ERR_CNTR_NULL: the counter is NULL"},
    {LAPI_ERR_RET_PTR_NULL, "LAPI_ERR_RET_PTR_NULL: an output argument is NULL"},
    {LAPI_ERR_ADDR_HNDL_RANGE, "LAPI_ERR_ADDR_HNDL_RANGE: the index is outside 1 .. LOC_ADDRTBL_SZ-1"},
    {LAPI_ERR_TGT_ADDR_NULL, "LAPI_ERR_TGT_ADDR_NULL: the target address is NULL but the length is not 0"},
    {LAPI_ERR_QUERY_TYPE, "LAPI_ERR_QUERY_TYPE: not a query LAPI_Qenv knows, or LAPI_Senv cannot set"},
    {LAPI_ERR_SET_VAL, "LAPI_ERR_SET_VAL: LAPI_Senv does not accept this value for the query"},
    {LAPI_ERR_INFO_NULL, "LAPI_ERR_INFO_NULL: LAPI_Init needs a zeroed lapi_info_t"},
    {LAPI_ERR_ALL_HNDL_IN_USE, "LAPI_ERR_ALL_HNDL_IN_USE: every LAPI handle is in use; LAPI_Term one first"},
    {LAPI_ERR_MEMORY_EXHAUSTED, "LAPI_ERR_MEMORY_EXHAUSTED: no memory or Portals resources left for LAPI"},
    {LAPI_ERR_BLOCKING_IN_HANDLER,
     "LAPI_ERR_BLOCKING_IN_HANDLER: a blocking LAPI call from a header handler or an inline completion handler"},
    {LAPI_ERR_UNKNOWN, "LAPI_ERR_UNKNOWN: the LAPI layer failed; it said why on stderr"},
};

PTL_EXPORT int LAPI_Msg_string(int error_code, void *buf) {
    if (buf == NULL) {
        return LAPI_ERR_RET_PTR_NULL;
    }
    for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++) {
        if (messages[i].code == error_code) {
            snprintf((char *) buf, LAPI_MAX_ERR_STRING, "%s", messages[i].text);
            return LAPI_SUCCESS;
        }
    }
    snprintf((char *) buf, LAPI_MAX_ERR_STRING, "%d is not a LAPI return code", error_code);
    return LAPI_SUCCESS;
}
