/*
 * put_pingpong33: put_pingpong as a Portals 3.3 program (compiled with -DPTL_DIALECT_33). Rank 0 and rank 1
 * put a message back and forth ROUNDS times with acknowledgements, then FILL more without. Checks what 3.3
 * changed:
 *  - PtlMDBind(ni, md, PTL_UNLINK, &h): the send MD's threshold counts the acks too (2 units per acked put)
 *    and the MD unlinks itself when it runs out, with an UNLINK event linked to the last SEND_END;
 *  - PtlMDAttach(me, md, PTL_UNLINK, &h) with PTL_MD_MAX_SIZE: the receive MD becomes inactive once less
 *    than max_size is left after its local offset, and is unlinked (its threshold is infinite);
 *  - PtlEQAlloc(ni, count, PTL_EQ_HANDLER_NONE, &eq); every queue numbers its own events 1, 2, 3, ...;
 *    link: START is its own sequence, END the START's, UNLINK the causing END's;
 *  - the 3.3 ptl_event_t: jid (the initiator's PtlGetJid), pt_index, md with max_size and eq_handle;
 *  - PtlHandleIsEqual on the handles of live and unlinked objects.
 */
#include "ptltest.h"

#define ROUNDS 10
#define FILL (ROUNDS / 2)
#define LEN 64
#define PORTAL 1
#define MATCH 0x10u
/* each rank sends ROUNDS/2 acked puts (put + ack: 2 units each) and FILL unacknowledged ones */
#define SEND_UNITS (ROUNDS / 2 * 2 + FILL)

static char inbox[ROUNDS * LEN];
static char outbox[LEN];
static int recv_tag, send_tag;

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_handle_eq_t send_eq;
    OK(PtlEQAlloc(t.ni, 16, PTL_EQ_HANDLER_NONE, &send_eq));
    uint64_t send_logged = 0, recv_logged = 0;

    /* Receive side: room for ROUNDS puts of LEN; max_size LEN makes it inactive once they have landed. */
    ptl_handle_me_t me;
    ptl_handle_md_t recv_md;
    OK(PtlMEAttach(t.ni, PORTAL, t.peer, MATCH, 0, PTL_UNLINK, PTL_INS_AFTER, &me));
    ptl_md_t r = {inbox, sizeof inbox, PTL_MD_THRESH_INF, LEN, PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, &recv_tag, t.eq};
    OK(PtlMDAttach(me, r, PTL_UNLINK, &recv_md));

    ptl_md_t s = {outbox, sizeof outbox, SEND_UNITS, 0, 0, &send_tag, send_eq};
    ptl_handle_md_t send_md;
    OK(PtlMDBind(t.ni, s, PTL_UNLINK, &send_md));
    CHECK(PtlHandleIsEqual(send_md, send_md));
    CHECK(!PtlHandleIsEqual(send_md, recv_md));
    CHECK(!PtlHandleIsEqual(send_md, PTL_INVALID_HANDLE));
    ptltest_barrier();

    ptl_event_t ev, start;
    int acked = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int sender = round % 2 == 0 ? 0 : 1;
        if (t.rank == sender) {
            memset(outbox, 0, sizeof outbox);
            snprintf(outbox, sizeof outbox, "round %d from rank %d", round, t.rank);
            OK(PtlPut(send_md, PTL_ACK_REQ, t.peer, PORTAL, 0, MATCH, 0, 0xC0FFEE00u + (unsigned) round));
            acked++;
            ptltest_next33(send_eq, PTL_EVENT_SEND_START, &start, &send_logged, "send start");
            CHECK(PtlHandleIsEqual(send_md, start.md_handle));
            CHECK(start.md.user_ptr == &send_tag);
            CHECK(start.md.start == outbox);
            CHECK_U64(send_eq, start.md.eq_handle);
            CHECK_U64(LEN, start.rlength);
            CHECK_U64(start.sequence, start.link);
            CHECK_U64(t.jid, start.jid);
            CHECK_U64(SEND_UNITS - 2 * acked + 1, start.md.threshold); /* the put took its unit when issued */
            ptltest_next33(send_eq, PTL_EVENT_SEND_END, &ev, &send_logged, "send end");
            CHECK_U64(start.sequence, ev.link);
            CHECK(ev.md.user_ptr == &send_tag);
            ptltest_next33(send_eq, PTL_EVENT_ACK, &ev, &send_logged, "ack");
            CHECK_U64(LEN, ev.mlength);
            CHECK_U64(MATCH, ev.match_bits);
            CHECK_U64(PORTAL, ev.pt_index);
            CHECK_U64(send_md, ev.md_handle);
            CHECK(ev.md.user_ptr == &send_tag);
            CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
            CHECK_U64(t.jid, ev.jid); /* the ack's initiator is the target, of the same job */
            CHECK_U64(ev.sequence, ev.link);
            CHECK_U64(SEND_UNITS - 2 * acked, ev.md.threshold); /* 3.3: the ack took a unit too */
        } else {
            int landed = round / 2; /* this rank's receive MD has taken `landed` puts before this one */
            ptltest_next33(t.eq, PTL_EVENT_PUT_START, &start, &recv_logged, "put start");
            CHECK_U64(start.sequence, start.link);
            ptltest_next33(t.eq, PTL_EVENT_PUT_END, &ev, &recv_logged, "put end");
            CHECK_U64(start.sequence, ev.link);
            CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
            CHECK_U64(t.uid, ev.uid);
            CHECK_U64(t.jid, ev.jid); /* every process of the job has the same job id */
            CHECK_U64(PORTAL, ev.pt_index);
            CHECK_U64(MATCH, ev.match_bits);
            CHECK_U64(LEN, ev.rlength);
            CHECK_U64(LEN, ev.mlength);
            CHECK_U64((uint64_t) landed * LEN, ev.offset);
            CHECK_U64(recv_md, ev.md_handle);
            CHECK(ev.md.start == inbox);
            CHECK_U64(sizeof inbox, ev.md.length);
            CHECK(ev.md.user_ptr == &recv_tag);
            CHECK(ev.md.threshold == PTL_MD_THRESH_INF);
            CHECK_U64(LEN, ev.md.max_size);
            CHECK_U64(PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, ev.md.options);
            CHECK_U64(t.eq, ev.md.eq_handle);
            CHECK_U64(0xC0FFEE00u + (unsigned) round, ev.hdr_data);
            char expected[LEN] = {0};
            snprintf(expected, sizeof expected, "round %d from rank %d", round, t.peer.nid == 0 ? 0 : 1);
            CHECK(memcmp(inbox + landed * LEN, expected, LEN) == 0);
        }
    }
    /* Each rank's receive MD took ROUNDS/2 puts: FILL more fill it up. The last one uses up the send MD. */
    ptl_event_t send_end;
    for (int i = ROUNDS / 2; i < ROUNDS; i++) {
        OK(PtlPut(send_md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, MATCH, 0, 0));
        ptltest_next33(send_eq, PTL_EVENT_SEND_START, &ev, &send_logged, "send start (fill)");
        ptltest_next33(send_eq, PTL_EVENT_SEND_END, &send_end, &send_logged, "send end (fill)");
        ptltest_next33(t.eq, PTL_EVENT_PUT_START, &ev, &recv_logged, "put start (fill)");
        ptltest_next33(t.eq, PTL_EVENT_PUT_END, &ev, &recv_logged, "put end (fill)");
        CHECK_U64((uint64_t) i * LEN, ev.offset);
    }
    ptl_event_t put_end = ev;
    /* The send MD's threshold ran out with the last put: PTL_UNLINK unlinked it, after its SEND_END. */
    ptltest_next33(send_eq, PTL_EVENT_UNLINK, &ev, &send_logged, "send md unlink");
    CHECK_U64(send_md, ev.md_handle);
    CHECK_U64(send_end.sequence, ev.link);
    CHECK_U64(0, ev.md.threshold);
    CHECK_RC(PTL_MD_INVALID, PtlMDUnlink(send_md));
    CHECK_RC(PTL_MD_INVALID, PtlPut(send_md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, MATCH, 0, 0));
    CHECK(PtlHandleIsEqual(send_md, ev.md_handle)); /* a handle is its value, alive or not */

    /* The last PUT_END left 0 < max_size bytes after the local offset: the MD was unlinked, and its ME. */
    ptltest_next33(t.eq, PTL_EVENT_UNLINK, &ev, &recv_logged, "receive md unlink");
    CHECK_U64(put_end.sequence, ev.link);
    CHECK_U64(recv_md, ev.md_handle);
    CHECK(ev.md.user_ptr == &recv_tag);
    CHECK_U64(sizeof inbox, put_end.offset + put_end.mlength); /* nothing left: 0 < max_size */
    CHECK_RC(PTL_MD_INVALID, PtlMDUnlink(recv_md));
    CHECK_RC(PTL_ME_INVALID, PtlMEUnlink(me)); /* the ME was PTL_UNLINK: it went with its MD */
    CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(send_eq, &ev)); /* no ACK was asked for the fill puts */
    ptl_sr_value_t drops;
    OK(PtlNIStatus(t.ni, PTL_SR_DROP_COUNT, &drops));
    CHECK_U64(0, drops);
    ptltest_passed(&t, "put_pingpong33");
    return 0;
}
