/*
 * gm_internal.h: the port, its peers, requests and slots, shared by libgm's files. Everything here is reached
 * under the port's mutex unless a comment says otherwise. Nothing in this header is exported.
 */
#ifndef GM_INTERNAL_H
#define GM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include "gm.h"
#include "gmx.h"

#define GMI_API __attribute__((visibility("default")))

#define GMI_CTL_POOL 64              /* control buffers always posted */
#define GMI_CTL_BYTES 64             /* one control buffer */
#define GMI_CTL_QUEUE 256            /* control messages waiting for the provider (-FI_EAGAIN) */
#define GMI_MAX_REGS 256             /* gm_register_memory / gmx_register entries per port */
#define GMI_SPARE_EVENTS 64          /* event-ring room beyond tokens: peer failures, token violations */
#define GMI_NAME_MAX 64              /* libfabric endpoint name bytes (shm names are strings) */
#define GMI_MAX_NODES (GM_MAX_NODE_ID + 1)
#define GMI_SPIN_NS 50000u           /* gmx_poll and gm_blocking_receive poll this long before they sleep */

/* ---- requests (one per send token) ----------------------------------------------------------------------- */

enum gmi_req_kind { GMI_SEND, GMI_PUT, GMI_GET, GMI_RESUME, GMI_DROP, GMI_UNSUPPORTED };
enum gmi_req_state { GMI_FREE, GMI_QUEUED, GMI_POSTED, GMI_DONE };

struct gmi_peer;
struct gmi_txslot;

struct gmi_req {
    struct gmi_req *next;             /* stream queue or in-flight list, free list */
    struct gmi_peer *peer;
    struct gmi_txslot *slot;          /* the provider operation while posted */
    enum gmi_req_kind kind;
    enum gmi_req_state state;
    unsigned priority;
    unsigned size;
    void *local;
    gm_size_t length;
    uint64_t remote_address;          /* PUT/GET: as the target sees it */
    uint64_t remote_key;              /* PUT/GET: 0 = the target's arena */
    uint64_t seq;
    uint64_t deadline_ns;             /* 0 while the connection is stopped */
    uint64_t posted_ns;
    bool local_done;
    bool acked;
    bool use_gmx;
    gm_send_completion_callback_t callback;
    void *context;
    uint64_t gmx_context;
    gm_status_t status;
};

/** A provider operation; the fi_context2 must stay first (libfabric hands it back as op_context). */
enum gmi_slot_kind { GMI_SLOT_TX = 1, GMI_SLOT_RX = 2, GMI_SLOT_CTL = 3 };

struct gmi_txslot {
    struct fi_context2 fi;
    enum gmi_slot_kind kind;
    struct gmi_txslot *next_free;
    struct gmi_req *req;              /* NULL once the request was failed and detached */
};

struct gmi_rxslot {
    struct fi_context2 fi;
    enum gmi_slot_kind kind;
    struct gmi_rxslot *next_free;
    void *buffer;
    unsigned size;
    unsigned priority;
    unsigned tag;
    uint64_t gmx_context;
    bool posted;                      /* false while waiting to be posted (-FI_EAGAIN) */
    bool in_use;                      /* taken by a provide call, not yet returned by an event */
    /* filled when a message lands */
    uint64_t length;
    unsigned sender_node;
    unsigned sender_port;
};

struct gmi_ctlslot {
    struct fi_context2 fi;
    enum gmi_slot_kind kind;
    uint8_t *buffer;
    bool posted;
};

/* ---- peers and their connections ------------------------------------------------------------------------ */

struct gmi_stream {                   /* (this port, priority, peer node, peer port) */
    struct gmi_req *queue_head, *queue_tail;       /* not yet posted */
    struct gmi_req *flight_head, *flight_tail;     /* posted, not complete */
    uint64_t next_seq;
    bool stopped;
    uint64_t cancelled[8];            /* receiver side: seqs the peer cancelled (dropped when they land) */
    unsigned cancelled_next;
};

struct gmi_peer {
    unsigned node, port;
    bool resolved;                    /* in the AV */
    fi_addr_t addr;
    uint8_t name[GMI_NAME_MAX];       /* what was inserted (gm_registry.c matches closing ports by it) */
    size_t name_len;
    bool in_active;
    struct gmi_peer *next_active;
    bool hello_done;                  /* heard from it at least once */
    bool closed;                      /* it told us it closed */
    bool failed;                      /* reported failed (keepalives), until heard again */
    uint64_t hello_sent_ns;
    uint64_t resolve_tried_ns;
    uint64_t last_heard_ns;
    uint64_t last_sent_ns;
    uint32_t masks[2];                /* its acceptable sizes per priority */
    bool remote_access;               /* it allowed remote memory access to its arena */
    unsigned proof_waiters;           /* fast-mode sends done locally, waiting to hear from the peer */
    uint64_t arena_base, arena_length, arena_key;
    char host_name[GM_MAX_HOST_NAME_LEN + 1];
    struct gmi_stream streams[2];
};

/* ---- events ----------------------------------------------------------------------------------------------- */

enum gmi_event_kind { GMI_EV_NONE = 0, GMI_EV_RECV, GMI_EV_SENT, GMI_EV_PEER_FAILED, GMI_EV_SEND_VIOLATION,
                      GMI_EV_RECV_REFUSED, GMI_EV_ALARM };

struct gmi_event {
    enum gmi_event_kind kind;
    void *object;                     /* rxslot, req, peer or alarm */
    uint64_t context;                 /* SEND_VIOLATION, RECV_REFUSED: the caller's context */
    uint32_t status;                  /* RECV_REFUSED: why */
};

/* ---- memory ----------------------------------------------------------------------------------------------- */

struct gmi_reg {
    void *address;
    gm_size_t length;
    struct fid_mr *mr;
    uint64_t key;
    void *desc;
};

struct gmi_arena {
    uint8_t *base;
    gm_size_t length;
    unsigned max_order;               /* length = 64 << max_order */
    uint8_t *orders;                  /* per 64-byte unit: allocated block order + 1 at its first unit */
    void *free_lists[40];
    struct gmi_reg reg;
};

/* ---- the port --------------------------------------------------------------------------------------------- */

struct gm_port {
    struct gm_port *next_open;        /* the registry's list, under the registry lock (gm_registry.c) */
    bool registered;                  /* in that list; under the registry lock */
    pthread_mutex_t lock;
    pthread_cond_t idle;              /* gm_close waits here for pollers to leave */
    int pollers;
    bool closing;
    unsigned port_id, node_id;
    char provider[32];
    char host_name[GM_MAX_HOST_NAME_LEN + 1];
    char map_dir[256];
    struct gmx_port_options options;
    bool strict;

    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    int cq_fd;                        /* -1 when the provider has no FD wait object */
    int wake_fd;                      /* eventfd for gmx_wakeup */
    bool virt_addr;                   /* FI_MR_VIRT_ADDR: RMA addresses are virtual addresses */
    bool mr_local;                    /* FI_MR_LOCAL: every local buffer needs its descriptor */
    bool rma_ordered;                 /* the provider orders sends after writes and reads (SAW, SAR, WAS) */
    size_t inject_size;
    bool inject_sends;                /* fast-mode sends up to inject_size by fi_tinjectdata (gm_send.c) */
    size_t ordered_length;            /* the longest send the receiver takes in send order behind earlier ones */
    uint8_t name[GMI_NAME_MAX];
    size_t name_len;

    struct gmi_req *reqs;
    struct gmi_req *free_reqs;
    unsigned free_req_count;
    struct gmi_txslot *txslots;
    struct gmi_txslot *free_tx;
    struct gmi_rxslot *rxslots;
    struct gmi_rxslot *free_rx;
    unsigned free_rx_count;
    unsigned unposted_rx;             /* rx slots waiting to be posted */
    struct gmi_ctlslot ctl[GMI_CTL_POOL];
    uint8_t *ctl_buffers;             /* GMI_CTL_POOL * GMI_CTL_BYTES inside ctl_reg */
    struct gmi_reg ctl_reg;
    struct { struct gmi_peer *peer; uint8_t msg[GMI_CTL_BYTES]; uint64_t queued_ns; } ctl_queue[GMI_CTL_QUEUE];
    unsigned ctl_queued;
    unsigned ctl_unposted;

    struct gmi_peer **peers;          /* [node * GM_NUM_PORTS + port], allocated on first use */
    struct gmi_peer *active;          /* peers with contact or work, swept by progress */
    unsigned max_node_in_use;
    uint32_t masks[2];
    bool remote_access;

    struct gmi_event *events;
    unsigned event_cap, event_head, event_count;
    gm_recv_event_t current;          /* what gm_receive returned last */
    struct gmi_event current_event;   /* its internal object */

    struct gmi_arena arena;
    struct gmi_reg regs[GMI_MAX_REGS];
    unsigned reg_count;
    uint16_t key_counter;

    gm_alarm_t *alarms;               /* armed, by deadline */
    gm_alarm_t *fired_head, *fired_tail;
    uint64_t next_timer_ns;           /* earliest peer timer seen by the last sweep (0: none) */
    bool sweep_due;                   /* a peer's state changed (gmi_activate): the next progress sweeps */
    bool work_left;                   /* the last sweep left requests queued (a hold, a refused post): sweep again */
};

/* ---- between the files ------------------------------------------------------------------------------------ */

/* gm_port.c */
uint64_t gmi_now_ns(void);
void gmi_set_error(const char *what, int fi_rc);
void gmi_set_message(const char *message);
struct gmi_peer *gmi_peer(struct gm_port *p, unsigned node, unsigned port, bool create);
void gmi_activate(struct gm_port *p, struct gmi_peer *peer);
gm_status_t gmi_peer_insert(struct gm_port *p, struct gmi_peer *peer, const void *name, size_t len);

/* gm_registry.c (lock order: the registry, then a port's lock) */
void gmi_registry_lock(void);
void gmi_registry_unlock(void);
void gmi_registry_add(struct gm_port *p);
void gmi_registry_close_endpoint(struct gm_port *p);

/* gm_shm.c */
void gmi_shm_sweep(void);
void gmi_shm_name(char *name, size_t cap);

/* gm_map.c */
void gmi_map_publish(struct gm_port *p);
void gmi_map_unpublish(struct gm_port *p);
bool gmi_map_resolve(struct gm_port *p, struct gmi_peer *peer);
bool gmi_map_find_host(struct gm_port *p, const char *host_name, unsigned *node);

/* gm_tags.c */
#define GMI_KIND_MSG 0u
#define GMI_KIND_CTL 1u
uint64_t gmi_tag(unsigned kind, unsigned priority, unsigned size, unsigned node, unsigned port);
uint64_t gmi_recv_ignore(void);
void gmi_tag_decode(uint64_t tag, unsigned *kind, unsigned *priority, unsigned *size, unsigned *node,
                    unsigned *port);
enum gmi_ctl_type { GMI_CTL_HELLO = 1, GMI_CTL_HELLO_REPLY, GMI_CTL_KEEPALIVE, GMI_CTL_ACK, GMI_CTL_REJECT,
                    GMI_CTL_CANCEL, GMI_CTL_CLOSE, GMI_CTL_UPDATE };
gm_status_t gmi_ctl_setup(struct gm_port *p);
void gmi_ctl_teardown(struct gm_port *p);
void gmi_ctl_send(struct gm_port *p, struct gmi_peer *peer, enum gmi_ctl_type type, unsigned priority,
                  uint64_t seq);
void gmi_ctl_flush(struct gm_port *p);
void gmi_ctl_received(struct gm_port *p, struct gmi_ctlslot *slot, uint64_t tag, size_t length);
void gmi_ctl_repost(struct gm_port *p, struct gmi_ctlslot *slot);

/* gm_send.c */
#define GMI_DATA_ACK_REQUESTED (1ull << 63)
struct gmi_req *gmi_req_take(struct gm_port *p);
void gmi_req_release(struct gm_port *p, struct gmi_req *req);
void gmi_req_submit(struct gm_port *p, struct gmi_req *req, unsigned node, unsigned port);
void gmi_tx_completed(struct gm_port *p, struct gmi_txslot *slot, int error);
void gmi_ack_received(struct gm_port *p, struct gmi_peer *peer, unsigned priority, uint64_t seq, bool rejected);
void gmi_peer_heard(struct gm_port *p, struct gmi_peer *peer);
void gmi_sweep_peers(struct gm_port *p, uint64_t now);
bool gmi_sweep_needed(const struct gm_port *p, uint64_t now);
bool gmi_peer_alive(struct gm_port *p, struct gmi_peer *peer, uint64_t now);

/* gm_progress.c */
bool gmi_progress(struct gm_port *p);
bool gmi_wait(struct gm_port *p, int64_t timeout_ns, unsigned *backoff_us);
unsigned gmi_backoff_start(void);

/* gm_recv.c */
void gmi_rx_landed(struct gm_port *p, struct gmi_rxslot *slot, uint64_t tag, uint64_t length, uint64_t data,
                   bool has_data);
void gmi_rx_failed(struct gm_port *p, struct gmi_rxslot *slot);
void gmi_rx_post_pending(struct gm_port *p);
void gmi_rx_release(struct gm_port *p, struct gmi_rxslot *slot);
void gmi_tell_peers(struct gm_port *p);

/* gmx_events.c */
bool gmi_event_push(struct gm_port *p, enum gmi_event_kind kind, void *object);
bool gmi_event_push_refusal(struct gm_port *p, enum gmi_event_kind kind, uint64_t context, gm_status_t status);
bool gmi_event_pop(struct gm_port *p, struct gmi_event *out);

/* gm_memory.c */
gm_status_t gmi_arena_open(struct gm_port *p, gm_size_t length);
void gmi_arena_close(struct gm_port *p);
gm_status_t gmi_mr_register(struct gm_port *p, void *address, gm_size_t length, struct gmi_reg *reg);
void gmi_mr_close(struct gmi_reg *reg);
bool gmi_desc(struct gm_port *p, const void *address, gm_size_t length, void **desc);
void gmi_regs_close(struct gm_port *p);

/* gm_alarm.c */
void gmi_alarms_expire(struct gm_port *p, uint64_t now);
bool gmi_alarm_pop(struct gm_port *p, gm_alarm_t **alarm);
uint64_t gmi_next_deadline(struct gm_port *p);
void gmi_alarms_drop(struct gm_port *p);

#endif /* GM_INTERNAL_H */
