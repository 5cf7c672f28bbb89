/*
 * get_reply: rank 0 reads rank 1's buffer with PtlGet. Checks the target's GET_START and GET_END, the
 * initiator's REPLY_START and REPLY_END (fields, and the data written in place into the initiator's
 * buffer), and that the get took one unit of the local MD's threshold.
 */
#include "ptltest.h"

#define LEN 200
#define PORTAL 2
#define MATCH 0x2222u

static unsigned char exposed[LEN];
static unsigned char copy[LEN];

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 16);
    CHECK(t.size == 2);
    ptl_event_t ev, start;
    if (t.rank == 1) {
        for (int i = 0; i < LEN; i++) {
            exposed[i] = (unsigned char) (i * 7 + 3);
        }
        ptl_handle_me_t me;
        ptl_handle_md_t md;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, MATCH, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t d = {exposed, LEN, PTL_MD_THRESH_INF, LEN, PTL_MD_OP_GET, exposed, t.eq};
        OK(PtlMDAttach(me, d, PTL_RETAIN, PTL_RETAIN, &md));
        ptltest_barrier();
        ptltest_next(t.eq, PTL_EVENT_GET_START, &start, "get start");
        ptltest_next(t.eq, PTL_EVENT_GET_END, &ev, "get end");
        CHECK_U64(start.sequence, ev.link);
        CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
        CHECK_U64(PORTAL, ev.portal);
        CHECK_U64(MATCH, ev.match_bits);
        CHECK_U64(LEN, ev.rlength);
        CHECK_U64(LEN, ev.mlength);
        CHECK_U64(0, ev.offset);
        CHECK_U64(md, ev.md_handle);
        CHECK(ev.mem_desc.user_ptr == exposed);
        CHECK_U64(0, ev.hdr_data);
        OK(PtlMEUnlink(me)); /* releases the MD too */
        CHECK_RC(PTL_INV_MD, PtlMDUnlink(md));
    } else {
        memset(copy, 0, sizeof copy);
        ptl_md_t d = {copy, LEN, 1, 0, 0, copy, t.eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, d, &md));
        ptltest_barrier();
        OK(PtlGet(md, t.peer, PORTAL, 0, MATCH, 0));
        ptltest_next(t.eq, PTL_EVENT_REPLY_START, &start, "reply start");
        ptltest_next(t.eq, PTL_EVENT_REPLY_END, &ev, "reply end");
        CHECK_U64(start.sequence, ev.link);
        CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
        CHECK_U64(LEN, ev.mlength);
        CHECK_U64(md, ev.md_handle);
        CHECK(ev.mem_desc.start == copy);
        CHECK(ev.mem_desc.user_ptr == copy);
        CHECK_U64(0, ev.mem_desc.threshold); /* the get used the only unit */
        for (int i = 0; i < LEN; i++) {
            if (copy[i] != (unsigned char) (i * 7 + 3)) {
                FAIL_AT("byte %d of the reply is %u, expected %u", i, copy[i], (unsigned char) (i * 7 + 3));
            }
        }
        /* Threshold 0 now: a second get is refused at once. */
        CHECK_RC(PTL_INV_MD, PtlGet(md, t.peer, PORTAL, 0, MATCH, 0));
        OK(PtlMDUnlink(md));
    }
    ptltest_passed(&t, "get_reply");
    return 0;
}
