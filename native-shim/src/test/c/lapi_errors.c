/*
 * lapi_errors: every argument error a C program can make, with its code, decided at the origin before the call
 * returns and with no side effect (LAPI_Amsend man page, Return Values; L-001..L-020, L-066, L-067, L-072,
 * L-082, L-085, L-086, L-091, L-096, L-100), and the limits that are accepted exactly (L-008, L-010, L-015,
 * L-017). Every task sends to the next; after the errors, the target's handler has run and its counter has
 * moved exactly once per accepted message (L-019). LAPI_MAX_MSG_SZ is set small through the environment
 * (lapi.h).
 */
#include "lapitest.h"

#define MAX_DATA 65536

static volatile int handled;
static volatile int bad_uhdr;
static unsigned char received[MAX_DATA];
static unsigned char big[MAX_DATA];
static uint64_t header[1024 / 8 + 2];

static void *count_handler(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                           void **user_info) {
    (void) hndl;
    (void) comp_h;
    (void) user_info;
    const unsigned char *h = uhdr;
    for (uint i = 0; i < *uhdr_len; i++) {
        if (h[i] != (unsigned char) (i * 7 + 1)) {
            __atomic_add_fetch(&bad_uhdr, 1, __ATOMIC_RELEASE);
        }
    }
    __atomic_add_fetch(&handled, 1, __ATOMIC_RELEASE);
    return *msg_len > 0 ? received : NULL;
}

int main(void) {
    lapi_handle_t never = 77;
    int v = -1;
    /* before any LAPI_Init: no handle is valid; LAPI_Msg_string needs no context */
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Qenv(never, TASK_ID, &v));
    char text[LAPI_MAX_ERR_STRING];
    OK(LAPI_Msg_string(LAPI_ERR_TGT, text));
    CHECK(strncmp(text, "LAPI_ERR_TGT:", 13) == 0);
    CHECK_RC(LAPI_ERR_RET_PTR_NULL, LAPI_Msg_string(LAPI_ERR_TGT, NULL));

    setenv("PORTALS3J_LAPI_MAX_DATA_SZ", "65536", 1);
    lapi_info_t info;
    memset(&info, 0, sizeof info);
    lapi_handle_t h;
    CHECK_RC(LAPI_ERR_RET_PTR_NULL, LAPI_Init(NULL, &info));
    CHECK_RC(LAPI_ERR_INFO_NULL, LAPI_Init(&h, NULL));
    lapitest_t t;
    lapitest_init_with(&t, &info);
    h = t.hndl;
    uint peer = (uint) ((t.task + 1) % t.tasks);

    int max_uhdr = 0, max_data = 0, table_size = 0, payload = 0;
    OK(LAPI_Qenv(h, MAX_UHDR_SZ, &max_uhdr));
    OK(LAPI_Qenv(h, MAX_DATA_SZ, &max_data));
    OK(LAPI_Qenv(h, LOC_ADDRTBL_SZ, &table_size));
    OK(LAPI_Qenv(h, PKT_PAYLOAD_SZ, &payload));
    CHECK(max_uhdr > 0 && max_uhdr % 8 == 0 && max_uhdr <= 1024); /* L-098 */
    CHECK_INT(MAX_DATA, max_data);                                    /* L-099 */
    CHECK(table_size > 2 && payload > 0 && payload < MAX_DATA);
    CHECK_RC(LAPI_ERR_QUERY_TYPE, LAPI_Qenv(h, (lapi_query_t) 99, &v));
    CHECK_RC(LAPI_ERR_RET_PTR_NULL, LAPI_Qenv(h, TASK_ID, NULL));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Qenv(h + 77, TASK_ID, &v)); /* L-100 */

    lapi_cntr_t tgt_cntr, org_cntr, cmpl_cntr;
    OK(LAPI_Setcntr(h, &tgt_cntr, 0));
    OK(LAPI_Setcntr(h, &org_cntr, 0));
    OK(LAPI_Setcntr(h, &cmpl_cntr, 0));
    void *handlers[64];
    void *counters[64];
    CHECK(t.tasks <= 64);
    OK(LAPI_Address_init(h, (void *) &count_handler, handlers));
    OK(LAPI_Address_init(h, &tgt_cntr, counters));
    CHECK_RC(LAPI_ERR_RET_PTR_NULL, LAPI_Address_init(h, &tgt_cntr, NULL)); /* L-072 */
    void *hh = handlers[peer];
    lapi_cntr_t *tc = counters[peer];
    unsigned char *uhdr = (unsigned char *) header;
    for (int i = 0; i < 1024; i++) {
        uhdr[i] = (unsigned char) (i * 7 + 1);
    }
    for (int i = 0; i < MAX_DATA; i++) {
        big[i] = (unsigned char) (i % 251);
    }

    /* ---- each fault alone (L-001, L-003..L-018) ---- */
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Amsend(h + 77, peer, hh, uhdr, 8, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_TGT, LAPI_Amsend(h, (uint) t.tasks, hh, uhdr, 8, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_TGT, LAPI_Amsend(h, (uint) -1, hh, uhdr, 8, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_HDR_HNDLR_NULL, LAPI_Amsend(h, peer, NULL, uhdr, 8, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_UHDR_NULL, LAPI_Amsend(h, peer, hh, NULL, 8, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_UHDR_LEN,
             LAPI_Amsend(h, peer, hh, uhdr, (uint) max_uhdr + 8, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_UHDR_LEN, LAPI_Amsend(h, peer, hh, uhdr, 4, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_UHDR_LEN, LAPI_Amsend(h, peer, hh, uhdr, 3, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_UHDR_LEN, LAPI_Amsend(h, peer, hh, uhdr, (uint) -8, big, 8, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_ORG_ADDR_NULL, LAPI_Amsend(h, peer, hh, uhdr, 8, NULL, 1, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_DATA_LEN,
             LAPI_Amsend(h, peer, hh, uhdr, 8, big, MAX_DATA + 1UL, tc, &org_cntr, &cmpl_cntr));
    CHECK_RC(LAPI_ERR_DATA_LEN, LAPI_Amsend(h, peer, hh, uhdr, 8, big, (ulong) -1, tc, &org_cntr, &cmpl_cntr));

    /* ---- several at once: the first in parameter order (L-020, O-07) ---- */
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Amsend(h + 77, (uint) t.tasks, NULL, NULL, 3, NULL, 1, tc, NULL, NULL));
    CHECK_RC(LAPI_ERR_TGT, LAPI_Amsend(h, (uint) t.tasks, NULL, NULL, 3, NULL, 1, tc, NULL, NULL));
    CHECK_RC(LAPI_ERR_HDR_HNDLR_NULL, LAPI_Amsend(h, peer, NULL, NULL, 3, NULL, 1, tc, NULL, NULL));
    CHECK_RC(LAPI_ERR_UHDR_NULL, LAPI_Amsend(h, peer, hh, NULL, 3, NULL, 1, tc, NULL, NULL));
    CHECK_RC(LAPI_ERR_UHDR_LEN, LAPI_Amsend(h, peer, hh, uhdr, 3, NULL, 1, tc, NULL, NULL));
    CHECK_RC(LAPI_ERR_ORG_ADDR_NULL, LAPI_Amsend(h, peer, hh, uhdr, 8, NULL, MAX_DATA + 1UL, tc, NULL, NULL));

    /* ---- counters, fences, queries, the address table (L-066, L-067, L-082, L-085, L-086, L-091) ---- */
    CHECK_RC(LAPI_ERR_CNTR_NULL, LAPI_Getcntr(h, NULL, &v));
    CHECK_RC(LAPI_ERR_RET_PTR_NULL, LAPI_Getcntr(h, &org_cntr, NULL));
    CHECK_RC(LAPI_ERR_CNTR_NULL, LAPI_Setcntr(h, NULL, 1));
    CHECK_RC(LAPI_ERR_CNTR_NULL, LAPI_Waitcntr(h, NULL, 1, &v));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Getcntr(h + 77, &org_cntr, &v));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Setcntr(h + 77, &org_cntr, 1));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Waitcntr(h + 77, &org_cntr, 0, &v));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Fence(h + 77));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Gfence(h + 77));
    CHECK_RC(LAPI_ERR_ADDR_HNDL_RANGE, LAPI_Addr_set(h, (void *) &count_handler, 0));
    CHECK_RC(LAPI_ERR_ADDR_HNDL_RANGE, LAPI_Addr_set(h, (void *) &count_handler, table_size));
    OK(LAPI_Addr_set(h, (void *) &count_handler, table_size - 1));
    void *back = NULL;
    OK(LAPI_Addr_get(h, &back, table_size - 1));
    CHECK(back == (void *) &count_handler);
    CHECK_RC(LAPI_ERR_ADDR_HNDL_RANGE, LAPI_Addr_get(h, &back, table_size));
    CHECK_RC(LAPI_ERR_RET_PTR_NULL, LAPI_Addr_get(h, NULL, 1));

    /* ---- Put and Get (L-096) ---- */
    CHECK_RC(LAPI_ERR_TGT, LAPI_Put(h, (uint) t.tasks, 8, received, big, NULL, NULL, NULL));
    CHECK_RC(LAPI_ERR_TGT, LAPI_Get(h, (uint) -1, 8, received, big, NULL, NULL));
    CHECK_RC(LAPI_ERR_DATA_LEN, LAPI_Put(h, peer, MAX_DATA + 1UL, received, big, NULL, NULL, NULL));
    CHECK_RC(LAPI_ERR_DATA_LEN, LAPI_Get(h, peer, MAX_DATA + 1UL, received, big, NULL, NULL));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Put(h + 77, peer, 8, received, big, NULL, NULL, NULL));

    /* nothing above moved a counter (L-019) */
    OK(LAPI_Getcntr(h, &org_cntr, &v));
    CHECK_INT(0, v);
    OK(LAPI_Getcntr(h, &cmpl_cntr, &v));
    CHECK_INT(0, v);

    /* ---- the limits, accepted (L-008, L-010, L-015, L-017) ---- */
    OK(LAPI_Amsend(h, peer, hh, NULL, 0, big, 8, tc, &org_cntr, &cmpl_cntr));
    OK(LAPI_Amsend(h, peer, hh, uhdr, (uint) max_uhdr, NULL, 0, tc, &org_cntr, &cmpl_cntr));
    OK(LAPI_Amsend(h, peer, hh, uhdr, 8, NULL, 0, tc, &org_cntr, &cmpl_cntr));
    WAITCNTR(h, &cmpl_cntr, 3, &v);
    CHECK_INT(0, v);
    OK(LAPI_Amsend(h, peer, hh, uhdr, 8, big, MAX_DATA, tc, &org_cntr, &cmpl_cntr));
    WAITCNTR(h, &cmpl_cntr, 1, &v);
    CHECK_INT(0, v);
    WAITCNTR(h, &org_cntr, 4, &v);
    CHECK_INT(0, v);

    /* as a target: the handler ran exactly four times, with the origin's header bytes */
    WAITCNTR(h, &tgt_cntr, 4, &v);
    CHECK_INT(0, v);
    OK(LAPI_Gfence(h));
    CHECK_INT(4, __atomic_load_n(&handled, __ATOMIC_ACQUIRE));
    CHECK_INT(0, __atomic_load_n(&bad_uhdr, __ATOMIC_ACQUIRE));
    CHECK(memcmp(received, big, MAX_DATA) == 0);
    OK(LAPI_Getcntr(h, &tgt_cntr, &v));
    CHECK_INT(0, v);

    /* after LAPI_Term the handle is invalid (L-002) */
    OK(LAPI_Gfence(h));
    OK(LAPI_Term(h)); /* see lapitest_passed */
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Amsend(h, peer, hh, uhdr, 8, big, 8, NULL, NULL, NULL));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Qenv(h, TASK_ID, &v));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Term(h));
    printf("lapi_errors: rank %d passed\n", t.task);
    return 0;
}
