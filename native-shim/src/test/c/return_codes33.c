/*
 * return_codes33: the codes a Portals 3.3 program meets through misuse of what 3.3 added or changed
 * (compiled with -DPTL_DIALECT_33; return_codes.c covers what 3.3 kept from 3.2), with 3.3's names: calls
 * before PtlInit, NULL out-pointers, values outside an enum, illegal 3.3 MDs, regions outside their MD,
 * bad PtlEQPoll lists, PtlGetPut's MDs; PtlHandleIsEqual and the names of codes and kinds (PtlErrorStr,
 * PtlEventKindStr), which need no PtlInit; the 3.3 ptl_ni_limits_t, which PtlNIInit may be given NULL for
 * (the 3.3 reference implementation's rule, which its programs rely on); and PtlFini.
 */
#include "ptltest.h"

static char buf[64];

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    ptl_handle_ni_t ni = 0;
    ptl_handle_eq_t eq = 0;
    ptl_handle_md_t md = 0;
    ptl_handle_me_t me = 0;
    ptl_event_t ev;
    ptl_jid_t jid;
    int which;
    ptl_process_id_t self = {0, 0};
    ptl_md_t d = {buf, sizeof buf, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_OP_GET, NULL, PTL_EQ_NONE};

    /* Before PtlInit: PTL_NO_INIT from the 3.3 calls, without starting a JVM; PtlHandleIsEqual works. */
    CHECK_RC(PTL_NO_INIT, PtlGetJid(1, &jid));
    CHECK_RC(PTL_NO_INIT, PtlMDBind(1, d, PTL_UNLINK, &md));
    CHECK_RC(PTL_NO_INIT, PtlEQAlloc(1, 8, PTL_EQ_HANDLER_NONE, &eq));
    CHECK_RC(PTL_NO_INIT, PtlEQPoll(&eq, 1, 0, &ev, &which));
    CHECK_RC(PTL_NO_INIT, PtlPutRegion(1, 0, 8, PTL_ACK_REQ, self, 0, 0, 0, 0, 0));
    CHECK_RC(PTL_NO_INIT, PtlGetRegion(1, 0, 8, self, 0, 0, 0, 0));
    CHECK_RC(PTL_NO_INIT, PtlACEntry(1, 0, self, PTL_UID_ANY, PTL_JID_ANY, 0));
    CHECK(PtlHandleIsEqual(PTL_EQ_NONE, PTL_HANDLE_NONE) == 1);
    CHECK(PtlHandleIsEqual(PTL_MD_NONE, PTL_INVALID_HANDLE) == 0);
    CHECK_RC(PTL_NO_INIT, PtlGetPut(1, 1, self, 0, 0, 0, 0, 0));
    CHECK(strcmp(PtlErrorStr(PTL_MD_INVALID), "PTL_MD_INVALID") == 0);
    CHECK(strcmp(PtlErrorStr(9999), "PTL_UNKNOWN_ERROR") == 0);
    CHECK(strcmp(PtlEventKindStr(PTL_EVENT_GETPUT_END), "PTL_EVENT_GETPUT_END") == 0);
    PtlFini(); /* harmless before PtlInit */

    CHECK_RC(PTL_SEGV, PtlInit(NULL));
    int max_interfaces;
    OK(PtlInit(&max_interfaces));
    ptltest_rank = ptl_rt_rank();
    CHECK(ptl_rt_process_id(ptl_rt_rank(), &self) == 0);

    /* PtlNIInit with the 3.3 ptl_ni_limits_t: the three 3.3 limits are what this implementation has */
    ptl_ni_limits_t limits;
    memset(&limits, 0xAB, sizeof limits);
    CHECK_RC(PTL_IFACE_INVALID, PtlNIInit((ptl_interface_t) max_interfaces, PTL_PID_ANY, NULL, &limits, &ni));
    CHECK_RC(PTL_SEGV, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, NULL));
    ptl_ni_limits_t desired = {16, 16, 8, 7, 7, 99, 99, 99};
    OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, &desired, &limits, &ni));
    CHECK(limits.max_mes == 16 && limits.max_mds == 16 && limits.max_eqs == 8);
    CHECK(limits.max_ac_index == 7 && limits.max_pt_index == 7);
    CHECK_U64(0, limits.max_md_iovecs);       /* PTL_MD_IOVEC is not implemented */
    CHECK_U64(limits.max_mes, limits.max_me_list); /* no match list limit below max_mes */
    CHECK_U64(64, limits.max_getput_md);      /* PtlGetPut swaps up to 64 bytes, as in the reference */
    ptl_handle_ni_t again;
    OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, NULL, &again)); /* actual may be NULL */
    CHECK(again == ni);
    CHECK_RC(PTL_PID_INVALID, PtlNIInit(PTL_IFACE_DEFAULT, self.pid + 42, NULL, &limits, &again));
    ptl_handle_ni_t bad_ni = ni ^ 0x1234;

    /* PtlGetJid */
    CHECK_RC(PTL_SEGV, PtlGetJid(ni, NULL));
    CHECK_RC(PTL_NI_INVALID, PtlGetJid(bad_ni, &jid));
    OK(PtlGetJid(ni, &jid));
    CHECK(jid != PTL_JID_ANY);

    /* PtlEQAlloc and PtlEQPoll */
    CHECK_RC(PTL_SEGV, PtlEQAlloc(ni, 8, PTL_EQ_HANDLER_NONE, NULL));
    OK(PtlEQAlloc(ni, 0, PTL_EQ_HANDLER_NONE, &eq)); /* 3.3: count 0 is no queue, as in the reference */
    CHECK(eq == PTL_EQ_NONE);
    OK(PtlEQAlloc(ni, 8, PTL_EQ_HANDLER_NONE, &eq));
    CHECK_RC(PTL_EQ_INVALID, PtlEQPoll(&eq, 0, 0, &ev, &which));
    CHECK_RC(PTL_EQ_INVALID, PtlEQPoll(&eq, -3, 0, &ev, &which));
    CHECK_RC(PTL_SEGV, PtlEQPoll(NULL, 1, 0, &ev, &which));
    CHECK_RC(PTL_SEGV, PtlEQPoll(&eq, 1, 0, NULL, &which));
    CHECK_RC(PTL_SEGV, PtlEQPoll(&eq, 1, 0, &ev, NULL));
    CHECK_RC(PTL_EQ_EMPTY, PtlEQPoll(&eq, 1, 0, &ev, &which));
    ptl_handle_ni_t ni1;
    ptl_handle_eq_t eq1;
    CHECK(max_interfaces >= 2);
    OK(PtlNIInit(1, PTL_PID_ANY, NULL, NULL, &ni1)); /* a first PtlNIInit without actual: a usable interface */
    OK(PtlEQAlloc(ni1, 8, PTL_EQ_HANDLER_NONE, &eq1));
    ptl_handle_md_t md0, md1;
    OK(PtlMDBind(ni, d, PTL_RETAIN, &md0));
    OK(PtlMDBind(ni1, d, PTL_RETAIN, &md1));
    CHECK_RC(PTL_MD_ILLEGAL, PtlGetPut(md0, md1, self, 4, 0, 0, 0, 0)); /* MDs of two interfaces */
    OK(PtlMDUnlink(md0));
    ptl_handle_eq_t two_interfaces[2] = {eq, eq1};
    CHECK_RC(PTL_EQ_INVALID, PtlEQPoll(two_interfaces, 2, 0, &ev, &which));
    OK(PtlEQFree(eq1));
    ptl_handle_eq_t freed[1] = {eq1};
    CHECK_RC(PTL_EQ_INVALID, PtlEQPoll(freed, 1, 0, &ev, &which));
    OK(PtlNIFini(ni1));

    /* PtlMDBind and PtlMDAttach with unlink_op, and the 3.3 ptl_md_t */
    CHECK_RC(PTL_SEGV, PtlMDBind(ni, d, PTL_RETAIN, NULL));
    CHECK_RC(PTL_FAIL, PtlMDBind(ni, d, (ptl_unlink_t) 7, &md));
    ptl_md_t bad = d;
    bad.options |= PTL_MD_MAX_SIZE;
    bad.max_size = sizeof buf + 1;
    CHECK_RC(PTL_MD_ILLEGAL, PtlMDBind(ni, bad, PTL_RETAIN, &md));
    bad.max_size = UINT64_MAX;
    CHECK_RC(PTL_MD_ILLEGAL, PtlMDBind(ni, bad, PTL_RETAIN, &md));
    bad = d;
    bad.options |= 0x20u; /* PTL_MD_IOVEC's bit */
    CHECK_RC(PTL_MD_ILLEGAL, PtlMDBind(ni, bad, PTL_RETAIN, &md));
    bad.options = 0x200u;
    CHECK_RC(PTL_MD_ILLEGAL, PtlMDBind(ni, bad, PTL_RETAIN, &md));
    bad = d;
    bad.eq_handle = eq ^ 0x10;
    CHECK_RC(PTL_EQ_INVALID, PtlMDBind(ni, bad, PTL_RETAIN, &md));
    OK(PtlMEAttach(ni, 4, self, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
    CHECK_RC(PTL_FAIL, PtlMDAttach(me, d, (ptl_unlink_t) 5, NULL));
    OK(PtlMDAttach(me, d, PTL_RETAIN, NULL)); /* md_handle may be NULL */
    CHECK_RC(PTL_ME_IN_USE, PtlMDAttach(me, d, PTL_RETAIN, &md));
    ptl_handle_me_t me2;
    CHECK_RC(PTL_FAIL, PtlMEInsert(me, self, 0, 0, (ptl_unlink_t) 9, PTL_INS_AFTER, &me2));
    OK(PtlMEInsert(me, self, 1, 0, PTL_UNLINK, PTL_INS_AFTER, &me2));
    OK(PtlMEUnlink(me2));
    CHECK_RC(PTL_ME_INVALID, PtlMEUnlink(me2));

    /* PtlPutRegion and PtlGetRegion */
    OK(PtlMDBind(ni, d, PTL_RETAIN, &md));
    CHECK_RC(PTL_MD_ILLEGAL, PtlPutRegion(md, 60, 8, PTL_NO_ACK_REQ, self, 4, 0, 0, 0, 0));
    CHECK_RC(PTL_MD_ILLEGAL, PtlPutRegion(md, 0, 65, PTL_NO_ACK_REQ, self, 4, 0, 0, 0, 0));
    CHECK_RC(PTL_MD_ILLEGAL, PtlGetRegion(md, 65, 0, self, 4, 0, 0, 0));
    CHECK_RC(PTL_MD_ILLEGAL, PtlGetRegion(md, 1, UINT64_MAX, self, 4, 0, 0, 0));
    CHECK_RC(PTL_FAIL, PtlPutRegion(md, 0, 8, (ptl_ack_req_t) 2, self, 4, 0, 0, 0, 0));
    CHECK_RC(PTL_PROCESS_INVALID, PtlPutRegion(md, 0, 8, PTL_NO_ACK_REQ, (ptl_process_id_t){PTL_NID_ANY, 0}, 4, 0,
                                               0, 0, 0));
    ptl_md_t spent = d;
    spent.threshold = 0;
    ptl_handle_md_t inactive;
    OK(PtlMDBind(ni, spent, PTL_RETAIN, &inactive));
    CHECK_RC(PTL_MD_INVALID, PtlPutRegion(inactive, 0, 8, PTL_NO_ACK_REQ, self, 4, 0, 0, 0, 0));
    CHECK_RC(PTL_MD_INVALID, PtlGetRegion(inactive, 0, 8, self, 4, 0, 0, 0));

    /* An MD longer than the transport's largest message (udp: 2^40 bytes) is legal; a put or get of all of it
     * is PTL_MD_INVALID, a region of it that long PTL_MD_ILLEGAL, before anything is taken or logged: no
     * event, and PtlMDUnlink finds nothing pending. Only on udp (inmem has no such limit). */
    const char *transport = getenv("PORTALS_TRANSPORT");
    if (transport != NULL && strcmp(transport, "udp") == 0) {
        ptl_handle_eq_t huge_eq;
        ptl_handle_md_t huge_md;
        OK(PtlEQAlloc(ni, 4, PTL_EQ_HANDLER_NONE, &huge_eq));
        ptl_md_t too_long = {buf, 1ULL << 41, 1, 0, PTL_MD_OP_PUT | PTL_MD_OP_GET, NULL, huge_eq};
        OK(PtlMDBind(ni, too_long, PTL_RETAIN, &huge_md));
        CHECK_RC(PTL_MD_INVALID, PtlPut(huge_md, PTL_ACK_REQ, self, 4, 0, 0, 0, 0));
        CHECK_RC(PTL_MD_INVALID, PtlGet(huge_md, self, 4, 0, 0, 0));
        CHECK_RC(PTL_MD_ILLEGAL, PtlPutRegion(huge_md, 0, 1ULL << 41, PTL_NO_ACK_REQ, self, 4, 0, 0, 0, 0));
        CHECK_RC(PTL_MD_ILLEGAL, PtlGetRegion(huge_md, 0, 1ULL << 41, self, 4, 0, 0, 0));
        CHECK_RC(PTL_EQ_EMPTY, PtlEQPoll(&huge_eq, 1, 0, &ev, &which));
        OK(PtlMDUnlink(huge_md));
        OK(PtlEQFree(huge_eq));
        printf("return_codes33: rank %d: an MD longer than one message is PTL_MD_INVALID\n", ptltest_rank);
    }

    /* PtlHandleIsEqual: a handle is equal to itself whatever type it is seen as, and to nothing else */
    ptl_handle_any_t as_any = md;
    CHECK(PtlHandleIsEqual(md, as_any) == 1);
    CHECK(PtlHandleIsEqual(md, inactive) == 0);
    CHECK(PtlHandleIsEqual(md, eq) == 0);
    CHECK(PtlHandleIsEqual(ni, ni) == 1);
    CHECK(PtlHandleIsEqual(eq, PTL_EQ_NONE) == 0);

    /* After PtlFini, PTL_NO_INIT again */
    ptltest_barrier();
    PtlFini();
    CHECK_RC(PTL_NO_INIT, PtlGetJid(ni, &jid));
    CHECK_RC(PTL_NO_INIT, PtlEQPoll(&eq, 1, 0, &ev, &which));
    printf("return_codes33: rank %d passed\n", ptltest_rank);
    return 0;
}
