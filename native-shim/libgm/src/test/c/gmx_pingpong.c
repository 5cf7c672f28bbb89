/*
 * gmx_pingpong.c PROVIDER [SIZE [ITERATIONS]]: libgm's own ping-pong, the floor of the Java gm transport. Two
 * threads of one process, each with its own port (fast mode, as the transport opens them), exchange a SIZE-byte
 * message ITERATIONS times with gmx_send and gmx_poll without waiting, in a loop, as the transport's polling ranks
 * do, and the first prints the median half round trip: "p50_half_round_trip_us X". The benchmark GmPingPong sets
 * it beside the transport and fi_pingpong; the test suite runs it briefly to check that it works.
 */
#include <pthread.h>
#include <stdint.h>

#include "gmtest.h"

#define PORT_A 2
#define PORT_B 3

static const char *provider;
static unsigned size_class;
static gm_size_t length;
static int iterations;
static struct gm_port *ports[2];
static double *round_trips_us;

static struct gm_port *open_port(unsigned node, unsigned port) {
    struct gmx_port_options o = {.provider = provider, .node_id = node, .send_tokens = 16, .receive_tokens = 16,
                                 .ack_timeout_ms = 10000, .keepalive_ms = 1000};
    return open_port_with(port, &o);
}

static inline uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Polls without waiting until a message lands (SENT events only return send tokens); gives its buffer back. */
static void await_message(struct gm_port *p, void *buffer) {
    struct gmx_event ev[8];
    unsigned long long end = now_ms() + WAIT_MS;
    for (;;) {
        int n = gmx_poll(p, ev, 8, 0);
        CHECK(n >= 0, "gmx_poll");
        for (int i = 0; i < n; i++) {
            CHECK(ev[i].type != GMX_PEER_FAILED, "the peer failed");
            CHECK(ev[i].type != GMX_SENT || ev[i].status == GM_SUCCESS, "a send completed with %u", ev[i].status);
            if (ev[i].type == GMX_RECV) {
                CHECK(ev[i].status == GM_SUCCESS && ev[i].length == length, "a receive of %llu bytes, status %u",
                      (unsigned long long) ev[i].length, ev[i].status);
                gmx_provide_receive_buffer(p, buffer, size_class, GM_LOW_PRIORITY, 1);
                return;
            }
        }
        CHECK(n > 0 || now_ms() < end, "no message within %d ms", WAIT_MS);
    }
}

static void *side(void *arg) {
    int me = (int) (intptr_t) arg;
    struct gm_port *p = ports[me];
    char *in = gm_dma_malloc(p, gm_max_length_for_size(size_class));
    char *out = gm_dma_malloc(p, gm_max_length_for_size(size_class));
    CHECK(in != NULL && out != NULL, "gm_dma_malloc");
    memset(out, me, length);
    gmx_provide_receive_buffer(p, in, size_class, GM_LOW_PRIORITY, 1);
    unsigned peer_node = me == 0 ? 2 : 1;
    unsigned peer_port = me == 0 ? PORT_B : PORT_A;
    for (int i = 0; i < iterations; i++) {
        if (me == 0) {
            uint64_t start = now_ns();
            gmx_send(p, out, size_class, length, GM_LOW_PRIORITY, peer_node, peer_port, 2);
            await_message(p, in);
            round_trips_us[i] = (double) (now_ns() - start) / 1000.0;
        } else {
            await_message(p, in);
            gmx_send(p, out, size_class, length, GM_LOW_PRIORITY, peer_node, peer_port, 2);
        }
    }
    return NULL;
}

static int by_value(const void *x, const void *y) {
    double a = *(const double *) x, b = *(const double *) y;
    return a < b ? -1 : a > b;
}

int main(int argc, char **argv) {
    provider = argc > 1 ? argv[1] : "tcp";
    length = argc > 2 ? (gm_size_t) strtoull(argv[2], NULL, 10) : 8;
    iterations = argc > 3 ? atoi(argv[3]) : 10000;
    CHECK(iterations > 0 && length > 0 && length <= 1 << 20, "SIZE in 1..1048576, ITERATIONS > 0");
    test_start(provider); /* exits 77 when the provider cannot open an endpoint here; at most 120 s */
    size_class = gm_min_size_for_length(length);
    round_trips_us = calloc((size_t) iterations, sizeof *round_trips_us);
    CHECK(round_trips_us != NULL, "calloc");
    CHECK(gm_init() == GM_SUCCESS, "gm_init");
    ports[0] = open_port(1, PORT_A);
    ports[1] = open_port(2, PORT_B);
    introduce_as(ports[0], ports[1], 2, PORT_B, NULL);
    introduce_as(ports[1], ports[0], 1, PORT_A, NULL);
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) {
        CHECK(pthread_create(&threads[i], NULL, side, (void *) (intptr_t) i) == 0, "pthread_create");
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
    }
    qsort(round_trips_us, (size_t) iterations, sizeof *round_trips_us, by_value);
    double p50 = round_trips_us[iterations / 2] / 2.0;
    CHECK(p50 > 0, "a positive median");
    printf("p50_half_round_trip_us %.3f\n", p50);
    gm_close(ports[1]);
    gm_close(ports[0]);
    gm_finalize();
    return 0;
}
