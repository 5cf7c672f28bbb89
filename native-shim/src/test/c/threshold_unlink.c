/*
 * threshold_unlink: an MD attached with PTL_UNLINK is unlinked automatically once it becomes inactive,
 * with a PTL_EVENT_UNLINK linked to the event that caused it (Portals 3.2 spec §3.9.1, §3.9.4):
 *  - by threshold: threshold 2 takes two puts, then unlinks; a third put finds no entry and is dropped;
 *  - by max_offset: inactive once the local offset is strictly greater than max_offset;
 *  - an ME made with PTL_UNLINK goes with its MD (Portals 3.2 spec §3.7.1.2), one made with PTL_RETAIN stays, without
 *  MD;
 *  - an explicit PtlMDUnlink posts no UNLINK event (Portals 3.2 spec §3.9.1).
 */
#include "ptltest.h"

#define T_PORTAL 6
#define O_PORTAL 7
#define PIECE 16

static char tbuf[64], obuf[64], piece[PIECE], spare[8];

static void put_and_wait(ptltest_t *t, ptl_handle_md_t md, ptl_pt_index_t portal) {
    ptl_event_t ev;
    OK(PtlPut(md, PTL_NOACK_REQ, t->peer, portal, 0, 0, 0, 0));
    ptltest_next(t->eq, PTL_EVENT_SEND_START, &ev, "send start");
    ptltest_next(t->eq, PTL_EVENT_SEND_END, &ev, "send end");
}

static void expect_puts_then_unlink(ptltest_t *t, int puts, ptl_handle_md_t md) {
    ptl_event_t ev;
    for (int i = 0; i < puts; i++) {
        ptltest_next(t->eq, PTL_EVENT_PUT_START, &ev, "put start");
        ptltest_next(t->eq, PTL_EVENT_PUT_END, &ev, "put end");
        CHECK_U64(md, ev.md_handle);
    }
    ptl_seq_t cause = ev.sequence;
    ptltest_next(t->eq, PTL_EVENT_UNLINK, &ev, "unlink");
    CHECK_U64(md, ev.md_handle);
    CHECK_U64(cause, ev.link);
}

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_event_t ev;
    if (t.rank == 1) {
        ptl_handle_me_t tme, ome;
        ptl_handle_md_t tmd, omd;
        OK(PtlMEAttach(t.ni, T_PORTAL, t.peer, 0, 0, PTL_UNLINK, PTL_INS_AFTER, &tme));
        ptl_md_t td = {tbuf, sizeof tbuf, 2, sizeof tbuf, PTL_MD_OP_PUT, NULL, t.eq};
        OK(PtlMDAttach(tme, td, PTL_UNLINK, PTL_RETAIN, &tmd));
        OK(PtlMEAttach(t.ni, O_PORTAL, t.peer, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &ome));
        ptl_md_t od = {obuf, sizeof obuf, PTL_MD_THRESH_INF, 20, PTL_MD_OP_PUT, NULL, t.eq};
        OK(PtlMDAttach(ome, od, PTL_UNLINK, PTL_RETAIN, &omd));
        ptltest_barrier();
        expect_puts_then_unlink(&t, 2, tmd); /* threshold 2 */
        expect_puts_then_unlink(&t, 2, omd); /* offsets 16 (<= 20), then 32 (> 20) */
        ptltest_await_register(t.ni, PTL_SR_DROP_COUNT, 2); /* the third put to each portal */
        ptltest_await_register(t.ni, PTL_SR_DROP_NO_MATCH, 2);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(t.eq, &ev));
        CHECK_RC(PTL_INV_MD, PtlMDUnlink(tmd));
        CHECK_RC(PTL_INV_MD, PtlMDUnlink(omd));
        CHECK_RC(PTL_INV_ME, PtlMEUnlink(tme)); /* PTL_UNLINK: gone with its MD */
        /* PTL_RETAIN: still there, without an MD; it takes a new one. An explicit unlink posts nothing. */
        ptl_md_t again = {spare, sizeof spare, PTL_MD_THRESH_INF, sizeof spare, PTL_MD_OP_PUT, NULL, t.eq};
        ptl_handle_md_t amd;
        OK(PtlMDAttach(ome, again, PTL_UNLINK, PTL_RETAIN, &amd));
        OK(PtlMDUnlink(amd));
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(t.eq, &ev));
        OK(PtlMEUnlink(ome));
        ptltest_barrier();
    } else {
        ptl_md_t s = {piece, PIECE, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, &md));
        ptltest_barrier();
        for (int i = 0; i < 3; i++) {
            put_and_wait(&t, md, T_PORTAL);
        }
        for (int i = 0; i < 3; i++) {
            put_and_wait(&t, md, O_PORTAL);
        }
        ptltest_barrier();
    }
    ptltest_passed(&t, "threshold_unlink");
    return 0;
}
