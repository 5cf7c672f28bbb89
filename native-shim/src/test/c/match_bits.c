/*
 * match_bits: an entry matches when ((incoming ^ match_bits) & ~ignore_bits) == 0 (Portals 3.2 spec §3.7.1.2, A-22), on
 * all 64 bits: bit 63 (the MPI protocol bit) is an ordinary bit. The requester must also match the entry's
 * matchid, where PTL_NID_ANY / PTL_PID_ANY are wildcards (Portals 3.2 spec §3.7.1.2). Requests that no entry takes are
 * dropped.
 */
#include "ptltest.h"

#define PORTAL 11
#define BIT63 0x8000000000000000ull

static char box[8][16], word[8];

struct entry {
    int label;
    ptl_match_bits_t match, ignore;
    int other_pid; /* matchid {NID_ANY, 77}: never the requester */
};

static const struct entry entries[] = {
    {1, 0, ~0ull, 1},                               /* matches every bit pattern, but not rank 0 */
    {2, BIT63, 0, 0},                               /* exactly bit 63 */
    {3, 0, 0x00000000FFFFFFFFull, 0},               /* upper 32 bits zero, lower ones anything */
    {4, BIT63 | 0x5, 0x00000000000000F0ull, 0},     /* bit 63 and 0x5, bits 4..7 ignored */
};

struct request {
    ptl_match_bits_t bits;
    int label; /* the entry that takes it; 0: none (dropped) */
};

static const struct request requests[] = {
    {BIT63, 2},
    {0x00000000DEADBEEFull, 3},
    {BIT63 | 0xF5, 4},
    {BIT63 | 0x1, 0},        /* bit 63 with bit 0: no entry */
    {0x0000000100000000ull, 0},
    {BIT63 | 0x105, 0},      /* bit 8 is not ignored */
};

#define REQUESTS (int) (sizeof requests / sizeof requests[0])
#define ENTRIES (int) (sizeof entries / sizeof entries[0])

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_event_t ev;
    if (t.rank == 1) {
        for (int i = 0; i < ENTRIES; i++) {
            ptl_process_id_t who = entries[i].other_pid ? (ptl_process_id_t){PTL_NID_ANY, 77}
                                                        : (ptl_process_id_t){PTL_NID_ANY, PTL_PID_ANY};
            ptl_handle_me_t me;
            OK(PtlMEAttach(t.ni, PORTAL, who, entries[i].match, entries[i].ignore, PTL_RETAIN, PTL_INS_AFTER, &me));
            ptl_md_t d = {box[i], 16, PTL_MD_THRESH_INF, 16, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE,
                          (void *) (intptr_t) entries[i].label, t.eq};
            OK(PtlMDAttach(me, d, PTL_RETAIN, PTL_RETAIN, NULL));
        }
        ptltest_barrier();
        int dropped = 0;
        for (int r = 0; r < REQUESTS; r++) {
            if (requests[r].label == 0) {
                dropped++;
                continue;
            }
            ptltest_next(t.eq, PTL_EVENT_PUT_START, &ev, "put start");
            ptltest_next(t.eq, PTL_EVENT_PUT_END, &ev, "put end");
            if ((intptr_t) ev.mem_desc.user_ptr != requests[r].label) {
                FAIL_AT("request %d (bits 0x%" PRIx64 ") went to entry %d, expected %d", r, requests[r].bits,
                        (int) (intptr_t) ev.mem_desc.user_ptr, requests[r].label);
            }
            CHECK_U64(requests[r].bits, ev.match_bits);
            CHECK_U64(r, ev.hdr_data);
        }
        ptltest_await_register(t.ni, PTL_SR_DROP_COUNT, dropped);
        ptltest_await_register(t.ni, PTL_SR_DROP_NO_MATCH, dropped);
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(t.eq, &ev));
        ptltest_barrier();
    } else {
        ptl_md_t s = {word, sizeof word, PTL_MD_THRESH_INF, 0, 0, NULL, t.eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, s, &md));
        ptltest_barrier();
        for (int r = 0; r < REQUESTS; r++) {
            OK(PtlPut(md, PTL_ACK_REQ, t.peer, PORTAL, 0, requests[r].bits, 0, (ptl_hdr_data_t) r));
            ptltest_next(t.eq, PTL_EVENT_SEND_START, &ev, "send start");
            CHECK_U64(requests[r].bits, ev.match_bits);
            ptltest_next(t.eq, PTL_EVENT_SEND_END, &ev, "send end");
            if (requests[r].label != 0) {
                ptltest_next(t.eq, PTL_EVENT_ACK, &ev, "ack");
                CHECK_U64(requests[r].bits, ev.match_bits);
            }
        }
        ptltest_barrier();
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(t.eq, &ev)); /* no ACK for the dropped ones */
    }
    ptltest_passed(&t, "match_bits");
    return 0;
}
