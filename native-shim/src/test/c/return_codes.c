/*
 * return_codes: every return code a program can meet through misuse (chapter 3's per-function lists, Portals
 * 3.2 spec §3.12's return-code table), on any number of ranks: calls before PtlInit, NULL out-pointers, invalid
 * and stale handles, bad indexes and process ids, values outside an enum, limits, pending operations. Codes the
 * engine cannot produce through the C API with its default configuration: PTL_ML_TOOLONG (no match list limit
 * by default, A-07) and PTL_INV_REG (a bad register is PTL_INV_SR_INDX, A-10).
 */
#include "ptltest.h"

static char buf[64];

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    ptl_handle_ni_t ni = 0;
    ptl_handle_eq_t eq = 0;
    ptl_handle_md_t md = 0;
    ptl_handle_me_t me = 0;
    ptl_ni_limits_t limits;
    ptl_event_t ev;
    ptl_process_id_t self = {0, 0};
    ptl_md_t d = {buf, sizeof buf, PTL_MD_THRESH_INF, sizeof buf, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE,
                  NULL, PTL_EQ_NONE};

    /* Before PtlInit: PTL_NOINIT from everything but PtlInit (Portals 3.2 spec §3.12), and no JVM is started for it. */
    CHECK_RC(PTL_NOINIT, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &ni));
    CHECK_RC(PTL_NOINIT, PtlEQAlloc(1, 8, &eq));
    CHECK_RC(PTL_NOINIT, PtlMDBind(1, d, &md));
    CHECK_RC(PTL_NOINIT, PtlPut(1, PTL_ACK_REQ, self, 0, 0, 0, 0, 0));
    CHECK_RC(PTL_NOINIT, PtlEQWait(1, &ev));
    PtlFini(); /* harmless before PtlInit */

    CHECK_RC(PTL_SEGV, PtlInit(NULL));
    int max_interfaces;
    OK(PtlInit(&max_interfaces));
    OK(PtlInit(&max_interfaces)); /* any number of times (Portals 3.2 spec §3.3.1) */
    ptltest_rank = ptl_rt_rank();
    CHECK(ptl_rt_process_id(ptl_rt_rank(), &self) == 0);
    CHECK(ptl_rt_process_id(-1, &self) < 0);             /* each prints why on stderr */
    CHECK(ptl_rt_process_id(ptl_rt_size(), &self) < 0);
    CHECK(ptl_rt_process_id(0, NULL) < 0);

    /* PtlNIInit */
    CHECK_RC(PTL_SEGV, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, NULL, &ni));
    CHECK_RC(PTL_SEGV, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, NULL));
    CHECK_RC(PTL_INIT_INV, PtlNIInit((ptl_interface_t) max_interfaces, PTL_PID_ANY, NULL, &limits, &ni));
    CHECK_RC(PTL_INV_PROC, PtlNIInit(PTL_IFACE_DEFAULT, 0xFFFFFFFEu, NULL, &limits, &ni));
    ptl_ni_limits_t bad_limits = {16, 16, 16, (ptl_ac_index_t) -1, 7};
    CHECK_RC(PTL_INV_ASIZE, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, &bad_limits, &limits, &ni));
    OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &ni));
    ptl_handle_ni_t again;
    OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &again));
    CHECK_U64(ni, again); /* a repeat returns the same handle (Portals 3.2 spec §3.4.1, A-08) */
    CHECK_RC(PTL_INIT_DUP, PtlNIInit(PTL_IFACE_DEFAULT, self.pid + 42, NULL, &limits, &again));
    ptl_handle_ni_t bad_ni = ni ^ 0x1234; /* not a handle of anything */

    /* PtlNIStatus, PtlNIDist, PtlNIHandle, PtlGetUid, PtlGetId */
    ptl_sr_value_t value;
    unsigned long distance;
    ptl_handle_ni_t owner;
    ptl_uid_t uid;
    ptl_process_id_t id;
    CHECK_RC(PTL_INV_NI, PtlNIStatus(bad_ni, PTL_SR_DROP_COUNT, &value));
    CHECK_RC(PTL_INV_SR_INDX, PtlNIStatus(ni, 1000, &value));
    CHECK_RC(PTL_SEGV, PtlNIStatus(ni, PTL_SR_DROP_COUNT, NULL));
    OK(PtlNIStatus(ni, PTL_SR_DROP_COUNT, &value));
    CHECK_U64(0, value);
    CHECK_RC(PTL_INV_NI, PtlNIDist(bad_ni, self, &distance));
    CHECK_RC(PTL_INV_PROC, PtlNIDist(ni, (ptl_process_id_t){PTL_NID_ANY, PTL_PID_ANY}, &distance));
    CHECK_RC(PTL_SEGV, PtlNIDist(ni, self, NULL));
    OK(PtlNIDist(ni, self, &distance));
    CHECK_U64(0, distance); /* to oneself */
    CHECK_RC(PTL_INV_HANDLE, PtlNIHandle(bad_ni, &owner));
    CHECK_RC(PTL_SEGV, PtlNIHandle(ni, NULL));
    OK(PtlNIHandle(ni, &owner));
    CHECK_U64(ni, owner);
    CHECK_RC(PTL_INV_NI, PtlGetUid(bad_ni, &uid));
    CHECK_RC(PTL_SEGV, PtlGetUid(ni, NULL));
    CHECK_RC(PTL_INV_NI, PtlGetId(bad_ni, &id));
    CHECK_RC(PTL_SEGV, PtlGetId(ni, NULL));

    /* PtlEQAlloc, PtlEQFree, PtlEQGet, PtlEQWait */
    CHECK_RC(PTL_INV_NI, PtlEQAlloc(bad_ni, 8, &eq));
    CHECK_RC(PTL_SEGV, PtlEQAlloc(ni, 8, NULL));
    CHECK_RC(PTL_NOSPACE, PtlEQAlloc(ni, 0, &eq)); /* */
    OK(PtlEQAlloc(ni, 8, &eq));
    CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(eq, &ev));
    CHECK_RC(PTL_SEGV, PtlEQGet(eq, NULL));
    CHECK_RC(PTL_SEGV, PtlEQWait(eq, NULL));
    CHECK_RC(PTL_INV_EQ, PtlEQGet(eq ^ 0x10, &ev));
    CHECK_RC(PTL_INV_EQ, PtlEQWait(eq ^ 0x10, &ev));
    ptl_handle_eq_t gone;
    OK(PtlEQAlloc(ni, 8, &gone));
    OK(PtlEQFree(gone));
    CHECK_RC(PTL_INV_EQ, PtlEQFree(gone));       /* stale */
    CHECK_RC(PTL_INV_EQ, PtlEQGet(gone, &ev));   /* stale */
    OK(PtlNIHandle(eq, &owner));
    CHECK_U64(ni, owner);
    CHECK_RC(PTL_INV_HANDLE, PtlNIHandle(gone, &owner));

    /* PtlMEAttach, PtlMEAttachAny, PtlMEInsert, PtlMEUnlink */
    ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
    ptl_process_id_t bad_proc = {0xFFFFFFFEu, 0};
    CHECK_RC(PTL_INV_NI, PtlMEAttach(bad_ni, 0, any, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
    CHECK_RC(PTL_INV_PTINDEX, PtlMEAttach(ni, limits.max_ptable_index + 1, any, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
    CHECK_RC(PTL_INV_PROC, PtlMEAttach(ni, 0, bad_proc, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
    CHECK_RC(PTL_SEGV, PtlMEAttach(ni, 0, any, 0, 0, PTL_RETAIN, PTL_INS_AFTER, NULL));
    CHECK_RC(PTL_FAIL, PtlMEAttach(ni, 0, any, 0, 0, (ptl_unlink_t) 7, PTL_INS_AFTER, &me));
    CHECK_RC(PTL_FAIL, PtlMEAttach(ni, 0, any, 0, 0, PTL_RETAIN, (ptl_ins_pos_t) 9, &me));
    OK(PtlMEAttach(ni, 0, any, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
    ptl_handle_me_t stale_me;
    OK(PtlMEInsert(me, any, 1, 0, PTL_INS_AFTER, &stale_me));
    OK(PtlMEUnlink(stale_me));
    CHECK_RC(PTL_INV_ME, PtlMEUnlink(stale_me));
    CHECK_RC(PTL_INV_ME, PtlMEInsert(stale_me, any, 1, 0, PTL_INS_AFTER, &stale_me));
    CHECK_RC(PTL_SEGV, PtlMEInsert(me, any, 1, 0, PTL_INS_AFTER, NULL));
    CHECK_RC(PTL_FAIL, PtlMEInsert(me, any, 1, 0, (ptl_ins_pos_t) -1, &stale_me));
    ptl_pt_index_t index;
    ptl_handle_me_t any_me;
    CHECK_RC(PTL_SEGV, PtlMEAttachAny(ni, NULL, any, 0, 0, PTL_RETAIN, &any_me));
    CHECK_RC(PTL_SEGV, PtlMEAttachAny(ni, &index, any, 0, 0, PTL_RETAIN, NULL));
    CHECK_RC(PTL_INV_PROC, PtlMEAttachAny(ni, &index, bad_proc, 0, 0, PTL_RETAIN, &any_me));
    /* portal 0 has an entry: PtlMEAttachAny takes the others one by one, then the table is full */
    for (ptl_pt_index_t i = 1; i <= limits.max_ptable_index; i++) {
        OK(PtlMEAttachAny(ni, &index, any, 0, 0, PTL_RETAIN, &any_me));
        CHECK_U64(i, index);
    }
    CHECK_RC(PTL_PT_FULL, PtlMEAttachAny(ni, &index, any, 0, 0, PTL_RETAIN, &any_me));

    /* PtlMDAttach, PtlMDBind, PtlMDUnlink, PtlMDUpdate */
    ptl_md_t null_start = {NULL, 8, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
    ptl_md_t bad_threshold = {buf, 8, -5, 0, 0, NULL, PTL_EQ_NONE};
    ptl_md_t bad_options = {buf, 8, PTL_MD_THRESH_INF, 0, 0x100, NULL, PTL_EQ_NONE};
    ptl_md_t bad_eq = {buf, 8, PTL_MD_THRESH_INF, 0, 0, NULL, eq ^ 0x10};
    ptl_md_t huge = {buf, ~(ptl_size_t) 0, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
    ptl_handle_md_t attached;
    CHECK_RC(PTL_ILL_MD, PtlMDAttach(me, null_start, PTL_RETAIN, PTL_RETAIN, &attached));
    CHECK_RC(PTL_ILL_MD, PtlMDAttach(me, bad_threshold, PTL_RETAIN, PTL_RETAIN, &attached));
    CHECK_RC(PTL_ILL_MD, PtlMDAttach(me, bad_options, PTL_RETAIN, PTL_RETAIN, &attached));
    CHECK_RC(PTL_ILL_MD, PtlMDAttach(me, bad_eq, PTL_RETAIN, PTL_RETAIN, &attached)); /* */
    CHECK_RC(PTL_ILL_MD, PtlMDAttach(me, huge, PTL_RETAIN, PTL_RETAIN, &attached));
    CHECK_RC(PTL_INV_ME, PtlMDAttach(stale_me, d, PTL_RETAIN, PTL_RETAIN, &attached));
    CHECK_RC(PTL_FAIL, PtlMDAttach(me, d, (ptl_unlink_t) 2, PTL_RETAIN, &attached));
    d.eventq = eq;
    OK(PtlMDAttach(me, d, PTL_RETAIN, PTL_RETAIN, &attached));
    CHECK_RC(PTL_INUSE, PtlMDAttach(me, d, PTL_RETAIN, PTL_RETAIN, &attached));
    CHECK_RC(PTL_INV_NI, PtlMDBind(bad_ni, d, &md));
    CHECK_RC(PTL_ILL_MD, PtlMDBind(ni, null_start, &md));
    CHECK_RC(PTL_INV_EQ, PtlMDBind(ni, bad_eq, &md)); /* */
    CHECK_RC(PTL_SEGV, PtlMDBind(ni, d, NULL));
    OK(PtlMDBind(ni, d, &md));
    CHECK_RC(PTL_INV_MD, PtlMDUnlink(md ^ 0x10));
    ptl_md_t old;
    CHECK_RC(PTL_INV_MD, PtlMDUpdate(md ^ 0x10, &old, NULL, PTL_EQ_NONE));
    CHECK_RC(PTL_ILL_MD, PtlMDUpdate(md, &old, &bad_threshold, PTL_EQ_NONE));
    CHECK_RC(PTL_INV_EQ, PtlMDUpdate(md, &old, &d, eq ^ 0x10));
    OK(PtlMDUpdate(md, NULL, NULL, PTL_EQ_NONE));
    OK(PtlMDUpdate(md, &old, NULL, eq));
    CHECK(old.start == buf && old.length == sizeof buf && old.eventq == eq);

    /* A get to this process's portal 0: the entry's MD takes gets, so it is answered. Then a get to a
     * portal whose entry has no MD: dropped, never answered, so the local MD stays busy. */
    OK(PtlGet(md, self, 0, 0, 0, 0));
    int seen = 0; /* GET_START, GET_END, REPLY_START, REPLY_END: the two sides' events may interleave */
    for (int i = 0; i < 4; i++) {
        OK(PtlEQWait(eq, &ev));
        CHECK(ev.type == PTL_EVENT_GET_START || ev.type == PTL_EVENT_GET_END || ev.type == PTL_EVENT_REPLY_START
              || ev.type == PTL_EVENT_REPLY_END);
        seen |= 1 << ev.type;
    }
    CHECK_U64((1 << PTL_EVENT_GET_START) | (1 << PTL_EVENT_GET_END) | (1 << PTL_EVENT_REPLY_START)
              | (1 << PTL_EVENT_REPLY_END), seen);
    ptl_md_t newer = d;
    newer.threshold = 5;
    OK(PtlGet(md, self, 1, 0, 0, 0));
    ptltest_await_register(ni, PTL_SR_DROP_COUNT, 1);
    CHECK_RC(PTL_MD_INUSE, PtlMDUnlink(md));
    /* The get's events are gone: the queue is empty, so an update conditional on it happens... */
    OK(PtlMDUpdate(md, &old, &newer, eq));
    /* ...and one conditional on a queue with an event does not. */
    OK(PtlPut(md, PTL_NOACK_REQ, self, 0, 0, 0, 0, 0));
    ptltest_await_register(ni, PTL_SR_PUTS_RECEIVED, 1); /* its events are in the queue now */
    CHECK_RC(PTL_NOUPDATE, PtlMDUpdate(md, &old, &d, eq));
    CHECK_U64(4, old.threshold); /* the put took one of the 5; old_md is written on NOUPDATE too */

    /* PtlACEntry */
    CHECK_RC(PTL_INV_NI, PtlACEntry(bad_ni, 1, any, PTL_UID_ANY, PTL_PT_INDEX_ANY));
    CHECK_RC(PTL_AC_INV_INDEX, PtlACEntry(ni, limits.max_atable_index + 1, any, PTL_UID_ANY, 0));
    CHECK_RC(PTL_INV_PROC, PtlACEntry(ni, 1, bad_proc, PTL_UID_ANY, 0));
    CHECK_RC(PTL_PT_INV_INDEX, PtlACEntry(ni, 1, any, PTL_UID_ANY, limits.max_ptable_index + 1));

    /* PtlPut, PtlGet */
    ptl_process_id_t outside = {100000, 0};
    CHECK_RC(PTL_INV_MD, PtlPut(md ^ 0x10, PTL_ACK_REQ, self, 0, 0, 0, 0, 0));
    CHECK_RC(PTL_INV_PROC, PtlPut(md, PTL_ACK_REQ, outside, 0, 0, 0, 0, 0));
    CHECK_RC(PTL_INV_PROC, PtlPut(md, PTL_ACK_REQ, any, 0, 0, 0, 0, 0));
    CHECK_RC(PTL_FAIL, PtlPut(md, (ptl_ack_req_t) 3, self, 0, 0, 0, 0, 0));
    CHECK_RC(PTL_INV_MD, PtlGet(md ^ 0x10, self, 0, 0, 0, 0));
    CHECK_RC(PTL_INV_PROC, PtlGet(md, outside, 0, 0, 0, 0));

    /* An MD longer than the transport's largest message (udp: 2^40 bytes) is legal, but PtlPut and PtlGet
     * of it are PTL_INV_MD before anything is taken or logged: no event, and PtlMDUnlink finds nothing
     * pending. Only on udp: a transport without that limit (inmem, a job of one) would read the MD. */
    const char *transport = getenv("PORTALS_TRANSPORT");
    if (transport != NULL && strcmp(transport, "udp") == 0) {
        ptl_handle_eq_t huge_eq;
        ptl_handle_md_t huge_md;
        OK(PtlEQAlloc(ni, 4, &huge_eq));
        ptl_md_t too_long = {buf, 1ULL << 41, 1, 0, 0, NULL, huge_eq};
        OK(PtlMDBind(ni, too_long, &huge_md));
        CHECK_RC(PTL_INV_MD, PtlPut(huge_md, PTL_ACK_REQ, self, 0, 0, 0, 0, 0));
        CHECK_RC(PTL_INV_MD, PtlGet(huge_md, self, 0, 0, 0, 0));
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(huge_eq, &ev));
        OK(PtlMDUnlink(huge_md));
        OK(PtlEQFree(huge_eq));
        printf("return_codes: rank %d: an MD longer than one message is PTL_INV_MD\n", ptltest_rank);
    }

    /* Limits: an interface asked for at most 2 event queues gives PTL_NOSPACE for a third. */
    if (max_interfaces > 1) {
        ptl_ni_limits_t few = limits, got;
        few.max_event_queues = 2;
        ptl_handle_ni_t ni1;
        ptl_handle_eq_t q;
        OK(PtlNIInit(1, PTL_PID_ANY, &few, &got, &ni1));
        CHECK_U64(2, got.max_event_queues);
        OK(PtlEQAlloc(ni1, 4, &q));
        OK(PtlEQAlloc(ni1, 4, &q));
        CHECK_RC(PTL_NOSPACE, PtlEQAlloc(ni1, 4, &q));
        /* PtlNIFini: the interface and every handle of it die. */
        OK(PtlNIFini(ni1));
        CHECK_RC(PTL_INV_NI, PtlNIFini(ni1));
        CHECK_RC(PTL_INV_EQ, PtlEQGet(q, &ev));
    }

    PtlFini();
    CHECK_RC(PTL_NOINIT, PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &ni));
    CHECK_RC(PTL_NOINIT, PtlEQGet(eq, &ev));
    printf("return_codes: rank %d passed\n", ptltest_rank);
    return 0;
}
