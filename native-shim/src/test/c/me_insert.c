/*
 * me_insert: the order of a match list built with PtlMEAttach (PTL_INS_BEFORE: at the head,
 * PTL_INS_AFTER: at the tail) and PtlMEInsert (before or after a given entry) decides which entry a
 * request takes: the walk starts at the head (Portals 3.2 spec §2.2, §3.7.1). Five entries that all match take five
 * puts in list order; each MD has threshold 1 and unlinks. PtlMEInsert's entries are PTL_UNLINK and go
 * with their MD; the PTL_RETAIN entry stays without an MD and is skipped, so a sixth put is dropped.
 */
#include "ptltest.h"

#define PORTAL 10
#define ENTRIES 5

static char boxes[ENTRIES + 1][8], word[8];

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_event_t ev;
    if (t.rank == 1) {
        ptl_handle_me_t e[ENTRIES + 1];
        const ptl_match_bits_t all = ~(ptl_match_bits_t) 0;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, 0, all, PTL_RETAIN, PTL_INS_AFTER, &e[1]));  /* [1] */
        OK(PtlMEInsert(e[1], t.peer, 0, all, PTL_INS_BEFORE, &e[2]));                     /* [2 1] */
        OK(PtlMEInsert(e[2], t.peer, 0, all, PTL_INS_AFTER, &e[3]));                      /* [2 3 1] */
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, 0, all, PTL_UNLINK, PTL_INS_BEFORE, &e[4])); /* [4 2 3 1] */
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, 0, all, PTL_UNLINK, PTL_INS_AFTER, &e[5]));  /* [4 2 3 1 5] */
        for (int i = 1; i <= ENTRIES; i++) {
            ptl_md_t d = {boxes[i], 8, 1, 8, PTL_MD_OP_PUT, (void *) (intptr_t) i, t.eq};
            OK(PtlMDAttach(e[i], d, PTL_UNLINK, PTL_RETAIN, NULL));
        }
        ptltest_barrier();
        const int order[ENTRIES] = {4, 2, 3, 1, 5};
        for (int i = 0; i < ENTRIES; i++) {
            ptltest_next(t.eq, PTL_EVENT_PUT_START, &ev, "put start");
            ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end");
            if ((intptr_t) ev.mem_desc.user_ptr != order[i]) {
                FAIL_AT("put %d went to entry %d, expected entry %d", i, (int) (intptr_t) ev.mem_desc.user_ptr,
                        order[i]);
            }
            CHECK_U64(i, ev.hdr_data);
            CHECK(boxes[order[i]][0] == '0' + i);
            ptltest_next(t.eq, PTL_EVENT_UNLINK, &ev, "unlink");
            CHECK((intptr_t) ev.mem_desc.user_ptr == order[i]);
        }
        ptltest_await_register(t.ni, PTL_SR_DROP_COUNT, 1); /* the sixth */
        CHECK_RC(PTL_INV_PROC, PtlMEInsert(e[1], (ptl_process_id_t){0xFFFFFFFEu, 0}, 0, 0, PTL_INS_AFTER, &e[0]));
        OK(PtlMEUnlink(e[1]));                 /* PTL_RETAIN: still on the list */
        for (int i = 2; i <= ENTRIES; i++) {
            CHECK_RC(PTL_INV_ME, PtlMEUnlink(e[i])); /* PTL_UNLINK: went with their MDs */
        }
        CHECK_RC(PTL_INV_ME, PtlMEInsert(e[3], t.peer, 0, 0, PTL_INS_AFTER, &e[0])); /* stale handle */
        ptltest_barrier();
    } else {
        ptl_md_t s = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, &md));
        ptltest_barrier();
        for (int i = 0; i <= ENTRIES; i++) {
            memset(word, '0' + i, sizeof word);
            OK(PtlPut(md, PTL_NOACK_REQ, t.peer, PORTAL, 0, 0x1234u * (unsigned) i, 0, (ptl_hdr_data_t) i));
            ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start");
            ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end");
        }
        ptltest_barrier();
    }
    ptltest_passed(&t, "me_insert");
    return 0;
}
