/*
 * lapi_polling: polling mode (INTERRUPT_SET 0, chosen at Init through PORTALS3J_LAPI_INTERRUPT_SET, lapi.h).
 * Qenv says 0; LAPI_Senv accepts INTERRUPT_SET 0 and refuses 1 (the mode is Init's, LAPI_ERR_SET_VAL). The
 * layer has no thread of its own making progress: every header handler and inline completion handler runs on the
 * program's thread, inside its LAPI calls. Each task sends an eager and a rendezvous message to the next and
 * calls only LAPI_Probe until its own handlers have run (LAPI_Probe makes the progress); then LAPI_Getcntr and
 * LAPI_Waitcntr make the rest (the rendezvous fetch's reply, cmpl_cntr). The data arrives byte for byte.
 */
#include "lapitest.h"

#define BIG 20000

static pthread_t main_thread;
static volatile int handled, completed, elsewhere;
static unsigned char received[2][BIG];

static void note_thread(void) {
    if (!pthread_equal(pthread_self(), main_thread)) {
        __atomic_add_fetch(&elsewhere, 1, __ATOMIC_RELEASE);
    }
}

static void inline_completion(lapi_handle_t *hndl, void *user_info) {
    (void) hndl, (void) user_info;
    note_thread();
    __atomic_add_fetch(&completed, 1, __ATOMIC_RELEASE);
}

static void *handler(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                     void **user_info) {
    (void) hndl, (void) uhdr_len, (void) user_info;
    note_thread();
    lapi_return_info_t *ri = (lapi_return_info_t *) msg_len;
    ri->ret_flags = LAPI_SEND_REPLY;
    *comp_h = inline_completion;
    int which = (int) *(uint64_t *) uhdr;
    __atomic_add_fetch(&handled, 1, __ATOMIC_RELEASE);
    return which >= 0 && which < 2 ? received[which] : NULL;
}

int main(void) {
    main_thread = pthread_self();
    setenv("PORTALS3J_LAPI_INTERRUPT_SET", "0", 1);
    lapitest_t t;
    lapitest_init(&t);
    lapi_handle_t h = t.hndl;
    CHECK(t.tasks >= 2 && t.tasks <= 64);
    uint peer = (uint) ((t.task + 1) % t.tasks);
    int from = (t.task + t.tasks - 1) % t.tasks;
    int v = -1;
    OK(LAPI_Qenv(h, INTERRUPT_SET, &v));
    CHECK_INT(0, v);
    OK(LAPI_Senv(h, INTERRUPT_SET, 0));
    CHECK_RC(LAPI_ERR_SET_VAL, LAPI_Senv(h, INTERRUPT_SET, 1));
    int payload = 0;
    OK(LAPI_Qenv(h, PKT_PAYLOAD_SZ, &payload));
    CHECK(payload > 8 + 100 && payload < BIG);

    lapi_cntr_t tgt_cntr, cmpl_cntr;
    OK(LAPI_Setcntr(h, &tgt_cntr, 0));
    OK(LAPI_Setcntr(h, &cmpl_cntr, 0));
    void *handlers[64], *counters[64];
    OK(LAPI_Address_init(h, (void *) &handler, handlers));
    OK(LAPI_Address_init(h, &tgt_cntr, counters));
    static unsigned char data[BIG];
    for (int i = 0; i < BIG; i++) {
        data[i] = (unsigned char) (i * 11 + t.task);
    }
    uint64_t eager = 0, rndv = 1;
    OK(LAPI_Amsend(h, peer, handlers[peer], &eager, 8, data, 100, counters[peer], NULL, &cmpl_cntr));
    OK(LAPI_Amsend(h, peer, handlers[peer], &rndv, 8, data, BIG, counters[peer], NULL, &cmpl_cntr));
    for (int i = 0; i < 20000 && __atomic_load_n(&handled, __ATOMIC_ACQUIRE) < 2; i++) {
        OK(LAPI_Probe(h));
        if (__atomic_load_n(&handled, __ATOMIC_ACQUIRE) < 2) {
            lapitest_sleep_ms(1);
        }
    }
    CHECK_INT(2, handled); /* both header handlers ran, inside LAPI_Probe */
    WAITCNTR(h, &cmpl_cntr, 2, &v);
    WAITCNTR(h, &tgt_cntr, 2, &v);
    CHECK_INT(2, completed);
    CHECK_INT(0, elsewhere);
    for (int i = 0; i < BIG; i++) {
        CHECK(received[1][i] == (unsigned char) (i * 11 + from));
        if (i < 100) {
            CHECK(received[0][i] == (unsigned char) (i * 11 + from));
        }
    }
    lapitest_passed(&t, "lapi_polling");
    return 0;
}
