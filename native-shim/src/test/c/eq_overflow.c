/*
 * eq_overflow: a full event queue never rejects a put (Rev 1.1, Portals 3.2 spec "Summary of Changes for Revision
 * 1.1"): the new events are lost, counted in PTL_SR_EVENTS_DROPPED, and the next event taken comes with PTL_EQ_DROPPED,
 * a success code carrying a valid event (Portals 3.2 spec §3.9.7.1, A-36). The data of every put still lands.
 */
#include "ptltest.h"

#define PORTAL 12
#define PUTS 5
#define SLOTS 4

static char inbox[(PUTS + 1) * 8], word[8];

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_event_t ev;
    if (t.rank == 1) {
        ptl_handle_eq_t small;
        OK(PtlEQAlloc(t.ni, SLOTS, &small));
        ptl_handle_me_t me;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t d = {inbox, sizeof inbox, PTL_MD_THRESH_INF, sizeof inbox, PTL_MD_OP_PUT, NULL, small};
        OK(PtlMDAttach(me, d, PTL_RETAIN, PTL_RETAIN, NULL));
        ptltest_barrier();
        /* 5 puts log 10 events into 4 slots: 6 are lost. */
        ptltest_await_register(t.ni, PTL_SR_PUTS_RECEIVED, PUTS);
        ptltest_await_register(t.ni, PTL_SR_EVENTS_DROPPED, 2 * PUTS - SLOTS);
        CHECK_RC(PTL_EQ_DROPPED, PtlEQGet(small, &ev));
        CHECK(ev.type == PTL_EVENT_PUT_START); /* a valid event comes with the code */
        CHECK_U64(0, ev.offset);
        CHECK_RC(PTL_OK, PtlEQGet(small, &ev));
        CHECK(ev.type == PTL_EVENT_PUT_END);
        CHECK_RC(PTL_OK, PtlEQGet(small, &ev));
        CHECK(ev.type == PTL_EVENT_PUT_START);
        CHECK_RC(PTL_OK, PtlEQGet(small, &ev));
        CHECK(ev.type == PTL_EVENT_PUT_END);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(small, &ev));
        for (int i = 0; i < PUTS; i++) {
            CHECK(inbox[i * 8] == 'a' + i); /* every put landed */
        }
        ptl_sr_value_t drops;
        OK(PtlNIStatus(t.ni, PTL_SR_DROP_COUNT, &drops));
        CHECK_U64(0, drops); /* events were lost, not messages */
        ptltest_barrier();
        /* After the gap was reported, events come with PTL_OK again. */
        ptltest_barrier();
        ptltest_await_register(t.ni, PTL_SR_PUTS_RECEIVED, PUTS + 1);
        CHECK_RC(PTL_OK, PtlEQWait(small, &ev));
        CHECK(ev.type == PTL_EVENT_PUT_START);
        CHECK_RC(PTL_OK, PtlEQWait(small, &ev));
        CHECK(ev.type == PTL_EVENT_PUT_END);
        OK(PtlEQFree(t.eq));
    } else {
        ptl_md_t s = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, &md));
        ptltest_barrier();
        for (int i = 0; i < PUTS; i++) {
            memset(word, 'a' + i, sizeof word);
            OK(PtlPut(md, PTL_NOACK_REQ, t.peer, PORTAL, 0, 0, 0, 0));
            ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start");
            ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end");
        }
        ptltest_barrier();
        ptltest_barrier();
        /* one more put: its two events fit the emptied queue */
        OK(PtlPut(md, PTL_NOACK_REQ, t.peer, PORTAL, 0, 0, 0, 0));
        ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start");
        ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end");
    }
    ptltest_passed(&t, "eq_overflow");
    return 0;
}
