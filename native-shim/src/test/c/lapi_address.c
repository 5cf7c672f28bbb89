/*
 * lapi_address: how a C program names the handlers of other tasks. The man page's example, corrected (its
 * cmpl_cntr passed by address and waited for): LAPI_Address_init then LAPI_Gfence, an
 * Amsend to the buddy with the handler address from the table (L-070, L-071). LAPI_Addr_set indices: each task
 * registers its own handler at index 5, odd and even tasks different ones, and an Amsend with index 5 runs the
 * target's (L-064, L-065); re-registering replaces it (L-068); LAPI_Addr_get gives back what was set. An index
 * the target never registered: LAPI_SUCCESS at the origin, no handler at the target, its err_hndlr is told
 * (AM_ERR) and the origin's cmpl_cntr still moves (L-069, O-09). LAPI_Address_init with NULL fills the table with NULL
 * (L-073). Run with three tasks or more.
 */
#include "lapitest.h"

#define DATA_LEN 64
#define INDEX 5
#define UNREGISTERED 9

static int data_buffer[DATA_LEN];
static int received[DATA_LEN];
static volatile int ran_a, ran_b, ran_c, ran_example;
static volatile int async_errors, async_code, async_type = -1;

static void *example_handler(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len,
                             compl_hndlr_t **comp_h, void **user_info) {
    (void) hndl, (void) uhdr, (void) uhdr_len, (void) comp_h, (void) user_info;
    if (*msg_len == sizeof data_buffer) {
        __atomic_add_fetch(&ran_example, 1, __ATOMIC_RELEASE);
    }
    return received;
}

static void *handler_a(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                       void **user_info) {
    (void) hndl, (void) uhdr, (void) uhdr_len, (void) msg_len, (void) comp_h, (void) user_info;
    __atomic_add_fetch(&ran_a, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void *handler_b(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                       void **user_info) {
    (void) hndl, (void) uhdr, (void) uhdr_len, (void) msg_len, (void) comp_h, (void) user_info;
    __atomic_add_fetch(&ran_b, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void *handler_c(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                       void **user_info) {
    (void) hndl, (void) uhdr, (void) uhdr_len, (void) msg_len, (void) comp_h, (void) user_info;
    __atomic_add_fetch(&ran_c, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void on_error(lapi_handle_t *hndl, int *error_code, lapi_err_t *err_type, int *task_id, int *src) {
    (void) hndl, (void) task_id, (void) src;
    async_code = *error_code;
    async_type = (int) *err_type;
    __atomic_add_fetch(&async_errors, 1, __ATOMIC_RELEASE);
}

int main(void) {
    lapi_info_t info;
    memset(&info, 0, sizeof info);
    info.err_hndlr = on_error;
    lapitest_t t;
    lapitest_init_with(&t, &info);
    lapi_handle_t hndl = t.hndl;
    CHECK(t.tasks >= 3 && t.tasks <= 64);
    int buddy = (t.task + 1) % t.tasks;
    int from = (t.task + t.tasks - 1) % t.tasks;

    /* ---- the man page's example, corrected ---- */
    void *hdr_hndlr_list[64];
    lapi_cntr_t cmpl_cntr;
    OK(LAPI_Setcntr(hndl, &cmpl_cntr, 0));
    OK(LAPI_Address_init(hndl, (void *) &example_handler, hdr_hndlr_list));
    for (int i = 0; i < t.tasks; i++) {
        CHECK(hdr_hndlr_list[i] != NULL);
    }
    CHECK(hdr_hndlr_list[t.task] == (void *) &example_handler);
    for (int i = 0; i < DATA_LEN; i++) {
        data_buffer[i] = t.task * 1000 + i;
    }
    OK(LAPI_Gfence(hndl));
    OK(LAPI_Amsend(hndl, (uint) buddy, hdr_hndlr_list[buddy], NULL, 0, &data_buffer[0], DATA_LEN * sizeof(int),
                   NULL, NULL, &cmpl_cntr));
    WAITCNTR(hndl, &cmpl_cntr, 1, NULL);
    lapitest_await_flag(&ran_example, 1, "the example's header handler");
    OK(LAPI_Gfence(hndl));
    for (int i = 0; i < DATA_LEN; i++) {
        CHECK_INT(from * 1000 + i, received[i]);
    }

    /* ---- LAPI_Address_init with NULL ---- */
    void *nothing[64];
    memset(nothing, 0xAB, sizeof nothing);
    OK(LAPI_Address_init(hndl, NULL, nothing));
    for (int i = 0; i < t.tasks; i++) {
        CHECK(nothing[i] == NULL);
    }

    /* ---- a well-known index, a different handler on odd and even tasks ---- */
    hdr_hndlr_t *mine = t.task % 2 == 0 ? handler_a : handler_b;
    OK(LAPI_Addr_set(hndl, (void *) mine, INDEX));
    void *back = NULL;
    OK(LAPI_Addr_get(hndl, &back, INDEX));
    CHECK(back == (void *) mine);
    OK(LAPI_Addr_get(hndl, &back, UNREGISTERED));
    CHECK(back == NULL);
    OK(LAPI_Gfence(hndl));
    OK(LAPI_Amsend(hndl, (uint) buddy, (void *) (uintptr_t) INDEX, NULL, 0, NULL, 0, NULL, NULL, &cmpl_cntr));
    WAITCNTR(hndl, &cmpl_cntr, 1, NULL);
    OK(LAPI_Gfence(hndl));
    CHECK_INT(t.task % 2 == 0 ? 1 : 0, ran_a);
    CHECK_INT(t.task % 2 == 0 ? 0 : 1, ran_b);

    /* ---- re-registered: the new handler ---- */
    OK(LAPI_Addr_set(hndl, (void *) handler_c, INDEX));
    OK(LAPI_Gfence(hndl));
    OK(LAPI_Amsend(hndl, (uint) buddy, (void *) (uintptr_t) INDEX, NULL, 0, NULL, 0, NULL, NULL, &cmpl_cntr));
    WAITCNTR(hndl, &cmpl_cntr, 1, NULL);
    OK(LAPI_Gfence(hndl));
    CHECK_INT(1, ran_c);
    CHECK_INT(t.task % 2 == 0 ? 1 : 0, ran_a);
    CHECK_INT(t.task % 2 == 0 ? 0 : 1, ran_b);

    /* ---- an index nobody registered: accepted, reported at the target, completed at the origin ---- */
    lapi_cntr_t tgt_cntr;
    void *counters[64];
    OK(LAPI_Setcntr(hndl, &tgt_cntr, 0));
    OK(LAPI_Address_init(hndl, &tgt_cntr, counters));
    OK(LAPI_Amsend(hndl, (uint) buddy, (void *) (uintptr_t) UNREGISTERED, NULL, 0, NULL, 0, counters[buddy], NULL,
                   &cmpl_cntr));
    WAITCNTR(hndl, &cmpl_cntr, 1, NULL);
    lapitest_await_flag(&async_errors, 1, "err_hndlr calls for the unregistered index");
    CHECK_INT(AM_ERR, async_type); /* an active message's problem, not the layer's own (INT_ERR) */
    OK(LAPI_Gfence(hndl));
    CHECK_INT(1, ran_c);
    int v = -1;
    OK(LAPI_Getcntr(hndl, &tgt_cntr, &v));
    CHECK_INT(0, v);
    lapitest_passed(&t, "lapi_address");
    return 0;
}
