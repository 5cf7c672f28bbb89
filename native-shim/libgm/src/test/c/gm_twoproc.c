/*
 * gm_twoproc.c PROVIDER: C GM programs in separate processes finding each other through the map directory
 * (gm_open with GM_SHIM_NODE_ID, GM_SHIM_PROVIDER, GM_SHIM_MAP_DIR). The parent (node 1, port 2) ping-pongs with
 * a child (node 2), which then closes its port: the next send fails with GM_SEND_TARGET_PORT_CLOSED. A second
 * child (node 3) is killed with SIGKILL after its ping-pong: the next send fails with
 * GM_SEND_TARGET_NODE_UNREACHABLE within the ack timeout, as does a send to a node that never existed. Host names
 * are looked up both ways through the directory.
 */
#include <stdint.h>
#include <sys/stat.h>

#include "gmtest.h"

#define PORT 2
#define ROUNDS 20

static char map_dir[128];
static const char *provider;

static void environment(unsigned node, const char *host) {
    char id[16];
    snprintf(id, sizeof id, "%u", node);
    setenv("GM_SHIM_NODE_ID", id, 1);
    setenv("GM_SHIM_PROVIDER", provider, 1);
    setenv("GM_SHIM_MAP_DIR", map_dir, 1);
    setenv("GM_SHIM_HOST_NAME", host, 1);
    setenv("GM_SHIM_ACK_TIMEOUT_MS", "2000", 1);
    setenv("GM_SHIM_KEEPALIVE_MS", "100", 1);
    setenv("GM_SHIM_STRICT", "1", 1);
}

static volatile int completions;
static gm_status_t last_status;

static void on_sent(struct gm_port *port, void *context, gm_status_t status) {
    (void) port;
    (void) context;
    last_status = status;
    completions++;
}

/* Waits for the next receive event on port (handing everything else to gm_unknown); NULL on timeout. */
static gm_recv_event_t *next_receive(struct gm_port *port) {
    unsigned long long end = now_ms() + WAIT_MS;
    while (now_ms() < end) {
        gm_recv_event_t *e = gm_receive(port);
        unsigned type = GM_RECV_EVENT_TYPE(e);
        if (type == GM_RECV_EVENT || type == GM_PEER_RECV_EVENT) {
            return e;
        }
        if (type != GM_NO_RECV_EVENT) {
            gm_unknown(port, e);
        } else {
            nap();
        }
    }
    return NULL;
}

static void pump_until_completions(struct gm_port *port, int want) {
    unsigned long long end = now_ms() + WAIT_MS;
    while (completions < want && now_ms() < end) {
        gm_recv_event_t *e = gm_receive(port);
        if (GM_RECV_EVENT_TYPE(e) != GM_NO_RECV_EVENT) {
            gm_unknown(port, e);
        } else {
            nap();
        }
    }
}

/* The child: answers ROUNDS pings, then closes its port (graceful) or waits to be killed. */
static int child(void *arg) {
    long node = (long) arg;
    environment((unsigned) node, node == 2 ? "child-two" : "child-three");
    struct gm_port *port = NULL;
    if (gm_init() != GM_SUCCESS || gm_open(&port, 0, PORT, "child", GM_API_VERSION) != GM_SUCCESS) {
        fprintf(stderr, "child %ld: gm_open: %s\n", node, gmx_last_error());
        return 2;
    }
    char *bufs = gm_dma_malloc(port, 4 * 64), *reply = gm_dma_malloc(port, 64);
    for (int i = 0; i < 4; i++) {
        gm_provide_receive_buffer(port, bufs + 64 * i, 6, GM_LOW_PRIORITY);
    }
    for (int r = 0; r < ROUNDS; r++) {
        gm_recv_event_t *e = next_receive(port);
        if (e == NULL) {
            fprintf(stderr, "child %ld: no ping %d\n", node, r);
            return 3;
        }
        char *buffer = gm_ntohp(e->recv.buffer);
        memcpy(reply, buffer, 8);
        gm_provide_receive_buffer(port, buffer, 6, GM_LOW_PRIORITY);
        int before = completions;
        gm_send_to_peer_with_callback(port, reply, 6, 8, GM_LOW_PRIORITY, gm_ntohs(e->recv.sender_node_id), on_sent,
                                      NULL);
        pump_until_completions(port, before + 1);
        if (completions != before + 1 || last_status != GM_SUCCESS) {
            fprintf(stderr, "child %ld: reply %d: %s\n", node, r, gm_strerror(last_status));
            return 4;
        }
    }
    if (node == 2) {
        gm_close(port);
        gm_finalize();
        return 0;
    }
    for (;;) { /* keep answering keepalives until killed */
        gm_recv_event_t *e = gm_blocking_receive_no_spin(port);
        if (GM_RECV_EVENT_TYPE(e) != GM_NO_RECV_EVENT) {
            gm_unknown(port, e);
        }
    }
}

static void ping_pong(struct gm_port *port, unsigned node, char *msg, char *bufs) {
    for (int r = 0; r < ROUNDS; r++) {
        memcpy(msg, &r, sizeof r);
        int before = completions;
        gm_send_with_callback(port, msg, 6, 8, GM_LOW_PRIORITY, node, PORT, on_sent, NULL);
        gm_recv_event_t *e = next_receive(port);
        CHECK(e != NULL, "pong %d from node %u", r, node);
        char *buffer = gm_ntohp(e->recv.buffer);
        int got;
        memcpy(&got, buffer, sizeof got);
        CHECK(got == r && gm_ntohs(e->recv.sender_node_id) == node, "pong %d carries %d", r, got);
        CHECK(buffer >= bufs && buffer < bufs + 4 * 64, "in one of our buffers");
        gm_provide_receive_buffer(port, buffer, 6, GM_LOW_PRIORITY);
        pump_until_completions(port, before + 1);
        CHECK(last_status == GM_SUCCESS, "ping %d: %s", r, gm_strerror(last_status));
    }
}

static void expect_failure(struct gm_port *port, unsigned node, char *msg, gm_status_t want) {
    int before = completions;
    unsigned long long start = now_ms();
    gm_send_with_callback(port, msg, 6, 8, GM_LOW_PRIORITY, node, PORT, on_sent, NULL);
    pump_until_completions(port, before + 1);
    CHECK(completions == before + 1, "a send to node %u completes", node);
    CHECK(last_status == want, "send to node %u: %s, wanted %s (after %llu ms)", node, gm_strerror(last_status),
          gm_strerror(want), now_ms() - start);
    before = completions;
    gm_drop_sends(port, GM_LOW_PRIORITY, node, PORT, on_sent, NULL);
    pump_until_completions(port, before + 1);
}

int main(int argc, char **argv) {
    provider = argc > 1 ? argv[1] : "tcp";
    test_start(provider);
    snprintf(map_dir, sizeof map_dir, "/tmp/gm-map-%d", (int) getpid());
    CHECK(mkdir(map_dir, 0700) == 0, "map directory");
    pid_t two = spawn(child, (void *) 2L);
    pid_t three = spawn(child, (void *) 3L);
    environment(1, "parent-host");
    struct gm_port *port = NULL;
    CHECK(gm_init() == GM_SUCCESS, "gm_init");
    gm_status_t s = gm_open(&port, 0, PORT, "parent", GM_API_VERSION);
    CHECK(s == GM_SUCCESS, "gm_open: %s", gm_strerror(s));
    char *bufs = gm_dma_malloc(port, 4 * 64), *msg = gm_dma_malloc(port, 64);
    for (int i = 0; i < 4; i++) {
        gm_provide_receive_buffer(port, bufs + 64 * i, 6, GM_LOW_PRIORITY);
    }
    unsigned found = 0;
    CHECK(gm_host_name_to_node_id_ex(port, 10000000, "child-three", &found) == GM_SUCCESS && found == 3,
          "node of child-three: %u", found);
    char name[GM_MAX_HOST_NAME_LEN + 1];
    CHECK(gm_node_id_to_host_name_ex(port, 10000000, 2, &name) == GM_SUCCESS && strcmp(name, "child-two") == 0,
          "host of node 2");
    OK("host names through the map directory");
    ping_pong(port, 2, msg, bufs);
    ping_pong(port, 3, msg, bufs);
    OK("ping-pong with two processes");
    CHECK(reap(two) == 0, "child two closed its port and exited");
    expect_failure(port, 2, msg, GM_SEND_TARGET_PORT_CLOSED);
    OK("send to a closed port");
    kill(three, SIGKILL);
    reap(three);
    expect_failure(port, 3, msg, GM_SEND_TARGET_NODE_UNREACHABLE);
    OK("send to a killed process");
    expect_failure(port, 7, msg, GM_SEND_TARGET_NODE_UNREACHABLE);
    OK("send to a node that never existed");
    gm_close(port);
    gm_finalize();
    char path[256];
    snprintf(path, sizeof path, "%s/gm-1-%d", map_dir, PORT);
    CHECK(access(path, F_OK) != 0, "gm_close removed its map file");
    rmdir(map_dir);
    printf("all passed on %s\n", provider);
    return 0;
}
