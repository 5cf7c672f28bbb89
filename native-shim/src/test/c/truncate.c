/*
 * truncate: a put longer than the space an MD has left is rejected by an MD without PTL_MD_TRUNCATE and
 * the match list walk goes on to the next entry (Portals 3.2 spec §2.2, A-23); an MD with PTL_MD_TRUNCATE takes the
 * first bytes only: the target's events say rlength = what was sent, mlength = what was taken, and the
 * initiator's ACK reports the manipulated length. A get is truncated the same way: the reply carries
 * what the target MD had room for.
 */
#include "ptltest.h"

#define PORTAL 5
#define MATCH 7u

static char strict[8], lenient[8], big[32], small[4], got[32];

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_event_t ev;
    ptl_sr_value_t drops = -1;
    if (t.rank == 1) {
        ptl_handle_me_t a, b;
        ptl_handle_md_t amd, bmd;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, MATCH, 0, PTL_RETAIN, PTL_INS_AFTER, &a));
        ptl_md_t ad = {strict, sizeof strict, PTL_MD_THRESH_INF, sizeof strict, PTL_MD_OP_PUT, strict, t.eq};
        OK(PtlMDAttach(a, ad, PTL_RETAIN, PTL_RETAIN, &amd));
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, MATCH, 0, PTL_RETAIN, PTL_INS_AFTER, &b));
        ptl_md_t bd = {lenient, sizeof lenient, PTL_MD_THRESH_INF, sizeof lenient,
                       PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_TRUNCATE | PTL_MD_MANAGE_REMOTE, lenient, t.eq};
        OK(PtlMDAttach(b, bd, PTL_RETAIN, PTL_RETAIN, &bmd));
        ptltest_barrier();
        /* 32 bytes: too long for `strict`, which passes it on; `lenient` takes 8 of them. */
        ptltest_next(t.eq, PTL_EVENT_PUT_START, &ev, "put start (32)");
        ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end (32)");
        CHECK(ev.mem_desc.user_ptr == lenient);
        CHECK_U64(bmd, ev.md_handle);
        CHECK_U64(32, ev.rlength);
        CHECK_U64(8, ev.mlength);
        CHECK(memcmp(lenient, "ABCDEFGH", 8) == 0);
        /* 4 bytes: `strict` has room. */
        ptltest_next(t.eq, PTL_EVENT_PUT_START, &ev, "put start (4)");
        ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end (4)");
        CHECK(ev.mem_desc.user_ptr == strict);
        CHECK_U64(4, ev.rlength);
        CHECK_U64(4, ev.mlength);
        CHECK(memcmp(strict, "wxyz", 4) == 0);
        /* A 32-byte get: strict does not take gets; lenient answers with its 8 bytes. */
        ptltest_next(t.eq, PTL_EVENT_GET_START, &ev, "get start");
        ptltest_next(t.eq, PTL_EVENT_GET_END, &ev, "get end");
        CHECK_U64(32, ev.rlength);
        CHECK_U64(8, ev.mlength);
        OK(PtlNIStatus(t.ni, PTL_SR_DROP_COUNT, &drops));
        CHECK_U64(0, drops); /* nothing was dropped: the walk went on */
        ptltest_barrier();
    } else {
        memcpy(big, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", 32);
        memcpy(small, "wxyz", 4);
        ptl_md_t bd = {big, sizeof big, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_md_t sd = {small, sizeof small, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_md_t gd = {got, sizeof got, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_handle_md_t bmd, smd, gmd;
        OK(PtlMDBind(t.ni, bd, &bmd));
        OK(PtlMDBind(t.ni, sd, &smd));
        OK(PtlMDBind(t.ni, gd, &gmd));
        ptltest_barrier();
        OK(PtlPut(bmd, PTL_ACK_REQ, t.peer, PORTAL, 0, MATCH, 0, 0));
        ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start (32)");
        CHECK_U64(32, ev.rlength);
        ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end (32)");
        ptltest_next(t.eq, PTL_EVENT_ACK, &ev, "ack (32)");
        CHECK_U64(8, ev.mlength);
        OK(PtlPut(smd, PTL_ACK_REQ, t.peer, PORTAL, 0, MATCH, 0, 0));
        ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start (4)");
        ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end (4)");
        ptltest_next(t.eq, PTL_EVENT_ACK, &ev, "ack (4)");
        CHECK_U64(4, ev.mlength);
        memset(got, '.', sizeof got);
        OK(PtlGet(gmd, t.peer, PORTAL, 0, MATCH, 0));
        ptltest_next(t.eq, PTL_EVENT_REPLY_START, &ev, "reply start");
        ptltest_next(t.eq, PTL_EVENT_REPLY_END, &ev, "reply end");
        CHECK_U64(8, ev.mlength);
        CHECK(memcmp(got, "ABCDEFGH", 8) == 0);
        CHECK(got[8] == '.'); /* the rest of the local MD is untouched */
        ptltest_barrier();
    }
    ptltest_passed(&t, "truncate");
    return 0;
}
