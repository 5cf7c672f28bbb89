/*
 * put_pingpong: rank 0 and rank 1 put a message back and forth ROUNDS times, with acknowledgements.
 * Checks the initiator's SEND_START, SEND_END and ACK, the target's PUT_START and PUT_END (every field,
 * the data in place in the program's own buffer, the local offset advancing by mlength), and the
 * UNLINK event when the receive MD's threshold runs out.
 */
#include "ptltest.h"

#define ROUNDS 10
#define LEN 64
#define PORTAL 1
#define MATCH 0x10u

static char inbox[ROUNDS * LEN];
static char outbox[LEN];
static int recv_tag, send_tag;

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_handle_eq_t send_eq;
    OK(PtlEQAlloc(t.ni, 16, &send_eq));

    /* Receive side: one MD for all the rounds (threshold ROUNDS, unlinked when it runs out). */
    ptl_handle_me_t me;
    ptl_handle_md_t recv_md;
    OK(PtlMEAttach(t.ni, PORTAL, t.peer, MATCH, 0, PTL_UNLINK, PTL_INS_AFTER, &me));
    ptl_md_t r = {inbox, sizeof inbox, ROUNDS, sizeof inbox, PTL_MD_OP_PUT, &recv_tag, t.eq};
    OK(PtlMDAttach(me, r, PTL_UNLINK, PTL_RETAIN, &recv_md));

    ptl_md_t s = {outbox, sizeof outbox, PTL_MD_THRESH_INF, 0, 0, &send_tag, send_eq};
    ptl_handle_md_t send_md;
    OK(PtlMDBind(t.ni, s, &send_md));
    ptltest_barrier();

    ptl_event_t ev, start;
    for (int round = 0; round < ROUNDS; round++) {
        int sender = round % 2 == 0 ? 0 : 1;
        if (t.rank == sender) {
            memset(outbox, 0, sizeof outbox);
            snprintf(outbox, sizeof outbox, "round %d from rank %d", round, t.rank);
            OK(PtlPut(send_md, PTL_ACK_REQ, t.peer, PORTAL, 0, MATCH, 0, 0xC0FFEE00u + (unsigned) round));
            ptltest_next(send_eq, PTL_EVENT_SEND_START, &start, "send start");
            CHECK_U64(send_md, start.md_handle);
            CHECK(start.mem_desc.user_ptr == &send_tag);
            CHECK(start.mem_desc.start == outbox);
            CHECK_U64(LEN, start.rlength);
            CHECK_U64(start.sequence, start.link);
            ptltest_next(send_eq, PTL_EVENT_SEND_END, &ev, "send end");
            CHECK_U64(start.link, ev.link);
            CHECK(ev.mem_desc.user_ptr == &send_tag);
            ptltest_next(send_eq, PTL_EVENT_ACK, &ev, "ack");
            CHECK_U64(LEN, ev.mlength);
            CHECK_U64(MATCH, ev.match_bits);
            CHECK_U64(send_md, ev.md_handle);
            CHECK(ev.mem_desc.user_ptr == &send_tag);
            CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
        } else {
            int landed = round / 2; /* this rank's receive MD has taken `landed` puts before this one */
            ptltest_next(t.eq, PTL_EVENT_PUT_START, &start, "put start");
            CHECK_U64(start.sequence, start.link);
            ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end");
            CHECK_U64(start.sequence, ev.link);
            CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
            CHECK_U64(t.uid, ev.uid);
            CHECK_U64(PORTAL, ev.portal);
            CHECK_U64(MATCH, ev.match_bits);
            CHECK_U64(LEN, ev.rlength);
            CHECK_U64(LEN, ev.mlength);
            CHECK_U64((uint64_t) landed * LEN, ev.offset);
            CHECK_U64(recv_md, ev.md_handle);
            CHECK(ev.mem_desc.start == inbox);
            CHECK_U64(sizeof inbox, ev.mem_desc.length);
            CHECK(ev.mem_desc.user_ptr == &recv_tag);
            CHECK_U64(ROUNDS - landed - 1, ev.mem_desc.threshold);
            CHECK_U64(PTL_MD_OP_PUT, ev.mem_desc.options);
            CHECK_U64(t.eq, ev.mem_desc.eventq);
            CHECK_U64(0xC0FFEE00u + (unsigned) round, ev.hdr_data);
            char expected[LEN] = {0};
            snprintf(expected, sizeof expected, "round %d from rank %d", round, t.peer.nid == 0 ? 0 : 1);
            CHECK(memcmp(inbox + landed * LEN, expected, LEN) == 0);
        }
    }
    /* Rank 0 took ROUNDS/2 puts, so has threshold left; rank 1 too: put the rest to use them up. */
    for (int i = ROUNDS / 2; i < ROUNDS; i++) {
        OK(PtlPut(send_md, PTL_NOACK_REQ, t.peer, PORTAL, 0, MATCH, 0, 0));
        ptltest_next(send_eq, PTL_EVENT_SEND_START, &ev, "send start (fill)");
        ptltest_next(send_eq, PTL_EVENT_SEND_END, &ev, "send end (fill)");
        ptltest_next(t.eq, PTL_EVENT_PUT_START, &ev, "put start (fill)");
        ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end (fill)");
        CHECK_U64((uint64_t) i * LEN, ev.offset);
    }
    /* The threshold reached 0 with the last PUT_END: the MD was unlinked automatically, with an event. */
    ptl_event_t end = ev;
    ptltest_next(t.eq, PTL_EVENT_UNLINK, &ev, "unlink");
    CHECK_U64(recv_md, ev.md_handle);
    CHECK_U64(end.sequence, ev.link);
    CHECK(ev.mem_desc.user_ptr == &recv_tag);
    CHECK_RC(PTL_INV_MD, PtlMDUnlink(recv_md));
    CHECK_RC(PTL_INV_ME, PtlMEUnlink(me)); /* the ME was PTL_UNLINK: it went with its MD */
    CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(send_eq, &ev)); /* no ACK was asked for the fill puts */
    OK(PtlMDUnlink(send_md));
    ptltest_passed(&t, "put_pingpong");
    return 0;
}
