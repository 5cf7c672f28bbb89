/*
 * gm_progress.c: progress and waiting. libfabric runs in manual progress mode (gm-libfabric.md section 2.6), so
 * only gmi_progress moves data: it drains the completion queue, retries what the provider refused, flushes
 * control messages, runs the peer timers (only when one is due, a peer's state changed or requests wait: the
 * sweep walks every active peer) and expires alarms. gmi_wait sleeps without holding the port lock: in
 * poll(2) on the CQ's descriptor and the wake-up eventfd where the provider has a usable FD wait object (tcp),
 * else in a bounded ppoll back-off on the eventfd alone (shm, udp, net: never fi_cq_sread, never a busy spin).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include "gm_internal.h"

#define BATCH 16
#define MAX_BATCHES 8
#define BACKOFF_MIN_US 20
#define BACKOFF_MAX_US 1000

/* The part every slot type starts with. */
struct slot_head {
    struct fi_context2 fi;
    enum gmi_slot_kind kind;
};

static void dispatch(struct gm_port *p, const struct fi_cq_tagged_entry *e) {
    struct slot_head *head = e->op_context;
    if (head == NULL) {
        return;
    }
    switch (head->kind) {
    case GMI_SLOT_TX:
        gmi_tx_completed(p, (struct gmi_txslot *) head, 0);
        break;
    case GMI_SLOT_RX:
        gmi_rx_landed(p, (struct gmi_rxslot *) head, e->tag, e->len, e->data, (e->flags & FI_REMOTE_CQ_DATA) != 0);
        break;
    case GMI_SLOT_CTL:
        /* untagged: the sender's kind, node and port travel as remote CQ data (gm_tags.c); none, and it is dropped */
        if ((e->flags & FI_REMOTE_CQ_DATA) != 0) {
            gmi_ctl_received(p, (struct gmi_ctlslot *) head, e->data, e->len);
        } else {
            gmi_ctl_repost(p, (struct gmi_ctlslot *) head);
        }
        break;
    }
}

static void dispatch_error(struct gm_port *p, const struct fi_cq_err_entry *e) {
    struct slot_head *head = e->op_context;
    if (head == NULL) {
        return;
    }
    switch (head->kind) {
    case GMI_SLOT_TX:
        gmi_tx_completed(p, (struct gmi_txslot *) head, e->err != 0 ? e->err : FI_EIO);
        break;
    case GMI_SLOT_RX:
        gmi_rx_failed(p, (struct gmi_rxslot *) head);
        break;
    case GMI_SLOT_CTL:
        gmi_ctl_repost(p, (struct gmi_ctlslot *) head);
        break;
    }
}

/* Drains the CQ (bounded); false after a fatal provider error. */
static bool drain_cq(struct gm_port *p) {
    struct fi_cq_tagged_entry entries[BATCH];
    for (int batch = 0; batch < MAX_BATCHES; batch++) {
        ssize_t n = fi_cq_read(p->cq, entries, BATCH);
        if (n == -FI_EAGAIN) {
            return true;
        }
        if (n == -FI_EAVAIL) {
            struct fi_cq_err_entry err = {0};
            ssize_t rc = fi_cq_readerr(p->cq, &err, 0);
            if (rc == 1) {
                dispatch_error(p, &err);
            } else if (rc != -FI_EAGAIN) {
                gmi_set_error("fi_cq_readerr", (int) rc);
                return false;
            }
            continue;
        }
        if (n < 0) {
            gmi_set_error("fi_cq_read", (int) n);
            return false;
        }
        for (ssize_t i = 0; i < n; i++) {
            dispatch(p, &entries[i]);
        }
        if (n < BATCH) {
            return true;
        }
    }
    return true;
}

bool gmi_progress(struct gm_port *p) {
    bool ok = drain_cq(p);
    gmi_rx_post_pending(p);
    for (unsigned i = 0; p->ctl_unposted > 0 && i < GMI_CTL_POOL; i++) {
        if (!p->ctl[i].posted) {
            gmi_ctl_repost(p, &p->ctl[i]);
        }
    }
    gmi_ctl_flush(p);
    uint64_t now = gmi_now_ns();
    if (gmi_sweep_needed(p, now)) { /* an idle poll skips the walk over the peers */
        gmi_sweep_peers(p, now);
    }
    gmi_alarms_expire(p, now);
    return ok;
}

/* How long a sleep may last: up to the caller's timeout, the next peer timer and the next alarm. */
static int64_t sleep_bound(struct gm_port *p, int64_t timeout_ns) {
    uint64_t now = gmi_now_ns();
    int64_t bound = timeout_ns < 0 ? INT64_MAX : timeout_ns;
    uint64_t next = p->next_timer_ns;
    uint64_t alarm = gmi_next_deadline(p);
    if (alarm != 0 && (next == 0 || alarm < next)) {
        next = alarm;
    }
    if (p->ctl_queued > 0 || p->unposted_rx > 0 || p->ctl_unposted > 0) {
        next = now + 1000000u; /* the provider refused something: look again in a millisecond */
    }
    if (next != 0) {
        int64_t until = next > now ? (int64_t) (next - now) : 0;
        if (until < bound) {
            bound = until;
        }
    }
    return bound;
}

bool gmi_wait(struct gm_port *p, int64_t timeout_ns, unsigned *backoff_us) {
    int64_t bound = sleep_bound(p, timeout_ns);
    if (bound <= 0 || p->event_count > 0 || p->fired_head != NULL) {
        return false;
    }
    struct pollfd fds[2] = {{.fd = p->wake_fd, .events = POLLIN}, {.fd = p->cq_fd, .events = POLLIN}};
    nfds_t nfds = 1;
    if (p->cq_fd >= 0) {
        struct fid *fid = &p->cq->fid;
        if (fi_trywait(p->fabric, &fid, 1) != 0) {
            return false; /* completions are ready: no sleep */
        }
        nfds = 2;
    } else {
        int64_t step = (int64_t) *backoff_us * 1000;
        if (step < bound) {
            bound = step;
        }
        *backoff_us = *backoff_us * 2 > BACKOFF_MAX_US ? BACKOFF_MAX_US : *backoff_us * 2;
    }
    struct timespec ts = {.tv_sec = bound / 1000000000, .tv_nsec = bound % 1000000000};
    p->pollers++;
    pthread_mutex_unlock(&p->lock);
    int n = ppoll(fds, nfds, bound == INT64_MAX ? NULL : &ts, NULL);
    bool woken = false;
    if (n > 0 && (fds[0].revents & POLLIN) != 0) {
        uint64_t count;
        woken = read(p->wake_fd, &count, sizeof count) == (ssize_t) sizeof count;
    }
    pthread_mutex_lock(&p->lock);
    p->pollers--;
    if (p->pollers == 0 && p->closing) {
        pthread_cond_broadcast(&p->idle);
    }
    return woken;
}

unsigned gmi_backoff_start(void) {
    return BACKOFF_MIN_US;
}
