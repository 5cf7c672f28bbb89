/*
 * gm_stale_shm.c: shm ports open beside shared-memory regions that killed runs left in /dev/shm (gm_shm.c).
 *   1. Regions with libfabric's default names for this process ("PID:UID:N", what its endpoints would be named
 *      without libgm's name), of no valid version: libfabric's fi_enable fails with -FI_EBUSY on such a name.
 *   2. A region with the very name libgm's next port would take (the name after the last port's): it is skipped.
 *   3. The region of a child that opened a port and died without closing it (SIGKILL): the next port open removes
 *      it, since its owner is gone; the region of a live child is kept.
 * Each time a message then travels between the new ports. Nothing waits on time: the child's end is waitpid's.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "gmtest.h"

#define SIZE 5
#define WORD "stale"

static unsigned next_node = 1;
static pid_t parent;
static char defaults[8][64];

/* At exit of the test program (not of its children): the default-named regions it made go. */
static void remove_defaults(void) {
    for (int i = 0; getpid() == parent && i < 8; i++) {
        if (defaults[i][0] != '\0') {
            shm_unlink(defaults[i]);
        }
    }
}

/* Creates /dev/shm/name holding 4096 zero bytes (no region header: version 0, pid 0), as a crash could leave. */
static void make_stale(const char *name) {
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, S_IRUSR | S_IWUSR);
    CHECK(fd >= 0, "shm_open(%s) for a stale region", name);
    CHECK(ftruncate(fd, 4096) == 0, "ftruncate");
    close(fd);
}

static int exists(const char *name) {
    char path[300];
    snprintf(path, sizeof path, "/dev/shm/%s", name);
    struct stat st;
    return stat(path, &st) == 0;
}

static struct gm_port *open_shm(unsigned port) {
    struct gmx_port_options o = {.provider = "shm", .node_id = next_node++, .send_tokens = 4, .receive_tokens = 4};
    return open_port_with(port, &o);
}

static void name_of(struct gm_port *p, char *name, size_t cap) {
    size_t len = cap - 1;
    CHECK(gmx_endpoint_name(p, name, &len) == GM_SUCCESS, "endpoint name");
    name[len < cap ? len : cap - 1] = '\0';
}

/* A sends WORD to B's (node, port); B receives it. Both ports then close. */
static void exchange_and_close(struct gm_port *a, unsigned a_node, struct gm_port *b, unsigned b_node) {
    introduce_as(a, b, b_node, 3, NULL);
    introduce_as(b, a, a_node, 2, NULL);
    unsigned size = gm_min_size_for_length(SIZE);
    char *in = gm_dma_malloc(b, gm_max_length_for_size(size));
    char *out = gm_dma_malloc(a, gm_max_length_for_size(size));
    CHECK(in != NULL && out != NULL, "gm_dma_malloc");
    memcpy(out, WORD, SIZE);
    gmx_provide_receive_buffer(b, in, size, GM_LOW_PRIORITY, 7);
    gmx_send(a, out, size, SIZE, GM_LOW_PRIORITY, b_node, 3, 9);
    int sent = 0, received = 0;
    unsigned long long end = now_ms() + WAIT_MS;
    while (!(sent && received)) {
        CHECK(now_ms() < end, "the message did not arrive within %d ms", WAIT_MS);
        struct gmx_event ev[4];
        int n = gmx_poll(a, ev, 4, 0);
        for (int i = 0; i < n; i++) {
            CHECK(ev[i].type == GMX_SENT && ev[i].status == GM_SUCCESS, "send: event %u status %u", ev[i].type,
                  ev[i].status);
            sent = 1;
        }
        n = gmx_poll(b, ev, 4, 0);
        for (int i = 0; i < n; i++) {
            CHECK(ev[i].type == GMX_RECV && ev[i].length == SIZE && memcmp(in, WORD, SIZE) == 0, "receive");
            received = 1;
        }
        if (n == 0) {
            nap();
        }
    }
    gm_dma_free(b, in);
    gm_dma_free(a, out);
    gm_close(a);
    gm_close(b);
}

/* Child: opens a shm port, writes its name to the pipe, then dies by SIGKILL (when alive == 0) or waits. */
static int child_body(void *arg) {
    int *fds = arg;
    close(fds[3]); /* the parent's end of this child's pipe: the read below ends when the parent closes its own */
    struct gm_port *p = open_shm(4);
    char name[64];
    name_of(p, name, sizeof name);
    CHECK(write(fds[1], name, sizeof name) == (ssize_t) sizeof name, "write the name");
    if (fds[2] == 0) {
        raise(SIGKILL); /* like a killed run: no gm_close, the region stays */
    }
    char byte;
    ssize_t ignored = read(fds[0], &byte, 1); /* the parent closes its end when done */
    (void) ignored;
    gm_close(p);
    return 0;
}

/* Starts a child with a shm port; its region name in name. alive: whether it lives on until the pipe closes. */
static pid_t child_port(int alive, char *name, size_t cap, int *to_child) {
    int down[2], up[2];
    CHECK(pipe(down) == 0 && pipe(up) == 0, "pipe");
    int fds[4] = {down[0], up[1], alive, down[1]};
    pid_t pid = spawn(child_body, fds);
    close(down[0]);
    close(up[1]);
    char got[64];
    CHECK(read(up[0], got, sizeof got) == (ssize_t) sizeof got, "the child's region name");
    close(up[0]);
    snprintf(name, cap, "%s", got);
    *to_child = down[1];
    return pid;
}

int main(void) {
    test_start("shm");
    CHECK(gm_init() == GM_SUCCESS, "gm_init");

    /* 1: libfabric's own names for this process's endpoints, taken by regions of no valid version */
    parent = getpid();
    atexit(remove_defaults);
    for (int i = 0; i < 8; i++) {
        snprintf(defaults[i], sizeof defaults[i], "%d:%d:%d", (int) getpid(), (int) getuid(), i);
        if (!exists(defaults[i])) {
            make_stale(defaults[i]);
        }
    }
    struct gm_port *a = open_shm(2), *b = open_shm(3);
    exchange_and_close(a, 1, b, 2);
    OK("shm ports open beside stale regions with libfabric's default names of this process");

    /* 2: the name the next port would take is held by a stale region */
    a = open_shm(2);
    char last[64], taken[64], got[64];
    name_of(a, last, sizeof last);
    char *dash = strrchr(last, '-');
    CHECK(dash != NULL && strncmp(last, "gm-", 3) == 0, "libgm's region name (%s)", last);
    unsigned index = (unsigned) strtoul(dash + 1, NULL, 16);
    snprintf(taken, sizeof taken, "%.*s-%x", (int) (dash - last), last, index + 1);
    make_stale(taken);
    b = open_shm(3);
    name_of(b, got, sizeof got);
    CHECK(strcmp(got, taken) != 0 && exists(taken), "the next port skips the taken name %s (got %s)", taken, got);
    exchange_and_close(a, next_node - 2, b, next_node - 1);
    shm_unlink(taken);
    OK("a shm port skips a region name that is taken");

    /* 3: a killed child's region is removed by the next open; a live child's is kept */
    char dead[64], live[64];
    int to_dead, to_live;
    pid_t living = child_port(1, live, sizeof live, &to_live);
    pid_t killed = child_port(0, dead, sizeof dead, &to_dead);
    CHECK(reap(killed) == -1, "the child died by its signal");
    close(to_dead);
    CHECK(exists(dead) && exists(live), "both children's regions exist (%s, %s)", dead, live);
    a = open_shm(2);
    CHECK(!exists(dead), "the killed child's region %s is removed", dead);
    CHECK(exists(live), "the live child's region %s is kept", live);
    b = open_shm(3);
    exchange_and_close(a, next_node - 2, b, next_node - 1);
    close(to_live);
    CHECK(reap(living) == 0, "the live child closes its port");
    CHECK(!exists(live), "a closed port's region is gone");
    OK("a killed process's region is removed at the next open, a live one's kept");

    gm_finalize();
    return 0;
}
