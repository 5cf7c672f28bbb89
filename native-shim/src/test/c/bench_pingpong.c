/*
 * bench_pingpong [ITERATIONS [SIZE [WARMUP]]]: a Put ping-pong between rank 0 and rank 1, the C twin of
 * bench's PutPingPongRank (same portals, options and events). Each side puts SIZE bytes (no ack, a send
 * MD without event queue) and waits with PtlEQWait for the PUT_END of the other's put. Rank 0 prints
 *   pingpong size=SIZE iterations=N half_rtt_p50_ns=... half_rtt_p99_ns=...
 *   upcall getuid_ns=...   (PtlGetUid in a loop: the cost of one call into the engine)
 * and every rank ends with "bench_pingpong: rank R passed" after checking the last message's bytes.
 * With no arguments it is a quick correctness run (100 round trips of 64 bytes).
 */
#include <time.h>

#include "ptltest.h"

#define PORTAL 14

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

static void await_put(ptl_handle_eq_t eq) {
    ptl_event_t ev;
    for (;;) {
        int rc = PtlEQWait(eq, &ev);
        if (rc != PTL_OK) {
            FAIL_AT("PtlEQWait returned %s", ptl_rc_name(rc));
        }
        if (ev.type == PTL_EVENT_PUT_END) {
            return;
        }
        CHECK(ev.type == PTL_EVENT_PUT_START);
    }
}

int main(int argc, char **argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 100;
    int size = argc > 2 ? atoi(argv[2]) : 64;
    int warmup = argc > 3 ? atoi(argv[3]) : 10;
    CHECK(iterations > 0 && size > 0 && warmup >= 0);
    ptltest_t t;
    ptltest_init(&t, 64);
    CHECK(t.size == 2);
    char *in = calloc(1, (size_t) size), *out = calloc(1, (size_t) size);
    int64_t *rtt = calloc((size_t) iterations, sizeof *rtt);
    CHECK(in != NULL && out != NULL && rtt != NULL);
    ptl_handle_me_t me;
    OK(PtlMEAttach(t.ni, PORTAL, t.peer, 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
    ptl_md_t r = {in, (ptl_size_t) size, PTL_MD_THRESH_INF, (unsigned) size, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE,
                  NULL, t.eq};
    OK(PtlMDAttach(me, r, PTL_RETAIN, PTL_RETAIN, NULL));
    ptl_md_t s = {out, (ptl_size_t) size, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
    ptl_handle_md_t md;
    OK(PtlMDBind(t.ni, s, &md));
    ptltest_barrier();
    /* A side writes its send buffer only once its previous put has surely been taken: rank 0 after the answer to
     * it, rank 1 after the next put from rank 0 (which rank 0 sends after its own put completed). A transport may
     * read the payload from this buffer after PtlPut returns (gm reads puts above its eager threshold by RMA), and
     * the send MD has no event queue that would say when it may be written again. */
    for (int i = -warmup; i < iterations; i++) {
        if (t.rank == 0) {
            out[0] = (char) i;
            out[size - 1] = (char) (i + 1);
            int64_t start = now_ns();
            OK(PtlPut(md, PTL_NOACK_REQ, t.peer, PORTAL, 0, 1, 0, 0));
            await_put(t.eq);
            if (i >= 0) {
                rtt[i] = now_ns() - start;
            }
            CHECK(in[0] == (char) i && in[size - 1] == (char) (i + 1));
        } else {
            await_put(t.eq);
            CHECK(in[0] == (char) i && in[size - 1] == (char) (i + 1)); /* before answering: then rank 0 writes again */
            out[0] = (char) i;
            out[size - 1] = (char) (i + 1);
            OK(PtlPut(md, PTL_NOACK_REQ, t.peer, PORTAL, 0, 1, 0, 0));
        }
    }
    if (t.rank == 0) {
        qsort(rtt, (size_t) iterations, sizeof *rtt, compare);
        printf("pingpong size=%d iterations=%d half_rtt_p50_ns=%lld half_rtt_p99_ns=%lld\n", size, iterations,
               (long long) rtt[iterations / 2] / 2, (long long) rtt[(int) (iterations * 0.99)] / 2);
        ptl_uid_t uid;
        const int calls = 200000;
        for (int i = 0; i < calls; i++) {
            OK(PtlGetUid(t.ni, &uid)); /* warm-up */
        }
        int64_t start = now_ns();
        for (int i = 0; i < calls; i++) {
            PtlGetUid(t.ni, &uid);
        }
        printf("upcall getuid_ns=%.1f\n", (double) (now_ns() - start) / calls);
    }
    ptltest_passed(&t, "bench_pingpong");
    free(in);
    free(out);
    free(rtt);
    return 0;
}
