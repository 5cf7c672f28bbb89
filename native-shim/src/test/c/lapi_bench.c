/*
 * lapi_bench [ITERATIONS [BANDWIDTH_COUNT [WARMUP [SECONDS]]]]: LAPI_Amsend against PtlPut between rank 0 and
 * rank 1 of one job, in the same processes and run (the C figures of issue 20's performance targets):
 *   latency    a ping-pong of Amsends of 8 B and of 1 KiB user data (no uhdr; the header handler returns the
 *              buffer and sets no completion handler; each side waits on its tgt_cntr with LAPI_Waitcntr),
 *              against a ping-pong of PtlPuts of the same size (PtlEQWait for PUT_END, as bench_pingpong.c)
 *   bandwidth  BANDWIDTH_COUNT messages of 1 MiB one way (Amsend: rendezvous; Put: one MD), then one small
 *              answer; bytes over time at rank 0; the two kinds alternate in BW_ROUNDS rounds, medians printed
 *   upcall     rank 0 times LAPI_Probe, which in interrupt mode only finds the context: one C-to-Java crossing
 *              as every LAPI call pays it (an Amsend hop pays three: LAPI_Amsend, the waiter's LAPI_Waitcntr and
 *              the downcall to the target's header handler; a Put hop two, PtlPut and PtlEQWait)
 * Rank 0 prints a table, OSU-like (half round trips are medians of ITERATIONS; a ratio is Amsend's over Put's).
 * Before the first row, WARM_PASSES passes run WARMUP round trips of each kind over both sizes (as AmsendPingPong's
 * two passes), then WARMUP / 10 (at least BANDWIDTH_COUNT) unmeasured 1 MiB messages of each kind: each rank's JVM
 * counts only its own process's calls, and with one size's WARMUP of 5000 the JIT was still compiling the Amsend path
 * (Engine.send, Target.onAmsend, LapiUpcalls.waitcntr at tier 4) while the 8 B row was measured; with the rendezvous
 * path first run after the latency rows, its first message threw the compiled Amsend path away and the JIT compiled
 * it again during the measured 1 MiB rounds (warm() says why it took so long). For each size WARMUP round trips of
 * each kind come again, then the two kinds alternate in ROUNDS rounds, so that neither has the quieter minutes of a
 * loaded machine; before the bandwidth rounds, the WARMUP / 10 1 MiB messages of each kind come again.
 * After each warm-up (before a size's rows and before the 1 MiB rounds) each rank waits until its JVM's compiler
 * threads have used no CPU for 200 ms (jitquiet.h; at most 10 s), prints "# rank R: the JIT went quiet N ms after the
 * warm-up, before ..." (or "was still compiling"), and the ranks meet in a Gfence: a rank bound to one core shares it
 * with its own compiler threads, which still compiled during the measured 1 MiB rounds. The table:
 *   # Size  Put half-RTT (us)  Amsend half-RTT (us)  Amsend/Put
 *   # Size  Put (MiB/s)  Amsend (MiB/s)  Amsend/Put
 * and both end with "lapi_bench: rank R passed" after checking the last message's bytes. With no arguments it
 * is a quick correctness run (50 round trips, 4 MiB). SECONDS (default 100, as every LAPI test program) bounds
 * the whole run: past it the watchdog fails the run saying in which call it was. The Portals part uses portal
 * 40 (the LAPI layer's are below it) on the same Portals library and interface as LAPI.
 */
#include <portals3.h>
#include <portals3_rt.h>

#include "jitquiet.h"
#include "lapitest.h"

#define PORTAL 40
#define MIB (1 << 20)

#define PTL_OK_OR_FAIL(call)                                                          \
    do {                                                                              \
        lapitest_line = __LINE__;                                                     \
        int prc_ = (call);                                                            \
        if (prc_ != PTL_OK) {                                                         \
            FAIL_AT("%s returned %s", #call, PtlErrorStr((unsigned) prc_));           \
        }                                                                             \
    } while (0)

static unsigned char *landing;

static void *to_landing(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len, compl_hndlr_t **comp_h,
                        void **user_info) {
    (void) hndl, (void) uhdr, (void) uhdr_len, (void) msg_len, (void) comp_h, (void) user_info;
    return landing;
}

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
        PTL_OK_OR_FAIL(PtlEQWait(eq, &ev));
        if (ev.type == PTL_EVENT_PUT_END) {
            CHECK(ev.ni_fail_type == PTL_NI_OK);
            return;
        }
        CHECK(ev.type == PTL_EVENT_PUT_START);
    }
}

typedef struct {
    lapitest_t lapi;
    void *handler;         /* the peer's to_landing */
    lapi_cntr_t *peer_cntr; /* the peer's tgt_cntr */
    lapi_cntr_t tgt_cntr;
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_md_t send_md;
    ptl_handle_md_t small_md; /* out's first 8 bytes: the bandwidth round's answer (bound once) */
    ptl_process_id_t peer;
    unsigned char *out;
} bench_t;

static int64_t amsend_round(bench_t *b, int size) {
    lapi_handle_t h = b->lapi.hndl;
    uint peer = (uint) (1 - b->lapi.task);
    int64_t start = now_ns();
    if (b->lapi.task == 0) {
        OK(LAPI_Amsend(h, peer, b->handler, NULL, 0, b->out, (ulong) size, b->peer_cntr, NULL, NULL));
        OK(LAPI_Waitcntr(h, &b->tgt_cntr, 1, NULL));
    } else {
        OK(LAPI_Waitcntr(h, &b->tgt_cntr, 1, NULL));
        OK(LAPI_Amsend(h, peer, b->handler, NULL, 0, b->out, (ulong) size, b->peer_cntr, NULL, NULL));
    }
    return now_ns() - start;
}

static int64_t put_round(bench_t *b) {
    int64_t start = now_ns();
    if (b->lapi.task == 0) {
        PTL_OK_OR_FAIL(PtlPut(b->send_md, PTL_NOACK_REQ, b->peer, PORTAL, 0, 1, 0, 0));
        await_put(b->eq);
    } else {
        await_put(b->eq);
        PTL_OK_OR_FAIL(PtlPut(b->send_md, PTL_NOACK_REQ, b->peer, PORTAL, 0, 1, 0, 0));
    }
    return now_ns() - start;
}

/* Nanoseconds per LAPI_Probe, the emptiest LAPI call (in interrupt mode it finds the context and returns): the cost
 * of one C-to-Java upcall as the layer's calls pay it, median of ten runs of `calls` calls. */
static double probe_ns(lapi_handle_t h, int calls) {
    double per[10];
    for (int r = 0; r < 10; r++) {
        int64_t start = now_ns();
        for (int i = 0; i < calls; i++) {
            OK(LAPI_Probe(h));
        }
        per[r] = (double) (now_ns() - start) / calls;
    }
    for (int i = 1; i < 10; i++) { /* insertion sort of ten */
        for (int j = i; j > 0 && per[j - 1] > per[j]; j--) {
            double t = per[j];
            per[j] = per[j - 1];
            per[j - 1] = t;
        }
    }
    return per[5];
}

/* The send MD over the first `size` bytes of out (a Put sends its whole MD). */
static void bind_send(bench_t *b, int size) {
    ptl_md_t s = {b->out, (ptl_size_t) size, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
    PTL_OK_OR_FAIL(PtlMDBind(b->ni, s, &b->send_md));
}

#define ROUNDS 10
#define WARM_PASSES 2
#define BW_ROUNDS 6

/* Before a timed phase: this rank waits until its JVM's JIT has gone quiet (jitquiet.h), says after how long, and
 * meets the other rank in a Gfence, so that neither rank's compiler threads take its core while the phase runs. */
static void quiet(bench_t *b, const char *what) {
    long quiet_ms = jitquiet_await();
    jitquiet_report(b->lapi.task, quiet_ms, what);
    OK(LAPI_Gfence(b->lapi.hndl));
}

/* The medians of the half round trips of `size` bytes, Amsend's in *am_ns and Put's in *put_ns (rank 0's). */
static void latency(bench_t *b, int size, int iterations, int warmup, int64_t *a, int64_t *p, int64_t *am_ns,
                    int64_t *put_ns) {
    bind_send(b, size);
    OK(LAPI_Gfence(b->lapi.hndl));
    for (int i = 0; i < warmup; i++) {
        amsend_round(b, size);
    }
    OK(LAPI_Gfence(b->lapi.hndl));
    for (int i = 0; i < warmup; i++) {
        put_round(b);
    }
    char what[32];
    snprintf(what, sizeof what, "the %d B rows", size);
    quiet(b, what);
    for (int r = 0; r < ROUNDS; r++) {
        int from = (int) ((long) iterations * r / ROUNDS), to = (int) ((long) iterations * (r + 1) / ROUNDS);
        OK(LAPI_Gfence(b->lapi.hndl));
        for (int i = from; i < to; i++) {
            a[i] = amsend_round(b, size);
        }
        OK(LAPI_Gfence(b->lapi.hndl));
        for (int i = from; i < to; i++) {
            p[i] = put_round(b);
        }
    }
    OK(LAPI_Gfence(b->lapi.hndl));
    PTL_OK_OR_FAIL(PtlMDUnlink(b->send_md));
    qsort(a, (size_t) iterations, sizeof *a, compare);
    qsort(p, (size_t) iterations, sizeof *p, compare);
    *am_ns = a[iterations / 2] / 2;
    *put_ns = p[iterations / 2] / 2;
}

/* The rates of `count` MiB one way, Amsend's in *am and Put's in *pm (MiB/s, rank 0's). */
static void bandwidth_once(bench_t *b, int count, double *am, double *pm) {
    lapi_handle_t h = b->lapi.hndl;
    uint peer = (uint) (1 - b->lapi.task);
    bind_send(b, MIB);
    OK(LAPI_Gfence(h));
    int64_t start = now_ns();
    if (b->lapi.task == 0) {
        lapi_cntr_t sent;
        OK(LAPI_Setcntr(h, &sent, 0));
        for (int i = 0; i < count; i++) {
            OK(LAPI_Amsend(h, peer, b->handler, NULL, 0, b->out, MIB, b->peer_cntr, &sent, NULL));
        }
        OK(LAPI_Waitcntr(h, &b->tgt_cntr, 1, NULL)); /* the answer: all arrived */
        OK(LAPI_Waitcntr(h, &sent, count, NULL));
    } else {
        OK(LAPI_Waitcntr(h, &b->tgt_cntr, count, NULL));
        OK(LAPI_Amsend(h, peer, b->handler, NULL, 0, b->out, 8, b->peer_cntr, NULL, NULL));
    }
    int64_t amsend_ns = now_ns() - start;
    OK(LAPI_Gfence(h));
    start = now_ns();
    if (b->lapi.task == 0) {
        for (int i = 0; i < count; i++) {
            PTL_OK_OR_FAIL(PtlPut(b->send_md, PTL_NOACK_REQ, b->peer, PORTAL, 0, 1, 0, 0));
        }
        await_put(b->eq);
    } else {
        for (int i = 0; i < count; i++) {
            await_put(b->eq);
        }
        PTL_OK_OR_FAIL(PtlPut(b->small_md, PTL_NOACK_REQ, b->peer, PORTAL, 0, 1, 0, 0));
    }
    int64_t put_ns = now_ns() - start;
    OK(LAPI_Gfence(h)); /* every put of the round has arrived: its MD may go */
    PTL_OK_OR_FAIL(PtlMDUnlink(b->send_md));
    *am = (double) count / ((double) amsend_ns / 1e9);
    *pm = (double) count / ((double) put_ns / 1e9);
}

/* WARM_PASSES passes, each over `sizes` (`warmup` round trips of each kind per size) and then the 1 MiB path
 * (`bw_count` messages of each kind): every path a row measures runs, with the profile of all of them, before the
 * first row. A path first taken after its callers were compiled makes the JIT throw their code away (Engine.send
 * deoptimized when the first rendezvous Amsend came), and a method called once per MiB then needs thousands of MiB to
 * be compiled again: its callers ran profiled, and the JIT compiled during the measured rounds. */
static void warm(bench_t *b, const int *sizes, int n_sizes, int warmup, int bw_count) {
    for (int pass = 0; pass < WARM_PASSES; pass++) {
        for (int i = 0; i < n_sizes; i++) {
            bind_send(b, sizes[i]);
            OK(LAPI_Gfence(b->lapi.hndl));
            for (int k = 0; k < warmup; k++) {
                amsend_round(b, sizes[i]);
            }
            OK(LAPI_Gfence(b->lapi.hndl));
            for (int k = 0; k < warmup; k++) {
                put_round(b);
            }
            OK(LAPI_Gfence(b->lapi.hndl));
            PTL_OK_OR_FAIL(PtlMDUnlink(b->send_md));
        }
        double am_mib, put_mib;
        bandwidth_once(b, bw_count, &am_mib, &put_mib);
    }
    printf("# rank %d: warmed up: %d passes of %d round trips of each kind per size, then %d MiB of each kind\n",
           b->lapi.task, WARM_PASSES, warmup, bw_count);
}

static int by_value(const void *x, const void *y) {
    double a = *(const double *) x, b = *(const double *) y;
    return a < b ? -1 : a > b;
}

/* The medians over BW_ROUNDS rounds of `count` MiB each way (bandwidth_once): one round of 200 MiB lasts some 50 ms,
 * which one stall of a compiler thread or a preempted poller (tens of ms on a loaded core) halves. */
static void bandwidth(bench_t *b, int count, double *am, double *pm) {
    double ams[BW_ROUNDS], puts[BW_ROUNDS];
    for (int r = 0; r < BW_ROUNDS; r++) {
        bandwidth_once(b, count, &ams[r], &puts[r]);
    }
    qsort(ams, BW_ROUNDS, sizeof ams[0], by_value);
    qsort(puts, BW_ROUNDS, sizeof puts[0], by_value);
    *am = (ams[BW_ROUNDS / 2 - 1] + ams[BW_ROUNDS / 2]) / 2;
    *pm = (puts[BW_ROUNDS / 2 - 1] + puts[BW_ROUNDS / 2]) / 2;
}

int main(int argc, char **argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 50;
    int count = argc > 2 ? atoi(argv[2]) : 4;
    int warmup = argc > 3 ? atoi(argv[3]) : 10; /* a quick correctness run; measure with thousands */
    int seconds = argc > 4 ? atoi(argv[4]) : 100;
    if (iterations <= 0 || count <= 0 || warmup < 0 || seconds <= 0) {
        fprintf(stderr, "usage: lapi_bench [ITERATIONS [BANDWIDTH_COUNT [WARMUP [SECONDS]]]] (all positive;"
                        " WARMUP may be 0)\n");
        return 2;
    }
    bench_t b;
    memset(&b, 0, sizeof b);
    lapitest_init(&b.lapi);
    lapitest_limit(seconds); /* the watchdog's bound: the whole run, from here */
    CHECK(b.lapi.tasks == 2);
    lapi_handle_t h = b.lapi.hndl;
    landing = calloc(1, MIB);
    b.out = malloc(MIB);
    int64_t *a = calloc((size_t) iterations, sizeof *a), *p = calloc((size_t) iterations, sizeof *p);
    CHECK(landing != NULL && b.out != NULL && a != NULL && p != NULL);
    for (int i = 0; i < MIB; i++) {
        b.out[i] = (unsigned char) (i * 5 + b.lapi.task);
    }
    void *handlers[2], *counters[2];
    OK(LAPI_Setcntr(h, &b.tgt_cntr, 0));
    OK(LAPI_Address_init(h, (void *) &to_landing, handlers));
    OK(LAPI_Address_init(h, &b.tgt_cntr, counters));
    b.handler = handlers[1 - b.lapi.task];
    b.peer_cntr = counters[1 - b.lapi.task];

    /* Portals beside LAPI, on the same library */
    int max_interfaces = 0;
    PTL_OK_OR_FAIL(PtlInit(&max_interfaces));
    ptl_ni_limits_t actual;
    PTL_OK_OR_FAIL(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &actual, &b.ni));
    PTL_OK_OR_FAIL(PtlEQAlloc(b.ni, 1024, &b.eq));
    CHECK(ptl_rt_process_id(1 - b.lapi.task, &b.peer) == 0);
    ptl_handle_me_t me;
    PTL_OK_OR_FAIL(PtlMEAttach(b.ni, PORTAL, b.peer, 1, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
    ptl_md_t r = {landing, MIB, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE, NULL,
                  b.eq};
    PTL_OK_OR_FAIL(PtlMDAttach(me, r, PTL_RETAIN, PTL_RETAIN, NULL));

    ptl_md_t small = {b.out, 8, PTL_MD_THRESH_INF, 0, 0, NULL, PTL_EQ_NONE};
    PTL_OK_OR_FAIL(PtlMDBind(b.ni, small, &b.small_md));

    /* each row as soon as it is measured: a slow run shows how far it got */
    if (b.lapi.task == 0) {
        probe_ns(h, warmup > 0 ? warmup * 10 : 1); /* warm */
        printf("# one upcall: LAPI_Probe %.1f ns (median of 10 runs of %d calls)\n",
               probe_ns(h, iterations * 10), iterations * 10);
        printf("# lapi_bench: LAPI_Amsend against PtlPut, iterations=%d warmup=%d (medians)\n", iterations, warmup);
        printf("# %-9s %18s %21s %11s\n", "Size", "Put half-RTT (us)", "Amsend half-RTT (us)", "Amsend/Put");
    }
    static const int sizes[] = {8, 1024};
    int bw_warm = warmup / 10 > count ? warmup / 10 : count;
    if (warmup > 0) {
        warm(&b, sizes, 2, warmup, bw_warm);
    }
    for (int i = 0; i < 2; i++) {
        int64_t am_ns, put_ns;
        latency(&b, sizes[i], iterations, warmup, a, p, &am_ns, &put_ns);
        if (b.lapi.task == 0) {
            printf("%-11d %18.2f %21.2f %11.2f\n", sizes[i], (double) put_ns / 1e3, (double) am_ns / 1e3,
                   (double) am_ns / (double) put_ns);
        }
    }
    double am_mib, put_mib;
    if (warmup > 0) {
        /* the rendezvous path (header put, PtlGet, the Get's reply) again, after the latency rows */
        bandwidth_once(&b, bw_warm, &am_mib, &put_mib);
    }
    quiet(&b, "the 1 MiB rounds");
    long jit_ms = jitquiet_cpu_ms();
    bandwidth(&b, count, &am_mib, &put_mib);
    if (jit_ms >= 0) {
        printf("# rank %d: the JIT's compiler threads used %ld ms of CPU during the 1 MiB rounds\n", b.lapi.task,
               jitquiet_cpu_ms() - jit_ms);
    }
    if (b.lapi.task == 0) {
        printf("# bandwidth, count=%d per round, medians of %d rounds\n", count, BW_ROUNDS);
        printf("# %-9s %18s %21s %11s\n", "Size", "Put (MiB/s)", "Amsend (MiB/s)", "Amsend/Put");
        printf("%-11d %18.1f %21.1f %11.2f\n", MIB, put_mib, am_mib, am_mib / put_mib);
    }
    for (int i = 0; i < 1024; i++) {
        CHECK(landing[i] == (unsigned char) (i * 5 + 1 - b.lapi.task));
    }
    if (b.lapi.task == 1) {
        for (int i = 0; i < MIB; i += 4099) {
            CHECK(landing[i] == (unsigned char) (i * 5));
        }
    }
    PTL_OK_OR_FAIL(PtlMDUnlink(b.small_md));
    lapitest_passed(&b.lapi, "lapi_bench");
    PtlFini();
    free(landing);
    free(b.out);
    free(a);
    free(p);
    return 0;
}
