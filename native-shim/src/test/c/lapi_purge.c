/*
 * lapi_purge: LAPI_Purge_totask releases a LAPI_Amsend blocked in flow control with LAPI_ERR_TGT_PURGED
 * (LAPI_Amsend man page, Return Values; L-021). Two tasks, two credits (PORTALS3J_LAPI_CREDITS, lapi.h). Task
 * 1's completion handler holds each message until the job's barrier has passed, so task 0's first two Amsends
 * take both credits and its third waits (on another thread) for a reply that cannot come yet. Task 0 purges
 * task 1 until that call returns (a purge releases only calls already waiting, so it repeats until the call has
 * begun to wait): the code is LAPI_ERR_TGT_PURGED and cmpl_cntr has not moved. After the barrier task 1 lets
 * its completion handlers finish: the two messages complete, and a fourth Amsend is accepted and delivered;
 * after a Gfence task 1 has run exactly three header handlers (the purged call sent nothing). Purge_totask with
 * a bad target gives LAPI_ERR_TGT.
 */
#include "lapitest.h"

static volatile int handled;
static volatile int released;
static volatile int third_done;
static volatile int third_rc = -1;
static lapi_handle_t hndl;
static void *target_handler;
static lapi_cntr_t cmpl_cntr;

/* A normal completion handler (on a completion thread) may block: it waits, bounded, for the release. */
static void hold(lapi_handle_t *h, void *user_info) {
    (void) h, (void) user_info;
    lapitest_await_flag(&released, 1, "the release of the held completion handlers");
}

static void *handler(lapi_handle_t *h, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                     void **user_info) {
    (void) h, (void) uhdr, (void) uhdr_len, (void) msg_len, (void) user_info;
    *comp_h = hold;
    __atomic_add_fetch(&handled, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void *third_amsend(void *arg) {
    (void) arg;
    third_rc = LAPI_Amsend(hndl, 1, target_handler, NULL, 0, NULL, 0, NULL, NULL, &cmpl_cntr);
    __atomic_store_n(&third_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

int main(void) {
    setenv("PORTALS3J_LAPI_CREDITS", "2", 1);
    lapitest_t t;
    lapitest_init(&t);
    hndl = t.hndl;
    CHECK_INT(2, t.tasks);
    OK(LAPI_Setcntr(hndl, &cmpl_cntr, 0));
    void *handlers[2];
    OK(LAPI_Address_init(hndl, (void *) &handler, handlers));
    target_handler = handlers[1];
    CHECK_RC(LAPI_ERR_TGT, LAPI_Purge_totask(hndl, 2));
    int v = -1;
    if (t.task == 0) {
        OK(LAPI_Amsend(hndl, 1, target_handler, NULL, 0, NULL, 0, NULL, NULL, &cmpl_cntr));
        OK(LAPI_Amsend(hndl, 1, target_handler, NULL, 0, NULL, 0, NULL, NULL, &cmpl_cntr));
        pthread_t third;
        CHECK(pthread_create(&third, NULL, third_amsend, NULL) == 0);
        for (int i = 0; i < 20000 && !__atomic_load_n(&third_done, __ATOMIC_ACQUIRE); i++) {
            OK(LAPI_Purge_totask(hndl, 1));
            lapitest_sleep_ms(1);
        }
        CHECK(__atomic_load_n(&third_done, __ATOMIC_ACQUIRE) == 1);
        CHECK(pthread_join(third, NULL) == 0);
        CHECK_INT(LAPI_ERR_TGT_PURGED, third_rc);
        OK(LAPI_Getcntr(hndl, &cmpl_cntr, &v));
        CHECK_INT(0, v);
    }
    if (t.task == 1) {
        lapitest_await_flag(&handled, 2, "the header handlers of the two Amsends the credits allow");
    }
    CHECK(ptl_rt_barrier() == 0);
    if (t.task == 1) {
        __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
        lapitest_await_flag(&handled, 3, "the header handler of the Amsend after the purge");
    } else {
        WAITCNTR(hndl, &cmpl_cntr, 2, &v);
        OK(LAPI_Amsend(hndl, 1, target_handler, NULL, 0, NULL, 0, NULL, NULL, &cmpl_cntr));
        WAITCNTR(hndl, &cmpl_cntr, 1, &v);
        CHECK_INT(0, v);
    }
    OK(LAPI_Gfence(hndl)); /* a data fence of every task: whatever task 0 sent has arrived */
    CHECK_INT(t.task == 1 ? 3 : 0, handled); /* the purged call sent nothing */
    lapitest_passed(&t, "lapi_purge");
    return 0;
}
