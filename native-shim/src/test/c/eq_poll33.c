/*
 * eq_poll33: PtlEQPoll over several event queues (Portals 3.3 §3.11, compiled with -DPTL_DIALECT_33).
 * Rank 1 has two queues, each with its own MD (match bits BITS and BITS + 1), and a handler on both that
 * counts deposited events (so the program knows when both queues hold theirs). Checks:
 *  - a poll whose timeout passes returns PTL_EQ_EMPTY after (not before) the timeout, and leaves *event and
 *    *which_eq alone; timeout 0 looks once and returns at once;
 *  - a poll takes from the first queue, in array order, that has an event, and says which in *which_eq;
 *    each event is the one its queue logged (hdr_data names the queue);
 *  - a poll with a timeout that an arriving event beats returns it, and PTL_TIME_FOREVER waits for one;
 *  - PTL_EQ_INVALID for size 0 or a freed queue, PTL_SEGV for NULL arguments.
 */
#include <stdatomic.h>

#include "ptltest.h"

#define PORTAL 11
#define BITS 0xE300u
#define TIMEOUT_MS 300

static atomic_int deposited;
static char landing[2][64], word[8];

static void count(ptl_event_t *event) {
    (void) event;
    atomic_fetch_add(&deposited, 1);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Polls q with timeout ms; the event must come from queue `which` with kind `kind`. */
static void poll_expect(ptl_handle_eq_t *q, ptl_time_t timeout, int which, ptl_event_kind_t kind) {
    ptl_event_t ev;
    int got = -1;
    CHECK_RC(PTL_OK, PtlEQPoll(q, 2, timeout, &ev, &got));
    if (got != which || ev.type != kind || ev.hdr_data != (ptl_hdr_data_t) which) {
        FAIL_AT("PtlEQPoll took %s (hdr_data %" PRIu64 ") from queue %d, expected %s from queue %d",
                ptl_event_name(ev.type), (uint64_t) ev.hdr_data, got, ptl_event_name(kind), which);
    }
}

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 16);
    CHECK(t.size == 2);
    ptl_event_t ev;
    if (t.rank == 1) {
        ptl_handle_eq_t q[2];
        for (int i = 0; i < 2; i++) {
            OK(PtlEQAlloc(t.ni, 8, count, &q[i]));
            ptl_handle_me_t me;
            OK(PtlMEAttach(t.ni, PORTAL, t.peer, BITS + (unsigned) i, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
            ptl_md_t d = {landing[i], sizeof landing[i], PTL_MD_THRESH_INF, 0,
                          PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, NULL, q[i]};
            OK(PtlMDAttach(me, d, PTL_RETAIN, NULL));
        }

        /* nothing to take: a timeout that expires, and a zero timeout */
        int which = -7;
        ev.sequence = 4242;
        double t0 = now_ms();
        CHECK_RC(PTL_EQ_EMPTY, PtlEQPoll(q, 2, TIMEOUT_MS, &ev, &which));
        double waited = now_ms() - t0;
        if (waited < TIMEOUT_MS || waited > TIMEOUT_MS + 20000) {
            FAIL_AT("PtlEQPoll with timeout %d ms returned PTL_EQ_EMPTY after %.1f ms", TIMEOUT_MS, waited);
        }
        CHECK(which == -7 && ev.sequence == 4242); /* left alone */
        /* a zero timeout does not wait for an event: bounded far above any scheduling delay, so that only a
         * poll that waits (for a default timeout or forever) fails, never a loaded machine */
        t0 = now_ms();
        CHECK_RC(PTL_EQ_EMPTY, PtlEQPoll(q, 2, 0, &ev, &which));
        CHECK(now_ms() - t0 < 15000);
        ptltest_barrier();

        /* rank 0 puts to queue 1, then to queue 0: once all four events are in, array order decides */
        for (int i = 0; i < 20000 && atomic_load(&deposited) < 4; i++) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
        CHECK(atomic_load(&deposited) == 4);
        poll_expect(q, 0, 0, PTL_EVENT_PUT_START);
        poll_expect(q, 0, 0, PTL_EVENT_PUT_END);
        poll_expect(q, 0, 1, PTL_EVENT_PUT_START);
        poll_expect(q, 0, 1, PTL_EVENT_PUT_END);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQPoll(q, 2, 0, &ev, &which));
        ptltest_barrier();

        /* a put arrives while a poll waits: a 20 s timeout that the event beats, then PTL_TIME_FOREVER */
        poll_expect(q, 20000, 1, PTL_EVENT_PUT_START);
        poll_expect(q, 20000, 1, PTL_EVENT_PUT_END);
        ptltest_barrier();
        poll_expect(q, PTL_TIME_FOREVER, 0, PTL_EVENT_PUT_START);
        poll_expect(q, PTL_TIME_FOREVER, 0, PTL_EVENT_PUT_END);

        /* misuse */
        CHECK_RC(PTL_EQ_INVALID, PtlEQPoll(q, 0, 0, &ev, &which));
        CHECK_RC(PTL_EQ_INVALID, PtlEQPoll(q, -1, 0, &ev, &which));
        CHECK_RC(PTL_SEGV, PtlEQPoll(NULL, 2, 0, &ev, &which));
        CHECK_RC(PTL_SEGV, PtlEQPoll(q, 2, 0, NULL, &which));
        CHECK_RC(PTL_SEGV, PtlEQPoll(q, 2, 0, &ev, NULL));
        ptl_handle_eq_t gone;
        OK(PtlEQAlloc(t.ni, 4, PTL_EQ_HANDLER_NONE, &gone));
        OK(PtlEQFree(gone));
        ptl_handle_eq_t with_gone[2] = {q[0], gone};
        CHECK_RC(PTL_EQ_INVALID, PtlEQPoll(with_gone, 2, 0, &ev, &which));
        CHECK_U64(8, atomic_load(&deposited));
    } else {
        ptl_md_t s = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, PTL_RETAIN, &md));
        ptltest_barrier();
        OK(PtlPut(md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, BITS + 1, 0, 1));
        OK(PtlPut(md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, BITS, 0, 0));
        ptltest_barrier();
        struct timespec pause = {0, 200000000}; /* rank 1 is waiting in PtlEQPoll by now */
        nanosleep(&pause, NULL);
        OK(PtlPut(md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, BITS + 1, 8, 1));
        ptltest_barrier();
        nanosleep(&pause, NULL);
        OK(PtlPut(md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, BITS, 8, 0));
    }
    ptltest_passed(&t, "eq_poll33");
    return 0;
}
