/*
 * lapi_control: the calls and flags around LAPI_Amsend that change how the layer behaves, from C, two tasks or
 * more, each sending to the next.
 * - LAPI_Senv: ERROR_CHK 1 and INTERRUPT_SET as Init chose are accepted; ERROR_CHK 0 and the other mode are
 *   refused with LAPI_ERR_SET_VAL (O-08; lapi.h); a read-only or unknown query gives
 *   LAPI_ERR_QUERY_TYPE, a bad handle LAPI_ERR_HNDL_INVALID (L-100).
 * - Interrupt mode (INTERRUPT_SET 1, the default): the header handler runs on a thread of the layer while the
 *   program's thread makes no LAPI call; LAPI_Probe returns at once. A thread that waits in LAPI may run handlers
 *   itself (leader/follower, the layer's package documentation), so the message that shows it is sent only once
 *   every task has left its LAPI waits (ptl_rt_barrier, which is no LAPI call), and only its handler is checked
 *   for the thread it ran on.
 * - L-080 (O-14): LAPI_Waitcntr, LAPI_Fence, LAPI_Gfence and LAPI_Address_init called from a header handler, and
 *   LAPI_Waitcntr from an inline completion handler (LAPI_SEND_REPLY), return LAPI_ERR_BLOCKING_IN_HANDLER at
 *   once instead of deadlocking the dispatcher; the messages complete.
 * - ctl_flags (LAPI_Amsend, Description: Role of the header handler): LAPI_BURY_MSG discards the data of an eager and
 *   of a rendezvous message, with a NULL return or with a buffer (left untouched), says nothing to err_hndlr, and the
 *   completion handler, tgt_cntr, org_cntr and cmpl_cntr proceed as for a delivered message. A bit the layer does not
 *   know is reported to err_hndlr as AM_ERR (never ignored) and the data discarded the same way.
 */
#include "lapitest.h"

#define BIG 20000 /* more than PKT_PAYLOAD_SZ (checked): rendezvous */
#define SMALL 100
#define UNKNOWN_FLAG 0x4

enum { PLAIN = 1, BLOCKING, INLINE_BLOCKING, BURY_EAGER_NULL, BURY_RNDV_NULL, BURY_EAGER_BUF, BURY_RNDV_BUF,
       UNKNOWN_EAGER, UNKNOWN_RNDV, CASES };

static pthread_t main_thread;
static volatile int handled[CASES];
static volatile int completed[CASES];
static volatile int on_main_thread;
/* L-080: the codes the blocking calls returned inside handlers */
static volatile int rc_waitcntr = -1, rc_fence = -1, rc_gfence = -1, rc_address_init = -1, rc_inline = -1;
static lapi_cntr_t local_cntr;
static unsigned char sink[BIG];
static volatile int am_errors, other_errors;

static void on_error(lapi_handle_t *hndl, int *error_code, lapi_err_t *err_type, int *task_id, int *src) {
    (void) hndl, (void) error_code, (void) task_id, (void) src;
    __atomic_add_fetch(*err_type == AM_ERR ? &am_errors : &other_errors, 1, __ATOMIC_RELEASE);
}

static void count_completion(lapi_handle_t *hndl, void *user_info) {
    (void) hndl;
    __atomic_add_fetch(&completed[(intptr_t) user_info], 1, __ATOMIC_RELEASE);
}

static void inline_blocking(lapi_handle_t *hndl, void *user_info) {
    rc_inline = LAPI_Waitcntr(*hndl, &local_cntr, 1, NULL);
    count_completion(hndl, user_info);
}

static void *handler(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                     void **user_info) {
    lapi_return_info_t *ri = (lapi_return_info_t *) msg_len;
    int c = *uhdr_len == 8 ? (int) *(uint64_t *) uhdr : 0;
    if (c <= 0 || c >= CASES) {
        return NULL;
    }
    if (c == PLAIN && pthread_equal(pthread_self(), main_thread)) {
        __atomic_add_fetch(&on_main_thread, 1, __ATOMIC_RELEASE);
    }
    *comp_h = count_completion;
    *user_info = (void *) (intptr_t) c;
    void *buffer = NULL;
    switch (c) {
    case BLOCKING: {
        void *table[64];
        rc_waitcntr = LAPI_Waitcntr(*hndl, &local_cntr, 1, NULL);
        rc_fence = LAPI_Fence(*hndl);
        rc_gfence = LAPI_Gfence(*hndl);
        rc_address_init = LAPI_Address_init(*hndl, NULL, table);
        break;
    }
    case INLINE_BLOCKING:
        *comp_h = inline_blocking;
        ri->ret_flags = LAPI_SEND_REPLY;
        break;
    case BURY_EAGER_NULL:
    case BURY_RNDV_NULL:
        ri->ctl_flags = LAPI_BURY_MSG;
        break;
    case BURY_EAGER_BUF:
    case BURY_RNDV_BUF:
        ri->ctl_flags = LAPI_BURY_MSG;
        buffer = sink;
        break;
    case UNKNOWN_EAGER:
    case UNKNOWN_RNDV:
        ri->ctl_flags = UNKNOWN_FLAG;
        buffer = sink;
        break;
    default:
        break;
    }
    __atomic_add_fetch(&handled[c], 1, __ATOMIC_RELEASE);
    return buffer;
}

/* Sends case c with len bytes to peer and waits until the peer's completion handler ran (cmpl_cntr) and the
 * origin buffer is free (org_cntr); then until this task's own handler for the same case from its origin ran. */
static void exchange(lapi_handle_t h, uint peer, int c, ulong len, void *data, void *hh, lapi_cntr_t *tc,
                     lapi_cntr_t *org, lapi_cntr_t *cmpl, lapi_cntr_t *tgt) {
    uint64_t word = (uint64_t) c;
    OK(LAPI_Amsend(h, peer, hh, &word, 8, data, len, tc, org, cmpl));
    WAITCNTR(h, org, 1, NULL);
    WAITCNTR(h, cmpl, 1, NULL);
    WAITCNTR(h, tgt, 1, NULL);
    CHECK_INT(1, handled[c]);
    CHECK_INT(1, completed[c]);
}

int main(void) {
    main_thread = pthread_self();
    lapi_info_t info;
    memset(&info, 0, sizeof info);
    info.err_hndlr = on_error;
    lapitest_t t;
    lapitest_init_with(&t, &info);
    lapi_handle_t h = t.hndl;
    CHECK(t.tasks >= 2 && t.tasks <= 64);
    uint peer = (uint) ((t.task + 1) % t.tasks);
    int v = -1, payload = 0;
    OK(LAPI_Qenv(h, PKT_PAYLOAD_SZ, &payload));
    CHECK(payload > 8 + SMALL && payload < BIG);

    /* ---- LAPI_Senv ---- */
    OK(LAPI_Qenv(h, INTERRUPT_SET, &v));
    CHECK_INT(1, v);
    OK(LAPI_Senv(h, ERROR_CHK, 1));
    CHECK_RC(LAPI_ERR_SET_VAL, LAPI_Senv(h, ERROR_CHK, 0));
    OK(LAPI_Qenv(h, ERROR_CHK, &v));
    CHECK_INT(1, v);
    OK(LAPI_Senv(h, INTERRUPT_SET, 1));
    CHECK_RC(LAPI_ERR_SET_VAL, LAPI_Senv(h, INTERRUPT_SET, 0));
    OK(LAPI_Qenv(h, INTERRUPT_SET, &v));
    CHECK_INT(1, v);
    CHECK_RC(LAPI_ERR_QUERY_TYPE, LAPI_Senv(h, TASK_ID, 0));
    CHECK_RC(LAPI_ERR_QUERY_TYPE, LAPI_Senv(h, MAX_UHDR_SZ, 8));
    CHECK_RC(LAPI_ERR_QUERY_TYPE, LAPI_Senv(h, (lapi_query_t) 99, 1));
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Senv(h + 77, ERROR_CHK, 1));
    OK(LAPI_Probe(h)); /* interrupt mode: nothing to do, returns at once */
    CHECK_RC(LAPI_ERR_HNDL_INVALID, LAPI_Probe(h + 77));

    lapi_cntr_t tgt_cntr, org_cntr, cmpl_cntr;
    OK(LAPI_Setcntr(h, &tgt_cntr, 0));
    OK(LAPI_Setcntr(h, &org_cntr, 0));
    OK(LAPI_Setcntr(h, &cmpl_cntr, 0));
    OK(LAPI_Setcntr(h, &local_cntr, 0));
    void *handlers[64], *counters[64];
    OK(LAPI_Address_init(h, (void *) &handler, handlers));
    OK(LAPI_Address_init(h, &tgt_cntr, counters));
    void *hh = handlers[peer];
    lapi_cntr_t *tc = counters[peer];
    static unsigned char data[BIG];
    for (int i = 0; i < BIG; i++) {
        data[i] = (unsigned char) (i * 13 + t.task);
    }

    /* ---- interrupt mode: the handler runs on the layer's thread while this one makes no LAPI call ----
     * After the barrier every task's one LAPI call until the handler has run is this Amsend, which does not wait
     * (Address_init waited until flow control was open to every task), so no waiting thread can run the handler. */
    CHECK(ptl_rt_barrier() == 0);
    uint64_t word = PLAIN;
    OK(LAPI_Amsend(h, peer, hh, &word, 8, NULL, 0, tc, &org_cntr, &cmpl_cntr));
    lapitest_await_flag(&handled[PLAIN], 1, "the header handler, run by the dispatcher thread");
    CHECK_INT(0, on_main_thread);
    WAITCNTR(h, &cmpl_cntr, 1, NULL);
    WAITCNTR(h, &org_cntr, 1, NULL);
    WAITCNTR(h, &tgt_cntr, 1, NULL);

    /* ---- L-080: blocking calls inside handlers are refused, nothing deadlocks ---- */
    exchange(h, peer, BLOCKING, SMALL, data, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    CHECK_INT(LAPI_ERR_BLOCKING_IN_HANDLER, rc_waitcntr);
    CHECK_INT(LAPI_ERR_BLOCKING_IN_HANDLER, rc_fence);
    CHECK_INT(LAPI_ERR_BLOCKING_IN_HANDLER, rc_gfence);
    CHECK_INT(LAPI_ERR_BLOCKING_IN_HANDLER, rc_address_init);
    exchange(h, peer, INLINE_BLOCKING, 0, NULL, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    CHECK_INT(LAPI_ERR_BLOCKING_IN_HANDLER, rc_inline);
    OK(LAPI_Getcntr(h, &local_cntr, &v));
    CHECK_INT(0, v);

    /* ---- ctl_flags: LAPI_BURY_MSG, then a flag the layer does not know ---- */
    memset(sink, 0xEE, sizeof sink);
    exchange(h, peer, BURY_EAGER_NULL, SMALL, data, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    exchange(h, peer, BURY_RNDV_NULL, BIG, data, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    exchange(h, peer, BURY_EAGER_BUF, SMALL, data, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    exchange(h, peer, BURY_RNDV_BUF, BIG, data, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    OK(LAPI_Gfence(h)); /* every task's buried messages and their reports are done */
    CHECK_INT(0, am_errors);
    OK(LAPI_Gfence(h)); /* no task sends an unknown flag before every task has checked its reports */
    exchange(h, peer, UNKNOWN_EAGER, SMALL, data, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    exchange(h, peer, UNKNOWN_RNDV, BIG, data, hh, tc, &org_cntr, &cmpl_cntr, &tgt_cntr);
    lapitest_await_flag(&am_errors, 2, "err_hndlr (AM_ERR) for the two unknown ctl_flags");
    for (int i = 0; i < BIG; i++) {
        CHECK(sink[i] == 0xEE);
    }
    CHECK_INT(0, other_errors);
    CHECK_INT(0, on_main_thread);
    lapitest_passed(&t, "lapi_control");
    return 0;
}
