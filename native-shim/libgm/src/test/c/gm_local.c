/*
 * gm_local.c PROVIDER: the GM API between two ports of one process (A = node 1 port 2, B = node 2 port 3,
 * introduced with gmx_set_peer): tokens, exact size and priority matching, acceptable sizes, order under mixed
 * sizes, directed send then send, get, sends, puts and gets with gm_register_memory'd memory, sends to a port that
 * does not exist or closed, resume and drop, three more ports closing in every order while the others keep
 * sending, alarms, blocking receive wake-up.
 */
#include <pthread.h>
#include <stdbool.h>

#include "gmtest.h"

static struct gm_port *a, *b;
static const unsigned A_NODE = 1, A_PORT = 2, B_NODE = 2, B_PORT = 3;

/* ---- completions and receives, recorded by the pumps ---------------------------------------------------- */

#define MAX_DONE 512
static gm_status_t done_status[MAX_DONE];
static int done_count;

static void on_sent(struct gm_port *port, void *context, gm_status_t status) {
    (void) port;
    long i = (long) context;
    if (i >= 0 && i < MAX_DONE) {
        done_status[i] = status;
    }
    done_count++;
}

struct landed {
    void *buffer;
    unsigned length, size, priority, tag, node, port;
};
#define MAX_LANDED 512
static struct landed landed[MAX_LANDED];
static int landed_count;
static int other_events;

/* One round on port: hands completions and alarms to gm_unknown, records receives. */
static void pump_port(struct gm_port *port) {
    gm_recv_event_t *e = gm_receive(port);
    unsigned type = GM_RECV_EVENT_TYPE(e);
    switch (type) {
    case GM_NO_RECV_EVENT:
        return;
    case GM_RECV_EVENT:
    case GM_HIGH_RECV_EVENT:
    case GM_PEER_RECV_EVENT:
    case GM_HIGH_PEER_RECV_EVENT:
        if (landed_count < MAX_LANDED) {
            landed[landed_count++] = (struct landed) {
                .buffer = gm_ntohp(e->recv.buffer), .length = gm_ntohl(e->recv.length), .size = gm_ntohc(e->recv.size),
                .priority = type == GM_HIGH_RECV_EVENT || type == GM_HIGH_PEER_RECV_EVENT, .tag = gm_ntohc(e->recv.tag),
                .node = gm_ntohs(e->recv.sender_node_id), .port = gm_ntohc(e->recv.sender_port_id)};
        }
        return;
    case GM_SEND_TOKEN_VIOLATION_EVENT:
    case GM_RECV_TOKEN_VIOLATION_EVENT:
    case GM_BAD_RECV_TOKEN_EVENT:
        other_events++;
        return;
    default:
        gm_unknown(port, e);
    }
}

static void pump(void) {
    pump_port(a);
    pump_port(b);
}

#define PUMP_UNTIL(cond)                                                                                     \
    do {                                                                                                     \
        unsigned long long end_ = now_ms() + WAIT_MS;                                                        \
        while (!(cond) && now_ms() < end_) {                                                                 \
            pump();                                                                                          \
            nap();                                                                                           \
        }                                                                                                    \
    } while (0)

static void reset(void) {
    memset(done_status, 0xff, sizeof done_status);
    done_count = 0;
    landed_count = 0;
    other_events = 0;
}

/* ---- setup ------------------------------------------------------------------------------------------------- */

static struct gm_port *open_port(const char *provider, unsigned node, unsigned port) {
    struct gmx_port_options o = {.provider = provider, .node_id = node, .send_tokens = 8, .receive_tokens = 32,
                                 .ack_timeout_ms = 1000, .keepalive_ms = 100, .flags = GMX_STRICT};
    return open_port_with(port, &o);
}

static void introduce(struct gm_port *from, struct gm_port *to, unsigned to_node, unsigned to_port) {
    introduce_as(from, to, to_node, to_port, "hostb");
}

/* ---- the tests ---------------------------------------------------------------------------------------------- */

static void test_sizes(void) {
    CHECK(gm_min_size_for_length(0) == 3, "size of 0 bytes");
    CHECK(gm_min_size_for_length(8) == 4, "size of 8 bytes: ceil(log2(16))");
    CHECK(gm_min_size_for_length(9) == 5, "size of 9 bytes");
    CHECK(gm_max_length_for_size(4) == 8, "length of size 4");
    CHECK(gm_max_length_for_size(10) == 1016, "length of size 10");
    for (unsigned s = 3; s < 31; s++) {
        CHECK(gm_min_size_for_length(gm_max_length_for_size(s)) == s, "round trip %u", s);
        CHECK(gm_min_size_for_length(gm_max_length_for_size(s) + 1) == s + 1, "one more byte %u", s);
    }
    CHECK(gm_mtu(a) == 4096 && gm_min_message_size(a) == 3 && gm_num_ports(a) == GM_NUM_PORTS, "constants");
    CHECK(strcmp(gm_strerror(GM_SEND_TIMED_OUT), gm_strerror(GM_SUCCESS)) != 0, "strerror");
    OK("size classes");
}

static void test_identity(void) {
    unsigned n = 0;
    CHECK(gm_get_node_id(a, &n) == GM_SUCCESS && n == A_NODE, "node id %u", n);
    CHECK(gm_get_port_id(b) == B_PORT, "port id");
    CHECK(gm_max_node_id(a, &n) == GM_SUCCESS && n == GM_MAX_NODE_ID, "max node id");
    CHECK(gm_max_node_id_in_use(a, &n) == GM_SUCCESS && n == B_NODE, "max node id in use %u", n);
    CHECK(gm_node_id_to_global_id(a, 7, &n) == GM_SUCCESS && n == 7, "global id");
    CHECK(gm_global_id_to_node_id(a, 7, &n) == GM_SUCCESS && n == 7, "node from global id");
    CHECK(gm_node_id_to_global_id(a, 0, &n) == GM_INVALID_PARAMETER, "global id of no node");
    char *host = gm_node_id_to_host_name(a, B_NODE);
    CHECK(host != NULL && strcmp(host, "hostb") == 0, "host name of B");
    CHECK(gm_host_name_to_node_id(a, "hostb") == B_NODE, "node of hostb");
    CHECK(gm_host_name_to_node_id(a, "nowhere") == GM_NO_SUCH_NODE_ID, "unknown host");
    unsigned found = 0;
    CHECK(gm_host_name_to_node_id_ex(a, 1000, "nowhere", &found) == GM_TIMED_OUT, "unknown host, _ex");
    char name[GM_MAX_HOST_NAME_LEN + 1];
    CHECK(gm_node_id_to_host_name_ex(a, 1000, B_NODE, &name) == GM_SUCCESS && strcmp(name, "hostb") == 0, "_ex");
    OK("identity");
}

static void test_tokens(void) {
    reset();
    unsigned sends = gm_num_send_tokens(a), receives = gm_num_receive_tokens(b);
    CHECK(sends == 8 && receives == 32, "tokens after open: %u %u", sends, receives);
    char *buf = gm_dma_malloc(b, 64 * 8);
    char *msg = gm_dma_malloc(a, 64 * 9);
    CHECK(buf != NULL && msg != NULL, "dma malloc");
    for (int i = 0; i < 8; i++) {
        gm_provide_receive_buffer_with_tag(b, buf + 64 * i, 6, GM_LOW_PRIORITY, (unsigned) i);
    }
    CHECK(gm_num_receive_tokens(b) == receives - 8, "receive tokens spent");
    for (long i = 0; i < 8; i++) {
        gm_send_with_callback(a, msg + 64 * i, 6, 40, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) i);
    }
    CHECK(gm_num_send_tokens(a) == 0, "all send tokens spent");
    gm_send_with_callback(a, msg + 64 * 8, 6, 40, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 8);
    PUMP_UNTIL(done_count == 8 && landed_count == 8 && other_events >= 1);
    CHECK(other_events == 1, "one send token violation (got %d)", other_events);
    CHECK(done_count == 8, "8 callbacks (got %d)", done_count);
    for (int i = 0; i < 8; i++) {
        CHECK(done_status[i] == GM_SUCCESS, "send %d: %s", i, gm_strerror(done_status[i]));
        CHECK(landed[i].buffer == buf + 64 * i && landed[i].tag == (unsigned) i && landed[i].length == 40,
              "receive %d in its buffer", i);
        CHECK(landed[i].node == A_NODE && landed[i].port == A_PORT && landed[i].size == 6, "sender of %d", i);
    }
    CHECK(gm_num_send_tokens(a) == 8, "send tokens back: %u", gm_num_send_tokens(a));
    CHECK(gm_num_receive_tokens(b) == receives, "receive tokens back: %u", gm_num_receive_tokens(b));
    /* receive-token exhaustion */
    char *many = gm_dma_malloc(b, 64 * 33);
    reset();
    for (int i = 0; i < 33; i++) {
        gm_provide_receive_buffer(b, many + 64 * i, 6, GM_HIGH_PRIORITY);
    }
    CHECK(gm_num_receive_tokens(b) == 0, "receive tokens exhausted");
    PUMP_UNTIL(other_events == 1);
    CHECK(other_events == 1, "one receive token violation");
    /* use them up: 32 high-priority messages return every token */
    for (long i = 0; i < 32; i++) {
        while (gm_num_send_tokens(a) == 0) {
            pump();
        }
        gm_send_with_callback(a, msg, 6, 8, GM_HIGH_PRIORITY, B_NODE, B_PORT, on_sent, (void *) i);
    }
    PUMP_UNTIL(landed_count == 32 && done_count == 32);
    CHECK(landed_count == 32 && gm_num_receive_tokens(b) == 32, "receive tokens returned");
    gm_dma_free(b, many);
    gm_dma_free(b, buf);
    gm_dma_free(a, msg);
    OK("token accounting");
}

static void test_exact_match(void) {
    reset();
    char *buf = gm_dma_malloc(b, 256);
    char *msg = gm_dma_malloc(a, 256);
    gm_provide_receive_buffer(b, buf, 8, GM_LOW_PRIORITY);          /* size s + 1 */
    gm_provide_receive_buffer(b, buf + 128, 7, GM_HIGH_PRIORITY);   /* size s, other priority */
    gm_send_with_callback(a, msg, 7, 100, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 0);
    PUMP_UNTIL(done_count == 1);
    CHECK(done_count == 1 && done_status[0] == GM_SEND_TIMED_OUT, "size 7 low into no buffer: %s",
          gm_strerror(done_status[0]));
    CHECK(landed_count == 0, "nothing landed in the size-8 or high buffers");
    /* the connection is stopped: a later send waits until resume */
    gm_send_with_callback(a, msg, 8, 100, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 1);
    gm_resume_sending(a, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 2);
    PUMP_UNTIL(done_count == 3 && landed_count == 1);
    CHECK(done_status[2] == GM_SUCCESS && done_status[1] == GM_SUCCESS, "resume, then the size-8 send");
    CHECK(landed_count == 1 && landed[0].size == 8 && landed[0].buffer == buf, "size 8 in the size-8 buffer");
    /* the cancelled size-7 message must not land later in a new size-7 low buffer */
    gm_provide_receive_buffer(b, buf, 7, GM_LOW_PRIORITY);
    gm_send_with_callback(a, msg, 7, 5, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 3);
    PUMP_UNTIL(done_count == 4 && landed_count == 2);
    CHECK(done_status[3] == GM_SUCCESS && landed_count == 2 && landed[1].length == 5, "new size-7 message, "
          "not the cancelled one (length %u)", landed[1].length);
    /* the high buffer of size 7 takes a high message */
    gm_send_with_callback(a, msg, 7, 9, GM_HIGH_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 4);
    PUMP_UNTIL(done_count == 5 && landed_count == 3);
    CHECK(landed[2].priority == 1 && landed[2].buffer == buf + 128, "high message in the high buffer");
    gm_dma_free(a, msg);
    gm_dma_free(b, buf);
    OK("exact size and priority matching");
}

/* A send of size 6 and its ack: B's control messages sent before (a mask update) have reached A. */
static void round_trip(char *msg, char *buf, long context) {
    int before = done_count;
    gm_provide_receive_buffer(b, buf, 6, GM_LOW_PRIORITY);
    gm_send_with_callback(a, msg, 6, 8, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) context);
    PUMP_UNTIL(done_count == before + 1);
    CHECK(done_status[context] == GM_SUCCESS, "round trip");
}

static void test_acceptable(void) {
    reset();
    char *buf = gm_dma_malloc(b, 64), *other = gm_dma_malloc(b, 64);
    char *msg = gm_dma_malloc(a, 64);
    gm_provide_receive_buffer(b, buf, 5, GM_LOW_PRIORITY);
    CHECK(gm_set_acceptable_sizes(b, GM_LOW_PRIORITY, ~(gm_size_t) (1u << 5)) == GM_SUCCESS, "mask");
    CHECK(gm_set_acceptable_sizes(b, (enum gm_priority) 2, 0) == GM_INVALID_PARAMETER, "bad priority");
    /* the update travels as a control message: a round trip makes sure A has it */
    round_trip(msg, other, 10);
    gm_send_with_callback(a, msg, 5, 8, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 0);
    PUMP_UNTIL(done_count == 2);
    CHECK(done_status[0] == GM_SEND_REJECTED, "unacceptable size: %s", gm_strerror(done_status[0]));
    CHECK(landed_count == 1, "nothing but the round trip landed");
    gm_drop_sends(a, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 1);
    PUMP_UNTIL(done_count == 3);
    CHECK(done_status[1] == GM_SUCCESS, "drop after reject");
    CHECK(gm_set_acceptable_sizes(b, GM_LOW_PRIORITY, ~(gm_size_t) 0) == GM_SUCCESS, "mask");
    round_trip(msg, other, 11);
    int landed_before = landed_count;
    gm_send_with_callback(a, msg, 5, 8, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 2);
    PUMP_UNTIL(done_count == 5 && landed_count == landed_before + 1);
    CHECK(done_status[2] == GM_SUCCESS && landed_count == landed_before + 1, "acceptable again: %s",
          gm_strerror(done_status[2]));
    OK("acceptable sizes");
}

static void test_order(void) {
    reset();
    enum { N = 90 };
    static const unsigned sizes[3] = {5, 9, 13};
    char *bufs = gm_dma_malloc(b, (size_t) 3 * 8 * 8192);
    char *msgs = gm_dma_malloc(a, (size_t) 8 * 8192);
    for (int s = 0; s < 3; s++) {
        for (int i = 0; i < 8; i++) {
            gm_provide_receive_buffer_with_tag(b, bufs + ((size_t) s * 8 + (size_t) i) * 8192, sizes[s],
                                               GM_LOW_PRIORITY, (unsigned) s);
        }
    }
    int sent = 0, checked = 0;
    unsigned long long end = now_ms() + WAIT_MS;
    while (checked < N && now_ms() < end) {
        while (sent < N && gm_num_send_tokens(a) > 0 && sent - checked < 8) {
            unsigned s = sizes[sent % 3];
            char *m = msgs + (size_t) (sent % 8) * 8192;
            gm_size_t len = gm_max_length_for_size(s) - (gm_size_t) (sent % 3);
            memset(m, 0, 8);
            memcpy(m, &sent, sizeof sent);
            gm_send_with_callback(a, m, s, len, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) (long) (sent % 8));
            sent++;
        }
        pump();
        while (checked < landed_count) {
            int seq;
            memcpy(&seq, landed[checked].buffer, sizeof seq);
            CHECK(seq == checked, "message %d arrived as number %d (sizes mixed)", seq, checked);
            CHECK(landed[checked].size == sizes[seq % 3], "size of %d", seq);
            gm_provide_receive_buffer_with_tag(b, landed[checked].buffer, landed[checked].size, GM_LOW_PRIORITY,
                                               landed[checked].tag);
            checked++;
        }
        if (landed_count >= MAX_LANDED - 8) {
            break;
        }
    }
    CHECK(checked == N, "all %d in order (got %d)", N, checked);
    PUMP_UNTIL(gm_num_send_tokens(a) == 8);
    OK("order per (port, priority) under mixed sizes");
}

static void test_put_get(void) {
    reset();
    CHECK(gm_allow_remote_memory_access(b) == GM_SUCCESS, "allow");
    char *target = gm_dma_calloc(b, 1, 65536);
    char *flag = gm_dma_malloc(b, 64);
    char *src = gm_dma_malloc(a, 65536);
    char *note = gm_dma_malloc(a, 64);
    for (int i = 0; i < 65536; i++) {
        src[i] = (char) (i * 7 + 1);
    }
    gm_provide_receive_buffer(b, flag, 5, GM_LOW_PRIORITY);
    /* B must have told A that remote access is allowed: pump a round trip first */
    gm_send_with_callback(a, note, 5, 4, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 0);
    PUMP_UNTIL(done_count == 1 && landed_count == 1);
    gm_provide_receive_buffer(b, flag, 5, GM_LOW_PRIORITY);
    gm_put(a, src, (gm_remote_ptr_t) (uintptr_t) target, 65536, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent,
           (void *) 1);
    gm_send_with_callback(a, note, 5, 4, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 2);
    PUMP_UNTIL(landed_count == 2);
    CHECK(landed_count == 2, "the send after the put landed");
    CHECK(memcmp(target, src, 65536) == 0, "the put is visible when the following send lands");
    PUMP_UNTIL(done_count == 3);
    CHECK(done_status[1] == GM_SUCCESS && done_status[2] == GM_SUCCESS, "put and send completed");
    /* get it back into fresh memory */
    char *back = gm_dma_calloc(a, 1, 65536);
    gm_get(a, (gm_remote_ptr_t) (uintptr_t) target, back, 65536, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent,
           (void *) 3);
    PUMP_UNTIL(done_count == 4);
    CHECK(done_status[3] == GM_SUCCESS && memcmp(back, src, 65536) == 0, "get: %s", gm_strerror(done_status[3]));
    /* outside the arena: refused, and the connection goes on */
    static char not_dma[64];
    gm_put(a, not_dma, (gm_remote_ptr_t) (uintptr_t) target, 64, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent,
           (void *) 4);
    gm_get(a, 16, back, 64, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 5);
    PUMP_UNTIL(done_count == 6);
    CHECK(done_status[4] == GM_MEMORY_FAULT, "put from non-DMA memory: %s", gm_strerror(done_status[4]));
    CHECK(done_status[5] == GM_INVALID_PARAMETER, "get outside the arena: %s", gm_strerror(done_status[5]));
    /* A never allowed remote access: B's get from A is refused */
    gm_get(b, (gm_remote_ptr_t) (uintptr_t) src, target, 64, GM_LOW_PRIORITY, A_NODE, A_PORT, on_sent, (void *) 6);
    PUMP_UNTIL(done_count == 7);
    CHECK(done_status[6] == GM_PERMISSION_DENIED, "no remote access: %s", gm_strerror(done_status[6]));
    OK("directed send then send, get");
}

/* Memory of the application's own (not gm_dma_malloc'd), made DMA-able with gm_register_memory. */
static void test_registered_memory(void) {
    reset();
    enum { LEN = 65536, INBOX = 4096 };
    char *mem = aligned_alloc(4096, LEN);
    char *inbox = aligned_alloc(4096, INBOX);
    char *target = gm_dma_calloc(b, 1, LEN);
    CHECK(mem != NULL && inbox != NULL && target != NULL, "memory");
    for (int i = 0; i < LEN; i++) {
        mem[i] = (char) (i * 13 + 5);
    }
    /* not registered yet: refused as not DMA-able, and the connection goes on */
    gm_send_with_callback(a, mem, 5, 16, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 0);
    gm_put(a, mem, (gm_remote_ptr_t) (uintptr_t) target, LEN, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 1);
    PUMP_UNTIL(done_count == 2);
    CHECK(done_status[0] == GM_MEMORY_FAULT, "send from unregistered memory: %s", gm_strerror(done_status[0]));
    CHECK(done_status[1] == GM_MEMORY_FAULT, "put from unregistered memory: %s", gm_strerror(done_status[1]));
    CHECK(gm_register_memory(a, mem, LEN) == GM_SUCCESS, "register the source");
    CHECK(gm_register_memory(b, inbox, INBOX) == GM_SUCCESS, "register the receive buffer");
    /* a send from registered into registered memory; its ack also tells A that B allows remote access */
    CHECK(gm_allow_remote_memory_access(b) == GM_SUCCESS, "allow");
    gm_provide_receive_buffer(b, inbox, 5, GM_LOW_PRIORITY);
    gm_send_with_callback(a, mem + 100, 5, 16, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 2);
    PUMP_UNTIL(landed_count == 1 && done_count == 3);
    CHECK(done_status[2] == GM_SUCCESS, "send from registered memory: %s", gm_strerror(done_status[2]));
    CHECK(landed_count == 1 && landed[0].buffer == inbox && landed[0].length == 16, "the send landed in the "
          "registered receive buffer");
    CHECK(memcmp(inbox, mem + 100, 16) == 0, "the send's bytes came from registered memory");
    /* a put from registered memory, then a send: the put is visible when the send lands */
    gm_provide_receive_buffer(b, inbox, 5, GM_LOW_PRIORITY);
    gm_put(a, mem, (gm_remote_ptr_t) (uintptr_t) target, LEN, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 3);
    gm_send_with_callback(a, mem + 200, 5, 16, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 4);
    PUMP_UNTIL(landed_count == 2);
    CHECK(landed_count == 2 && memcmp(inbox, mem + 200, 16) == 0, "the send after the put landed");
    CHECK(memcmp(target, mem, LEN) == 0, "the put from registered memory is visible when the following send lands");
    PUMP_UNTIL(done_count == 5);
    CHECK(done_status[3] == GM_SUCCESS && done_status[4] == GM_SUCCESS, "put and send from registered memory: "
          "%s, %s", gm_strerror(done_status[3]), gm_strerror(done_status[4]));
    /* a get into registered memory */
    memset(mem, 0, LEN);
    gm_get(a, (gm_remote_ptr_t) (uintptr_t) target, mem, LEN, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 5);
    PUMP_UNTIL(done_count == 6);
    CHECK(done_status[5] == GM_SUCCESS, "get into registered memory: %s", gm_strerror(done_status[5]));
    CHECK(mem[0] == (char) 5 && memcmp(mem, target, LEN) == 0, "the get filled registered memory");
    /* deregistered: refused again; a second deregistration finds nothing */
    CHECK(gm_deregister_memory(a, mem, LEN) == GM_SUCCESS, "deregister");
    gm_send_with_callback(a, mem, 5, 16, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 6);
    PUMP_UNTIL(done_count == 7);
    CHECK(done_status[6] == GM_MEMORY_FAULT, "send from deregistered memory: %s", gm_strerror(done_status[6]));
    CHECK(gm_deregister_memory(a, mem, LEN) == GM_INVALID_PARAMETER, "deregister twice");
    CHECK(gm_deregister_memory(b, inbox, INBOX) == GM_SUCCESS, "deregister the receive buffer");
    gm_dma_free(b, target);
    free(inbox);
    free(mem);
    OK("send, put and get with gm_register_memory'd memory");
}

static void test_dead_targets(const char *provider) {
    reset();
    char *msg = gm_dma_malloc(a, 64);
    /* a node nobody declared: three sends, the first fails, the connection stops */
    long base = 10;
    for (long i = 0; i < 3; i++) {
        gm_send_with_callback(a, msg, 5, 8, GM_LOW_PRIORITY, 9, 1, on_sent, (void *) (base + i));
    }
    PUMP_UNTIL(done_count == 1);
    CHECK(done_status[base] == GM_SEND_TARGET_NODE_UNREACHABLE, "undeclared node: %s",
          gm_strerror(done_status[base]));
    /* stopped: the other two wait (no deadline) until resume or drop */
    unsigned long long until = now_ms() + 1500;
    while (now_ms() < until) {
        pump();
        nap();
    }
    CHECK(done_count == 1, "queued sends wait while the connection is stopped (%d done)", done_count);
    gm_resume_sending(a, GM_LOW_PRIORITY, 9, 1, on_sent, (void *) 20);
    PUMP_UNTIL(done_count == 3);
    CHECK(done_status[20] == GM_SUCCESS && done_status[base + 1] == GM_SEND_TARGET_NODE_UNREACHABLE,
          "resume: the next send tries and fails again (%s)", gm_strerror(done_status[base + 1]));
    gm_drop_sends(a, GM_LOW_PRIORITY, 9, 1, on_sent, (void *) 21);
    PUMP_UNTIL(done_count == 5);
    CHECK(done_status[base + 2] == GM_SEND_DROPPED && done_status[21] == GM_SUCCESS, "drop: %s",
          gm_strerror(done_status[base + 2]));
    CHECK(gm_num_send_tokens(a) == 8, "every token back");
    /* a port of this process that existed and closed before any contact. On shm the closing port takes itself
     * out of A's address vector and A knows it closed (gm_registry.c); elsewhere the provider cannot reach it
     * and the send times out as unreachable */
    struct gm_port *c = open_port(provider, 3, 4);
    introduce(a, c, 3, 4);
    gm_close(c);
    gm_send_with_callback(a, msg, 5, 8, GM_LOW_PRIORITY, 3, 4, on_sent, (void *) 22);
    PUMP_UNTIL(done_count == 6);
    gm_status_t expected = strcmp(provider, "shm") == 0 ? GM_SEND_TARGET_PORT_CLOSED
                                                        : GM_SEND_TARGET_NODE_UNREACHABLE;
    CHECK(done_status[22] == expected, "closed-before-contact port: %s", gm_strerror(done_status[22]));
    gm_drop_sends(a, GM_LOW_PRIORITY, 3, 4, on_sent, (void *) 23);
    PUMP_UNTIL(done_count == 7);
    /* the high-priority connection to B was never stopped */
    int before = done_count;
    gm_send_with_callback(a, msg, 5, 8, GM_HIGH_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 30);
    char *buf = gm_dma_malloc(b, 64);
    gm_provide_receive_buffer(b, buf, 5, GM_HIGH_PRIORITY);
    PUMP_UNTIL(done_count == before + 1);
    CHECK(done_status[30] == GM_SUCCESS, "other connection unaffected");
    OK("sends to dead targets; resume and drop");
}

/* ---- three more ports that all talk to each other, then close one by one in every order ---------------- */

#define TRIO 3
static struct gm_port *trio[TRIO];
static const unsigned TRIO_NODE = 5, TRIO_PORT = 1;
static char *trio_messages[TRIO], *trio_buffers[TRIO]; /* DMA memory of each open trio port, made on first use */

static void pump_trio(void) {
    for (int i = 0; i < TRIO; i++) {
        if (trio[i] != NULL) {
            pump_port(trio[i]);
        }
    }
}

/* Sends one message from trio[from] to trio[to] (which may have closed) and waits for its completion. */
static gm_status_t trio_send(int from, int to) {
    if (trio_messages[from] == NULL) {
        trio_messages[from] = gm_dma_malloc(trio[from], 64);
    }
    if (trio[to] != NULL) {
        if (trio_buffers[to] == NULL) {
            trio_buffers[to] = gm_dma_malloc(trio[to], 64);
        }
        gm_provide_receive_buffer(trio[to], trio_buffers[to], 5, GM_LOW_PRIORITY);
    }
    int before = done_count, landed_before = landed_count;
    long slot = 100 + from * TRIO + to;
    gm_send_with_callback(trio[from], trio_messages[from], 5, 8, GM_LOW_PRIORITY, TRIO_NODE + (unsigned) to,
                          TRIO_PORT, on_sent, (void *) slot);
    unsigned long long end = now_ms() + WAIT_MS;
    while ((done_count == before || (trio[to] != NULL && landed_count == landed_before)) && now_ms() < end) {
        pump_trio();
        nap();
    }
    CHECK(done_count == before + 1, "send %d -> %d completed", from, to);
    if (done_status[slot] != GM_SUCCESS) {
        gm_drop_sends(trio[from], GM_LOW_PRIORITY, TRIO_NODE + (unsigned) to, TRIO_PORT, on_sent, (void *) 99);
        end = now_ms() + WAIT_MS;
        while (done_count < before + 2 && now_ms() < end) {
            pump_trio();
            nap();
        }
        CHECK(done_count == before + 2, "drop after the failed send %d -> %d", from, to);
    }
    return done_status[slot];
}

/* Every open port of the trio sends to every other: SUCCESS to open ones, TARGET_PORT_CLOSED to closed ones. */
static void trio_exchange(const bool closed[TRIO]) {
    for (int from = 0; from < TRIO; from++) {
        for (int to = 0; to < TRIO && !closed[from]; to++) {
            if (to == from) {
                continue;
            }
            gm_status_t s = trio_send(from, to);
            gm_status_t expected = closed[to] ? GM_SEND_TARGET_PORT_CLOSED : GM_SUCCESS;
            CHECK(s == expected, "%d -> %d: %s (port %d %s)", from, to, gm_strerror(s), to,
                  closed[to] ? "closed" : "open");
        }
    }
}

static void test_close_orders(const char *provider) {
    static const int orders[6][TRIO] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int o = 0; o < 6; o++) {
        reset();
        for (int i = 0; i < TRIO; i++) {
            trio[i] = open_port(provider, TRIO_NODE + (unsigned) i, TRIO_PORT);
        }
        for (int i = 0; i < TRIO; i++) {
            for (int j = 0; j < TRIO; j++) {
                if (i != j) {
                    introduce(trio[i], trio[j], TRIO_NODE + (unsigned) j, TRIO_PORT);
                }
            }
        }
        bool closed[TRIO] = {false, false, false};
        trio_exchange(closed);
        for (int k = 0; k < TRIO; k++) {
            int victim = orders[o][k];
            gm_close(trio[victim]); /* its DMA memory goes with it */
            trio[victim] = NULL;
            trio_messages[victim] = trio_buffers[victim] = NULL;
            closed[victim] = true;
            trio_exchange(closed);
        }
        /* A and B, which never met the trio, still talk */
        char *msg = gm_dma_malloc(a, 64), *buf = gm_dma_malloc(b, 64);
        gm_provide_receive_buffer(b, buf, 5, GM_LOW_PRIORITY);
        gm_send_with_callback(a, msg, 5, 8, GM_LOW_PRIORITY, B_NODE, B_PORT, on_sent, (void *) 40);
        PUMP_UNTIL(done_status[40] != (gm_status_t) -1);
        CHECK(done_status[40] == GM_SUCCESS, "A -> B after close order %d: %s", o, gm_strerror(done_status[40]));
        PUMP_UNTIL(landed_count > 0 && landed[landed_count - 1].node == A_NODE);
        gm_dma_free(a, msg);
        gm_dma_free(b, buf);
    }
    OK("three ports talk, close in every order, the others keep going");
}

static int fired[3];

static void on_alarm(void *context) {
    fired[(long) context]++;
}

static void test_alarms(void) {
    gm_alarm_t once, cancelled, rearmed;
    gm_initialize_alarm(&once);
    gm_initialize_alarm(&cancelled);
    gm_initialize_alarm(&rearmed);
    gm_set_alarm(a, &once, 1000, on_alarm, (void *) 0);
    gm_set_alarm(a, &cancelled, 1000, on_alarm, (void *) 1);
    gm_set_alarm(a, &rearmed, 1000, on_alarm, (void *) 2);
    gm_cancel_alarm(&cancelled);
    gm_set_alarm(a, &rearmed, 200000, on_alarm, (void *) 2); /* re-arm: only the later firing happens */
    PUMP_UNTIL(fired[2] == 1);
    CHECK(fired[0] == 1 && fired[1] == 0 && fired[2] == 1, "fired %d %d %d", fired[0], fired[1], fired[2]);
    /* nothing fires twice: wait for a later alarm, then look again */
    gm_alarm_t later;
    gm_initialize_alarm(&later);
    gm_set_alarm(a, &later, 100000, on_alarm, (void *) 1);
    PUMP_UNTIL(fired[1] == 1);
    CHECK(fired[0] == 1 && fired[1] == 1 && fired[2] == 1, "each once: %d %d %d", fired[0], fired[1], fired[2]);
    /* a fired alarm may be set again from its own callback's port */
    gm_set_alarm(a, &once, 1000, on_alarm, (void *) 0);
    PUMP_UNTIL(fired[0] == 2);
    CHECK(fired[0] == 2, "set again after firing");
    OK("alarms");
}

/* blocking receive wake-up: B sleeps in gm_blocking_receive_no_spin; a thread sends from A (and drives A) */
static volatile int sender_done;

static void *send_later(void *arg) {
    char *msg = arg;
    struct timespec ts = {0, 50000000};
    nanosleep(&ts, NULL);
    gm_send_with_callback(a, msg, 5, 3, GM_LOW_PRIORITY, B_NODE, B_PORT, NULL, NULL);
    unsigned long long end = now_ms() + WAIT_MS;
    while (gm_num_send_tokens(a) < 8 && now_ms() < end) {
        gm_recv_event_t *e = gm_receive(a);
        if (GM_RECV_EVENT_TYPE(e) != GM_NO_RECV_EVENT) {
            gm_unknown(a, e);
        }
        nap();
    }
    sender_done = 1;
    return NULL;
}

static void test_blocking(void) {
    char *buf = gm_dma_malloc(b, 64), *msg = gm_dma_malloc(a, 64);
    gm_provide_receive_buffer(b, buf, 5, GM_LOW_PRIORITY);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, send_later, msg) == 0, "thread");
    gm_recv_event_t *e;
    do {
        e = gm_blocking_receive_no_spin(b);
    } while (GM_RECV_EVENT_TYPE(e) != GM_RECV_EVENT && (gm_unknown(b, e), 1));
    CHECK(gm_ntohl(e->recv.length) == 3, "woke with the message");
    pthread_join(t, NULL);
    CHECK(sender_done, "sender finished");
    /* an alarm ends a blocking receive too */
    gm_alarm_t alarm;
    gm_initialize_alarm(&alarm);
    gm_set_alarm(b, &alarm, 20000, on_alarm, (void *) 1);
    e = gm_blocking_receive(b);
    CHECK(GM_RECV_EVENT_TYPE(e) == GM_ALARM_EVENT, "alarm event from a blocking receive");
    gm_unknown(b, e);
    OK("blocking receive wake-up");
}

int main(int argc, char **argv) {
    const char *provider = argc > 1 ? argv[1] : "tcp";
    test_start(provider);
    CHECK(gm_init() == GM_SUCCESS, "gm_init");
    a = open_port(provider, A_NODE, A_PORT);
    b = open_port(provider, B_NODE, B_PORT);
    introduce(a, b, B_NODE, B_PORT);
    introduce(b, a, A_NODE, A_PORT);
    test_sizes();
    test_identity();
    test_tokens();
    test_exact_match();
    test_acceptable();
    test_registered_memory();
    test_order();
    test_put_get();
    test_dead_targets(provider);
    test_close_orders(provider);
    test_alarms();
    test_blocking();
    gm_close(b); /* b says so to a; a, closing, reads that first and does not write to b's closed endpoint */
    gm_close(a);
    gm_finalize();
    printf("all passed on %s\n", provider);
    return 0;
}
