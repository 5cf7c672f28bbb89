/*
 * eq_handler33: PtlEQAlloc with a C event handler (Portals 3.3 §3.11.6, compiled with -DPTL_DIALECT_33).
 * Rank 0 puts to rank 1, whose queues have a handler that counts and records what it is given. Checks:
 *  - the handler runs once for every event, before the event can be taken, with the event's fields (the
 *    ptl_event_t it gets is the 3.3 one: type, sequence, link, hdr_data, jid, md.user_ptr), and the event is
 *    queued as well;
 *  - it sees every event even when a full queue loses it (the queue then answers PTL_EQ_DROPPED);
 *  - a Portals function called from a handler returns PTL_FAIL (it runs inside another operation), PtlInit
 *    too, and PtlFini does nothing there: the library is still initialised afterwards;
 *  - PTL_EQ_HANDLER_NONE (rank 0's queue) is a queue without a handler.
 */
#include <stdatomic.h>

#include "ptltest.h"

#define PORTAL 9
#define BITS 0x3300u
#define PUTS 3
#define MAX_SEEN 16

/* What the handler saw: written on whatever thread deposits the event, read by the main thread. */
static atomic_int seen;
static atomic_int from_handler_rc = -1;
static atomic_int init_in_handler_rc = -1;
static ptl_event_kind_t seen_type[MAX_SEEN];
static ptl_seq_t seen_sequence[MAX_SEEN];
static ptl_seq_t seen_link[MAX_SEEN];
static ptl_hdr_data_t seen_hdr[MAX_SEEN];
static ptl_jid_t seen_jid[MAX_SEEN];
static void *seen_user_ptr[MAX_SEEN];
static ptl_handle_ni_t handler_ni;

static void record(ptl_event_t *event) {
    int i = atomic_load(&seen);
    if (i < MAX_SEEN) {
        seen_type[i] = event->type;
        seen_sequence[i] = event->sequence;
        seen_link[i] = event->link;
        seen_hdr[i] = event->hdr_data;
        seen_jid[i] = event->jid;
        seen_user_ptr[i] = event->md.user_ptr;
    }
    if (i == 0) {
        ptl_jid_t jid;
        atomic_store(&from_handler_rc, PtlGetJid(handler_ni, &jid)); /* must not run inside a handler */
        int interfaces;
        atomic_store(&init_in_handler_rc, PtlInit(&interfaces));
        PtlFini(); /* does nothing inside a handler */
    }
    atomic_store(&seen, i + 1); /* one depositing thread at a time: the engine holds its lock */
}

/* Waits (at most 20 s) until the handler has seen n events. */
static void await_seen(int n) {
    for (int i = 0; i < 20000 && atomic_load(&seen) < n; i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    CHECK(atomic_load(&seen) == n);
}

static char landing[64], small_landing[64], word[8];
static int tag;

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 16);
    CHECK(t.size == 2);
    ptl_event_t ev;
    if (t.rank == 1) {
        handler_ni = t.ni;
        ptl_handle_eq_t eq, small;
        OK(PtlEQAlloc(t.ni, 16, record, &eq));
        OK(PtlEQAlloc(t.ni, 2, record, &small));
        ptl_handle_me_t me;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, BITS, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t d = {landing, sizeof landing, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, &tag, eq};
        OK(PtlMDAttach(me, d, PTL_RETAIN, NULL));
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, BITS + 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t sd = {small_landing, sizeof small_landing, PTL_MD_THRESH_INF, 0,
                       PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, &tag, small};
        OK(PtlMDAttach(me, sd, PTL_RETAIN, NULL));
        ptltest_barrier();

        /* PUTS puts: 2 * PUTS events, each seen by the handler before it could be taken */
        uint64_t logged = 0;
        for (int i = 0; i < 2 * PUTS; i++) {
            ptltest_next33(eq, i % 2 == 0 ? PTL_EVENT_PUT_START : PTL_EVENT_PUT_END, &ev, &logged, "event");
            CHECK(atomic_load(&seen) >= i + 1);
            CHECK(seen_type[i] == ev.type);
            CHECK_U64(ev.sequence, seen_sequence[i]);
            CHECK_U64(ev.link, seen_link[i]);
            CHECK_U64(i / 2, seen_hdr[i]);
            CHECK_U64(t.jid, seen_jid[i]);
            CHECK(seen_user_ptr[i] == &tag);
        }
        CHECK_U64(2 * PUTS, atomic_load(&seen));
        CHECK_RC(PTL_FAIL, atomic_load(&from_handler_rc));
        CHECK_RC(PTL_FAIL, atomic_load(&init_in_handler_rc));
        ptl_jid_t jid;
        OK(PtlGetJid(t.ni, &jid)); /* the handler's PtlFini finalised nothing */
        ptltest_barrier();

        /* PUTS more into the 2-slot queue: the handler sees all 2 * PUTS events, the queue keeps 2 */
        await_seen(4 * PUTS);
        for (int i = 2 * PUTS; i < 4 * PUTS; i++) {
            CHECK_U64(i - 2 * PUTS + 1, seen_sequence[i]); /* the small queue numbers its own events */
            CHECK(seen_type[i] == (i % 2 == 0 ? PTL_EVENT_PUT_START : PTL_EVENT_PUT_END));
        }
        CHECK_RC(PTL_EQ_DROPPED, PtlEQGet(small, &ev));
        CHECK_U64(1, ev.sequence);
        CHECK_RC(PTL_OK, PtlEQGet(small, &ev));
        CHECK_U64(2, ev.sequence);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(small, &ev));
        ptl_sr_value_t lost;
        OK(PtlNIStatus(t.ni, PTL_SR_EVENTS_DROPPED, &lost));
        CHECK_U64(2 * PUTS - 2, lost);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(eq, &ev));
        OK(PtlEQFree(small));
        OK(PtlEQFree(eq));
    } else {
        ptl_md_t s = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq}; /* t.eq: PTL_EQ_HANDLER_NONE */
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, PTL_RETAIN, &md));
        ptltest_barrier();
        uint64_t logged = 0;
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < PUTS; i++) {
                OK(PtlPut(md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, BITS + (unsigned) round, 8u * (unsigned) i,
                          (ptl_hdr_data_t) i));
                ptltest_next33(t.eq, PTL_EVENT_SEND_START, &ev, &logged, "send start");
                ptltest_next33(t.eq, PTL_EVENT_SEND_END, &ev, &logged, "send end");
            }
            if (round == 0) {
                ptltest_barrier();
            }
        }
        CHECK_U64(0, atomic_load(&seen)); /* no handler on this rank's queue */
    }
    ptltest_passed(&t, "eq_handler33");
    return 0;
}
