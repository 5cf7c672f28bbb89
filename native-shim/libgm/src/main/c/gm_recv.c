/*
 * gm_recv.c: receive buffers and the GM receive loop (gm-libfabric.md sections 1.3 and 2.5). A provided buffer
 * is one fi_trecv for exactly (size, priority) with the sender bits ignored, so libfabric's tag matching gives
 * GM's exact-size rule (R4) and FIFO use of same-class buffers. A message that lands is acknowledged when the
 * sender asked for it, rejected (GM_SEND_REJECTED at the sender) when its size is not acceptable, and dropped
 * when the sender cancelled it; in the last two cases the buffer is posted again and no event is raised.
 * gm_receive returns one event per call; callbacks and alarm callbacks run only in gm_unknown (R9).
 */
#include <string.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

#include "gm_internal.h"

#define SPIN_ROUNDS 64

/* fi_trecv for slot; true when posted, false when the provider wants it later (slot stays pending). */
static bool post_rx(struct gm_port *p, struct gmi_rxslot *slot) {
    void *desc = NULL;
    gm_size_t length = gm_max_length_for_size(slot->size);
    gmi_desc(p, slot->buffer, length, &desc);
    int rc = (int) fi_trecv(p->ep, slot->buffer, length, desc, FI_ADDR_UNSPEC,
                            gmi_tag(GMI_KIND_MSG, slot->priority, slot->size, 0, 0), gmi_recv_ignore(), &slot->fi);
    if (rc != 0 && rc != -FI_EAGAIN) {
        gmi_set_error("fi_trecv", rc);
    }
    return rc == 0;
}

void gmi_rx_release(struct gm_port *p, struct gmi_rxslot *slot) {
    slot->in_use = false;
    slot->next_free = p->free_rx;
    p->free_rx = slot;
    p->free_rx_count++;
}

static void repost(struct gm_port *p, struct gmi_rxslot *slot) {
    slot->posted = post_rx(p, slot);
    if (!slot->posted) {
        p->unposted_rx++;
    }
}

void gmi_rx_post_pending(struct gm_port *p) {
    if (p->unposted_rx == 0) {
        return;
    }
    unsigned receives = p->options.receive_tokens;
    for (unsigned i = 0; i < receives && p->unposted_rx > 0; i++) {
        struct gmi_rxslot *slot = &p->rxslots[i];
        if (slot->in_use && !slot->posted && post_rx(p, slot)) {
            slot->posted = true;
            p->unposted_rx--;
        }
    }
}

void gmi_rx_failed(struct gm_port *p, struct gmi_rxslot *slot) {
    /* truncated (a sender lied about the size) or cancelled: the buffer is the client's still */
    slot->posted = false;
    repost(p, slot);
}

static bool take_cancelled(struct gmi_stream *s, uint64_t seq) {
    for (unsigned i = 0; i < 8; i++) {
        if (s->cancelled[i] == seq && seq != 0) {
            s->cancelled[i] = 0;
            return true;
        }
    }
    return false;
}

void gmi_rx_landed(struct gm_port *p, struct gmi_rxslot *slot, uint64_t tag, uint64_t length, uint64_t data,
                   bool has_data) {
    unsigned kind, priority, size, node, port;
    gmi_tag_decode(tag, &kind, &priority, &size, &node, &port);
    struct gmi_peer *peer = gmi_peer(p, node, port, true);
    slot->posted = false;
    if (kind != GMI_KIND_MSG || peer == NULL || priority != slot->priority || size != slot->size
        || length > gm_max_length_for_size(size)) {
        repost(p, slot); /* hostile or corrupt: keep the buffer, raise nothing */
        return;
    }
    uint64_t seq = has_data ? data & ~GMI_DATA_ACK_REQUESTED : 0;
    struct gmi_stream *s = &peer->streams[priority];
    if (take_cancelled(s, seq)) {
        repost(p, slot);
        return;
    }
    if (!peer->resolved && p->map_dir[0] != '\0') {
        gmi_map_resolve(p, peer);
    }
    gmi_activate(p, peer);
    gmi_peer_heard(p, peer);
    if ((p->masks[priority] & (1u << size)) == 0) {
        gmi_ctl_send(p, peer, GMI_CTL_REJECT, priority, seq);
        repost(p, slot);
        return;
    }
    if (has_data && (data & GMI_DATA_ACK_REQUESTED) != 0) {
        gmi_ctl_send(p, peer, GMI_CTL_ACK, priority, seq);
    }
    slot->length = length;
    slot->sender_node = node;
    slot->sender_port = port;
    gmi_event_push(p, GMI_EV_RECV, slot);
}

/* Takes a receive token and posts buffer; a refusal becomes an event (GM_RECV_TOKEN_VIOLATION_EVENT or a
 * refused GMX_RECV). */
static void provide(struct gm_port *p, void *buffer, unsigned size, unsigned priority, unsigned tag,
                    uint64_t context) {
    gm_status_t refusal = GM_SUCCESS;
    if (buffer == NULL || size > GM_MAX_SIZE_CLASS || priority >= GM_NUM_PRIORITIES || tag > 255) {
        gmi_set_message("receive buffer: size 0..31, priority 0 or 1, tag 0..255, buffer not NULL");
        refusal = GM_INVALID_PARAMETER;
    } else if (!gmi_desc(p, buffer, gm_max_length_for_size(size), &(void *) {NULL})) {
        gmi_set_message("receive buffer: not DMA-able memory of this port (gm_dma_malloc, gm_register_memory)");
        refusal = GM_MEMORY_FAULT;
    } else if (p->free_rx == NULL) {
        gmi_set_message("no receive token: wait for a receive event before providing another buffer");
        refusal = GM_TRY_AGAIN;
    }
    if (refusal != GM_SUCCESS) {
        gmi_event_push_refusal(p, GMI_EV_RECV_REFUSED, context, refusal);
        return;
    }
    struct gmi_rxslot *slot = p->free_rx;
    p->free_rx = slot->next_free;
    p->free_rx_count--;
    slot->next_free = NULL;
    slot->buffer = buffer;
    slot->size = size;
    slot->priority = priority;
    slot->tag = tag;
    slot->gmx_context = context;
    slot->posted = false;
    slot->in_use = true;
    repost(p, slot);
}

GMI_API void gm_provide_receive_buffer_with_tag(struct gm_port *p, void *ptr, unsigned size, unsigned priority,
                                                unsigned tag) {
    pthread_mutex_lock(&p->lock);
    provide(p, ptr, size, priority, tag, 0);
    pthread_mutex_unlock(&p->lock);
}

GMI_API void gm_provide_receive_buffer(struct gm_port *p, void *ptr, unsigned size, unsigned priority) {
    gm_provide_receive_buffer_with_tag(p, ptr, size, priority, 0);
}

GMI_API void gmx_provide_receive_buffer(struct gm_port *p, void *buffer, unsigned size, unsigned priority,
                                        uint64_t context) {
    pthread_mutex_lock(&p->lock);
    provide(p, buffer, size, priority, 0, context);
    pthread_mutex_unlock(&p->lock);
}

void gmi_tell_peers(struct gm_port *p) {
    for (struct gmi_peer *peer = p->active; peer != NULL; peer = peer->next_active) {
        if (peer->hello_done && !peer->closed) {
            gmi_ctl_send(p, peer, GMI_CTL_UPDATE, 0, 0);
        }
    }
}

GMI_API gm_status_t gm_set_acceptable_sizes(struct gm_port *p, enum gm_priority priority, gm_size_t mask) {
    if (p == NULL || (unsigned) priority >= GM_NUM_PRIORITIES) {
        return GM_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&p->lock);
    p->masks[priority] = (uint32_t) mask;
    gmi_tell_peers(p);
    pthread_mutex_unlock(&p->lock);
    return GM_SUCCESS;
}

/* ---- the receive loop ----------------------------------------------------------------------------------- */

/* Token violations and unhandled completions left by the last record are settled before the next one. */
static void settle_current(struct gm_port *p) {
    if (p->current_event.kind == GMI_EV_SENT) {
        gmi_req_release(p, p->current_event.object); /* the client skipped gm_unknown: no callback, token back */
    }
    p->current_event.kind = GMI_EV_NONE;
    p->current_event.object = NULL;
}

static uint8_t recv_type(struct gm_port *p, const struct gmi_rxslot *slot) {
    bool high = slot->priority == GM_HIGH_PRIORITY, peer = slot->sender_port == p->port_id;
    return high ? (peer ? GM_HIGH_PEER_RECV_EVENT : GM_HIGH_RECV_EVENT) : (peer ? GM_PEER_RECV_EVENT : GM_RECV_EVENT);
}

/* Fills p->current from the next event; false when there is none. */
static bool next_record(struct gm_port *p) {
    gm_recv_event_t *e = &p->current;
    memset(e, 0, sizeof *e);
    gm_alarm_t *alarm;
    if (gmi_alarm_pop(p, &alarm)) {
        p->current_event.kind = GMI_EV_ALARM;
        p->current_event.object = alarm;
        e->any.type = GM_ALARM_EVENT;
        return true;
    }
    struct gmi_event ev;
    while (gmi_event_pop(p, &ev)) {
        switch (ev.kind) {
        case GMI_EV_RECV: {
            struct gmi_rxslot *slot = ev.object;
            e->recv.message = gm_hton_up(slot->buffer);
            e->recv.buffer = gm_hton_up(slot->buffer);
            e->recv.length = gm_hton_u32((uint32_t) slot->length);
            e->recv.sender_node_id = gm_hton_u16((uint16_t) slot->sender_node);
            e->recv.tag = (uint8_t) slot->tag;
            e->recv.size = (uint8_t) slot->size;
            e->recv.sender_port_id = (uint8_t) slot->sender_port;
            e->recv.type = recv_type(p, slot);
            gmi_rx_release(p, slot);
            return true;
        }
        case GMI_EV_SENT:
            p->current_event = ev;
            e->any.type = GM_SENT_TOKENS_EVENT;
            return true;
        case GMI_EV_SEND_VIOLATION:
            e->any.type = GM_SEND_TOKEN_VIOLATION_EVENT;
            return true;
        case GMI_EV_RECV_REFUSED:
            e->any.type = ev.status == GM_TRY_AGAIN ? GM_RECV_TOKEN_VIOLATION_EVENT : GM_BAD_RECV_TOKEN_EVENT;
            return true;
        default:
            break; /* peer failures: C clients see them as send errors */
        }
    }
    return false;
}

GMI_API gm_recv_event_t *gm_receive(struct gm_port *p) {
    pthread_mutex_lock(&p->lock);
    settle_current(p);
    gmi_progress(p);
    next_record(p);
    pthread_mutex_unlock(&p->lock);
    return &p->current;
}

GMI_API int gm_receive_pending(struct gm_port *p) {
    pthread_mutex_lock(&p->lock);
    gmi_progress(p);
    int pending = p->event_count > 0 || p->fired_head != NULL;
    pthread_mutex_unlock(&p->lock);
    return pending;
}

static gm_recv_event_t *blocking(struct gm_port *p, unsigned spins) {
    pthread_mutex_lock(&p->lock);
    settle_current(p);
    unsigned backoff = gmi_backoff_start();
    for (unsigned round = 0;; round++) {
        gmi_progress(p);
        if (next_record(p)) {
            break;
        }
        if (round >= spins) {
            gmi_wait(p, -1, &backoff);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return &p->current;
}

GMI_API gm_recv_event_t *gm_blocking_receive(struct gm_port *p) {
    return blocking(p, SPIN_ROUNDS);
}

GMI_API gm_recv_event_t *gm_blocking_receive_no_spin(struct gm_port *p) {
    return blocking(p, 0);
}

GMI_API void gm_unknown(struct gm_port *p, gm_recv_event_t *e) {
    pthread_mutex_lock(&p->lock);
    if (e != &p->current) {
        pthread_mutex_unlock(&p->lock);
        return;
    }
    struct gmi_event ev = p->current_event;
    p->current_event.kind = GMI_EV_NONE;
    p->current_event.object = NULL;
    uint8_t type = e->any.type;
    if (ev.kind == GMI_EV_SENT) {
        struct gmi_req *req = ev.object;
        gm_send_completion_callback_t callback = req->callback;
        void *context = req->context;
        gm_status_t status = req->status;
        gmi_req_release(p, req);
        pthread_mutex_unlock(&p->lock);
        if (callback != NULL) {
            callback(p, context, status);
        }
        return;
    }
    if (ev.kind == GMI_EV_ALARM) {
        gm_alarm_t *alarm = ev.object;
        void (*callback)(void *) = alarm->_callback;
        void *context = alarm->_context;
        pthread_mutex_unlock(&p->lock);
        if (callback != NULL) {
            callback(context);
        }
        return;
    }
    if (type >= GM_RECV_EVENT && type <= GM_HIGH_PEER_RECV_EVENT) {
        /* GM 1 manual, gm_unknown: a receive event handed back returns the buffer to the library */
        provide(p, gm_ntoh_up(e->recv.buffer), e->recv.size,
                type == GM_HIGH_RECV_EVENT || type == GM_HIGH_PEER_RECV_EVENT, e->recv.tag, 0);
    }
    pthread_mutex_unlock(&p->lock);
}

GMI_API void *gm_memorize_message(void *message, void *buffer, unsigned length) {
    if (message != buffer) {
        memmove(buffer, message, length);
    }
    return buffer;
}
