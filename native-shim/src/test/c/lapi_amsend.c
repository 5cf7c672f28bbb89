/*
 * lapi_amsend: LAPI_Amsend from C as the man page describes it. Every task sends to the next (and once to
 * itself, L-079) messages below and above the eager/rendezvous threshold (Qenv PKT_PAYLOAD_SZ), and the two
 * sizes either side of it (L-059); the target's header handler reads its instructions from uhdr (offset,
 * mode, expected single-packet) and returns its region plus the offset it was told (L-029, L-030):
 *   mode 0  no completion handler                       (L-042)
 *   mode 1  a normal completion handler (completion thread, not the handler's; it sees all the data: L-036..38)
 *   mode 2  LAPI_SEND_REPLY: the completion handler runs inline on the handler's thread (L-043, L-044)
 *   mode 3  LAPI_LOCAL_STATE: it runs and tgt_cntr moves, but the origin's cmpl_cntr does not (L-045)
 *   mode 4  single packet, consumed from udata_one_pkt_ptr, NULL returned: nothing copied (L-033, L-034)
 * udata_one_pkt_ptr holds the data exactly for a single-packet message and is NULL otherwise (L-033). Counters:
 * org_cntr and cmpl_cntr once per message (L-047, L-049), one counter as both moves twice (L-055), NULL
 * counters are accepted (L-022), tgt_cntr (from LAPI_Address_init) once per message; Setcntr, Getcntr and
 * Waitcntr as their man pages say (L-081, L-083, L-084).
 */
#include "lapitest.h"

#define REGION (1 << 20)
#define MESSAGES 16
#define SENTINEL 0xEE

typedef struct {
    uint64_t seq, offset, mode, expect_one;
} order_t;

typedef struct {
    pthread_t header_thread, completion_thread;
    volatile int headers, completions, complete_data;
    uint64_t offset, length, mode;
} slot_t;

static unsigned char region[REGION];
static unsigned char consumed[8192];
static slot_t slots[MESSAGES];
static volatile int failures;
static volatile int sender; /* the task whose messages this task receives (for the data pattern) */

static unsigned char pattern(uint64_t seq, uint64_t i, int from) {
    return (unsigned char) (i * 13 + seq * 3 + (uint64_t) from);
}

static void note_failure(const char *what, uint64_t seq) {
    printf("handler check failed: %s (message %llu)\n", what, (unsigned long long) seq);
    __atomic_add_fetch(&failures, 1, __ATOMIC_RELEASE);
}

static void on_complete(lapi_handle_t *hndl, void *user_info) {
    (void) hndl;
    slot_t *s = user_info;
    s->completion_thread = pthread_self();
    int from = s->mode == 9 ? lapitest_task : sender;
    int whole = 1;
    for (uint64_t i = 0; i < s->length; i++) {
        if (region[s->offset + i] != pattern((uint64_t) (s - slots), i, from)) {
            whole = 0;
            break;
        }
    }
    s->complete_data = whole;
    __atomic_add_fetch(&s->completions, 1, __ATOMIC_RELEASE);
}

static void *on_header(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                       void **user_info) {
    (void) hndl;
    lapi_return_info_t *ri = (lapi_return_info_t *) msg_len;
    order_t o;
    if (*uhdr_len != sizeof o) {
        note_failure("uhdr_len", 0);
        return NULL;
    }
    memcpy(&o, uhdr, sizeof o);
    if (o.seq >= MESSAGES) {
        note_failure("seq", o.seq);
        return NULL;
    }
    slot_t *s = &slots[o.seq];
    s->header_thread = pthread_self();
    s->offset = o.offset;
    s->length = *msg_len;
    s->mode = o.mode;
    __atomic_add_fetch(&s->headers, 1, __ATOMIC_RELEASE);
    if (ri->msg_len != *msg_len || ri->ret_flags != LAPI_NORMAL) {
        note_failure("lapi_return_info_t", o.seq);
    }
    int from = o.mode == 9 ? lapitest_task : ri->src;
    if (o.mode != 9 && ri->src != sender) {
        note_failure("src", o.seq);
    }
    if ((ri->udata_one_pkt_ptr != NULL) != (o.expect_one != 0)) {
        note_failure("udata_one_pkt_ptr set iff single packet", o.seq);
    }
    if (ri->udata_one_pkt_ptr != NULL) {
        const unsigned char *d = ri->udata_one_pkt_ptr;
        for (ulong i = 0; i < *msg_len; i++) {
            if (d[i] != pattern(o.seq, i, from)) {
                note_failure("udata_one_pkt_ptr bytes", o.seq);
                break;
            }
        }
    }
    switch (o.mode) {
        case 1:
        case 9:
            *comp_h = on_complete;
            *user_info = s;
            break;
        case 2:
            *comp_h = on_complete;
            *user_info = s;
            ri->ret_flags = LAPI_SEND_REPLY;
            break;
        case 3:
            *comp_h = on_complete;
            *user_info = s;
            ri->ret_flags = LAPI_LOCAL_STATE;
            break;
        case 4:
            if (*msg_len <= sizeof consumed && ri->udata_one_pkt_ptr != NULL) {
                memcpy(consumed, ri->udata_one_pkt_ptr, *msg_len);
            }
            return NULL;
        default:
            break;
    }
    return region + o.offset;
}

typedef struct {
    uint64_t length, offset, mode, expect_one;
    int counters; /* 1: org and cmpl; 2: one counter as both; 0: none */
} plan_t;

static void check_delivered(int seq, const plan_t *p, int from) {
    slot_t *s = &slots[seq];
    CHECK_INT(1, s->headers);
    if (p->mode == 4) {
        for (uint64_t i = 0; i < p->length; i++) {
            CHECK(consumed[i] == pattern((uint64_t) seq, i, from));
            CHECK(region[p->offset + i] == SENTINEL);
        }
        return;
    }
    for (uint64_t i = 0; i < p->length; i++) {
        if (region[p->offset + i] != pattern((uint64_t) seq, i, from)) {
            FAIL_AT("message %d: byte %llu of %llu not delivered", seq, (unsigned long long) i,
                    (unsigned long long) p->length);
        }
    }
    CHECK(region[p->offset - 1] == SENTINEL);
    CHECK(region[p->offset + p->length] == SENTINEL);
    if (p->mode == 1 || p->mode == 2 || p->mode == 3 || p->mode == 9) {
        CHECK_INT(1, s->completions);
        CHECK_INT(1, s->complete_data);
        if (p->mode == 2) {
            CHECK(pthread_equal(s->header_thread, s->completion_thread));
        } else {
            CHECK(!pthread_equal(s->header_thread, s->completion_thread));
        }
    } else {
        CHECK_INT(0, s->completions);
    }
}

int main(void) {
    lapitest_t t;
    lapitest_init(&t);
    lapi_handle_t h = t.hndl;
    uint peer = (uint) ((t.task + 1) % t.tasks);
    sender = (t.task + t.tasks - 1) % t.tasks;
    memset(region, SENTINEL, sizeof region);
    int payload = 0;
    OK(LAPI_Qenv(h, PKT_PAYLOAD_SZ, &payload));
    CHECK(payload > 64 && payload * 4 < 65536);
    uint64_t one = (uint64_t) payload - sizeof(order_t); /* the largest single-packet udata_len */
    plan_t plans[MESSAGES] = {
        {100, 1000, 0, 1, 1},
        {(uint64_t) payload * 3 + 13, 5000, 0, 0, 1},
        {200, 100000, 1, 1, 1},
        {(uint64_t) payload * 2 + 7, 150000, 1, 0, 1},
        {300, 200000, 2, 1, 1},
        {(uint64_t) payload * 2 + 1, 250000, 2, 0, 1},
        {64, 300000, 3, 1, 1},
        {48, 310000, 4, 1, 1},
        {one, 320000, 0, 1, 1},
        {one + 1, 340000, 0, 0, 1},
        {16, 360000, 0, 1, 2},
        {24, 370000, 0, 1, 0},
        {(uint64_t) payload * 4, 400000, 0, 0, 0},
    };
    const int count = 13;
    const int self_seq = 13;
    const plan_t self_plan = {500, 600000, 9, 1, 1};

    lapi_cntr_t tgt_cntr, org[MESSAGES], cmpl[MESSAGES], both;
    OK(LAPI_Setcntr(h, &tgt_cntr, 0));
    OK(LAPI_Setcntr(h, &both, 0));
    for (int i = 0; i < MESSAGES; i++) {
        OK(LAPI_Setcntr(h, &org[i], 0));
        OK(LAPI_Setcntr(h, &cmpl[i], 0));
    }
    void *handlers[64], *counters[64];
    CHECK(t.tasks <= 64);
    OK(LAPI_Address_init(h, (void *) &on_header, handlers));
    OK(LAPI_Address_init(h, &tgt_cntr, counters));
    OK(LAPI_Gfence(h));

    static unsigned char out[MESSAGES][65536];
    for (int seq = 0; seq < count; seq++) {
        const plan_t *p = &plans[seq];
        for (uint64_t i = 0; i < p->length; i++) {
            out[seq][i] = pattern((uint64_t) seq, i, t.task);
        }
        order_t o = {(uint64_t) seq, p->offset, p->mode, p->expect_one};
        lapi_cntr_t *oc = p->counters == 1 ? &org[seq] : p->counters == 2 ? &both : NULL;
        lapi_cntr_t *cc = p->counters == 1 ? &cmpl[seq] : p->counters == 2 ? &both : NULL;
        OK(LAPI_Amsend(h, peer, handlers[peer], &o, sizeof o, out[seq], p->length, counters[peer], oc, cc));
        int left = -1;
        if (p->counters == 1) {
            WAITCNTR(h, &org[seq], 1, &left);
            CHECK_INT(0, left);
            if (p->mode != 3) {
                WAITCNTR(h, &cmpl[seq], 1, &left);
                CHECK_INT(0, left);
            }
        } else if (p->counters == 2) {
            WAITCNTR(h, &both, 2, &left);
            CHECK_INT(0, left);
        }
    }
    /* to itself (O-13): the handlers run here, all three counters move */
    {
        for (uint64_t i = 0; i < self_plan.length; i++) {
            out[self_seq][i] = pattern((uint64_t) self_seq, i, t.task);
        }
        order_t o = {(uint64_t) self_seq, self_plan.offset, self_plan.mode, self_plan.expect_one};
        OK(LAPI_Amsend(h, (uint) t.task, handlers[t.task], &o, sizeof o, out[self_seq], self_plan.length,
                       &tgt_cntr, &org[self_seq], &cmpl[self_seq]));
        WAITCNTR(h, &cmpl[self_seq], 1, NULL);
        WAITCNTR(h, &org[self_seq], 1, NULL);
    }

    /* as a target: every message from the previous task, and our own */
    int left = -1;
    WAITCNTR(h, &tgt_cntr, count + 1, &left);
    CHECK_INT(0, left);
    OK(LAPI_Gfence(h));
    CHECK_INT(0, failures);
    for (int seq = 0; seq < count; seq++) {
        check_delivered(seq, &plans[seq], sender);
    }
    check_delivered(self_seq, &self_plan, t.task);
    /* LAPI_LOCAL_STATE sent no reply: its cmpl_cntr never moved, though the target ran it (above) */
    OK(LAPI_Gfence(h));
    int v = -1;
    OK(LAPI_Getcntr(h, &cmpl[6], &v));
    CHECK_INT(0, v);
    OK(LAPI_Getcntr(h, &tgt_cntr, &v));
    CHECK_INT(0, v);

    /* Setcntr, Getcntr, Waitcntr (L-081, L-083) */
    OK(LAPI_Setcntr(h, &both, 7));
    OK(LAPI_Getcntr(h, &both, &v));
    CHECK_INT(7, v);
    OK(LAPI_Setcntr(h, &both, 5));
    WAITCNTR(h, &both, 3, &v);
    CHECK_INT(2, v);
    OK(LAPI_Getcntr(h, &both, &v));
    CHECK_INT(2, v);
    CHECK_INT(2, both.cntr);
    lapitest_passed(&t, "lapi_amsend");
    return 0;
}
