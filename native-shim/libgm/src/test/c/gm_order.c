/*
 * gm_order.c PROVIDER: GM's order per (sender port, receiver port, priority) (GM rule R6) over every path a
 * message takes in the provider, on ports in fast mode (no acks, so small sends may be injected): 300 sends whose
 * sizes cycle through tiny, small, eager, segmented and rendezvous lengths, a directed send before every fifth, at
 * most 8 in flight. Each must land as the next in send order, and each put before it must be visible when it does.
 * Then, on ports with no timer for a minute (keep-alives off): a send held behind a put goes once the put completes,
 * though nothing else happens on the port (the peer sweep runs while requests wait, not only when a timer is due).
 */
#include <stdbool.h>

#include "gmtest.h"

static struct gm_port *a, *b;
static const unsigned A_NODE = 1, A_PORT = 2, B_NODE = 2, B_PORT = 3;

enum { N = 300, WINDOW = 8, CYCLE = 8, PUT_BYTES = 4096, PUT_SLOTS = 16 };
/* 24 B, 248 B (inject sizes), 8 KiB (eager), 128 KiB (above tcp;ofi_rxm's 16 KiB eager buffers), 512 KiB (above
 * its 128 KiB segmentation limit: rendezvous) */
static const unsigned SIZES[CYCLE] = {5, 8, 13, 5, 17, 8, 19, 5};

static int completions;
static int failures;

static void on_sent(struct gm_port *port, void *context, gm_status_t status) {
    (void) port;
    (void) context;
    completions++;
    if (status != GM_SUCCESS) {
        failures++;
    }
}

struct landed {
    char *buffer;
    unsigned size, length;
};
static struct landed landed[WINDOW * 4];
static int landed_count;

/* One round on port: hands completions to gm_unknown, records receives (at most the window's). */
static void pump_port(struct gm_port *port) {
    gm_recv_event_t *e = gm_receive(port);
    switch (GM_RECV_EVENT_TYPE(e)) {
    case GM_NO_RECV_EVENT:
        return;
    case GM_RECV_EVENT:
    case GM_PEER_RECV_EVENT:
        CHECK(landed_count < WINDOW * 4, "more receives than sends in flight");
        landed[landed_count++] = (struct landed) {.buffer = gm_ntohp(e->recv.buffer),
                                                  .size = gm_ntohc(e->recv.size),
                                                  .length = gm_ntohl(e->recv.length)};
        return;
    default:
        gm_unknown(port, e);
    }
}

static bool is_put_before(int i) {
    return i % 5 == 0;
}

static gm_size_t length_of(int i) {
    return gm_max_length_for_size(SIZES[i % CYCLE]) - (gm_size_t) (i % 3);
}

/* A send held behind a put (libgm orders sends after RMA itself) on ports whose only timers are a minute away. */
static void held_send_goes_without_a_timer(const char *provider) {
    struct gmx_port_options o = {.provider = provider, .send_tokens = 4, .receive_tokens = 4,
                                 .ack_timeout_ms = 60000, .keepalive_ms = GMX_KEEPALIVE_OFF};
    o.node_id = 3;
    struct gm_port *c = open_port_with(4, &o);
    o.node_id = 4;
    struct gm_port *d = open_port_with(5, &o);
    introduce_as(c, d, 4, 5, "hostd");
    introduce_as(d, c, 3, 4, "hostc");
    CHECK(gm_allow_remote_memory_access(d) == GM_SUCCESS, "allow remote access");
    char *target = gm_dma_calloc(d, 1, PUT_BYTES);
    char *buffer = gm_dma_malloc(d, 64);
    char *source = gm_dma_malloc(c, PUT_BYTES);
    char *message = gm_dma_malloc(c, 64);
    CHECK(target != NULL && buffer != NULL && source != NULL && message != NULL, "DMA memory");
    gm_provide_receive_buffer(d, buffer, 5, GM_LOW_PRIORITY);
    memset(source, 0x5a, PUT_BYTES);
    memcpy(message, "after", 6);
    completions = 0;
    gm_put(c, source, (gm_remote_ptr_t) (uintptr_t) target, PUT_BYTES, GM_LOW_PRIORITY, 4, 5, on_sent, NULL);
    gm_send_with_callback(c, message, 5, 6, GM_LOW_PRIORITY, 4, 5, on_sent, NULL);
    landed_count = 0;
    unsigned long long end = now_ms() + WAIT_MS;
    while ((landed_count < 1 || completions < 2) && now_ms() < end) {
        pump_port(c);
        pump_port(d);
        nap();
    }
    CHECK(landed_count == 1 && memcmp(landed[0].buffer, "after", 6) == 0, "the held send landed");
    CHECK(target[0] == 0x5a && target[PUT_BYTES - 1] == 0x5a, "the put before it visible");
    CHECK(completions == 2 && failures == 0, "put and send completed (%d, %d failed)", completions, failures);
    landed_count = 0;
    gm_close(d);
    gm_close(c);
    OK("a send held behind a put goes when the put completes, no timer due");
}

int main(int argc, char **argv) {
    const char *provider = argc > 1 ? argv[1] : "tcp";
    test_start(provider);
    CHECK(gm_init() == GM_SUCCESS, "gm_init");
    struct gmx_port_options o = {.provider = provider, .send_tokens = 2 * WINDOW, .receive_tokens = 64,
                                 .ack_timeout_ms = 10000, .keepalive_ms = 200};
    o.node_id = A_NODE;
    a = open_port_with(A_PORT, &o);
    o.node_id = B_NODE;
    b = open_port_with(B_PORT, &o);
    introduce_as(a, b, B_NODE, B_PORT, "hostb");
    introduce_as(b, a, A_NODE, A_PORT, "hosta");
    CHECK(gm_allow_remote_memory_access(b) == GM_SUCCESS, "allow remote access");

    char *targets = gm_dma_calloc(b, PUT_SLOTS, PUT_BYTES);
    char *puts = gm_dma_malloc(a, (size_t) PUT_SLOTS * PUT_BYTES);
    char *messages[WINDOW];
    for (int i = 0; i < WINDOW; i++) {
        messages[i] = gm_dma_malloc(a, gm_max_length_for_size(19));
        CHECK(messages[i] != NULL && puts != NULL && targets != NULL, "DMA memory");
    }
    static const unsigned distinct[] = {5, 8, 13, 17, 19};
    for (unsigned d = 0; d < sizeof distinct / sizeof distinct[0]; d++) {
        for (int k = 0; k < WINDOW; k++) { /* as many of each size as can be in flight */
            char *buffer = gm_dma_malloc(b, gm_max_length_for_size(distinct[d]));
            CHECK(buffer != NULL, "receive buffer of size %u", distinct[d]);
            gm_provide_receive_buffer(b, buffer, distinct[d], GM_LOW_PRIORITY);
        }
    }
    int ops = 0;
    int sent = 0, checked = 0;
    unsigned long long end = now_ms() + 6 * WAIT_MS;
    while (checked < N && now_ms() < end) {
        while (sent < N && sent - checked < WINDOW && gm_num_send_tokens(a) >= 2) {
            if (is_put_before(sent)) {
                char *src = puts + (size_t) (sent / 5 % PUT_SLOTS) * PUT_BYTES;
                memset(src, (sent & 0x7f) + 1, PUT_BYTES);
                gm_put(a, src, (gm_remote_ptr_t) (uintptr_t) (targets + (src - puts)), PUT_BYTES,
                       GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, NULL);
                ops++;
            }
            char *m = messages[sent % WINDOW];
            gm_size_t length = length_of(sent);
            memcpy(m, &sent, sizeof sent);
            memset(m + length - 1, sent & 0x7f, 1);
            gm_send_with_callback(a, m, SIZES[sent % CYCLE], length, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent,
                                  NULL);
            ops++;
            sent++;
        }
        pump_port(a);
        pump_port(b);
        for (int k = 0; k < landed_count; k++, checked++) {
            struct landed *l = &landed[k];
            int number;
            memcpy(&number, l->buffer, sizeof number);
            CHECK(number == checked, "message %d landed as number %d (size %u, %u bytes)", number, checked, l->size,
                  l->length);
            CHECK(l->size == SIZES[number % CYCLE] && l->length == length_of(number)
                  && l->buffer[l->length - 1] == (char) (number & 0x7f), "message %d whole", number);
            int put = number - number % 5;
            char *target = targets + (size_t) (put / 5 % PUT_SLOTS) * PUT_BYTES;
            CHECK(target[0] == (char) ((put & 0x7f) + 1) && target[PUT_BYTES - 1] == target[0],
                  "the put before message %d visible when message %d lands", put, number);
            gm_provide_receive_buffer(b, l->buffer, l->size, GM_LOW_PRIORITY);
        }
        landed_count = 0;
    }
    CHECK(checked == N, "all %d landed in order (%d did)", N, checked);
    end = now_ms() + WAIT_MS;
    while (completions < ops && now_ms() < end) {
        pump_port(a);
        pump_port(b);
    }
    CHECK(completions == ops && failures == 0, "every send and put completed (%d of %d, %d failed)", completions,
          ops, failures);
    OK("order per (port, priority) over tiny, eager, segmented and rendezvous sends and puts");
    held_send_goes_without_a_timer(provider);
    gm_close(b);
    gm_close(a);
    gm_finalize();
    printf("all passed on %s\n", provider);
    return 0;
}
