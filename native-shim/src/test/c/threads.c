/*
 * threads: Portals calls from several threads of the C program at once (every function but PtlEQWait is
 * atomic with respect to other threads, Portals 3.2 spec §2.4; the JVM attaches each native thread on its first call).
 * Rank 0 puts from THREADS threads, each with its own MD and event queue; rank 1 takes the events in a
 * thread of its own while its main thread reads the status registers.
 */
#include <pthread.h>

#include "ptltest.h"

#define THREADS 4
#define PUTS 25
#define PORTAL 13

static ptltest_t t;
static char inbox[THREADS * PUTS][8];

static void *sender(void *arg) {
    int id = (int) (intptr_t) arg;
    char word[8];
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_event_t ev;
    OK(PtlEQAlloc(t.ni, 8, &eq));
    ptl_md_t d = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, eq};
    OK(PtlMDBind(t.ni, d, &md));
    for (int i = 0; i < PUTS; i++) {
        memset(word, 'A' + id, sizeof word);
        OK(PtlPut(md, PTL_ACK_REQ, t.peer, PORTAL, 0, (ptl_match_bits_t) id, 0, (ptl_hdr_data_t) i));
        ptltest_next(eq, PTL_EVENT_SEND_START, &ev, "send start");
        ptltest_next(eq, PTL_EVENT_SEND_END, &ev, "send end");
        ptltest_next(eq, PTL_EVENT_ACK, &ev, "ack");
        CHECK_U64(id, ev.match_bits);
    }
    OK(PtlMDUnlink(md));
    OK(PtlEQFree(eq));
    return NULL;
}

static void *receiver(void *arg) {
    int *per_sender = arg;
    ptl_event_t ev;
    for (int i = 0; i < THREADS * PUTS; i++) {
        ptltest_next(t.eq, PTL_EVENT_PUT_START, &ev, "put start");
        ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end");
        CHECK(ev.match_bits < THREADS);
        CHECK_U64(per_sender[ev.match_bits], ev.hdr_data); /* each sender's puts arrive in its order */
        per_sender[ev.match_bits]++;
    }
    return NULL;
}

int main(void) {
    ptltest_init(&t, 2 * THREADS * PUTS);
    CHECK(t.size == 2);
    if (t.rank == 1) {
        ptl_handle_me_t me;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, 0, ~0ull, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t d = {inbox, sizeof inbox, PTL_MD_THRESH_INF, sizeof inbox, PTL_MD_OP_PUT, NULL, t.eq};
        OK(PtlMDAttach(me, d, PTL_RETAIN, PTL_RETAIN, NULL));
        int per_sender[THREADS] = {0};
        pthread_t r;
        CHECK(pthread_create(&r, NULL, receiver, per_sender) == 0);
        ptltest_barrier();
        ptltest_await_register(t.ni, PTL_SR_PUTS_RECEIVED, THREADS * PUTS);
        CHECK(pthread_join(r, NULL) == 0);
        for (int s = 0; s < THREADS; s++) {
            CHECK_U64(PUTS, per_sender[s]);
        }
    } else {
        ptltest_barrier();
        pthread_t s[THREADS];
        for (int i = 0; i < THREADS; i++) {
            CHECK(pthread_create(&s[i], NULL, sender, (void *) (intptr_t) i) == 0);
        }
        for (int i = 0; i < THREADS; i++) {
            CHECK(pthread_join(s[i], NULL) == 0);
        }
    }
    ptltest_passed(&t, "threads");
    return 0;
}
