/*
 * manage_remote: with PTL_MD_MANAGE_REMOTE the target MD uses the offset each request carries; without
 * it, the offset PtlPut/PtlGet pass is ignored and the MD's local offset (0, then advancing by mlength)
 * is used (Portals 3.2 spec §3.8.1.1, A-23). Checked for puts and gets, on the data and on the events' offset field.
 */
#include "ptltest.h"

#define SIZE 256
#define PIECE 16
#define REMOTE_PORTAL 3
#define LOCAL_PORTAL 4

static unsigned char remote_md[SIZE], local_md[SIZE];
static unsigned char piece[PIECE], back[8];

static void expect_put(ptl_handle_eq_t eq, ptl_size_t offset) {
    ptl_event_t ev;
    ptltest_next(eq, PTL_EVENT_PUT_START, &ev, "put start");
    ptltest_next(eq, PTL_EVENT_PUT_END, &ev, "put end");
    CHECK_U64(offset, ev.offset);
    CHECK_U64(PIECE, ev.mlength);
}

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_event_t ev;
    if (t.rank == 1) {
        ptl_handle_me_t me;
        OK(PtlMEAttach(t.ni, REMOTE_PORTAL, t.peer, 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t r = {remote_md, SIZE, PTL_MD_THRESH_INF, SIZE, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE,
                      NULL, t.eq};
        OK(PtlMDAttach(me, r, PTL_RETAIN, PTL_RETAIN, NULL)); /* handle may be NULL (Portals 3.2 spec §3.8.2.2) */
        OK(PtlMEAttach(t.ni, LOCAL_PORTAL, t.peer, 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t l = {local_md, SIZE, PTL_MD_THRESH_INF, SIZE, PTL_MD_OP_PUT, NULL, t.eq};
        OK(PtlMDAttach(me, l, PTL_RETAIN, PTL_RETAIN, NULL));
        for (int i = 0; i < 8; i++) {
            remote_md[200 + i] = (unsigned char) (0x50 + i); /* what rank 0's get reads */
        }
        ptltest_barrier();
        expect_put(t.eq, 100); /* remote offsets, as sent */
        expect_put(t.eq, 10);
        expect_put(t.eq, 0);   /* local offsets: 0, then 16, whatever was sent */
        expect_put(t.eq, PIECE);
        ptltest_next(t.eq, PTL_EVENT_GET_START, &ev, "get start");
        ptltest_next(t.eq, PTL_EVENT_GET_END, &ev, "get end");
        CHECK_U64(200, ev.offset);
        ptltest_barrier();
        for (int i = 0; i < PIECE; i++) {
            CHECK(remote_md[100 + i] == 'A' + 0);
            CHECK(remote_md[10 + i] == 'A' + 1);
            CHECK(local_md[i] == 'A' + 2);
            CHECK(local_md[PIECE + i] == 'A' + 3);
        }
        CHECK(remote_md[99] == 0 && remote_md[116] == 0 && remote_md[9] == 0 && remote_md[26] == 0);
        CHECK(local_md[2 * PIECE] == 0 && local_md[100] == 0);
    } else {
        ptl_md_t s = {piece, PIECE, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, &md));
        ptltest_barrier();
        const ptl_size_t offsets[4] = {100, 10, 100, 77};
        const ptl_pt_index_t portals[4] = {REMOTE_PORTAL, REMOTE_PORTAL, LOCAL_PORTAL, LOCAL_PORTAL};
        for (int i = 0; i < 4; i++) {
            memset(piece, 'A' + i, PIECE);
            OK(PtlPut(md, PTL_NOACK_REQ, t.peer, portals[i], 0, 1, offsets[i], 0));
            ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start");
            ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end");
            CHECK_U64(offsets[i], ev.offset); /* the initiator's events carry the offset PtlPut was given */
        }
        /* A get with a remote offset: the 8 bytes at offset 200 of rank 1's MD. */
        ptl_md_t g = {back, sizeof back, 1, 0, 0, NULL, t.eq};
        ptl_handle_md_t gmd;
        memset(back, 0xFF, sizeof back);
        OK(PtlMDBind(t.ni, g, &gmd));
        OK(PtlGet(gmd, t.peer, REMOTE_PORTAL, 0, 1, 200));
        ptltest_next(t.eq, PTL_EVENT_REPLY_START, &ev, "reply start");
        ptltest_next(t.eq, PTL_EVENT_REPLY_END, &ev, "reply end");
        CHECK_U64(sizeof back, ev.mlength);
        for (unsigned i = 0; i < sizeof back; i++) {
            CHECK(back[i] == 0x50 + i);
        }
        ptltest_barrier();
    }
    ptltest_passed(&t, "manage_remote");
    return 0;
}
