/*
 * regions33: the Portals 3.3 data movement and MD options (compiled with -DPTL_DIALECT_33). Rank 0 is the
 * initiator, rank 1 the target. Checks:
 *  - PtlPutRegion sends exactly [local_offset, +length) of the MD; PtlGetRegion places the reply at
 *    local_offset and leaves the rest of the MD alone (the REPLY_END's offset says where it went);
 *    a region outside the MD is PTL_MD_ILLEGAL;
 *  - PTL_MD_EVENT_START_DISABLE: no *_START events, and the END's link is 0; PTL_MD_EVENT_END_DISABLE:
 *    no *_END events, but the ACK still comes;
 *  - PTL_MD_MAX_SIZE: requests larger than max_size pass the MD over (to the next one), and the MD is
 *    inactive once less than max_size is left after its local offset (unlinked: it was PTL_UNLINK);
 *    a max_size larger than the MD is PTL_MD_ILLEGAL;
 *  - PtlMDUpdate reads and writes the 3.3 ptl_md_t (max_size, eq_handle).
 */
#include "ptltest.h"

#define PORTAL 13
#define PUT_BITS 1u
#define GET_BITS 2u
#define CAP_BITS 3u

static unsigned char source[64], landing[64], remote[32], local[64], capped[32], other[64], word[8];

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 32);
    CHECK(t.size == 2);
    ptl_event_t ev;
    uint64_t logged = 0;
    for (int i = 0; i < 64; i++) {
        source[i] = (unsigned char) (100 + i);
    }
    for (int i = 0; i < 32; i++) {
        remote[i] = (unsigned char) (50 + i);
    }
    if (t.rank == 1) {
        ptl_handle_me_t me;
        /* PtlPutRegion lands here: START events disabled */
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, PUT_BITS, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t d = {landing, sizeof landing, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_EVENT_START_DISABLE,
                      NULL, t.eq};
        OK(PtlMDAttach(me, d, PTL_RETAIN, NULL));
        /* PtlGetRegion reads here, without events */
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, GET_BITS, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t g = {remote, sizeof remote, PTL_MD_THRESH_INF, 0, PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, NULL,
                      PTL_EQ_NONE};
        OK(PtlMDAttach(me, g, PTL_RETAIN, NULL));
        /* max_size 10 of 32 bytes, then a second MD for what the first passes over */
        ptl_md_t too_big = {capped, sizeof capped, PTL_MD_THRESH_INF, sizeof capped + 1,
                            PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, NULL, t.eq};
        ptl_handle_md_t cap_md;
        CHECK_RC(PTL_MD_ILLEGAL, PtlMDBind(t.ni, too_big, PTL_RETAIN, &cap_md));
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, CAP_BITS, 0, PTL_UNLINK, PTL_INS_AFTER, &me));
        ptl_md_t c = {capped, sizeof capped, PTL_MD_THRESH_INF, 10, PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, &capped, t.eq};
        OK(PtlMDAttach(me, c, PTL_UNLINK, &cap_md));
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, CAP_BITS, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t o = {other, sizeof other, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, &other, t.eq};
        OK(PtlMDAttach(me, o, PTL_RETAIN, NULL));
        ptltest_barrier();

        /* the region [10, 30) of rank 0's MD, and only that */
        ptltest_next33(t.eq, PTL_EVENT_PUT_END, &ev, &logged, "put region end");
        CHECK_U64(0, ev.link); /* its START was not logged */
        CHECK_U64(20, ev.rlength);
        CHECK_U64(20, ev.mlength);
        for (int i = 0; i < 64; i++) {
            CHECK(landing[i] == (i < 20 ? source[10 + i] : 0));
        }
        ptltest_barrier();

        /* 16 > max_size: passed over to 'other'; then 8-byte puts until less than 10 bytes are left */
        ptltest_next33(t.eq, PTL_EVENT_PUT_START, &ev, &logged, "16 bytes");
        CHECK(ev.md.user_ptr == &other);
        ptltest_next33(t.eq, PTL_EVENT_PUT_END, &ev, &logged, "16 bytes");
        for (int i = 0; i < 3; i++) {
            ptltest_next33(t.eq, PTL_EVENT_PUT_START, &ev, &logged, "8 bytes");
            CHECK(ev.md.user_ptr == &capped);
            CHECK_U64(8 * i, ev.offset);
            CHECK_U64(10, ev.md.max_size);
            ptltest_next33(t.eq, PTL_EVENT_PUT_END, &ev, &logged, "8 bytes");
        }
        ptl_seq_t end = ev.sequence;
        ptltest_next33(t.eq, PTL_EVENT_UNLINK, &ev, &logged, "32 - 24 < max_size");
        CHECK_U64(cap_md, ev.md_handle);
        CHECK_U64(end, ev.link);
        ptltest_next33(t.eq, PTL_EVENT_PUT_START, &ev, &logged, "the fourth 8 bytes");
        CHECK(ev.md.user_ptr == &other); /* 'capped' is gone */
        ptltest_next33(t.eq, PTL_EVENT_PUT_END, &ev, &logged, "the fourth 8 bytes");
        CHECK_RC(PTL_MD_INVALID, PtlMDUnlink(cap_md));
    } else {
        ptl_handle_eq_t put_eq, get_eq;
        OK(PtlEQAlloc(t.ni, 8, PTL_EQ_HANDLER_NONE, &put_eq));
        OK(PtlEQAlloc(t.ni, 8, PTL_EQ_HANDLER_NONE, &get_eq));
        ptl_md_t s = {source, sizeof source, PTL_MD_THRESH_INF, 0, PTL_MD_EVENT_END_DISABLE, NULL, put_eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, PTL_RETAIN, &md));
        CHECK_RC(PTL_MD_ILLEGAL, PtlPutRegion(md, 60, 8, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, PUT_BITS, 0, 0));
        CHECK_RC(PTL_MD_ILLEGAL, PtlGetRegion(md, 0, 65, t.peer, PORTAL, 0, GET_BITS, 0));
        ptltest_barrier();

        OK(PtlPutRegion(md, 10, 20, PTL_ACK_REQ, t.peer, PORTAL, 0, PUT_BITS, 0, 0x22));
        uint64_t put_logged = 0;
        ptltest_next33(put_eq, PTL_EVENT_SEND_START, &ev, &put_logged, "send start");
        CHECK_U64(20, ev.rlength);
        ptltest_next33(put_eq, PTL_EVENT_ACK, &ev, &put_logged, "ack (no SEND_END: END events disabled)");
        CHECK_U64(20, ev.mlength);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(put_eq, &ev));

        /* 8 bytes of rank 1's 'remote' from offset 4 into [16, 24) of 'local' */
        memset(local, 0x55, sizeof local);
        ptl_md_t l = {local, sizeof local, PTL_MD_THRESH_INF, 0, 0, &local, get_eq};
        ptl_handle_md_t lmd;
        OK(PtlMDBind(t.ni, l, PTL_RETAIN, &lmd));
        OK(PtlGetRegion(lmd, 16, 8, t.peer, PORTAL, 0, GET_BITS, 4));
        uint64_t get_logged = 0;
        ptltest_next33(get_eq, PTL_EVENT_REPLY_START, &ev, &get_logged, "reply start");
        ptltest_next33(get_eq, PTL_EVENT_REPLY_END, &ev, &get_logged, "reply end");
        CHECK_U64(8, ev.mlength);
        CHECK_U64(16, ev.offset); /* 3.3: where in the local MD the reply went */
        for (int i = 0; i < 64; i++) {
            CHECK(local[i] == (i >= 16 && i < 24 ? remote[4 + i - 16] : 0x55));
        }

        /* PtlMDUpdate with the 3.3 ptl_md_t: the old one comes back with its max_size and eq_handle */
        ptl_md_t old, updated = {local, sizeof local, PTL_MD_THRESH_INF, 16, PTL_MD_MAX_SIZE, &local, get_eq};
        OK(PtlMDUpdate(lmd, &old, &updated, PTL_EQ_NONE));
        CHECK_U64(0, old.max_size);
        CHECK_U64(get_eq, old.eq_handle);
        OK(PtlMDUpdate(lmd, &old, NULL, PTL_EQ_NONE));
        CHECK_U64(16, old.max_size);
        CHECK_U64(PTL_MD_MAX_SIZE, old.options);
        ptltest_barrier();

        ptl_md_t w = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
        ptl_handle_md_t wmd;
        OK(PtlMDBind(t.ni, w, PTL_RETAIN, &wmd));
        OK(PtlPutRegion(md, 0, 16, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, CAP_BITS, 0, 0));
        for (int i = 0; i < 4; i++) {
            OK(PtlPut(wmd, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, CAP_BITS, 16 + 8u * (unsigned) i, 0));
        }
    }
    ptltest_passed(&t, "regions33");
    return 0;
}
