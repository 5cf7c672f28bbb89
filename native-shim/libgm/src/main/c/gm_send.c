/*
 * gm_send.c: sends, directed sends (puts), gets, and the connection state machine per (this port, priority,
 * target node, target port) (gm-libfabric.md sections 1.5 R1/R8 and 2.6).
 *
 * A request (one per send token) waits in its stream's queue until the peer is resolved (peer table or map
 * directory), has answered a hello (which also tells us its acceptable sizes and arena), and the provider takes
 * the operation; -FI_EAGAIN leaves it queued for the next progress call, never a spin here. A posted send
 * completes on the receiver's ACK (strict mode, or keepalives off) or on the local completion while the peer is
 * alive (fast mode). A request not complete at its deadline (ack timeout after it was submitted, or after the
 * connection was resumed) fails with GM_SEND_TIMED_OUT, _TARGET_NODE_UNREACHABLE or _TARGET_PORT_CLOSED, a
 * CANCEL tells the receiver to drop that message if it lands later, and the connection stops: queued requests
 * wait (no deadline) until gm_resume_sending or gm_drop_sends.
 */
#include <string.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "gm_internal.h"

#define KEY_BASE_MASK 0x0000ffffffffffffull

struct gmi_req *gmi_req_take(struct gm_port *p) {
    struct gmi_req *req = p->free_reqs;
    if (req != NULL) {
        p->free_reqs = req->next;
        p->free_req_count--;
        memset(req, 0, sizeof *req);
    }
    return req;
}

void gmi_req_release(struct gm_port *p, struct gmi_req *req) {
    req->state = GMI_FREE;
    req->next = p->free_reqs;
    p->free_reqs = req;
    p->free_req_count++;
}

static bool need_ack(struct gm_port *p) {
    return p->strict || p->options.keepalive_ms == 0;
}

static uint64_t timeout_ns(struct gm_port *p) {
    return (uint64_t) p->options.ack_timeout_ms * 1000000u;
}

bool gmi_peer_alive(struct gm_port *p, struct gmi_peer *peer, uint64_t now) {
    if (!peer->hello_done || peer->closed) {
        return false;
    }
    uint64_t window = p->options.keepalive_ms != 0 ? 3ull * p->options.keepalive_ms * 1000000u : timeout_ns(p);
    return now - peer->last_heard_ns < window;
}

/* Hands req to the event ring (its token comes back when the event is consumed). */
static void complete(struct gm_port *p, struct gmi_req *req, gm_status_t status) {
    if (req->slot != NULL) {
        req->slot->req = NULL;
        req->slot = NULL;
    }
    req->state = GMI_DONE;
    req->status = status;
    gmi_event_push(p, GMI_EV_SENT, req);
}

static void queue_append(struct gmi_stream *s, struct gmi_req *req) {
    req->next = NULL;
    if (s->queue_tail != NULL) {
        s->queue_tail->next = req;
    } else {
        s->queue_head = req;
    }
    s->queue_tail = req;
}

static struct gmi_req *queue_pop(struct gmi_stream *s) {
    struct gmi_req *req = s->queue_head;
    if (req != NULL) {
        s->queue_head = req->next;
        if (s->queue_head == NULL) {
            s->queue_tail = NULL;
        }
        req->next = NULL;
    }
    return req;
}

static void flight_append(struct gmi_stream *s, struct gmi_req *req) {
    req->next = NULL;
    if (s->flight_tail != NULL) {
        s->flight_tail->next = req;
    } else {
        s->flight_head = req;
    }
    s->flight_tail = req;
}

static void flight_remove(struct gmi_stream *s, struct gmi_req *req) {
    struct gmi_req *prev = NULL;
    for (struct gmi_req *r = s->flight_head; r != NULL; prev = r, r = r->next) {
        if (r == req) {
            if (prev != NULL) {
                prev->next = r->next;
            } else {
                s->flight_head = r->next;
            }
            if (s->flight_tail == r) {
                s->flight_tail = prev;
            }
            r->next = NULL;
            return;
        }
    }
}

static gm_status_t status_of(int fi_error) {
    switch (fi_error) {
    case FI_ENOTCONN:
    case FI_ECONNREFUSED:
    case FI_EHOSTUNREACH:
    case FI_ECONNRESET:
    case FI_ECONNABORTED:
    case FI_ENOENT:
        return GM_SEND_TARGET_NODE_UNREACHABLE;
    case FI_ETIMEDOUT:
        return GM_SEND_TIMED_OUT;
    case FI_EACCES:
    case FI_ENOKEY:
        return GM_PERMISSION_DENIED;
    case FI_ETRUNC:
        return GM_SEND_REJECTED;
    default:
        return GM_FAILURE;
    }
}

/* Fails a flight request: completes it, cancels it at the receiver, stops its connection (GM rule R8). */
static void fail_flight(struct gm_port *p, struct gmi_req *req, gm_status_t status) {
    struct gmi_peer *peer = req->peer;
    struct gmi_stream *s = &peer->streams[req->priority];
    flight_remove(s, req);
    if (req->kind == GMI_SEND && req->seq != 0) {
        gmi_ctl_send(p, peer, GMI_CTL_CANCEL, req->priority, req->seq);
    }
    if (req->local_done && !req->acked && !need_ack(p) && peer->proof_waiters > 0) {
        peer->proof_waiters--;
    }
    complete(p, req, status);
    s->stopped = true;
    for (struct gmi_req *r = s->queue_head; r != NULL; r = r->next) {
        r->deadline_ns = 0;
    }
}

/* Fails the queued head request and stops the connection. */
static void fail_queued(struct gm_port *p, struct gmi_stream *s, gm_status_t status) {
    struct gmi_req *req = queue_pop(s);
    complete(p, req, status);
    s->stopped = true;
    for (struct gmi_req *r = s->queue_head; r != NULL; r = r->next) {
        r->deadline_ns = 0;
    }
}

/* The error for a request past its deadline on peer. */
static gm_status_t timeout_status(struct gm_port *p, struct gmi_peer *peer, uint64_t now) {
    if (peer->closed) {
        return GM_SEND_TARGET_PORT_CLOSED;
    }
    return gmi_peer_alive(p, peer, now) ? GM_SEND_TIMED_OUT : GM_SEND_TARGET_NODE_UNREACHABLE;
}

/* The provider address and key for remote_address of req; false (status set) when not allowed. */
static bool rma_target(struct gm_port *p, struct gmi_req *req, uint64_t *address, uint64_t *key,
                       gm_status_t *status) {
    struct gmi_peer *peer = req->peer;
    uint64_t k = req->remote_key;
    if (k == 0) {
        if (!peer->remote_access) {
            *status = GM_PERMISSION_DENIED;
            return false;
        }
        if (req->remote_address < peer->arena_base
            || req->remote_address + req->length > peer->arena_base + peer->arena_length) {
            *status = GM_INVALID_PARAMETER;
            return false;
        }
        k = peer->arena_key;
    }
    *key = k;
    *address = p->virt_addr ? req->remote_address : req->remote_address - (k & KEY_BASE_MASK);
    return true;
}

/*
 * Whether req goes by fi_tinjectdata (gm-libfabric.md section 3, gm_send_with_callback: inject when the length
 * fits the provider's inject size and no ack is needed): the provider has copied it when the call returns, so it
 * is done locally at once, with no provider completion to wait for and no slot. Only where the port allows it
 * (inject_sends, gm_port.c: shm, whose injected and posted sends enter one command queue in call order; net let
 * an injected send overtake a 512 KiB one, gm_order.c).
 */
static bool injectable(struct gm_port *p, const struct gmi_req *req) {
    return p->inject_sends && req->kind == GMI_SEND && req->length <= p->inject_size && !need_ack(p);
}

/* Posts req on slot (NULL to inject); 0, -FI_EAGAIN, or another negative code; *local_error set for a local
 * problem. */
static int post(struct gm_port *p, struct gmi_req *req, struct gmi_txslot *slot, gm_status_t *local_error) {
    struct gmi_peer *peer = req->peer;
    void *desc = NULL;
    if (req->length > 0 && !gmi_desc(p, req->local, req->length, &desc)) {
        *local_error = GM_MEMORY_FAULT;
        return -FI_EINVAL;
    }
    switch (req->kind) {
    case GMI_SEND: {
        uint64_t seq = peer->streams[req->priority].next_seq + 1;
        uint64_t data = seq | (need_ack(p) ? GMI_DATA_ACK_REQUESTED : 0);
        uint64_t tag = gmi_tag(GMI_KIND_MSG, req->priority, req->size, p->node_id, p->port_id);
        int rc = slot == NULL ? (int) fi_tinjectdata(p->ep, req->local, req->length, data, peer->addr, tag)
                              : (int) fi_tsenddata(p->ep, req->local, req->length, desc, data, peer->addr, tag,
                                                   &slot->fi);
        if (rc == 0) {
            peer->streams[req->priority].next_seq = seq;
            req->seq = seq;
        }
        return rc;
    }
    case GMI_PUT:
    case GMI_GET: {
        uint64_t address, key;
        if (!rma_target(p, req, &address, &key, local_error)) {
            return -FI_EINVAL;
        }
        if (req->kind == GMI_GET) {
            return (int) fi_read(p->ep, req->local, req->length, desc, peer->addr, address, key, &slot->fi);
        }
        struct iovec iov = {.iov_base = req->local, .iov_len = req->length};
        struct fi_rma_iov rma = {.addr = address, .len = req->length, .key = key};
        struct fi_msg_rma msg = {.msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = peer->addr,
                                 .rma_iov = &rma, .rma_iov_count = 1, .context = &slot->fi};
        return (int) fi_writemsg(p->ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE);
    }
    default:
        *local_error = GM_INTERNAL_ERROR;
        return -FI_EINVAL;
    }
}

/*
 * Whether req must wait for what the stream has in flight: after RMA when the provider does not order sends with
 * it; a send after a send longer than the provider's ordered length (tcp;ofi_rxm completes the receive of a message
 * above its 16 KiB eager buffer after the receives of shorter messages sent behind it; gm_order.c shows it), until
 * that send is done locally, which for such a send means the receiver has taken all of it.
 */
static bool must_wait_for_order(struct gm_port *p, struct gmi_stream *s, struct gmi_req *req) {
    if (s->flight_head == NULL) {
        return false;
    }
    if (req->kind != GMI_SEND) {
        return !p->rma_ordered;
    }
    for (struct gmi_req *r = s->flight_head; r != NULL; r = r->next) {
        if (r->kind != GMI_SEND ? !p->rma_ordered : !r->local_done && r->length > p->ordered_length) {
            return true;
        }
    }
    return false;
}

/* A flight request done locally: complete unless it waits for the peer's ack or, fast mode, for a sign of life. */
static void done_locally(struct gm_port *p, struct gmi_stream *s, struct gmi_req *req, uint64_t now) {
    req->local_done = true;
    if (req->kind != GMI_SEND || req->acked) {
        flight_remove(s, req);
        complete(p, req, GM_SUCCESS);
    } else if (!need_ack(p)) {
        if (gmi_peer_alive(p, req->peer, now)) {
            flight_remove(s, req);
            complete(p, req, GM_SUCCESS);
        } else {
            req->peer->proof_waiters++;
        }
    }
}

/* Posts what the stream's queue holds, as far as the peer and the provider allow. */
static void post_stream(struct gm_port *p, struct gmi_peer *peer, struct gmi_stream *s, uint64_t now) {
    while (s->queue_head != NULL && !s->stopped) {
        struct gmi_req *req = s->queue_head;
        if (req->kind == GMI_SEND && (peer->masks[req->priority] & (1u << req->size)) == 0) {
            fail_queued(p, s, GM_SEND_REJECTED);
            return;
        }
        bool inject = injectable(p, req);
        if (must_wait_for_order(p, s, req) || (!inject && p->free_tx == NULL)) {
            return;
        }
        struct gmi_txslot *slot = inject ? NULL : p->free_tx;
        gm_status_t local_error = GM_SUCCESS;
        int rc = post(p, req, slot, &local_error);
        if (rc == -FI_EAGAIN) {
            return;
        }
        if (rc != 0) {
            if (local_error != GM_SUCCESS) {
                complete(p, queue_pop(s), local_error); /* the caller's mistake: the connection goes on */
                continue;
            }
            gmi_set_error("posting a send", rc);
            fail_queued(p, s, status_of(-rc));
            return;
        }
        queue_pop(s);
        req->state = GMI_POSTED;
        req->posted_ns = now;
        peer->last_sent_ns = now;
        flight_append(s, req);
        if (inject) {
            done_locally(p, s, req, now);
        } else {
            p->free_tx = slot->next_free;
            slot->req = req;
            req->slot = slot;
        }
    }
}

/* Makes the peer usable (address, hello) and posts its queues; returns the next time it needs a look. */
static uint64_t serve_peer(struct gm_port *p, struct gmi_peer *peer, uint64_t now) {
    uint64_t retry = timeout_ns(p) / 8 > 20000000u ? 20000000u : timeout_ns(p) / 8;
    bool work = peer->streams[0].queue_head != NULL || peer->streams[1].queue_head != NULL;
    if (!peer->resolved) {
        if (work && p->map_dir[0] != '\0' && now - peer->resolve_tried_ns >= retry) {
            peer->resolve_tried_ns = now;
            gmi_map_resolve(p, peer);
        }
        if (!peer->resolved) {
            return work ? now + retry : 0;
        }
    }
    if (!peer->hello_done) {
        if (work && now - peer->hello_sent_ns >= retry) {
            peer->hello_sent_ns = now;
            gmi_ctl_send(p, peer, GMI_CTL_HELLO, 0, 0);
        }
        return work ? now + retry : 0;
    }
    if (peer->closed) {
        return 0; /* nothing is posted to a closed port: expire_peer fails its requests */
    }
    for (unsigned prio = 0; prio < GM_NUM_PRIORITIES; prio++) {
        post_stream(p, peer, &peer->streams[prio], now);
    }
    return 0;
}

/* Fails what is past its deadline (or aimed at a closed port); returns the earliest deadline left. */
static uint64_t expire_peer(struct gm_port *p, struct gmi_peer *peer, uint64_t now) {
    uint64_t next = 0;
    for (unsigned prio = 0; prio < GM_NUM_PRIORITIES; prio++) {
        struct gmi_stream *s = &peer->streams[prio];
        for (struct gmi_req *r = s->flight_head, *after; r != NULL; r = after) {
            after = r->next;
            if (r->deadline_ns != 0 && (now >= r->deadline_ns || peer->closed)) {
                fail_flight(p, r, timeout_status(p, peer, now));
            } else if (r->deadline_ns != 0 && (next == 0 || r->deadline_ns < next)) {
                next = r->deadline_ns;
            }
        }
        struct gmi_req *head = s->queue_head;
        if (head != NULL && !s->stopped && head->deadline_ns != 0) {
            if (now >= head->deadline_ns || peer->closed) {
                fail_queued(p, s, timeout_status(p, peer, now));
            } else if (next == 0 || head->deadline_ns < next) {
                next = head->deadline_ns;
            }
        }
    }
    return next;
}

static uint64_t earliest(uint64_t a, uint64_t b) {
    return a == 0 ? b : b == 0 ? a : a < b ? a : b;
}

/* Keepalives out, silent peers reported failed; returns the next time this peer needs a look. */
static uint64_t keepalive_peer(struct gm_port *p, struct gmi_peer *peer, uint64_t now) {
    uint64_t period = (uint64_t) p->options.keepalive_ms * 1000000u;
    if (period == 0 || !peer->hello_done || peer->closed || !peer->resolved) {
        return 0;
    }
    if (now - peer->last_sent_ns >= period) {
        gmi_ctl_send(p, peer, GMI_CTL_KEEPALIVE, 0, 0);
        peer->last_sent_ns = now;
    }
    if (!peer->failed && now - peer->last_heard_ns > 3 * period) {
        peer->failed = true;
        gmi_event_push(p, GMI_EV_PEER_FAILED, peer);
    }
    uint64_t next = peer->last_sent_ns + period;
    return peer->failed ? next : earliest(next, peer->last_heard_ns + 3 * period + 1);
}

void gmi_sweep_peers(struct gm_port *p, uint64_t now) {
    uint64_t next = 0;
    bool work = false;
    for (struct gmi_peer *peer = p->active; peer != NULL; peer = peer->next_active) {
        next = earliest(next, serve_peer(p, peer, now));
        next = earliest(next, expire_peer(p, peer, now));
        next = earliest(next, keepalive_peer(p, peer, now));
        for (unsigned prio = 0; prio < GM_NUM_PRIORITIES; prio++) {
            work |= peer->streams[prio].queue_head != NULL && !peer->streams[prio].stopped;
        }
    }
    p->next_timer_ns = next;
    p->work_left = work;
    p->sweep_due = false;
}

bool gmi_sweep_needed(const struct gm_port *p, uint64_t now) {
    return p->sweep_due || p->work_left || (p->next_timer_ns != 0 && now >= p->next_timer_ns);
}

void gmi_peer_heard(struct gm_port *p, struct gmi_peer *peer) {
    peer->last_heard_ns = gmi_now_ns();
    peer->hello_done = true;
    peer->failed = false;
    peer->closed = false;
    if (peer->proof_waiters == 0) {
        return;
    }
    for (unsigned prio = 0; prio < GM_NUM_PRIORITIES; prio++) {
        struct gmi_stream *s = &peer->streams[prio];
        for (struct gmi_req *r = s->flight_head, *after; r != NULL; r = after) {
            after = r->next;
            if (r->kind == GMI_SEND && r->local_done) {
                flight_remove(s, r);
                peer->proof_waiters--;
                complete(p, r, GM_SUCCESS);
            }
        }
    }
}

void gmi_tx_completed(struct gm_port *p, struct gmi_txslot *slot, int error) {
    struct gmi_req *req = slot->req;
    slot->req = NULL;
    slot->next_free = p->free_tx;
    p->free_tx = slot;
    if (req == NULL) {
        return; /* failed and detached earlier: only the slot comes back */
    }
    req->slot = NULL;
    struct gmi_stream *s = &req->peer->streams[req->priority];
    if (error != 0) {
        fail_flight(p, req, status_of(error));
        return;
    }
    done_locally(p, s, req, gmi_now_ns());
}

void gmi_ack_received(struct gm_port *p, struct gmi_peer *peer, unsigned priority, uint64_t seq, bool rejected) {
    struct gmi_stream *s = &peer->streams[priority];
    for (struct gmi_req *r = s->flight_head; r != NULL; r = r->next) {
        if (r->kind == GMI_SEND && r->seq == seq) {
            if (rejected) {
                fail_flight(p, r, GM_SEND_REJECTED);
            } else if (r->local_done) {
                flight_remove(s, r);
                complete(p, r, GM_SUCCESS);
            } else {
                r->acked = true;
            }
            return;
        }
    }
}

void gmi_req_submit(struct gm_port *p, struct gmi_req *req, unsigned node, unsigned port) {
    struct gmi_peer *peer = gmi_peer(p, node, port, true);
    if (peer == NULL || req->priority >= GM_NUM_PRIORITIES) {
        gmi_set_message("target node must be 1..4095, port 0..7, priority 0 or 1");
        complete(p, req, GM_INVALID_PARAMETER);
        return;
    }
    req->peer = peer;
    struct gmi_stream *s = &peer->streams[req->priority];
    uint64_t now = gmi_now_ns();
    if (req->kind == GMI_RESUME || req->kind == GMI_DROP) {
        while (req->kind == GMI_DROP && s->queue_head != NULL) {
            complete(p, queue_pop(s), GM_SEND_DROPPED);
        }
        s->stopped = false;
        for (struct gmi_req *r = s->queue_head; r != NULL; r = r->next) {
            r->deadline_ns = now + timeout_ns(p);
        }
        complete(p, req, GM_SUCCESS);
        gmi_activate(p, peer);
        serve_peer(p, peer, now);
        return;
    }
    req->deadline_ns = s->stopped ? 0 : now + timeout_ns(p);
    req->state = GMI_QUEUED;
    queue_append(s, req);
    gmi_activate(p, peer);
    serve_peer(p, peer, now);
}

/* ---- the calls -------------------------------------------------------------------------------------------- */

/* A request for the caller, or NULL after reporting a token violation (the caller had no token). */
static struct gmi_req *take_for_call(struct gm_port *p, enum gmi_req_kind kind, unsigned priority,
                                     uint64_t context) {
    struct gmi_req *req = gmi_req_take(p);
    if (req == NULL) {
        gmi_set_message("no send token: wait for a completion before sending again");
        gmi_event_push_refusal(p, GMI_EV_SEND_VIOLATION, context, GM_TRY_AGAIN);
        return NULL;
    }
    req->kind = kind;
    req->priority = priority;
    return req;
}

static void send_common(struct gm_port *p, struct gmi_req *req, void *message, unsigned size, gm_size_t length,
                        unsigned node, unsigned port) {
    req->local = message;
    req->size = size;
    req->length = length;
    if (size > GM_MAX_SIZE_CLASS || length > gm_max_length_for_size(size) || (message == NULL && length > 0)) {
        gmi_set_message("send: length must fit the size class (gm_max_length_for_size) and size be 0..31");
        complete(p, req, GM_INVALID_PARAMETER);
        return;
    }
    gmi_req_submit(p, req, node, port);
}

GMI_API void gm_send_with_callback(struct gm_port *p, void *message, unsigned size, gm_size_t length,
                                   unsigned priority, unsigned target_node, unsigned target_port,
                                   gm_send_completion_callback_t callback, void *context) {
    pthread_mutex_lock(&p->lock);
    struct gmi_req *req = take_for_call(p, GMI_SEND, priority, (uint64_t) (uintptr_t) context);
    if (req != NULL) {
        req->callback = callback;
        req->context = context;
        send_common(p, req, message, size, length, target_node, target_port);
    }
    pthread_mutex_unlock(&p->lock);
}

GMI_API void gm_send_to_peer_with_callback(struct gm_port *p, void *message, unsigned size, gm_size_t length,
                                           unsigned priority, unsigned target_node,
                                           gm_send_completion_callback_t callback, void *context) {
    gm_send_with_callback(p, message, size, length, priority, target_node, p->port_id, callback, context);
}

GMI_API void gm_datagram_send(struct gm_port *p, void *message, unsigned size, gm_size_t length,
                              unsigned priority, unsigned target_node, unsigned target_port,
                              gm_send_completion_callback_t callback, void *context) {
    (void) message;
    (void) size;
    (void) length;
    (void) target_node;
    (void) target_port;
    pthread_mutex_lock(&p->lock);
    struct gmi_req *req = take_for_call(p, GMI_UNSUPPORTED, priority, (uint64_t) (uintptr_t) context);
    if (req != NULL) {
        req->callback = callback;
        req->context = context;
        gmi_set_message("gm_datagram_send is not supported: use gm_send_with_callback");
        complete(p, req, GM_NOT_SUPPORTED_ON_ARCH);
    }
    pthread_mutex_unlock(&p->lock);
}

GMI_API void gmx_send(struct gm_port *p, void *message, unsigned size, gm_size_t length, unsigned priority,
                      unsigned target_node, unsigned target_port, uint64_t context) {
    pthread_mutex_lock(&p->lock);
    struct gmi_req *req = take_for_call(p, GMI_SEND, priority, context);
    if (req != NULL) {
        req->use_gmx = true;
        req->gmx_context = context;
        send_common(p, req, message, size, length, target_node, target_port);
    }
    pthread_mutex_unlock(&p->lock);
}

static void rma_common(struct gm_port *p, enum gmi_req_kind kind, void *local, uint64_t remote, uint64_t key,
                       gm_size_t length, unsigned priority, unsigned node, unsigned port, bool use_gmx,
                       gm_send_completion_callback_t callback, void *context, uint64_t gmx_context) {
    pthread_mutex_lock(&p->lock);
    struct gmi_req *req = take_for_call(p, kind, priority, use_gmx ? gmx_context : (uint64_t) (uintptr_t) context);
    if (req != NULL) {
        req->use_gmx = use_gmx;
        req->callback = callback;
        req->context = context;
        req->gmx_context = gmx_context;
        req->local = local;
        req->length = length;
        req->remote_address = remote;
        req->remote_key = key;
        if ((local == NULL && length > 0) || length > ((gm_size_t) 1 << 31)) {
            gmi_set_message("put/get: local must be DMA-able memory and length at most 2^31");
            complete(p, req, GM_INVALID_PARAMETER);
        } else {
            gmi_req_submit(p, req, node, port);
        }
    }
    pthread_mutex_unlock(&p->lock);
}

GMI_API void gm_directed_send_with_callback(struct gm_port *p, void *source, gm_remote_ptr_t target,
                                            gm_size_t length, enum gm_priority priority, unsigned target_node,
                                            unsigned target_port, gm_send_completion_callback_t callback,
                                            void *context) {
    rma_common(p, GMI_PUT, source, target, 0, length, priority, target_node, target_port, false, callback,
               context, 0);
}

GMI_API void gm_put(struct gm_port *p, void *local, gm_remote_ptr_t remote, gm_size_t length,
                    enum gm_priority priority, unsigned target_node, unsigned target_port,
                    gm_send_completion_callback_t callback, void *context) {
    rma_common(p, GMI_PUT, local, remote, 0, length, priority, target_node, target_port, false, callback, context,
               0);
}

GMI_API void gm_get(struct gm_port *p, gm_remote_ptr_t remote, void *local, gm_size_t length,
                    enum gm_priority priority, unsigned target_node, unsigned target_port,
                    gm_send_completion_callback_t callback, void *context) {
    rma_common(p, GMI_GET, local, remote, 0, length, priority, target_node, target_port, false, callback, context,
               0);
}

GMI_API void gmx_put(struct gm_port *p, void *local, uint64_t remote_address, uint64_t remote_key,
                     gm_size_t length, unsigned priority, unsigned target_node, unsigned target_port,
                     uint64_t context) {
    rma_common(p, GMI_PUT, local, remote_address, remote_key, length, priority, target_node, target_port, true,
               NULL, NULL, context);
}

GMI_API void gmx_get(struct gm_port *p, uint64_t remote_address, uint64_t remote_key, void *local,
                     gm_size_t length, unsigned priority, unsigned target_node, unsigned target_port,
                     uint64_t context) {
    rma_common(p, GMI_GET, local, remote_address, remote_key, length, priority, target_node, target_port, true,
               NULL, NULL, context);
}

static void connection_call(struct gm_port *p, enum gmi_req_kind kind, unsigned priority, unsigned node,
                            unsigned port, bool use_gmx, gm_send_completion_callback_t callback, void *context,
                            uint64_t gmx_context) {
    pthread_mutex_lock(&p->lock);
    struct gmi_req *req = take_for_call(p, kind, priority, use_gmx ? gmx_context : (uint64_t) (uintptr_t) context);
    if (req != NULL) {
        req->use_gmx = use_gmx;
        req->callback = callback;
        req->context = context;
        req->gmx_context = gmx_context;
        gmi_req_submit(p, req, node, port);
    }
    pthread_mutex_unlock(&p->lock);
}

GMI_API void gm_resume_sending(struct gm_port *p, unsigned priority, unsigned target_node, unsigned target_port,
                               gm_send_completion_callback_t callback, void *context) {
    connection_call(p, GMI_RESUME, priority, target_node, target_port, false, callback, context, 0);
}

GMI_API void gm_drop_sends(struct gm_port *p, unsigned priority, unsigned target_node, unsigned target_port,
                           gm_send_completion_callback_t callback, void *context) {
    connection_call(p, GMI_DROP, priority, target_node, target_port, false, callback, context, 0);
}

GMI_API void gmx_resume_sending(struct gm_port *p, unsigned priority, unsigned target_node, unsigned target_port,
                                uint64_t context) {
    connection_call(p, GMI_RESUME, priority, target_node, target_port, true, NULL, NULL, context);
}

GMI_API void gmx_drop_sends(struct gm_port *p, unsigned priority, unsigned target_node, unsigned target_port,
                            uint64_t context) {
    connection_call(p, GMI_DROP, priority, target_node, target_port, true, NULL, NULL, context);
}
