/*
 * gmx_poll.c PROVIDER: the gmx_* calls the Java transport uses, between two ports of one process in fast mode
 * (no GMX_STRICT): sends and receive buffers with contexts, batched gmx_poll, gmx_wakeup of a poll blocked without
 * timeout, gmx_register keys with gmx_put/gmx_get on registered (not arena) memory, GMX_PEER_FAILED when a peer
 * stops answering keepalives, refusals reported as events, and the peer-table errors.
 */
#include <pthread.h>
#include <stdint.h>

#include "gmtest.h"

static struct gm_port *a, *b;

static struct gm_port *open_port(const char *provider, unsigned node, unsigned port, unsigned keepalive_ms) {
    struct gmx_port_options o = {.provider = provider, .node_id = node, .send_tokens = 16, .receive_tokens = 64,
                                 .ack_timeout_ms = 3000, .keepalive_ms = keepalive_ms};
    return open_port_with(port, &o);
}

static void introduce(struct gm_port *from, struct gm_port *to, unsigned node, unsigned port) {
    unsigned char name[64];
    size_t len = 1;
    CHECK(gmx_endpoint_name(to, name, &len) == GM_OUTPUT_BUFFER_TOO_SMALL && len > 1, "too small a name buffer");
    len = sizeof name;
    CHECK(gmx_endpoint_name(to, name, &len) == GM_SUCCESS, "endpoint name");
    CHECK(gmx_set_peer(from, node, port, name, len, NULL) == GM_SUCCESS, "set peer");
}

/* Polls both ports until want events of port `on` are collected into out (bounded). */
static int collect(struct gm_port *on, struct gmx_event *out, int want) {
    int got = 0;
    unsigned long long end = now_ms() + WAIT_MS;
    while (got < want && now_ms() < end) {
        struct gm_port *other = on == a ? b : a;
        struct gmx_event spare[8];
        CHECK(gmx_poll(other, spare, 0, 0) == 0, "poll of the other port with max 0");
        int n = gmx_poll(on, out + got, want - got, 1000000);
        CHECK(n >= 0, "gmx_poll");
        got += n;
    }
    return got;
}

static void test_send_receive(void) {
    char *bufs = gm_dma_malloc(b, 8 * 64), *msgs = gm_dma_malloc(a, 8 * 64);
    for (int i = 0; i < 8; i++) {
        gmx_provide_receive_buffer(b, bufs + 64 * i, 6, i % 2, 1000 + (uint64_t) i);
    }
    for (int i = 0; i < 8; i++) {
        snprintf(msgs + 64 * i, 64, "message %d", i);
        gmx_send(a, msgs + 64 * i, 6, 10, i % 2, 2, 3, 500 + (uint64_t) i);
    }
    struct gmx_event ev[16];
    int got = collect(b, ev, 8);
    CHECK(got == 8, "8 receives (got %d)", got);
    int low = 0, high = 0;
    for (int i = 0; i < 8; i++) {
        CHECK(ev[i].type == GMX_RECV && ev[i].status == GM_SUCCESS, "receive event %d: type %u", i, ev[i].type);
        CHECK(ev[i].sender_node == 1 && ev[i].sender_port == 2 && ev[i].size == 6 && ev[i].length == 10, "fields");
        int n = (int) (ev[i].context - 1000);
        CHECK(ev[i].buffer == (uint64_t) (uintptr_t) (bufs + 64 * n), "buffer matches its context");
        CHECK(ev[i].priority == (unsigned) (n % 2), "priority");
        int which = ev[i].priority ? high : low;
        CHECK(n == 2 * which + (int) ev[i].priority, "order per priority: %d", n);
        ev[i].priority ? high++ : low++;
        char expect[16];
        snprintf(expect, sizeof expect, "message %d", n);
        CHECK(memcmp((char *) (uintptr_t) ev[i].buffer, expect, 10) == 0, "content of %d", n);
    }
    got = collect(a, ev, 8);
    CHECK(got == 8, "8 send completions (got %d)", got);
    uint64_t seen = 0;
    for (int i = 0; i < 8; i++) {
        CHECK(ev[i].type == GMX_SENT && ev[i].status == GM_SUCCESS, "sent %d: %s", i, gm_strerror(ev[i].status));
        seen |= 1ull << (ev[i].context - 500);
    }
    CHECK(seen == 0xff, "each context once");
    /* refusals come back as events with the caller's context */
    static char not_dma[64];
    gmx_provide_receive_buffer(b, not_dma, 6, 0, 77);
    gmx_provide_receive_buffer(b, bufs, 40, 0, 78);
    got = collect(b, ev, 2);
    CHECK(got == 2 && ev[0].type == GMX_RECV && ev[0].context == 77 && ev[0].status == GM_MEMORY_FAULT,
          "non-DMA buffer refused (%s)", gm_strerror(ev[0].status));
    CHECK(ev[1].context == 78 && ev[1].status == GM_INVALID_PARAMETER, "size 40 refused");
    gmx_send(a, not_dma, 6, 10, 0, 2, 3, 79);
    got = collect(a, ev, 1);
    CHECK(got == 1 && ev[0].context == 79 && ev[0].status == GM_MEMORY_FAULT, "send from non-DMA memory");
    OK("gmx_send, gmx_provide_receive_buffer, batched gmx_poll");
}

static void *wake_later(void *arg) {
    (void) arg;
    struct timespec ts = {0, 50000000};
    nanosleep(&ts, NULL);
    gmx_wakeup(b);
    return NULL;
}

static void test_wakeup(void) {
    pthread_t t;
    CHECK(pthread_create(&t, NULL, wake_later, NULL) == 0, "thread");
    struct gmx_event ev[4];
    int n = gmx_poll(b, ev, 4, -1); /* no timeout: only the wake-up ends it */
    CHECK(n == 0, "woken with no event (%d)", n);
    pthread_join(t, NULL);
    gmx_wakeup(b);
    CHECK(gmx_poll(b, ev, 4, -1) == 0, "a wake-up before the poll ends the next poll too");
    CHECK(gmx_poll(b, ev, 4, 1000000) == 0, "timeout without events");
    OK("gmx_wakeup");
}

static void test_registered_rma(void) {
    enum { LEN = 1 << 20 };
    char *target = aligned_alloc(4096, LEN), *source = aligned_alloc(4096, LEN), *back = aligned_alloc(4096, LEN);
    CHECK(target && source && back, "memory");
    memset(target, 0, LEN);
    memset(back, 0, LEN);
    for (int i = 0; i < LEN; i++) {
        source[i] = (char) (i * 13 + 5);
    }
    uint64_t target_key = 0, source_key = 0, back_key = 0, twice = 0;
    CHECK(gmx_register(b, target, LEN, &target_key) == GM_SUCCESS, "register target");
    CHECK(gmx_register(b, target, LEN, &twice) == GM_SUCCESS && twice != target_key, "overlap: its own key");
    CHECK(gmx_register(a, source, LEN, &source_key) == GM_SUCCESS, "register source");
    CHECK(gmx_register(a, back, LEN, &back_key) == GM_SUCCESS, "register back");
    /* put 1 MiB at an offset into the middle of the target, then get it back */
    gmx_put(a, source, (uint64_t) (uintptr_t) target, target_key, LEN / 2, 0, 2, 3, 11);
    gmx_put(a, source + LEN / 2, (uint64_t) (uintptr_t) (target + LEN / 2), target_key, LEN / 2, 0, 2, 3, 12);
    struct gmx_event ev[4];
    CHECK(collect(a, ev, 2) == 2 && ev[0].status == GM_SUCCESS && ev[1].status == GM_SUCCESS, "puts: %s %s",
          gm_strerror(ev[0].status), gm_strerror(ev[1].status));
    CHECK(memcmp(target, source, LEN) == 0, "put data visible on completion (delivery complete)");
    gmx_get(a, (uint64_t) (uintptr_t) target, twice, back, LEN, 1, 2, 3, 13);
    CHECK(collect(a, ev, 1) == 1 && ev[0].context == 13 && ev[0].status == GM_SUCCESS, "get");
    CHECK(memcmp(back, source, LEN) == 0, "get data");
    CHECK(gm_deregister_memory(b, target, LEN) == GM_SUCCESS, "deregister one");
    CHECK(gm_deregister_memory(b, target, LEN) == GM_SUCCESS, "deregister the other");
    CHECK(gm_deregister_memory(b, target, LEN) == GM_INVALID_PARAMETER, "nothing left");
    CHECK(gm_deregister_memory(a, source, LEN) == GM_SUCCESS && gm_deregister_memory(a, back, LEN) == GM_SUCCESS,
          "deregister");
    free(target);
    free(source);
    free(back);
    OK("gmx_register keys with gmx_put and gmx_get");
}

static void test_peer_failed(const char *provider) {
    /* C talks to A, then stops polling: A's keepalives go unanswered and A reports it */
    struct gm_port *c = open_port(provider, 5, 6, 50);
    introduce(a, c, 5, 6);
    introduce(c, a, 1, 2);
    char *buf = gm_dma_malloc(a, 64), *msg = gm_dma_malloc(c, 64);
    gmx_provide_receive_buffer(a, buf, 5, 0, 1);
    gmx_send(c, msg, 5, 4, 0, 1, 2, 2);
    struct gmx_event ev[8];
    int got = 0;
    unsigned long long end = now_ms() + WAIT_MS;
    while (got == 0 && now_ms() < end) {
        CHECK(gmx_poll(c, ev, 8, 0) >= 0, "poll c");
        got = gmx_poll(a, ev, 1, 1000000);
    }
    CHECK(got == 1 && ev[0].type == GMX_RECV, "contact");
    int failed = 0;
    end = now_ms() + WAIT_MS;
    while (!failed && now_ms() < end) {
        int n = gmx_poll(a, ev, 8, 10000000);
        for (int i = 0; i < n; i++) {
            failed |= ev[i].type == GMX_PEER_FAILED && ev[i].sender_node == 5 && ev[i].sender_port == 6;
        }
    }
    CHECK(failed, "GMX_PEER_FAILED for the silent port");
    /* fast mode trusts a local completion only while the peer answers: this send fails at its deadline */
    char *out = gm_dma_malloc(a, 64);
    gmx_send(a, out, 5, 4, 0, 5, 6, 91);
    CHECK(collect(a, ev, 1) == 1 && ev[0].context == 91, "send to the silent port completes");
    CHECK(ev[0].status == GM_SEND_TARGET_NODE_UNREACHABLE, "send to the silent port: %s", gm_strerror(ev[0].status));
    gmx_drop_sends(a, 0, 5, 6, 92);
    CHECK(collect(a, ev, 1) == 1 && ev[0].context == 92 && ev[0].status == GM_SUCCESS, "drop");
    /* and a node nobody declared */
    gmx_send(a, out, 5, 4, 1, 9, 0, 93);
    CHECK(collect(a, ev, 1) == 1 && ev[0].context == 93 && ev[0].status == GM_SEND_TARGET_NODE_UNREACHABLE,
          "undeclared node in fast mode: %s", gm_strerror(ev[0].status));
    gmx_resume_sending(a, 1, 9, 0, 94);
    CHECK(collect(a, ev, 1) == 1 && ev[0].context == 94 && ev[0].status == GM_SUCCESS, "resume");
    gm_close(c);
    OK("GMX_PEER_FAILED; fast-mode sends to silent and undeclared peers fail");
}

int main(int argc, char **argv) {
    const char *provider = argc > 1 ? argv[1] : "tcp";
    test_start(provider);
    char why[128];
    CHECK(!gmx_provider_available("bogus", why, sizeof why) && strstr(why, "unknown provider") != NULL, "bogus");
    struct gm_port *none = NULL;
    struct gmx_port_options bad = {.provider = provider, .node_id = 0};
    CHECK(gmx_open(&none, 1, &bad) == GM_NODE_ID_NOT_YET_SET && strlen(gmx_last_error()) > 0, "node id 0");
    bad.node_id = 1;
    CHECK(gmx_open(&none, 8, &bad) == GM_INVALID_PORT_NUMBER, "port 8");
    a = open_port(provider, 1, 2, 0);
    b = open_port(provider, 2, 3, 0);
    introduce(a, b, 2, 3);
    introduce(b, a, 1, 2);
    CHECK(gmx_set_peer(a, 0, 1, "x", 1, NULL) == GM_INVALID_PARAMETER, "node 0 refused");
    test_send_receive();
    test_wakeup();
    test_registered_rma();
    test_peer_failed(provider);
    gm_close(b);
    gm_close(a);
    printf("all passed on %s\n", provider);
    return 0;
}
