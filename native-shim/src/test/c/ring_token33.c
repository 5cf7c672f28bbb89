/*
 * ring_token33: a token goes round a ring of all the ranks TRIPS times, as programs written for the
 * Portals 3.3 reference implementation pass one (compiled with -DPTL_DIALECT_33). Each rank puts the
 * token to its right neighbour without an ack and waits on its one event queue for the put's SEND_END
 * before it waits for the token's PUT_END from its left neighbour. Checks:
 *  - SEND_END is the next event after a put, also when the token comes round again quickly: it is logged
 *    once the buffer may be reused (Portals 3.2 sections 3.9.1 and 3.11.1), not when the peer has the data;
 *  - after SEND_END the sender overwrites its send buffer: what the neighbour receives is still the value
 *    it sent (P-170), every time;
 *  - a queue of only 2 events never overflows: one SEND_END and one PUT_END are all it ever holds;
 *  - START events are disabled on both MDs (PTL_MD_EVENT_START_DISABLE): none is logged.
 * Argument: the number of trips (default 200).
 */
#include "ptltest.h"

#define PORTAL 4
#define POISON 0x7EADBEEF

static int32_t inbox;  /* the token as it arrives */
static int32_t outbox; /* the token as it leaves; overwritten once its SEND_END is in */
static int recv_tag, send_tag;

static void next_event(ptl_handle_eq_t eq, ptl_event_kind_t kind, ptl_event_t *ev, const char *where, int trip) {
    int rc = PtlEQWait(eq, ev);
    if (rc != PTL_OK) {
        FAIL_AT("trip %d, %s: PtlEQWait returned %s", trip, where, ptl_rc_name(rc));
    }
    if (ev->type != kind) {
        FAIL_AT("trip %d, %s: expected %s, got %s", trip, where, ptl_event_name(kind), ptl_event_name(ev->type));
    }
    if (ev->ni_fail_type != PTL_NI_OK) {
        FAIL_AT("trip %d, %s: %s with ni_fail_type %u", trip, where, ptl_event_name(kind), ev->ni_fail_type);
    }
}

int main(int argc, char **argv) {
    int trips = argc > 1 ? atoi(argv[1]) : 200;
    ptltest_t t;
    ptltest_init(&t, 2);
    CHECK(trips > 0);
    CHECK(t.size >= 2);
    int next = (t.rank + 1) % t.size, prev = (t.rank + t.size - 1) % t.size;
    ptl_process_id_t next_id, prev_id;
    CHECK(ptl_rt_process_id(next, &next_id) == 0);
    CHECK(ptl_rt_process_id(prev, &prev_id) == 0);

    /* The token from the left neighbour, matched by its rank in the match bits. */
    ptl_handle_me_t me;
    ptl_handle_md_t recv_md, send_md;
    OK(PtlMEAttach(t.ni, PORTAL, prev_id, (ptl_match_bits_t) prev, 0, PTL_UNLINK, PTL_INS_AFTER, &me));
    ptl_md_t r = {&inbox, sizeof inbox, PTL_MD_THRESH_INF, 0,
                  PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE | PTL_MD_EVENT_START_DISABLE, &recv_tag,
                  t.eq};
    OK(PtlMDAttach(me, r, PTL_UNLINK, &recv_md));
    ptl_md_t s = {&outbox, sizeof outbox, PTL_MD_THRESH_INF, 0, PTL_MD_EVENT_START_DISABLE, &send_tag, t.eq};
    OK(PtlMDBind(t.ni, s, PTL_RETAIN, &send_md));
    ptltest_barrier();

    /* Rank 0 starts with token 0; rank r receives size * trip + r - 1 and sends one more. */
    int32_t token = 0;
    ptl_event_t ev;
    for (int trip = 0; trip < trips; trip++) {
        if (t.rank != 0 || trip > 0) {
            next_event(t.eq, PTL_EVENT_PUT_END, &ev, "the token's arrival", trip);
            CHECK_U64(sizeof inbox, ev.mlength);
            CHECK_U64(prev_id.nid, ev.initiator.nid);
            int32_t expected = t.size * trip + t.rank - 1; /* rank 0: size * (trip - 1) + size - 1 */
            if (inbox != expected) {
                FAIL_AT("trip %d: the token is %d (0x%x), expected %d: the sender's buffer was changed after its"
                        " SEND_END and that change arrived", trip, inbox, (unsigned) inbox, expected);
            }
            token = inbox + 1;
        }
        outbox = token;
        OK(PtlPut(send_md, PTL_NO_ACK_REQ, next_id, PORTAL, 0, (ptl_match_bits_t) t.rank, 0, 0));
        next_event(t.eq, PTL_EVENT_SEND_END, &ev, "the put's SEND_END", trip);
        CHECK_U64(send_md, ev.md_handle);
        outbox = POISON; /* the buffer is the application's again (Portals 3.2 section 3.9.1) */
    }
    if (t.rank == 0) {
        next_event(t.eq, PTL_EVENT_PUT_END, &ev, "the token's last arrival", trips);
        CHECK_U64((uint64_t) t.size * trips - 1, (uint64_t) inbox);
    }
    ptl_sr_value_t drops;
    OK(PtlNIStatus(t.ni, PTL_SR_DROP_COUNT, &drops));
    CHECK_U64(0, drops);
    OK(PtlMDUnlink(send_md));
    ptltest_passed(&t, "ring_token33");
    return 0;
}
