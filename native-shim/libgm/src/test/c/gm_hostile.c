/*
 * gm_hostile.c PROVIDER: a raw libfabric endpoint sends a libgm port what no libgm peer would (the wire format of
 * gm-libfabric.md section 2.6): messages claiming node 0, node 5000 or port 200, a message longer than its size
 * class, control messages that are too short, of unknown type or from a node with no address. The port must raise
 * no event for any of them, keep its buffers and tokens, and then receive a real message into the same buffer.
 */
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

#include "gmtest.h"

static uint64_t tag(unsigned kind, unsigned priority, unsigned size, unsigned node, unsigned port) {
    return (uint64_t) node | (uint64_t) port << 16 | (uint64_t) size << 24 | (uint64_t) priority << 29
           | (uint64_t) kind << 30;
}

struct raw {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    fi_addr_t target;
};

static const char *full_name(const char *provider) {
    return strcmp(provider, "tcp") == 0 ? "tcp;ofi_rxm" : strcmp(provider, "udp") == 0 ? "udp;ofi_rxd" : provider;
}

static void raw_open(struct raw *r, const char *provider, const void *name) {
    struct fi_info *hints = fi_allocinfo();
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps = FI_MSG | FI_TAGGED;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED;
    hints->fabric_attr->prov_name = strdup(full_name(provider));
    int shm = strcmp(provider, "shm") == 0;
    int rc = fi_getinfo(FI_VERSION(1, 17), shm ? NULL : "127.0.0.1", NULL, shm ? 0 : FI_SOURCE, hints, &r->info);
    fi_freeinfo(hints);
    CHECK(rc == 0, "fi_getinfo: %s", fi_strerror(-rc));
    struct fi_av_attr av = {.type = FI_AV_TABLE};
    struct fi_cq_attr cq = {.size = 64, .format = FI_CQ_FORMAT_TAGGED};
    CHECK(fi_fabric(r->info->fabric_attr, &r->fabric, NULL) == 0, "fabric");
    CHECK(fi_domain(r->fabric, r->info, &r->domain, NULL) == 0, "domain");
    CHECK(fi_av_open(r->domain, &av, &r->av, NULL) == 0, "av");
    CHECK(fi_cq_open(r->domain, &cq, &r->cq, NULL) == 0, "cq");
    CHECK(fi_endpoint(r->domain, r->info, &r->ep, NULL) == 0, "endpoint");
    CHECK(fi_ep_bind(r->ep, &r->av->fid, 0) == 0 && fi_ep_bind(r->ep, &r->cq->fid, FI_TRANSMIT | FI_RECV) == 0, "bind");
    if (shm) {
        /* not libfabric's default "PID:UID:N": a region a killed run left under that name fails fi_enable (gm_shm.c) */
        char name[64];
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        snprintf(name, sizeof name, "gmtest-raw-%d-%llx-%lx", (int) getpid(), (unsigned long long) ts.tv_sec,
                 (long) ts.tv_nsec);
        CHECK(fi_setname(&r->ep->fid, name, strlen(name) + 1) == 0, "setname");
    }
    CHECK(fi_enable(r->ep) == 0, "enable");
    CHECK(fi_av_insert(r->av, name, 1, &r->target, 0, NULL) == 1, "av insert");
}

static void raw_close(struct raw *r) {
    fi_close(&r->ep->fid);
    fi_close(&r->cq->fid);
    fi_close(&r->av->fid);
    fi_close(&r->domain->fid);
    fi_close(&r->fabric->fid);
    fi_freeinfo(r->info);
}

/* Control messages are untagged, their tag in the remote CQ data (gm_tags.c): how raw_send sends each. */
enum how { TAGGED, UNTAGGED_WITH_DATA, UNTAGGED };

/*
 * Sends len bytes with tag t from the raw endpoint (tags of kind 1, control, untagged with t as CQ data) and waits
 * for its completion, progressing the port too.
 */
static void raw_send_as(struct raw *r, struct gm_port *port, const void *data, size_t len, uint64_t t, enum how how) {
    static struct fi_context2 context;
    unsigned long long end = now_ms() + WAIT_MS;
    int rc;
    do {
        rc = how == TAGGED ? (int) fi_tsend(r->ep, data, len, NULL, r->target, t, &context)
           : how == UNTAGGED ? (int) fi_send(r->ep, data, len, NULL, r->target, &context)
           : (int) fi_senddata(r->ep, data, len, NULL, t, r->target, &context);
        if (rc == 0) {
            break;
        }
        struct fi_cq_tagged_entry e;
        (void) fi_cq_read(r->cq, &e, 1); /* progress: rxm connects here */
        gm_recv_event_t *ev = gm_receive(port);
        CHECK(GM_RECV_EVENT_TYPE(ev) == GM_NO_RECV_EVENT, "no event while posting (type %u)", GM_RECV_EVENT_TYPE(ev));
    } while (rc == -FI_EAGAIN && now_ms() < end);
    CHECK(rc == 0, "fi_tsend: %s", fi_strerror(-rc));
    for (;;) {
        struct fi_cq_tagged_entry e;
        ssize_t n = fi_cq_read(r->cq, &e, 1);
        if (n == 1) {
            return;
        }
        if (n == -FI_EAVAIL) {
            struct fi_cq_err_entry err = {0};
            fi_cq_readerr(r->cq, &err, 0);
            return; /* the target refused it: fine, it is hostile */
        }
        gm_recv_event_t *ev = gm_receive(port);
        CHECK(GM_RECV_EVENT_TYPE(ev) == GM_NO_RECV_EVENT, "no event for hostile traffic (type %u)",
              GM_RECV_EVENT_TYPE(ev));
        CHECK(now_ms() < end, "raw send completion");
        nap();
    }
}

static void raw_send(struct raw *r, struct gm_port *port, const void *data, size_t len, uint64_t t) {
    raw_send_as(r, port, data, len, t, (t >> 30) == 1 ? UNTAGGED_WITH_DATA : TAGGED);
}

int main(int argc, char **argv) {
    const char *provider = argc > 1 ? argv[1] : "tcp";
    test_start(provider);
    struct gmx_port_options o = {.provider = provider, .node_id = 2, .send_tokens = 4, .receive_tokens = 8,
                                 .ack_timeout_ms = 1000, .keepalive_ms = 100, .flags = GMX_STRICT};
    struct gm_port *b = NULL, *a = NULL;
    CHECK(gmx_open(&b, 3, &o) == GM_SUCCESS, "open b");
    o.node_id = 1;
    CHECK(gmx_open(&a, 2, &o) == GM_SUCCESS, "open a");
    unsigned char name[64];
    size_t len = sizeof name;
    CHECK(gmx_endpoint_name(b, name, &len) == GM_SUCCESS, "name");
    CHECK(gmx_set_peer(a, 2, 3, name, len, NULL) == GM_SUCCESS, "a knows b");
    unsigned char name_a[64];
    size_t len_a = sizeof name_a;
    CHECK(gmx_endpoint_name(a, name_a, &len_a) == GM_SUCCESS && gmx_set_peer(b, 1, 2, name_a, len_a, NULL) == 0, "b");
    char *buf = gm_dma_malloc(b, 64);
    gm_provide_receive_buffer(b, buf, 6, GM_LOW_PRIORITY);
    struct raw r;
    raw_open(&r, provider, name);
    char junk[256];
    memset(junk, 0x5a, sizeof junk);
    raw_send(&r, b, junk, 8, tag(0, 0, 6, 0, 2));        /* node 0 */
    raw_send(&r, b, junk, 8, tag(0, 0, 6, 5000, 2));     /* node above GM_MAX_NODE_ID */
    raw_send(&r, b, junk, 8, tag(0, 0, 6, 4, 200));      /* port 200 */
    raw_send(&r, b, junk, 200, tag(0, 0, 6, 4, 1));      /* longer than size 6 allows (56 bytes) */
    raw_send(&r, b, junk, 5, tag(1, 0, 0, 4, 1));        /* control message too short */
    junk[0] = (char) 200;
    raw_send(&r, b, junk, 64, tag(1, 0, 0, 4, 1));       /* control type 200 */
    junk[0] = 4;                                         /* an ACK from node 4, whose address nobody knows */
    raw_send(&r, b, junk, 64, tag(1, 0, 0, 4, 1));
    junk[0] = 3;
    junk[1] = 9;                                         /* keepalive with priority 9 */
    raw_send(&r, b, junk, 64, tag(1, 0, 0, 1, 2));
    junk[1] = 0;                                         /* a valid keepalive from node 1 port 2, but: */
    raw_send_as(&r, b, junk, 64, 0, UNTAGGED);           /* without CQ data (no sender) */
    raw_send_as(&r, b, junk, 64, tag(0, 0, 0, 1, 2), UNTAGGED_WITH_DATA); /* data of the message kind */
    raw_send_as(&r, b, junk, 64, tag(1, 0, 0, 1, 2), TAGGED); /* tagged: no control buffer takes it */
    raw_send_as(&r, b, junk, 200, tag(1, 0, 0, 1, 2), UNTAGGED_WITH_DATA); /* longer than a control buffer */
    for (int i = 0; i < 200; i++) {
        gm_recv_event_t *ev = gm_receive(b);
        CHECK(GM_RECV_EVENT_TYPE(ev) == GM_NO_RECV_EVENT, "no event after hostile traffic");
        nap();
    }
    CHECK(gm_num_receive_tokens(b) == 7, "the buffer is still posted (tokens %u)", gm_num_receive_tokens(b));
    OK("hostile traffic raises nothing");
    /* the buffer still works */
    char *msg = gm_dma_malloc(a, 64);
    strcpy(msg, "real");
    gm_send_with_callback(a, msg, 6, 5, GM_LOW_PRIORITY, 2, 3, NULL, NULL);
    gm_recv_event_t *ev = NULL;
    unsigned long long end = now_ms() + WAIT_MS;
    while (now_ms() < end) {
        gm_recv_event_t *ea = gm_receive(a);
        if (GM_RECV_EVENT_TYPE(ea) != GM_NO_RECV_EVENT) {
            gm_unknown(a, ea);
        }
        ev = gm_receive(b);
        if (GM_RECV_EVENT_TYPE(ev) != GM_NO_RECV_EVENT) {
            break;
        }
        nap();
    }
    CHECK(ev != NULL && GM_RECV_EVENT_TYPE(ev) == GM_RECV_EVENT, "the real message arrived");
    CHECK(gm_ntohp(ev->recv.buffer) == buf && gm_ntohl(ev->recv.length) == 5 && strcmp(buf, "real") == 0,
          "into the same buffer");
    OK("the port works after hostile traffic");
    raw_close(&r);
    gm_close(b);
    gm_close(a);
    printf("all passed on %s\n", provider);
    return 0;
}
