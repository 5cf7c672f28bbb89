/*
 * gm_registry.c: the process's open ports, so that a closing shm port leaves no dangling region behind in the
 * other ports of the same process.
 *
 * Why (libfabric 1.17's shm provider, prov/shm/src/smr_util.c; reproduced here by gm_local on shm): when an
 * endpoint inserts the name of an endpoint of the SAME process, smr_map_to_region takes that endpoint's own
 * region pointer from the process-wide endpoint list instead of mapping the region itself. When that endpoint
 * closes, smr_free unmaps its region, and every peer that inserted it keeps a dangling pointer: its next send
 * to it, its progress on a command from it, and its own fi_av_remove or address-vector close (smr_map_del, which
 * reads the region's size to unmap it once the name left the list) crash in pthread_spin_lock or munmap.
 *
 * What libgm does (a choice; gm-libfabric.md section 2.4 lists shm's other pitfalls, not this one): before a
 * shm port X closes its endpoint, every other open shm port Y of the process that holds X in its address vector
 * runs its progress once (taking what X already sent, answering into X's region while it is still mapped), removes X
 * from its address vector, and marks its peer entry for X closed and unresolved: later sends to X fail with
 * GM_SEND_TARGET_PORT_CLOSED and nothing reaches the provider for X again (until X's (node, port) is declared
 * afresh, by gmx_set_peer or the map directory). X also removes every peer from its own address vector. All
 * of this, and X's fi_close of its endpoint, happens under the registry lock, so no port closes and no
 * gmx_set_peer inserts a name in between. Ports of other providers are registered too (one code path) but need
 * none of it: tcp, udp and net peers are reached through sockets, never through shared regions.
 *
 * Lock order: the registry lock, then one port's lock. Never the other way round: gm_close takes the registry
 * only after it released its port's lock, gmx_set_peer takes it before the port's lock, and nothing that
 * holds a port's lock (progress, callbacks are called unlocked) takes the registry. A thread blocked in
 * gmx_poll or gm_blocking_receive sleeps with its port's lock released (gmi_wait), so the registry never waits
 * on it for longer than one round of progress.
 */
#include <string.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include "gm_internal.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gm_port *open_ports; /* linked through next_open, under registry_lock */

void gmi_registry_lock(void) {
    pthread_mutex_lock(&registry_lock);
}

void gmi_registry_unlock(void) {
    pthread_mutex_unlock(&registry_lock);
}

void gmi_registry_add(struct gm_port *p) {
    pthread_mutex_lock(&registry_lock);
    p->next_open = open_ports;
    open_ports = p;
    p->registered = true;
    pthread_mutex_unlock(&registry_lock);
}

static bool shares_regions(const struct gm_port *p) {
    return strcmp(p->provider, "shm") == 0;
}

/* Whether peer's address-vector entry is the endpoint named name (shm names are strings). */
static bool same_name(const struct gmi_peer *peer, const uint8_t *name, size_t len) {
    size_t a = strnlen((const char *) peer->name, peer->name_len), b = strnlen((const char *) name, len);
    return a == b && memcmp(peer->name, name, a) == 0;
}

/* Takes peer out of p's address vector (under p's lock); a failure is remembered for gmx_last_error. */
static void forget(struct gm_port *p, struct gmi_peer *peer) {
    int rc = fi_av_remove(p->av, &peer->addr, 1, 0);
    if (rc != 0) {
        gmi_set_error("fi_av_remove (a closing port of this process)", rc);
    }
    peer->resolved = false;
    peer->addr = FI_ADDR_NOTAVAIL;
}

/* In y (under y's lock): drops every entry that names closing, and fails what waits for it. */
static void detach_from(struct gm_port *y, const struct gm_port *closing) {
    if (y->peers == NULL || y->av == NULL) {
        return;
    }
    bool holds = false;
    for (size_t i = 0; i < (size_t) GMI_MAX_NODES * GM_NUM_PORTS && !holds; i++) {
        struct gmi_peer *peer = y->peers[i];
        holds = peer != NULL && peer->resolved && same_name(peer, closing->name, closing->name_len);
    }
    if (!holds) {
        return;
    }
    if (y->ep != NULL) {
        gmi_progress(y); /* what closing sent is answered while its region is mapped */
    }
    for (size_t i = 0; i < (size_t) GMI_MAX_NODES * GM_NUM_PORTS; i++) {
        struct gmi_peer *peer = y->peers[i];
        if (peer != NULL && peer->resolved && same_name(peer, closing->name, closing->name_len)) {
            forget(y, peer);
            peer->closed = true;
            gmi_activate(y, peer); /* the next sweep fails its requests with GM_SEND_TARGET_PORT_CLOSED */
        }
    }
}

void gmi_registry_close_endpoint(struct gm_port *p) {
    pthread_mutex_lock(&registry_lock);
    if (p->registered && shares_regions(p) && p->ep != NULL && p->av != NULL && p->peers != NULL) {
        for (struct gm_port *y = open_ports; y != NULL; y = y->next_open) {
            if (y != p && shares_regions(y)) {
                pthread_mutex_lock(&y->lock);
                detach_from(y, p);
                pthread_mutex_unlock(&y->lock);
            }
        }
        pthread_mutex_lock(&p->lock);
        for (size_t i = 0; i < (size_t) GMI_MAX_NODES * GM_NUM_PORTS; i++) {
            struct gmi_peer *peer = p->peers[i];
            if (peer != NULL && peer->resolved) {
                forget(p, peer);
            }
        }
        pthread_mutex_unlock(&p->lock);
    }
    if (p->ep != NULL) {
        int rc = fi_close(&p->ep->fid);
        if (rc != 0) {
            gmi_set_error("fi_close(endpoint)", rc);
        }
        p->ep = NULL;
    }
    for (struct gm_port **at = &open_ports; *at != NULL; at = &(*at)->next_open) {
        if (*at == p) {
            *at = p->next_open;
            break;
        }
    }
    p->registered = false;
    pthread_mutex_unlock(&registry_lock);
}
