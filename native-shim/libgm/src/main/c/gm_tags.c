/*
 * gm_tags.c: the libfabric tag layout (gm-libfabric.md section 2.6: bits 0-15 sender node, 16-23 sender port,
 * 24-28 size class, 29 priority, 30-31 kind) and the library's own control messages (hello, keepalive, ack,
 * reject, cancel, close, update), received by an always-posted pool of GMI_CTL_POOL buffers and sent with
 * fi_injectdata; a control message the provider refuses (-FI_EAGAIN) waits in a bounded queue and is retried by
 * progress, dropped after the ack timeout (the timers recover what it carried).
 *
 * Control messages are untagged (FI_MSG, the tag layout's kind, node and port in the remote CQ data): the pool
 * then sits in the provider's untagged receive queue, not in the tagged one ahead of the GM receive buffers,
 * which every GM message would otherwise walk past entry by entry (shm: about 3200 instructions per round trip
 * with 64 control buffers, more than a whole raw libfabric round trip). An untagged message without CQ data, or
 * whose data is not of the control kind, is dropped.
 *
 * Control message (64 bytes, little-endian): type @0, priority @1, flags @2 (bit 0: remote access allowed),
 * seq @8, acceptable-size masks @16 (low) and @20 (high), arena base @24, length @32, key @40.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_endpoint.h>

#include "gm_internal.h"

#define CTL_TYPE 0
#define CTL_PRIORITY 1
#define CTL_FLAGS 2
#define CTL_SEQ 8
#define CTL_MASK_LOW 16
#define CTL_MASK_HIGH 20
#define CTL_ARENA_BASE 24
#define CTL_ARENA_LENGTH 32
#define CTL_ARENA_KEY 40
#define CTL_MIN_LENGTH 48

uint64_t gmi_tag(unsigned kind, unsigned priority, unsigned size, unsigned node, unsigned port) {
    return (uint64_t) (node & 0xffffu) | (uint64_t) (port & 0xffu) << 16 | (uint64_t) (size & 0x1fu) << 24
           | (uint64_t) (priority & 1u) << 29 | (uint64_t) (kind & 3u) << 30;
}

uint64_t gmi_recv_ignore(void) {
    return 0x00ffffffull;
}

void gmi_tag_decode(uint64_t tag, unsigned *kind, unsigned *priority, unsigned *size, unsigned *node,
                    unsigned *port) {
    *node = (unsigned) (tag & 0xffffu);
    *port = (unsigned) (tag >> 16) & 0xffu;
    *size = (unsigned) (tag >> 24) & 0x1fu;
    *priority = (unsigned) (tag >> 29) & 1u;
    *kind = (unsigned) (tag >> 30) & 3u;
}

static void put64(uint8_t *at, uint64_t v) {
    v = htole64(v);
    memcpy(at, &v, sizeof v);
}

static void put32(uint8_t *at, uint32_t v) {
    v = htole32(v);
    memcpy(at, &v, sizeof v);
}

static uint64_t get64(const uint8_t *at) {
    uint64_t v;
    memcpy(&v, at, sizeof v);
    return le64toh(v);
}

static uint32_t get32(const uint8_t *at) {
    uint32_t v;
    memcpy(&v, at, sizeof v);
    return le32toh(v);
}

void gmi_ctl_repost(struct gm_port *p, struct gmi_ctlslot *slot) {
    int rc = (int) fi_recv(p->ep, slot->buffer, GMI_CTL_BYTES, p->ctl_reg.desc, FI_ADDR_UNSPEC, &slot->fi);
    bool was = slot->posted;
    slot->posted = rc == 0;
    if (was && !slot->posted) {
        p->ctl_unposted++;
    } else if (!was && slot->posted) {
        p->ctl_unposted--;
    }
    if (rc != 0 && rc != -FI_EAGAIN) {
        gmi_set_error("fi_recv (control buffer)", rc);
    }
}

gm_status_t gmi_ctl_setup(struct gm_port *p) {
    p->ctl_buffers = aligned_alloc(64, (size_t) GMI_CTL_POOL * GMI_CTL_BYTES);
    if (p->ctl_buffers == NULL) {
        gmi_set_message("out of memory for control buffers");
        return GM_OUT_OF_MEMORY;
    }
    gm_status_t status = gmi_mr_register(p, p->ctl_buffers, (gm_size_t) GMI_CTL_POOL * GMI_CTL_BYTES, &p->ctl_reg);
    if (status != GM_SUCCESS) {
        return status;
    }
    for (unsigned i = 0; i < GMI_CTL_POOL; i++) {
        p->ctl[i].kind = GMI_SLOT_CTL;
        p->ctl[i].buffer = p->ctl_buffers + (size_t) i * GMI_CTL_BYTES;
        p->ctl[i].posted = true;
        int rc = (int) fi_recv(p->ep, p->ctl[i].buffer, GMI_CTL_BYTES, p->ctl_reg.desc, FI_ADDR_UNSPEC,
                               &p->ctl[i].fi);
        if (rc != 0) {
            gmi_set_error("fi_recv (control pool)", rc);
            return GM_FAILURE;
        }
    }
    return GM_SUCCESS;
}

void gmi_ctl_teardown(struct gm_port *p) {
    /* called after the endpoint closed: nothing is posted any more */
    gmi_mr_close(&p->ctl_reg);
    free(p->ctl_buffers);
    p->ctl_buffers = NULL;
}

static void build(struct gm_port *p, uint8_t *msg, enum gmi_ctl_type type, unsigned priority, uint64_t seq) {
    memset(msg, 0, GMI_CTL_BYTES);
    msg[CTL_TYPE] = (uint8_t) type;
    msg[CTL_PRIORITY] = (uint8_t) priority;
    msg[CTL_FLAGS] = p->remote_access ? 1 : 0;
    put64(msg + CTL_SEQ, seq);
    put32(msg + CTL_MASK_LOW, p->masks[0]);
    put32(msg + CTL_MASK_HIGH, p->masks[1]);
    put64(msg + CTL_ARENA_BASE, (uint64_t) (uintptr_t) p->arena.base);
    put64(msg + CTL_ARENA_LENGTH, p->arena.length);
    put64(msg + CTL_ARENA_KEY, p->arena.reg.key);
}

/* 0 when sent, -FI_EAGAIN when the provider wants it later, another negative code when it failed. */
static int inject(struct gm_port *p, struct gmi_peer *peer, const uint8_t *msg) {
    return (int) fi_injectdata(p->ep, msg, CTL_MIN_LENGTH, gmi_tag(GMI_KIND_CTL, 0, 0, p->node_id, p->port_id),
                               peer->addr);
}

void gmi_ctl_send(struct gm_port *p, struct gmi_peer *peer, enum gmi_ctl_type type, unsigned priority,
                  uint64_t seq) {
    if (!peer->resolved) {
        return;
    }
    uint8_t msg[GMI_CTL_BYTES];
    build(p, msg, type, priority, seq);
    if (p->ctl_queued == 0) {
        int rc = inject(p, peer, msg);
        if (rc == 0) {
            peer->last_sent_ns = gmi_now_ns();
            return;
        }
        if (rc != -FI_EAGAIN) {
            gmi_set_error("fi_injectdata (control)", rc);
            return;
        }
    }
    if (p->ctl_queued == GMI_CTL_QUEUE) {
        return; /* full: the sender's and receiver's timers recover what this message carried */
    }
    p->ctl_queue[p->ctl_queued].peer = peer;
    memcpy(p->ctl_queue[p->ctl_queued].msg, msg, GMI_CTL_BYTES);
    p->ctl_queue[p->ctl_queued].queued_ns = gmi_now_ns();
    p->ctl_queued++;
}

void gmi_ctl_flush(struct gm_port *p) {
    if (p->ctl_queued == 0) {
        return;
    }
    uint64_t now = gmi_now_ns(), limit = (uint64_t) p->options.ack_timeout_ms * 1000000u;
    unsigned kept = 0;
    for (unsigned i = 0; i < p->ctl_queued; i++) {
        struct gmi_peer *peer = p->ctl_queue[i].peer;
        int rc = peer->resolved ? inject(p, peer, p->ctl_queue[i].msg) : -FI_EINVAL;
        if (rc == 0) {
            peer->last_sent_ns = now;
            continue;
        }
        if (rc == -FI_EAGAIN && now - p->ctl_queue[i].queued_ns < limit) {
            if (kept != i) {
                p->ctl_queue[kept] = p->ctl_queue[i];
            }
            kept++;
        }
    }
    p->ctl_queued = kept;
}

void gmi_ctl_received(struct gm_port *p, struct gmi_ctlslot *slot, uint64_t tag, size_t length) {
    unsigned kind, priority_unused, size, node, port;
    gmi_tag_decode(tag, &kind, &priority_unused, &size, &node, &port);
    const uint8_t *msg = slot->buffer;
    unsigned type = msg[CTL_TYPE], priority = msg[CTL_PRIORITY];
    struct gmi_peer *peer = NULL;
    if (kind == GMI_KIND_CTL && length >= CTL_MIN_LENGTH && priority < GM_NUM_PRIORITIES && type >= GMI_CTL_HELLO
        && type <= GMI_CTL_UPDATE) {
        peer = gmi_peer(p, node, port, true);
    }
    if (peer != NULL && !peer->resolved && !gmi_map_resolve(p, peer)) {
        peer = NULL; /* cannot answer a peer we have no address for; its timers retry */
    }
    if (peer == NULL) {
        gmi_ctl_repost(p, slot);
        return;
    }
    uint64_t seq = get64(msg + CTL_SEQ);
    peer->masks[0] = get32(msg + CTL_MASK_LOW);
    peer->masks[1] = get32(msg + CTL_MASK_HIGH);
    peer->remote_access = (msg[CTL_FLAGS] & 1) != 0;
    peer->arena_base = get64(msg + CTL_ARENA_BASE);
    peer->arena_length = get64(msg + CTL_ARENA_LENGTH);
    peer->arena_key = get64(msg + CTL_ARENA_KEY);
    gmi_ctl_repost(p, slot);
    gmi_activate(p, peer);
    gmi_peer_heard(p, peer);
    switch ((enum gmi_ctl_type) type) {
    case GMI_CTL_HELLO:
        gmi_ctl_send(p, peer, GMI_CTL_HELLO_REPLY, 0, 0);
        break;
    case GMI_CTL_ACK:
        gmi_ack_received(p, peer, priority, seq, false);
        break;
    case GMI_CTL_REJECT:
        gmi_ack_received(p, peer, priority, seq, true);
        break;
    case GMI_CTL_CANCEL: {
        struct gmi_stream *s = &peer->streams[priority];
        s->cancelled[s->cancelled_next] = seq;
        s->cancelled_next = (s->cancelled_next + 1) % 8;
        break;
    }
    case GMI_CTL_CLOSE:
        peer->closed = true;
        break;
    case GMI_CTL_HELLO_REPLY:
    case GMI_CTL_KEEPALIVE:
    case GMI_CTL_UPDATE:
        break;
    }
}
