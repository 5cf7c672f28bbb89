/*
 * gm_port.c: the library's reference count, opening and closing ports over libfabric (provider choice, one
 * FI_EP_RDM endpoint, an FI_AV_TABLE, one tagged CQ, manual progress: gm-libfabric.md section 2.5), the peer
 * table, and the identity calls (node ids, host names, tokens, sizes).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_eq.h>

#include "gm_internal.h"

/* The library's only process-wide state: gm_init's reference count (gm-libfabric.md section 2.5). */
static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned library_refs;
/* Per thread, like errno: what failed last (gmx_last_error). */
static __thread char last_error[256];

uint64_t gmi_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

void gmi_set_error(const char *what, int fi_rc) {
    snprintf(last_error, sizeof last_error, "%s: %s (%d)", what, fi_strerror(fi_rc < 0 ? -fi_rc : fi_rc), fi_rc);
}

void gmi_set_message(const char *message) {
    snprintf(last_error, sizeof last_error, "%s", message);
}

GMI_API const char *gmx_last_error(void) {
    return last_error;
}

GMI_API gm_status_t gm_init(void) {
    pthread_mutex_lock(&library_lock);
    library_refs++;
    pthread_mutex_unlock(&library_lock);
    return GM_SUCCESS;
}

GMI_API void gm_finalize(void) {
    pthread_mutex_lock(&library_lock);
    if (library_refs > 0) {
        library_refs--;
    }
    pthread_mutex_unlock(&library_lock);
}

/* "tcp" -> "tcp;ofi_rxm" etc.; NULL for an unknown name. */
static const char *provider_name(const char *provider) {
    if (provider == NULL || strcmp(provider, "tcp") == 0) {
        return "tcp;ofi_rxm";
    }
    if (strcmp(provider, "shm") == 0) {
        return "shm";
    }
    if (strcmp(provider, "udp") == 0) {
        return "udp;ofi_rxd";
    }
    if (strcmp(provider, "net") == 0) {
        return "net";
    }
    return NULL;
}

static bool is_shm(const char *provider) {
    return provider != NULL && strcmp(provider, "shm") == 0;
}

/* Send-after-send (GM's order per port pair and priority, gm-libfabric.md R6) is asked of the provider, never
 * assumed: a provider may reorder what the hints did not ask it to keep in order. Sends and RMA are not asked to
 * keep order (tcp;ofi_rxm grants no SAR): where the provider does not say it keeps it, gm_send.c holds later
 * operations until earlier RMA completes (rma_ordered false). */
#define GMI_ORDER_RMA (FI_ORDER_SAW | FI_ORDER_SAR | FI_ORDER_WAS | FI_ORDER_RAS)

/* fi_getinfo for provider at address, with send-after-send ordering; 0 or a negative libfabric code. */
static int get_info(const char *provider, const char *address, struct fi_info **info) {
    const char *full = provider_name(provider);
    struct fi_info *hints = fi_allocinfo();
    if (hints == NULL) {
        return -FI_ENOMEM;
    }
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps = FI_MSG | FI_TAGGED | FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    /* what the library copes with: descriptors for local buffers, virtual or offset RMA addresses, allocated
     * memory. Not FI_MR_PROV_KEY (keys carry the region's start, gm_memory.c) nor FI_MR_ENDPOINT (no
     * provider here needs it) */
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;
    hints->fabric_attr->prov_name = strdup(full);
    const char *node = is_shm(provider) ? NULL : (address != NULL ? address : "127.0.0.1");
    uint64_t flags = node != NULL ? FI_SOURCE : 0;
    hints->tx_attr->msg_order = FI_ORDER_SAS;
    hints->rx_attr->msg_order = FI_ORDER_SAS;
    int rc = fi_getinfo(FI_VERSION(1, 17), node, NULL, flags, hints, info);
    fi_freeinfo(hints);
    return rc;
}

GMI_API int gmx_provider_available(const char *provider, char *why, size_t why_len) {
    if (provider_name(provider) == NULL) {
        if (why != NULL && why_len > 0) {
            snprintf(why, why_len, "unknown provider '%s': use tcp, shm, udp or net", provider);
        }
        return 0;
    }
    struct fi_info *info = NULL;
    int rc = get_info(provider, NULL, &info);
    if (rc != 0) {
        if (why != NULL && why_len > 0) {
            snprintf(why, why_len, "libfabric has no RDM endpoint for %s here (fi_getinfo: %s); "
                     "check `fi_info -p '%s'`", provider_name(provider), fi_strerror(-rc), provider_name(provider));
        }
        return 0;
    }
    fi_freeinfo(info);
    if (why != NULL && why_len > 0) {
        why[0] = '\0';
    }
    return 1;
}

/*
 * The longest send that provider's receiver completes in send order behind earlier sends (gm_send.c holds later
 * sends behind a longer one). tcp;ofi_rxm's eager messages (FI_OFI_RXM_BUFFER_SIZE, default 16384 bytes) keep it;
 * a longer message, segmented or by rendezvous, completes at the receiver after shorter ones sent behind it
 * (gm_order.c). shm, udp;ofi_rxd and net kept it at every length gm_order.c sends (up to 512 KiB).
 */
static size_t ordered_length(const char *provider) {
    if (strcmp(provider, "tcp") != 0) {
        return SIZE_MAX;
    }
    const char *configured = getenv("FI_OFI_RXM_BUFFER_SIZE");
    char *end = NULL;
    unsigned long long bytes = configured != NULL ? strtoull(configured, &end, 0) : 0;
    return configured != NULL && end != configured && *end == '\0' && bytes < 16384 ? (size_t) bytes : 16384;
}

/* Opens fabric, domain, AV, CQ and endpoint; GM_SUCCESS or GM_FAILURE with the error set. */
static gm_status_t open_endpoint(struct gm_port *p) {
    int rc = get_info(p->options.provider, p->options.address, &p->info);
    if (rc != 0) {
        gmi_set_error("fi_getinfo (is libfabric's provider there? try fi_info -l)", rc);
        return GM_NO_SUCH_DEVICE;
    }
    struct fi_info *info = p->info;
    p->virt_addr = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
    p->mr_local = (info->domain_attr->mr_mode & FI_MR_LOCAL) != 0;
    if ((info->tx_attr->msg_order & FI_ORDER_SAS) == 0 || (info->rx_attr->msg_order & FI_ORDER_SAS) == 0) {
        gmi_set_message("the provider does not keep sends in order (FI_ORDER_SAS): use tcp, shm, udp or net");
        return GM_UNSUPPORTED_DEVICE;
    }
    p->rma_ordered = (info->tx_attr->msg_order & GMI_ORDER_RMA) == GMI_ORDER_RMA;
    p->inject_size = info->tx_attr->inject_size;
    /* shm only: its injected and posted sends enter the peer's one command queue in call order, and a short
     * posted send completes at once anyway, so injection drops only a completion; gm_order.c checks the order */
    p->inject_sends = is_shm(p->provider);
    p->ordered_length = ordered_length(p->provider);
    if (p->inject_size < GMI_CTL_BYTES) {
        gmi_set_message("the provider's inject size is below the 64-byte control message");
        return GM_UNSUPPORTED_DEVICE;
    }
    if ((rc = fi_fabric(info->fabric_attr, &p->fabric, NULL)) != 0) {
        gmi_set_error("fi_fabric", rc);
        return GM_FAILURE;
    }
    if ((rc = fi_domain(p->fabric, info, &p->domain, NULL)) != 0) {
        gmi_set_error("fi_domain", rc);
        return GM_FAILURE;
    }
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE, .count = 256};
    if ((rc = fi_av_open(p->domain, &av_attr, &p->av, NULL)) != 0) {
        gmi_set_error("fi_av_open", rc);
        return GM_FAILURE;
    }
    /* Not net: libfabric 1.17's net answers fi_trywait with success whatever it holds (xnet_trywait returns 0;
     * fixed in 1.18.1 by ofiwg/libfabric PR #8981, issue #8947), and messages it has already read off a socket
     * raise no POLLIN on its fd (the epoll set of its sockets): a sleep there lasts until a timer ends it. */
    bool fd_wait = strcmp(p->provider, "tcp") == 0;
    struct fi_cq_attr cq_attr = {
        .size = 2 * p->options.send_tokens + p->options.receive_tokens + GMI_CTL_POOL,
        .format = FI_CQ_FORMAT_TAGGED,
        .wait_obj = fd_wait ? FI_WAIT_FD : FI_WAIT_NONE,
    };
    if ((rc = fi_cq_open(p->domain, &cq_attr, &p->cq, NULL)) != 0) {
        gmi_set_error("fi_cq_open", rc);
        return GM_FAILURE;
    }
    p->cq_fd = -1;
    if (fd_wait && (rc = fi_control(&p->cq->fid, FI_GETWAIT, &p->cq_fd)) != 0) {
        gmi_set_error("fi_control(FI_GETWAIT)", rc);
        return GM_FAILURE;
    }
    if ((rc = fi_endpoint(p->domain, info, &p->ep, NULL)) != 0) {
        gmi_set_error("fi_endpoint", rc);
        return GM_FAILURE;
    }
    if ((rc = fi_ep_bind(p->ep, &p->av->fid, 0)) != 0 ||
        (rc = fi_ep_bind(p->ep, &p->cq->fid, FI_TRANSMIT | FI_RECV)) != 0) {
        gmi_set_error("fi_ep_bind", rc);
        return GM_FAILURE;
    }
    char shm_name[GMI_NAME_MAX] = "";
    if (is_shm(p->provider)) {
        /* a name no stale region holds, after removing the regions of libgm processes that are gone (gm_shm.c) */
        gmi_shm_sweep();
        gmi_shm_name(shm_name, sizeof shm_name);
        if ((rc = fi_setname(&p->ep->fid, shm_name, strlen(shm_name) + 1)) != 0) {
            gmi_set_error("fi_setname (the shm endpoint's region name)", rc);
            return GM_FAILURE;
        }
    }
    if ((rc = fi_enable(p->ep)) != 0) {
        if (rc == -FI_EBUSY && is_shm(p->provider)) {
            char why[256];
            snprintf(why, sizeof why, "fi_enable: shm region /dev/shm/%s is in use or of another libfabric version "
                     "(-FI_EBUSY): remove it if no process of yours uses it", shm_name);
            gmi_set_message(why);
        } else {
            gmi_set_error("fi_enable", rc);
        }
        return GM_FAILURE;
    }
    p->name_len = sizeof p->name;
    if ((rc = fi_getname(&p->ep->fid, p->name, &p->name_len)) != 0) {
        gmi_set_error("fi_getname", rc);
        return GM_FAILURE;
    }
    return GM_SUCCESS;
}

/* Allocates the request, slot and event pools (fixed sizes, once). */
static gm_status_t open_pools(struct gm_port *p) {
    unsigned sends = p->options.send_tokens, receives = p->options.receive_tokens;
    p->reqs = calloc(sends, sizeof *p->reqs);
    p->txslots = calloc(2 * (size_t) sends, sizeof *p->txslots);
    p->rxslots = calloc(receives, sizeof *p->rxslots);
    p->event_cap = sends + receives + GMI_SPARE_EVENTS;
    p->events = calloc(p->event_cap, sizeof *p->events);
    p->peers = calloc((size_t) GMI_MAX_NODES * GM_NUM_PORTS, sizeof *p->peers);
    if (p->reqs == NULL || p->txslots == NULL || p->rxslots == NULL || p->events == NULL || p->peers == NULL) {
        gmi_set_message("out of memory for the port's pools");
        return GM_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < sends; i++) {
        p->reqs[i].next = p->free_reqs;
        p->free_reqs = &p->reqs[i];
    }
    p->free_req_count = sends;
    for (unsigned i = 0; i < 2 * sends; i++) {
        p->txslots[i].kind = GMI_SLOT_TX;
        p->txslots[i].next_free = p->free_tx;
        p->free_tx = &p->txslots[i];
    }
    for (unsigned i = 0; i < receives; i++) {
        p->rxslots[i].kind = GMI_SLOT_RX;
        p->rxslots[i].next_free = p->free_rx;
        p->free_rx = &p->rxslots[i];
    }
    p->free_rx_count = receives;
    return GM_SUCCESS;
}

/* fi_close of one object, if open; a failure is remembered for gmx_last_error (the port goes anyway). */
static void close_fid(struct fid *fid, const char *what) {
    if (fid != NULL) {
        int rc = fi_close(fid);
        if (rc != 0) {
            gmi_set_error(what, rc);
        }
    }
}

static void close_port(struct gm_port *p) {
    gmi_registry_close_endpoint(p); /* shm: no other port of this process keeps this one's region */
    gmi_ctl_teardown(p);
    gmi_regs_close(p);
    gmi_arena_close(p);
    close_fid(p->cq != NULL ? &p->cq->fid : NULL, "fi_close(completion queue)");
    close_fid(p->av != NULL ? &p->av->fid : NULL, "fi_close(address vector)");
    close_fid(p->domain != NULL ? &p->domain->fid : NULL, "fi_close(domain)");
    close_fid(p->fabric != NULL ? &p->fabric->fid : NULL, "fi_close(fabric)");
    if (p->info != NULL) {
        fi_freeinfo(p->info);
    }
    if (p->wake_fd >= 0) {
        close(p->wake_fd);
    }
    if (p->peers != NULL) {
        for (size_t i = 0; i < (size_t) GMI_MAX_NODES * GM_NUM_PORTS; i++) {
            free(p->peers[i]);
        }
    }
    free(p->peers);
    free(p->events);
    free(p->rxslots);
    free(p->txslots);
    free(p->reqs);
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static unsigned env_unsigned(const char *name, unsigned fallback) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') {
        return fallback;
    }
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    return *end == '\0' && n <= 0xffffffffu ? (unsigned) n : fallback;
}

static gm_status_t open_port(struct gm_port **out, unsigned port_id, const struct gmx_port_options *options,
                             const char *map_dir) {
    if (out == NULL || options == NULL) {
        gmi_set_message("gmx_open: port and options must not be NULL");
        return GM_INVALID_PARAMETER;
    }
    *out = NULL;
    if (port_id >= GM_NUM_PORTS) {
        gmi_set_message("port id out of range: use 0..7");
        return GM_INVALID_PORT_NUMBER;
    }
    if (options->node_id == GM_NO_SUCH_NODE_ID || options->node_id > GM_MAX_NODE_ID) {
        gmi_set_message("node id out of range: set it to 1..4095 (GM_SHIM_NODE_ID for gm_open)");
        return GM_NODE_ID_NOT_YET_SET;
    }
    if (provider_name(options->provider) == NULL) {
        gmi_set_message("unknown provider: use tcp, shm, udp or net");
        return GM_NO_SUCH_DEVICE;
    }
    struct gm_port *p = calloc(1, sizeof *p);
    if (p == NULL) {
        gmi_set_message("out of memory for the port");
        return GM_OUT_OF_MEMORY;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->idle, NULL);
    p->wake_fd = -1;
    p->cq_fd = -1;
    p->port_id = port_id;
    p->node_id = options->node_id;
    p->options = *options;
    snprintf(p->provider, sizeof p->provider, "%s", options->provider != NULL ? options->provider : "tcp");
    p->options.provider = p->provider;
    p->options.address = NULL;
    p->options.send_tokens = options->send_tokens != 0 ? options->send_tokens : 64;
    p->options.receive_tokens = options->receive_tokens != 0 ? options->receive_tokens : 256;
    p->options.ack_timeout_ms = options->ack_timeout_ms != 0 ? options->ack_timeout_ms : 2000;
    /* 0 takes the default like every other field; GMX_KEEPALIVE_OFF turns keepalives off */
    p->options.keepalive_ms = options->keepalive_ms == 0 ? 500
            : options->keepalive_ms == GMX_KEEPALIVE_OFF ? 0 : options->keepalive_ms;
    p->strict = (options->flags & GMX_STRICT) != 0;
    p->masks[0] = p->masks[1] = 0xffffffffu;
    p->max_node_in_use = p->node_id;
    const char *host = getenv("GM_SHIM_HOST_NAME");
    if (host != NULL && *host != '\0') {
        snprintf(p->host_name, sizeof p->host_name, "%s", host);
    } else if (gethostname(p->host_name, sizeof p->host_name - 1) != 0) {
        snprintf(p->host_name, sizeof p->host_name, "localhost");
    }
    if (map_dir != NULL) {
        snprintf(p->map_dir, sizeof p->map_dir, "%s", map_dir);
    }
    if (p->options.send_tokens > 4096 || p->options.receive_tokens > 16384) {
        gmi_set_message("too many tokens: at most 4096 send and 16384 receive tokens");
        close_port(p);
        return GM_INVALID_PARAMETER;
    }
    gm_status_t status;
    p->options.address = options->address; /* read by open_endpoint only, then forgotten */
    status = open_pools(p);
    if (status == GM_SUCCESS) {
        status = open_endpoint(p);
    }
    p->options.address = NULL;
    if (status != GM_SUCCESS) {
        close_port(p);
        return status;
    }
    gmi_registry_add(p);
    p->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (p->wake_fd < 0) {
        gmi_set_message("eventfd failed");
        close_port(p);
        return GM_FAILURE;
    }
    gm_size_t arena = (gm_size_t) env_unsigned("GM_SHIM_ARENA_MB", 32) << 20;
    if ((status = gmi_arena_open(p, arena)) != GM_SUCCESS || (status = gmi_ctl_setup(p)) != GM_SUCCESS) {
        close_port(p);
        return status;
    }
    gmi_map_publish(p);
    *out = p;
    return GM_SUCCESS;
}

GMI_API gm_status_t gmx_open(struct gm_port **port, unsigned port_id, const struct gmx_port_options *options) {
    return open_port(port, port_id, options, NULL);
}

GMI_API gm_status_t gm_open(struct gm_port **port, unsigned unit, unsigned port_id, const char *port_name,
                            enum gm_api_version version) {
    (void) port_name;
    (void) version;
    if (unit != 0) {
        gmi_set_message("only unit 0 exists");
        return GM_NO_SUCH_DEVICE;
    }
    struct gmx_port_options options = {
        .provider = getenv("GM_SHIM_PROVIDER"),
        .address = getenv("GM_SHIM_ADDRESS"),
        .node_id = env_unsigned("GM_SHIM_NODE_ID", 0),
        .send_tokens = env_unsigned("GM_SHIM_SEND_TOKENS", 0),
        .receive_tokens = env_unsigned("GM_SHIM_RECEIVE_TOKENS", 0),
        .ack_timeout_ms = env_unsigned("GM_SHIM_ACK_TIMEOUT_MS", 0),
        .keepalive_ms = env_unsigned("GM_SHIM_KEEPALIVE_MS", 500),
        .flags = env_unsigned("GM_SHIM_STRICT", 1) != 0 ? GMX_STRICT : 0,
    };
    if (options.keepalive_ms == 0) {
        options.keepalive_ms = GMX_KEEPALIVE_OFF;
    }
    if (options.provider != NULL && *options.provider == '\0') {
        options.provider = NULL;
    }
    return open_port(port, port_id, &options, getenv("GM_SHIM_MAP_DIR"));
}

static void sleep_ms(unsigned ms) {
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

GMI_API void gm_close(struct gm_port *p) {
    if (p == NULL) {
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->closing = true;
    uint64_t one = 1;
    ssize_t ignored = write(p->wake_fd, &one, sizeof one);
    (void) ignored;
    while (p->pollers > 0) {
        pthread_cond_wait(&p->idle, &p->lock);
    }
    /* tell contacted peers (not those that told us they closed), so their sends fail with
     * GM_SEND_TARGET_PORT_CLOSED, and give it a few rounds */
    gmi_progress(p);
    for (struct gmi_peer *peer = p->active; peer != NULL; peer = peer->next_active) {
        if (peer->hello_done && !peer->closed) {
            gmi_ctl_send(p, peer, GMI_CTL_CLOSE, 0, 0);
        }
    }
    uint64_t give_up = gmi_now_ns() + 200000000u; /* the provider refused some: retry them for up to 200 ms */
    while (p->ctl_queued > 0 && gmi_now_ns() < give_up) {
        gmi_progress(p);
        if (p->ctl_queued > 0) {
            sleep_ms(1);
        }
    }
    gmi_progress(p);
    gmi_map_unpublish(p);
    gmi_alarms_drop(p);
    pthread_mutex_unlock(&p->lock);
    close_port(p);
}

/* ---- the peer table ------------------------------------------------------------------------------------- */

struct gmi_peer *gmi_peer(struct gm_port *p, unsigned node, unsigned port, bool create) {
    if (node == GM_NO_SUCH_NODE_ID || node > GM_MAX_NODE_ID || port >= GM_NUM_PORTS) {
        return NULL;
    }
    struct gmi_peer **slot = &p->peers[(size_t) node * GM_NUM_PORTS + port];
    if (*slot == NULL && create) {
        struct gmi_peer *peer = calloc(1, sizeof *peer);
        if (peer == NULL) {
            return NULL;
        }
        peer->node = node;
        peer->port = port;
        peer->masks[0] = peer->masks[1] = 0xffffffffu;
        *slot = peer;
    }
    return *slot;
}

void gmi_activate(struct gm_port *p, struct gmi_peer *peer) {
    p->sweep_due = true;
    if (!peer->in_active) {
        peer->in_active = true;
        peer->next_active = p->active;
        p->active = peer;
    }
}

gm_status_t gmi_peer_insert(struct gm_port *p, struct gmi_peer *peer, const void *name, size_t len) {
    bool string_name = p->info->addr_format == FI_ADDR_STR;
    if (len > GMI_NAME_MAX || (string_name ? memchr(name, '\0', len) == NULL : len != p->name_len)) {
        gmi_set_message("peer name: not a name of this provider (take it from gmx_endpoint_name on the peer)");
        return GM_INVALID_PARAMETER;
    }
    if (peer->resolved) {
        int rc = fi_av_remove(p->av, &peer->addr, 1, 0);
        if (rc != 0) {
            gmi_set_error("fi_av_remove", rc);
            return GM_FAILURE;
        }
        peer->resolved = false;
    }
    fi_addr_t addr = FI_ADDR_NOTAVAIL;
    int rc = fi_av_insert(p->av, name, 1, &addr, 0, NULL);
    if (rc != 1) {
        gmi_set_error("fi_av_insert (is the name from the same provider?)", rc);
        return GM_INVALID_PARAMETER;
    }
    peer->addr = addr;
    peer->resolved = true;
    memcpy(peer->name, name, len);
    peer->name_len = len;
    peer->closed = false;
    if (peer->node > p->max_node_in_use) {
        p->max_node_in_use = peer->node;
    }
    return GM_SUCCESS;
}

GMI_API gm_status_t gmx_endpoint_name(struct gm_port *p, void *name, size_t *len) {
    if (p == NULL || len == NULL) {
        return GM_INVALID_PARAMETER;
    }
    if (name == NULL || *len < p->name_len) {
        *len = p->name_len;
        return GM_OUTPUT_BUFFER_TOO_SMALL;
    }
    memcpy(name, p->name, p->name_len);
    *len = p->name_len;
    return GM_SUCCESS;
}

GMI_API gm_status_t gmx_set_peer(struct gm_port *p, unsigned node_id, unsigned port_id, const void *name,
                                 size_t len, const char *host_name) {
    if (p == NULL || name == NULL || len == 0 || len > GMI_NAME_MAX) {
        gmi_set_message("gmx_set_peer: name must be 1..64 bytes from gmx_endpoint_name");
        return GM_INVALID_PARAMETER;
    }
    gmi_registry_lock(); /* no port of this process closes while its name goes into an address vector */
    pthread_mutex_lock(&p->lock);
    struct gmi_peer *peer = gmi_peer(p, node_id, port_id, true);
    gm_status_t status = GM_INVALID_PARAMETER;
    if (peer == NULL) {
        gmi_set_message("gmx_set_peer: node id must be 1..4095 and port id 0..7");
    } else if ((status = gmi_peer_insert(p, peer, name, len)) == GM_SUCCESS && host_name != NULL) {
        snprintf(peer->host_name, sizeof peer->host_name, "%s", host_name);
    }
    pthread_mutex_unlock(&p->lock);
    gmi_registry_unlock();
    return status;
}

/* ---- identity ------------------------------------------------------------------------------------------- */

GMI_API gm_status_t gm_get_node_id(struct gm_port *p, unsigned *node_id) {
    if (p == NULL || node_id == NULL) {
        return GM_INVALID_PARAMETER;
    }
    *node_id = p->node_id;
    return GM_SUCCESS;
}

GMI_API gm_status_t gm_max_node_id(struct gm_port *p, unsigned *node_id) {
    if (p == NULL || node_id == NULL) {
        return GM_INVALID_PARAMETER;
    }
    *node_id = GM_MAX_NODE_ID;
    return GM_SUCCESS;
}

GMI_API gm_status_t gm_max_node_id_in_use(struct gm_port *p, unsigned *node_id) {
    if (p == NULL || node_id == NULL) {
        return GM_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&p->lock);
    *node_id = p->max_node_in_use;
    pthread_mutex_unlock(&p->lock);
    return GM_SUCCESS;
}

GMI_API unsigned gm_get_port_id(struct gm_port *p) {
    return p->port_id;
}

GMI_API unsigned gm_num_ports(struct gm_port *p) {
    (void) p;
    return GM_NUM_PORTS;
}

GMI_API gm_status_t gm_get_host_name(struct gm_port *p, char name[GM_MAX_HOST_NAME_LEN + 1]) {
    if (p == NULL || name == NULL) {
        return GM_INVALID_PARAMETER;
    }
    snprintf(name, GM_MAX_HOST_NAME_LEN + 1, "%s", p->host_name);
    return GM_SUCCESS;
}

/* The host name of node_id's lowest known port, or NULL (under the lock). */
static const char *known_host_name(struct gm_port *p, unsigned node_id) {
    if (node_id == p->node_id) {
        return p->host_name;
    }
    for (unsigned port = 0; port < GM_NUM_PORTS; port++) {
        struct gmi_peer *peer = gmi_peer(p, node_id, port, false);
        if ((peer == NULL || !peer->resolved) && p->map_dir[0] != '\0') {
            peer = gmi_peer(p, node_id, port, true);
            if (peer != NULL) {
                gmi_map_resolve(p, peer);
            }
        }
        if (peer != NULL && peer->host_name[0] != '\0') {
            return peer->host_name;
        }
    }
    return NULL;
}

GMI_API char *gm_node_id_to_host_name(struct gm_port *p, unsigned node_id) {
    pthread_mutex_lock(&p->lock);
    const char *name = known_host_name(p, node_id);
    pthread_mutex_unlock(&p->lock);
    return (char *) name;
}


GMI_API gm_status_t gm_node_id_to_host_name_ex(struct gm_port *p, unsigned timeout_usecs, unsigned node_id,
                                               char (*name)[GM_MAX_HOST_NAME_LEN + 1]) {
    if (p == NULL || name == NULL || node_id == GM_NO_SUCH_NODE_ID || node_id > GM_MAX_NODE_ID) {
        return GM_INVALID_PARAMETER;
    }
    uint64_t deadline = gmi_now_ns() + (uint64_t) timeout_usecs * 1000u;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        const char *known = known_host_name(p, node_id);
        if (known != NULL) {
            snprintf(*name, GM_MAX_HOST_NAME_LEN + 1, "%s", known);
        }
        pthread_mutex_unlock(&p->lock);
        if (known != NULL) {
            return GM_SUCCESS;
        }
        if (gmi_now_ns() >= deadline) {
            return GM_TIMED_OUT;
        }
        sleep_ms(5);
    }
}

/* The lowest node id whose host name is host_name (under the lock), or 0. */
static unsigned known_node(struct gm_port *p, const char *host_name) {
    if (strcmp(host_name, p->host_name) == 0) {
        return p->node_id;
    }
    for (unsigned node = 1; node <= p->max_node_in_use; node++) {
        for (unsigned port = 0; port < GM_NUM_PORTS; port++) {
            struct gmi_peer *peer = gmi_peer(p, node, port, false);
            if (peer != NULL && strcmp(peer->host_name, host_name) == 0) {
                return node;
            }
        }
    }
    unsigned node = 0;
    return gmi_map_find_host(p, host_name, &node) ? node : 0;
}

GMI_API unsigned gm_host_name_to_node_id(struct gm_port *p, char *host_name) {
    if (p == NULL || host_name == NULL) {
        return GM_NO_SUCH_NODE_ID;
    }
    pthread_mutex_lock(&p->lock);
    unsigned node = known_node(p, host_name);
    pthread_mutex_unlock(&p->lock);
    return node;
}

GMI_API gm_status_t gm_host_name_to_node_id_ex(struct gm_port *p, unsigned timeout_usecs, const char *host_name,
                                               unsigned *node_id) {
    if (p == NULL || host_name == NULL || node_id == NULL) {
        return GM_INVALID_PARAMETER;
    }
    uint64_t deadline = gmi_now_ns() + (uint64_t) timeout_usecs * 1000u;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        unsigned node = known_node(p, host_name);
        pthread_mutex_unlock(&p->lock);
        if (node != GM_NO_SUCH_NODE_ID) {
            *node_id = node;
            return GM_SUCCESS;
        }
        if (gmi_now_ns() >= deadline) {
            return GM_TIMED_OUT;
        }
        sleep_ms(5);
    }
}

GMI_API gm_status_t gm_node_id_to_global_id(struct gm_port *p, unsigned node_id, unsigned *global_id) {
    if (p == NULL || global_id == NULL || node_id == GM_NO_SUCH_NODE_ID || node_id > GM_MAX_NODE_ID) {
        return GM_INVALID_PARAMETER;
    }
    *global_id = node_id;
    return GM_SUCCESS;
}

GMI_API gm_status_t gm_global_id_to_node_id(struct gm_port *p, unsigned global_id, unsigned *node_id) {
    if (p == NULL || node_id == NULL || global_id == GM_NO_SUCH_NODE_ID || global_id > GM_MAX_NODE_ID) {
        return GM_INVALID_PARAMETER;
    }
    *node_id = global_id;
    return GM_SUCCESS;
}

GMI_API unsigned gm_num_send_tokens(struct gm_port *p) {
    pthread_mutex_lock(&p->lock);
    unsigned n = p->free_req_count;
    pthread_mutex_unlock(&p->lock);
    return n;
}

GMI_API unsigned gm_num_receive_tokens(struct gm_port *p) {
    pthread_mutex_lock(&p->lock);
    unsigned n = p->free_rx_count;
    pthread_mutex_unlock(&p->lock);
    return n;
}

GMI_API unsigned gm_mtu(struct gm_port *p) {
    (void) p;
    return 4096;
}

GMI_API unsigned gm_min_message_size(struct gm_port *p) {
    (void) p;
    return 3;
}

GMI_API unsigned gm_min_size_for_length(gm_size_t length) {
    if (length > ((gm_size_t) 1 << GM_MAX_SIZE_CLASS) - 8) {
        return GM_MAX_SIZE_CLASS + 1;
    }
    unsigned size = 3;
    while (((gm_size_t) 1 << size) < length + 8) {
        size++;
    }
    return size;
}

GMI_API gm_size_t gm_max_length_for_size(unsigned size) {
    if (size < 3 || size > 63) {
        return 0;
    }
    return ((gm_size_t) 1 << size) - 8;
}

GMI_API gm_u64_t gm_ticks(struct gm_port *p) {
    (void) p;
    return gmi_now_ns() / 1000u;
}
