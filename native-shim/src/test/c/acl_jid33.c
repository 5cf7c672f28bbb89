/*
 * acl_jid33: job ids (Portals 3.3 §3.8, §3.12.1, compiled with -DPTL_DIALECT_33). Checks:
 *  - PtlGetJid gives a job id that is never PTL_JID_ANY and the same on both ranks (each rank's events
 *    from the other carry the other's job id, which equals its own);
 *  - PtlACEntry(ni, index, id, uid, jid, pt_index): an entry naming this job lets its puts through, so does
 *    one with PTL_JID_ANY, and one naming another job drops them (counted in PTL_SR_DROP_ACL);
 *  - the 3.3 codes of PtlACEntry and PtlGetJid: PTL_AC_INDEX_INVALID, PTL_PT_INDEX_INVALID (the one 3.3 code
 *    for a bad portal index: PTL_PT_INV_INDEX is the same), PTL_NI_INVALID, PTL_SEGV.
 */
#include "ptltest.h"

#define PORTAL 3
#define COOKIE 5
#define BITS 0x77u

static char landing[64], word[8];

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 16);
    CHECK(t.size == 2);
    ptl_event_t ev;
    ptl_process_id_t anyone = {PTL_NID_ANY, PTL_PID_ANY};

    ptl_jid_t jid;
    ptl_ni_limits_t limits;
    OK(PtlGetJid(t.ni, &jid));
    CHECK_U64(t.jid, jid);
    CHECK_RC(PTL_SEGV, PtlGetJid(t.ni, NULL));
    CHECK_RC(PTL_NI_INVALID, PtlGetJid(t.eq, &jid)); /* an EQ handle is not an NI handle */
    OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &t.ni));
    CHECK_RC(PTL_AC_INDEX_INVALID, PtlACEntry(t.ni, (ptl_ac_index_t) limits.max_ac_index + 1, anyone, PTL_UID_ANY,
                                              PTL_JID_ANY, PTL_PT_INDEX_ANY));
    CHECK_RC(PTL_PT_INDEX_INVALID, PtlACEntry(t.ni, COOKIE, anyone, PTL_UID_ANY, PTL_JID_ANY,
                                              (ptl_pt_index_t) limits.max_pt_index + 1));
    CHECK(PTL_PT_INV_INDEX == PTL_PT_INDEX_INVALID);

    if (t.rank == 1) {
        ptl_handle_me_t me;
        OK(PtlMEAttach(t.ni, PORTAL, anyone, BITS, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t d = {landing, sizeof landing, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, NULL, t.eq};
        OK(PtlMDAttach(me, d, PTL_RETAIN, NULL));
        uint64_t logged = 0;
        ptl_jid_t entries[3] = {jid, PTL_JID_ANY, jid ^ 1u};
        for (int i = 0; i < 3; i++) {
            OK(PtlACEntry(t.ni, COOKIE, anyone, PTL_UID_ANY, entries[i], PTL_PT_INDEX_ANY));
            ptltest_barrier(); /* rank 0 puts with cookie COOKIE */
            if (i < 2) {
                ptltest_next33(t.eq, PTL_EVENT_PUT_START, &ev, &logged, "allowed put");
                CHECK_U64(i, ev.hdr_data);
                CHECK_U64(jid, ev.jid); /* the initiator's job id is this one */
                ptltest_next33(t.eq, PTL_EVENT_PUT_END, &ev, &logged, "allowed put");
            } else {
                ptltest_await_register(t.ni, PTL_SR_DROP_ACL, 1);
                CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(t.eq, &ev));
            }
            ptltest_barrier();
        }
    } else {
        ptl_md_t s = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, PTL_RETAIN, &md));
        for (int i = 0; i < 3; i++) {
            ptltest_barrier();
            OK(PtlPut(md, PTL_NO_ACK_REQ, t.peer, PORTAL, COOKIE, BITS, 8u * (unsigned) i, (ptl_hdr_data_t) i));
            ptltest_barrier();
        }
    }
    ptltest_passed(&t, "acl_jid33");
    return 0;
}
