/*
 * gmx_events.c: the port's bounded event ring (receives, send completions, peer failures, refusals; sized at
 * open to send tokens + receive tokens + GMI_SPARE_EVENTS so a completion always has room) and the gmx_poll /
 * gmx_wakeup pair the Java transport drives: batched, host byte order, contexts instead of callbacks.
 */
#include <string.h>
#include <unistd.h>

#include "gm_internal.h"

bool gmi_event_push(struct gm_port *p, enum gmi_event_kind kind, void *object) {
    if (p->event_count == p->event_cap) {
        return false; /* only spare-room events can get here: the counts of tokens bound the rest */
    }
    struct gmi_event *e = &p->events[(p->event_head + p->event_count) % p->event_cap];
    e->kind = kind;
    e->object = object;
    e->context = 0;
    e->status = 0;
    p->event_count++;
    return true;
}

bool gmi_event_push_refusal(struct gm_port *p, enum gmi_event_kind kind, uint64_t context, gm_status_t status) {
    if (!gmi_event_push(p, kind, NULL)) {
        return false;
    }
    struct gmi_event *e = &p->events[(p->event_head + p->event_count - 1) % p->event_cap];
    e->context = context;
    e->status = (uint32_t) status;
    return true;
}

bool gmi_event_pop(struct gm_port *p, struct gmi_event *out) {
    if (p->event_count == 0) {
        return false;
    }
    *out = p->events[p->event_head];
    p->event_head = (p->event_head + 1) % p->event_cap;
    p->event_count--;
    return true;
}

/* Converts one ring event; false for events gmx_poll does not report. */
static bool to_gmx(struct gm_port *p, const struct gmi_event *ev, struct gmx_event *out) {
    memset(out, 0, sizeof *out);
    switch (ev->kind) {
    case GMI_EV_RECV: {
        struct gmi_rxslot *slot = ev->object;
        out->type = GMX_RECV;
        out->context = slot->gmx_context;
        out->buffer = (uint64_t) (uintptr_t) slot->buffer;
        out->length = slot->length;
        out->sender_node = (uint16_t) slot->sender_node;
        out->sender_port = (uint8_t) slot->sender_port;
        out->size = (uint8_t) slot->size;
        out->priority = (uint8_t) slot->priority;
        out->status = GM_SUCCESS;
        gmi_rx_release(p, slot);
        return true;
    }
    case GMI_EV_SENT: {
        struct gmi_req *req = ev->object;
        out->type = GMX_SENT;
        out->context = req->use_gmx ? req->gmx_context : (uint64_t) (uintptr_t) req->context;
        out->status = req->status;
        gmi_req_release(p, req);
        return true;
    }
    case GMI_EV_PEER_FAILED: {
        struct gmi_peer *peer = ev->object;
        out->type = GMX_PEER_FAILED;
        out->sender_node = (uint16_t) peer->node;
        out->sender_port = (uint8_t) peer->port;
        return true;
    }
    case GMI_EV_SEND_VIOLATION:
        out->type = GMX_SENT;
        out->context = ev->context;
        out->status = ev->status;
        return true;
    case GMI_EV_RECV_REFUSED:
        out->type = GMX_RECV;
        out->context = ev->context;
        out->status = ev->status;
        return true;
    default:
        return false;
    }
}

static int drain(struct gm_port *p, struct gmx_event *out, int max) {
    int n = 0;
    struct gmi_event ev;
    while (n < max && gmi_event_pop(p, &ev)) {
        if (to_gmx(p, &ev, &out[n])) {
            n++;
        }
    }
    return n;
}

GMI_API int gmx_poll(struct gm_port *p, struct gmx_event *out, int max, int64_t timeout_ns) {
    if (p == NULL || out == NULL || max < 0) {
        gmi_set_message("gmx_poll: port and out must not be NULL, max >= 0");
        return -1;
    }
    pthread_mutex_lock(&p->lock);
    uint64_t deadline = timeout_ns > 0 ? gmi_now_ns() + (uint64_t) timeout_ns : 0;
    unsigned backoff = gmi_backoff_start();
    uint64_t spin_until = timeout_ns != 0 ? gmi_now_ns() + GMI_SPIN_NS : 0; /* a look (timeout 0) reads no clock */
    int result = 0;
    bool failed = false;
    for (;;) {
        if (p->closing || !gmi_progress(p)) {
            failed = true;
            break;
        }
        result = drain(p, out, max);
        if (result > 0 || timeout_ns == 0 || max == 0) {
            break;
        }
        int64_t left = -1;
        if (timeout_ns > 0) {
            uint64_t now = gmi_now_ns();
            if (now >= deadline) {
                break;
            }
            left = (int64_t) (deadline - now);
        }
        if (gmi_now_ns() < spin_until) {
            continue; /* a few microseconds of polling first: a reply is often that close */
        }
        if (gmi_wait(p, left, &backoff)) { /* gmx_wakeup: one more look, then return */
            if (p->closing || !gmi_progress(p)) {
                failed = true;
            } else {
                result = drain(p, out, max);
            }
            break;
        }
    }
    if (failed && p->closing) {
        gmi_set_message("gmx_poll: the port was closed");
    }
    pthread_mutex_unlock(&p->lock);
    return failed ? -1 : result;
}

GMI_API void gmx_wakeup(struct gm_port *p) {
    uint64_t one = 1;
    ssize_t ignored = write(p->wake_fd, &one, sizeof one); /* async-signal-safe */
    (void) ignored;
}
