/*
 * acl_drop: every put names an access control entry by its cookie; the target checks the requester's id,
 * user id and the portal against that entry (Portals 3.2 spec §2.3, §3.9.8.2). A rejected put is dropped silently: the
 * initiator still sees SEND_START and SEND_END but never an ACK (pitfall 10), and the target counts it
 * in PTL_SR_DROP_COUNT (and PTL_SR_DROP_ACL). Also PtlACEntry's own return codes.
 */
#include "ptltest.h"

#define OPEN_PORTAL 9
#define OTHER_PORTAL 8

static char inbox[64], msg[8] = "granted";

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_event_t ev;
    ptl_process_id_t nobody = {t.peer.nid, 77}; /* the peer's node, another pid */
    if (t.rank == 1) {
        /* Entry 1: rank 0 (any user) on OPEN_PORTAL only. Entry 2: a process that does not exist. */
        OK(PtlACEntry(t.ni, 1, t.peer, PTL_UID_ANY, OPEN_PORTAL));
        OK(PtlACEntry(t.ni, 2, nobody, PTL_UID_ANY, PTL_PT_INDEX_ANY));
        /* Entry 3: rank 0's id, but a user id that is not its own. */
        OK(PtlACEntry(t.ni, 3, t.peer, t.uid + 1, PTL_PT_INDEX_ANY));
        CHECK_RC(PTL_AC_INV_INDEX, PtlACEntry(t.ni, 64, t.peer, PTL_UID_ANY, OPEN_PORTAL));
        CHECK_RC(PTL_PT_INV_INDEX, PtlACEntry(t.ni, 1, t.peer, PTL_UID_ANY, 64));
        ptl_process_id_t bad = {0xFFFFFFFEu, 0};
        CHECK_RC(PTL_INV_PROC, PtlACEntry(t.ni, 1, bad, PTL_UID_ANY, OPEN_PORTAL));
        CHECK_RC(PTL_INV_NI, PtlACEntry(t.ni + 1, 1, t.peer, PTL_UID_ANY, OPEN_PORTAL));
        ptl_handle_me_t me;
        for (ptl_pt_index_t portal = OTHER_PORTAL; portal <= OPEN_PORTAL; portal++) {
            OK(PtlMEAttach(t.ni, portal, t.peer, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
            ptl_md_t d = {inbox, sizeof inbox, PTL_MD_THRESH_INF, sizeof inbox, PTL_MD_OP_PUT, NULL, t.eq};
            OK(PtlMDAttach(me, d, PTL_RETAIN, PTL_RETAIN, NULL));
        }
        ptltest_barrier();
        /* Rejected: cookie 1 on OTHER_PORTAL, cookie 2, cookie 3, cookie 5 (empty), cookie 64 (no entry). */
        ptltest_await_register(t.ni, PTL_SR_DROP_COUNT, 5);
        ptltest_await_register(t.ni, PTL_SR_DROP_ACL, 5);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(t.eq, &ev));
        ptltest_barrier();
        /* Accepted: cookie 1 on OPEN_PORTAL, and cookie 0 (same user, any portal: Portals 3.2 spec §3.10). */
        for (int i = 0; i < 2; i++) {
            ptltest_next(t.eq, PTL_EVENT_PUT_START, &ev, "put start");
            ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end");
        }
        ptl_sr_value_t drops;
        OK(PtlNIStatus(t.ni, PTL_SR_DROP_COUNT, &drops));
        CHECK_U64(5, drops);
        ptltest_barrier();
    } else {
        ptl_md_t s = {msg, sizeof msg, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, &md));
        ptltest_barrier();
        const ptl_ac_index_t cookies[5] = {1, 2, 3, 5, 64};
        const ptl_pt_index_t portals[5] = {OTHER_PORTAL, OPEN_PORTAL, OPEN_PORTAL, OPEN_PORTAL, OPEN_PORTAL};
        for (int i = 0; i < 5; i++) {
            OK(PtlPut(md, PTL_ACK_REQ, t.peer, portals[i], cookies[i], 0, 0, 0));
            ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start (rejected)");
            ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end (rejected)");
        }
        ptltest_barrier(); /* rank 1 has seen all five dropped: no ACK can still be coming */
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(t.eq, &ev));
        for (int i = 0; i < 2; i++) {
            OK(PtlPut(md, PTL_ACK_REQ, t.peer, i == 0 ? OPEN_PORTAL : OTHER_PORTAL, i == 0 ? 1 : 0, 0, 0, 0));
            ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start");
            ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end");
            ptltest_next(t.eq, PTL_EVENT_ACK, &ev, "ack");
        }
        ptltest_barrier();
    }
    ptltest_passed(&t, "acl_drop");
    return 0;
}
