/*
 * lapi_putget: LAPI_Put and LAPI_Get between C programs, and what a target does with addresses it must not
 * use. Every task exposes a window (its address from LAPI_Address_init): a Put writes its bytes exactly and
 * moves org_cntr, cmpl_cntr and the target's tgt_cntr (L-092); a Put of 0 bytes moves them too (L-093); a Get
 * copies the target's bytes and org_cntr says they have arrived (L-094, L-095); after LAPI_Fence and a
 * LAPI_Gfence the data of earlier Puts is in place (L-087, L-090). Then the hostile part (lapi.h: what a target
 * accepts): a Put to an unmapped address, a Put to the target's code (not writable), a Get from an unmapped
 * address, an Amsend whose handler address is the target's data (not code) or unmapped, and a Put naming as
 * tgt_cntr memory that was never used as a counter: each is reported to the target's err_hndlr (and the refused
 * Get to the origin's too), with the err_type of the transfer (three PUT_ERR, two GET_ERR, two AM_ERR), its own
 * task as task_id and the task concerned as src; nothing is written or called, and the target goes on working (a
 * last Put arrives).
 */
#include "lapitest.h"

#define WINDOW 65536
#define PIECE 1000
/* six reports at the target, and one at the origin: its Get was refused, no data came */
#define HOSTILE 7

static unsigned char window[WINDOW];
static unsigned char mine[WINDOW];
static unsigned char got[WINDOW];
static volatile int async_errors;
static volatile int called;
/* err_hndlr calls by err_type (INT_ERR + 1 for a value outside lapi_err_t), and those whose task_id or src is wrong */
static volatile int errors_of_type[INT_ERR + 2];
static volatile int wrong_task;
static int my_task = -1, prev_task = -1, next_task = -1;

static void on_error(lapi_handle_t *hndl, int *error_code, lapi_err_t *err_type, int *task_id, int *src) {
    (void) hndl, (void) error_code;
    int type = (int) *err_type;
    __atomic_add_fetch(&errors_of_type[type >= 0 && type <= INT_ERR ? type : INT_ERR + 1], 1, __ATOMIC_RELEASE);
    if (*task_id != my_task || (*src != prev_task && *src != next_task)) {
        __atomic_add_fetch(&wrong_task, 1, __ATOMIC_RELEASE);
    }
    __atomic_add_fetch(&async_errors, 1, __ATOMIC_RELEASE);
}

static void *never_called(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                          void **user_info) {
    (void) hndl, (void) uhdr, (void) uhdr_len, (void) msg_len, (void) comp_h, (void) user_info;
    __atomic_add_fetch(&called, 1, __ATOMIC_RELEASE);
    return NULL;
}

static unsigned char byte(int task, int i) {
    return (unsigned char) (task * 31 + i * 7);
}

int main(void) {
    lapi_info_t info;
    memset(&info, 0, sizeof info);
    info.err_hndlr = on_error;
    lapitest_t t;
    lapitest_init_with(&t, &info);
    lapi_handle_t h = t.hndl;
    CHECK(t.tasks >= 2 && t.tasks <= 64);
    uint peer = (uint) ((t.task + 1) % t.tasks);
    int from = (t.task + t.tasks - 1) % t.tasks;
    my_task = t.task;
    prev_task = from;        /* the origin of what this task's target side reports */
    next_task = (int) peer;  /* the target that refused this task's Get */
    for (int i = 0; i < WINDOW; i++) {
        window[i] = byte(t.task, i);
        mine[i] = byte(t.task + 100, i);
    }
    lapi_cntr_t tgt_cntr, org_cntr, cmpl_cntr;
    OK(LAPI_Setcntr(h, &tgt_cntr, 0));
    OK(LAPI_Setcntr(h, &org_cntr, 0));
    OK(LAPI_Setcntr(h, &cmpl_cntr, 0));
    void *windows[64], *counters[64], *handlers[64];
    OK(LAPI_Address_init(h, window, windows));
    OK(LAPI_Address_init(h, &tgt_cntr, counters));
    OK(LAPI_Address_init(h, (void *) &never_called, handlers));
    unsigned char *remote = windows[peer];
    int v = -1;

    /* ---- Put: PIECE bytes at offset 100, then 0 bytes ---- */
    OK(LAPI_Put(h, peer, PIECE, remote + 100, mine, counters[peer], &org_cntr, &cmpl_cntr));
    WAITCNTR(h, &org_cntr, 1, &v);
    WAITCNTR(h, &cmpl_cntr, 1, &v);
    OK(LAPI_Put(h, peer, 0, NULL, NULL, counters[peer], &org_cntr, &cmpl_cntr));
    WAITCNTR(h, &org_cntr, 1, &v);
    WAITCNTR(h, &cmpl_cntr, 1, &v);
    WAITCNTR(h, &tgt_cntr, 2, &v);
    CHECK_INT(0, v);
    for (int i = 0; i < PIECE; i++) {
        CHECK(window[100 + i] == byte(from + 100, i));
    }
    CHECK(window[99] == byte(t.task, 99) && window[100 + PIECE] == byte(t.task, 100 + PIECE));
    OK(LAPI_Gfence(h));

    /* ---- Get: the peer's bytes 20000.. into mine, then 0 bytes ---- */
    OK(LAPI_Get(h, peer, 3 * PIECE, remote + 20000, got + 5, counters[peer], &org_cntr));
    WAITCNTR(h, &org_cntr, 1, &v);
    for (int i = 0; i < 3 * PIECE; i++) {
        CHECK(got[5 + i] == byte((int) peer, 20000 + i));
    }
    OK(LAPI_Get(h, peer, 0, NULL, NULL, counters[peer], &org_cntr));
    WAITCNTR(h, &org_cntr, 1, &v);
    WAITCNTR(h, &tgt_cntr, 2, &v);
    CHECK_INT(0, v);

    /* ---- Fence: the data of earlier Puts is at the target ---- */
    for (int k = 0; k < 8; k++) {
        OK(LAPI_Put(h, peer, PIECE, remote + 30000 + k * PIECE, mine + k, NULL, NULL, NULL));
    }
    OK(LAPI_Fence(h));
    OK(LAPI_Gfence(h));
    for (int k = 0; k < 8; k++) {
        for (int i = 0; i < PIECE; i++) {
            CHECK(window[30000 + k * PIECE + i] == byte(from + 100, k + i));
        }
    }

    /* ---- hostile addresses: reported at the target, never used ---- */
    unsigned char before[WINDOW];
    memcpy(before, window, WINDOW);
    OK(LAPI_Put(h, peer, 64, (void *) (uintptr_t) 0x1000, mine, NULL, NULL, NULL));
    OK(LAPI_Put(h, peer, 64, handlers[peer], mine, NULL, NULL, NULL));
    OK(LAPI_Get(h, peer, 64, (void *) (uintptr_t) 0x1000, got, NULL, NULL));
    OK(LAPI_Amsend(h, peer, remote, NULL, 0, NULL, 0, NULL, NULL, NULL));
    OK(LAPI_Amsend(h, peer, (void *) (uintptr_t) 0x7ff0deadb000ULL, NULL, 0, NULL, 0, NULL, NULL, NULL));
    OK(LAPI_Put(h, peer, 8, remote + 60000, mine, (lapi_cntr_t *) (remote + 50000), NULL, NULL));
    lapitest_await_flag(&async_errors, HOSTILE, "err_hndlr calls for the hostile requests");
    CHECK_INT(0, called);
    CHECK_INT(3, errors_of_type[PUT_ERR]);
    CHECK_INT(2, errors_of_type[GET_ERR]);
    CHECK_INT(2, errors_of_type[AM_ERR]);
    CHECK_INT(0, errors_of_type[RMW_ERR] + errors_of_type[INT_ERR] + errors_of_type[INT_ERR + 1]);
    CHECK_INT(0, wrong_task);
    CHECK(memcmp(before, window, 60000) == 0 && memcmp(before + 60008, window + 60008, WINDOW - 60008) == 0);
    OK(LAPI_Gfence(h)); /* after it, the peer's last Put may come */

    /* ---- and it goes on ---- */
    OK(LAPI_Put(h, peer, 16, remote + 40000, mine, counters[peer], NULL, &cmpl_cntr));
    WAITCNTR(h, &cmpl_cntr, 1, NULL);
    WAITCNTR(h, &tgt_cntr, 1, NULL);
    OK(LAPI_Gfence(h));
    lapitest_passed(&t, "lapi_putget");
    return 0;
}
