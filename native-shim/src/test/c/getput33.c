/*
 * getput33: PtlGetPut, the 3.3 reference implementation's atomic swap (compiled with -DPTL_DIALECT_33), on
 * two ranks: rank 1 is the target and also swaps into its own MD, rank 0 swaps from the other side. Checks:
 *  - the target's bytes at the matched offset come back to offset 0 of the get MD and the put MD's bytes take
 *    their place, with the same MD as get and put MD (as the reference implementation's tests use it) and
 *    with two MDs;
 *  - the initiator's events, in this order: SEND_START, SEND_END on the put MD, then REPLY_START, REPLY_END on
 *    the get MD; the target's GETPUT_START and GETPUT_END, with the initiator, hdr_data, offset and lengths;
 *    PtlEventKindStr names them;
 *  - an MD with PTL_MD_TRUNCATE swaps only what fits, and that much comes back;
 *  - PtlNIInit's limits say max_getput_md 64; a longer put MD is PTL_MD_ILLEGAL, a bad handle PTL_MD_INVALID;
 *  - atomicity: both ranks swap 32-byte tokens (four equal words) into one MD of rank 1 at the same time,
 *    each swapping back in what it got the time before: at the end the three tokens are still the three
 *    there were, none torn or doubled.
 */
#include "ptltest.h"

#define PORTAL 6
#define BITS_SWAP 0x5A5Aull
#define BITS_TOKEN 0x7070ull
#define ROUNDS 300

static unsigned char target_buf[32];
static unsigned char trunc_buf[16];
static uint64_t token_home[4];

static void check_event(const ptl_event_t *ev, ptl_event_kind_t kind, ptl_size_t mlength, const char *where) {
    if (ev->type != kind) {
        FAIL_AT("%s: %s, expected %s", where, PtlEventKindStr(ev->type), PtlEventKindStr(kind));
    }
    if (ev->ni_fail_type != PTL_NI_OK) {
        FAIL_AT("%s: %s with %s", where, PtlEventKindStr(kind), PtlNIFailStr(0, ev->ni_fail_type));
    }
    CHECK_U64(mlength, ev->mlength);
}

/* The next event on eq (at most 20 s), whatever it is. */
static void next_event(ptl_handle_eq_t eq, ptl_event_t *ev) {
    int which;
    int rc = PtlEQPoll(&eq, 1, 20000, ev, &which);
    if (rc != PTL_OK) {
        FAIL_AT("PtlEQPoll: %s", PtlErrorStr((unsigned int) rc));
    }
}

/* Swaps `mine` (n words, all equal) with the token MD of rank 1 until ROUNDS swaps are done. */
static void swap_tokens(const ptltest_t *t, uint64_t *mine, ptl_handle_eq_t eq) {
    ptl_md_t d = {mine, 4 * sizeof(uint64_t), PTL_MD_THRESH_INF, 0, PTL_MD_EVENT_START_DISABLE, NULL, eq};
    ptl_handle_md_t md;
    ptl_process_id_t home;
    CHECK(ptl_rt_process_id(1, &home) == 0);
    OK(PtlMDBind(t->ni, d, PTL_RETAIN, &md));
    ptl_event_t ev;
    for (int i = 0; i < ROUNDS; i++) {
        OK(PtlGetPut(md, md, home, PORTAL, 0, BITS_TOKEN, 0, (ptl_hdr_data_t) i));
        next_event(eq, &ev);
        check_event(&ev, PTL_EVENT_SEND_END, 32, "token swap");
        next_event(eq, &ev);
        check_event(&ev, PTL_EVENT_REPLY_END, 32, "token swap");
        for (int w = 1; w < 4; w++) {
            if (mine[w] != mine[0]) {
                FAIL_AT("swap %d gave a torn token: word %d is %" PRIu64 ", word 0 %" PRIu64, i, w, mine[w], mine[0]);
            }
        }
    }
    OK(PtlMDUnlink(md));
}

int main(void) {
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    ptl_ni_limits_t limits;
    OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &limits, &t.ni));
    CHECK_U64(64, limits.max_getput_md);
    ptl_event_t ev;

    /* rank 1's MDs: a swap area (remote offset), a small truncating one, and the token's home */
    ptl_handle_eq_t teq;
    OK(PtlEQAlloc(t.ni, 64, PTL_EQ_HANDLER_NONE, &teq));
    if (t.rank == 1) {
        for (int i = 0; i < 32; i++) {
            target_buf[i] = (unsigned char) (0xA0 + i);
        }
        memset(trunc_buf, 0x77, sizeof trunc_buf);
        for (int w = 0; w < 4; w++) {
            token_home[w] = 1000;
        }
        ptl_handle_me_t me;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, BITS_SWAP, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t swap = {target_buf, sizeof target_buf, PTL_MD_THRESH_INF, 0,
                         PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, NULL, teq};
        OK(PtlMDAttach(me, swap, PTL_RETAIN, NULL));
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, BITS_SWAP + 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t put_only = {trunc_buf, sizeof trunc_buf, PTL_MD_THRESH_INF, 0,
                             PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, NULL, teq};
        OK(PtlMDAttach(me, put_only, PTL_RETAIN, NULL)); /* passed over: a swap needs PUT and GET */
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, BITS_SWAP + 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t trunc = {trunc_buf, sizeof trunc_buf, PTL_MD_THRESH_INF, 0,
                          PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE, NULL, teq};
        OK(PtlMDAttach(me, trunc, PTL_RETAIN, NULL));
        OK(PtlMEAttach(t.ni, PORTAL, (ptl_process_id_t){PTL_NID_ANY, PTL_PID_ANY}, BITS_TOKEN, 0, PTL_RETAIN,
                       PTL_INS_AFTER, &me));
        ptl_md_t home = {token_home, sizeof token_home, PTL_MD_THRESH_INF, 0,
                         PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, NULL, PTL_EQ_NONE};
        OK(PtlMDAttach(me, home, PTL_RETAIN, NULL));
    }
    ptltest_barrier();

    if (t.rank == 0) {
        /* one MD as get and put MD: its 8 bytes go to offset 4 of rank 1's area, and come back replaced */
        unsigned char mine[8];
        memset(mine, 0x11, sizeof mine);
        ptl_handle_eq_t eq;
        OK(PtlEQAlloc(t.ni, 16, PTL_EQ_HANDLER_NONE, &eq));
        ptl_md_t d = {mine, sizeof mine, PTL_MD_THRESH_INF, 0, 0, &mine, eq};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, d, PTL_RETAIN, &md));
        OK(PtlGetPut(md, md, t.peer, PORTAL, 0, BITS_SWAP, 4, 0xC0FFEEull));
        ptltest_next(eq, PTL_EVENT_SEND_START, &ev, "same MD");
        CHECK_U64(8, ev.mlength);
        CHECK_U64(0xC0FFEEull, ev.hdr_data);
        ptltest_next(eq, PTL_EVENT_SEND_END, &ev, "same MD");
        ptltest_next(eq, PTL_EVENT_REPLY_START, &ev, "same MD");
        ptltest_next(eq, PTL_EVENT_REPLY_END, &ev, "same MD");
        check_event(&ev, PTL_EVENT_REPLY_END, 8, "same MD");
        CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
        CHECK_U64(0, ev.offset);
        CHECK(ev.md.user_ptr == &mine);
        for (int i = 0; i < 8; i++) {
            CHECK_U64(0xA0 + 4 + i, mine[i]);
        }
        /* The target's GETPUT_END comes once its transport reports the reply sent, which may be after this
         * process has the reply (gm: when this process's acknowledgement of it arrives): without this barrier the
         * next swap's GETPUT_START could be logged before it. Portals orders no events across operations. */
        ptltest_barrier();

        /* two MDs; the put MD's 8 bytes land at offset 12 of a 16-byte truncating MD: 4 are swapped */
        unsigned char out[8], in[16];
        memset(out, 0x22, sizeof out);
        memset(in, 0x99, sizeof in);
        ptl_md_t pd = {out, sizeof out, PTL_MD_THRESH_INF, 0, 0, NULL, eq};
        ptl_md_t gd = {in, sizeof in, PTL_MD_THRESH_INF, 0, 0, NULL, eq};
        ptl_handle_md_t put_md, get_md;
        OK(PtlMDBind(t.ni, pd, PTL_RETAIN, &put_md));
        OK(PtlMDBind(t.ni, gd, PTL_RETAIN, &get_md));
        OK(PtlGetPut(get_md, put_md, t.peer, PORTAL, 0, BITS_SWAP + 1, 12, 7));
        ptltest_next(eq, PTL_EVENT_SEND_START, &ev, "truncated");
        CHECK(ev.md_handle == put_md);
        ptltest_next(eq, PTL_EVENT_SEND_END, &ev, "truncated");
        ptltest_next(eq, PTL_EVENT_REPLY_START, &ev, "truncated");
        CHECK(ev.md_handle == get_md);
        ptltest_next(eq, PTL_EVENT_REPLY_END, &ev, "truncated");
        CHECK_U64(8, ev.rlength);
        CHECK_U64(4, ev.mlength);
        for (int i = 0; i < 16; i++) {
            CHECK_U64(i < 4 ? 0x77 : 0x99, in[i]);
        }

        /* misuse */
        unsigned char big[65];
        ptl_md_t bd = {big, sizeof big, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
        ptl_handle_md_t big_md;
        OK(PtlMDBind(t.ni, bd, PTL_RETAIN, &big_md));
        CHECK_RC(PTL_MD_ILLEGAL, PtlGetPut(md, big_md, t.peer, PORTAL, 0, BITS_SWAP, 0, 0));
        CHECK_RC(PTL_MD_INVALID, PtlGetPut(md ^ 0x40, md, t.peer, PORTAL, 0, BITS_SWAP, 0, 0));
        CHECK_RC(PTL_MD_INVALID, PtlGetPut(md, md ^ 0x40, t.peer, PORTAL, 0, BITS_SWAP, 0, 0));
        CHECK_RC(PTL_PROCESS_INVALID,
                 PtlGetPut(md, md, (ptl_process_id_t){PTL_NID_ANY, PTL_PID_ANY}, PORTAL, 0, BITS_SWAP, 0, 0));
        CHECK_RC(PTL_EQ_EMPTY, PtlEQGet(eq, &ev)); /* nothing was sent */
        OK(PtlMDUnlink(md));
        OK(PtlMDUnlink(put_md));
        OK(PtlMDUnlink(get_md));
        OK(PtlMDUnlink(big_md));
    } else {
        /* the target's side of the two swaps */
        next_event(teq, &ev);
        check_event(&ev, PTL_EVENT_GETPUT_START, 8, "target, same MD");
        CHECK(ev.initiator.nid == t.peer.nid && ev.initiator.pid == t.peer.pid);
        CHECK_U64(8, ev.rlength);
        CHECK_U64(4, ev.offset);
        CHECK_U64(0xC0FFEEull, ev.hdr_data);
        CHECK(ev.jid == t.jid);
        next_event(teq, &ev);
        check_event(&ev, PTL_EVENT_GETPUT_END, 8, "target, same MD");
        CHECK(strcmp(PtlEventKindStr(ev.type), "PTL_EVENT_GETPUT_END") == 0);
        for (int i = 0; i < 32; i++) {
            CHECK_U64(i >= 4 && i < 12 ? 0x11 : 0xA0 + i, target_buf[i]);
        }
        ptltest_barrier(); /* the initiator's next swap comes after this GETPUT_END (see rank 0's side) */
        next_event(teq, &ev);
        check_event(&ev, PTL_EVENT_GETPUT_START, 4, "target, truncated");
        CHECK_U64(12, ev.offset);
        CHECK_U64(7, ev.hdr_data);
        next_event(teq, &ev);
        check_event(&ev, PTL_EVENT_GETPUT_END, 4, "target, truncated");
        for (int i = 0; i < 16; i++) {
            CHECK_U64(i >= 12 ? 0x22 : 0x77, trunc_buf[i]);
        }
    }
    ptltest_barrier();

    /* atomicity: both ranks swap tokens into rank 1's home at once */
    uint64_t token[4];
    for (int w = 0; w < 4; w++) {
        token[w] = 2000 + (uint64_t) t.rank;
    }
    ptl_handle_eq_t eq;
    OK(PtlEQAlloc(t.ni, 16, PTL_EQ_HANDLER_NONE, &eq));
    swap_tokens(&t, token, eq);
    /* rank 0 tells rank 1 its token; rank 1 sees the three tokens, each once, none torn */
    uint64_t told = 0;
    if (t.rank == 1) {
        ptl_handle_me_t me;
        OK(PtlMEAttach(t.ni, PORTAL, t.peer, BITS_TOKEN + 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
        ptl_md_t d = {&told, sizeof told, 1, 0, PTL_MD_OP_PUT, NULL, eq};
        OK(PtlMDAttach(me, d, PTL_RETAIN, NULL));
    }
    ptltest_barrier();
    if (t.rank == 0) {
        ptl_md_t d = {token, sizeof token[0], 1, 0, 0, NULL, PTL_EQ_NONE};
        ptl_handle_md_t md;
        OK(PtlMDBind(t.ni, d, PTL_UNLINK, &md));
        OK(PtlPut(md, PTL_NO_ACK_REQ, t.peer, PORTAL, 0, BITS_TOKEN + 1, 0, 0));
    } else {
        ptltest_next(eq, PTL_EVENT_PUT_START, &ev, "token of rank 0");
        ptltest_next(eq, PTL_EVENT_PUT_END, &ev, "token of rank 0");
        CHECK(token_home[1] == token_home[0] && token_home[2] == token_home[0] && token_home[3] == token_home[0]);
        uint64_t seen[3] = {token_home[0], token[0], told};
        printf("getput33: after %d swaps each, rank 0 holds %" PRIu64 ", rank 1 %" PRIu64 ", the home %" PRIu64 "\n",
               ROUNDS, told, token[0], token_home[0]);
        for (uint64_t expected = 1000; expected <= 2001; expected += expected == 1000 ? 1000 : 1) {
            int count = 0;
            for (int i = 0; i < 3; i++) {
                count += seen[i] == expected;
            }
            if (count != 1) {
                FAIL_AT("token %" PRIu64 " is held %d times (not atomic)", expected, count);
            }
        }
    }
    ptltest_passed(&t, "getput33");
    return 0;
}
