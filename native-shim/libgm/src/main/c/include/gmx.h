/*
 * gmx.h: the Portals3J extensions of the GM-style library (libgm, declared in gm.h).
 *
 * GM had a mapper that assigned node ids and a NIC that reported its events into host memory. Over libfabric
 * neither exists, and a managed runtime (Java through FFM) should not receive C callbacks. This header adds:
 *   - opening a port with explicit options (provider, node id, tokens, timers) instead of the environment;
 *   - the peer table: this port's libfabric name, and the names of (node, port) pairs it may talk to;
 *   - sends, directed sends and gets that report completion as events carrying a 64-bit context, and a
 *     batched, optionally blocking poll that returns receive, completion and failure events in host order;
 *   - memory registration that returns the key a peer needs for RMA on that memory.
 *
 * Everything here takes the same per-port lock as the GM calls; a port may be used from several threads. Only
 * gmx_poll and the GM receive calls make progress (libfabric runs in manual progress mode), and gmx_poll blocks
 * in poll(2) on the completion queue's descriptor or an eventfd, never in a busy loop.
 *
 * A port is driven one way: by gm_receive/gm_unknown (GM calls with callbacks, C clients) or by gmx_poll (gmx_*
 * calls, events with contexts, no callbacks). In every mode a send that cannot be posted or completed within
 * ack_timeout_ms (a peer that never existed, died, or closed its port) completes with GM_SEND_TIMED_OUT,
 * GM_SEND_TARGET_NODE_UNREACHABLE or GM_SEND_TARGET_PORT_CLOSED, and its connection stops (gm_resume_sending,
 * gm_drop_sends): never a hang, never a false GM_SUCCESS.
 */
#ifndef GMX_H
#define GMX_H

#include <stddef.h>
#include <stdint.h>
#include "gm.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * GMX_STRICT in gmx_port_options.flags: a send completes only when the receiver matched it into a buffer (the
 * receiving library acknowledges it). Without it (fast mode) a send completes on its local completion while the
 * peer answered keepalives within 3 periods; a peer killed inside that window may see its last sends succeed.
 */
#define GMX_STRICT 0x1u

/** keepalive_ms value that turns keepalives off (then every send is acknowledged, as in strict mode). */
#define GMX_KEEPALIVE_OFF 0xffffffffu

/** Options of gmx_open; zero fields take the defaults shown. */
struct gmx_port_options {
    /* libfabric provider: "tcp" (tcp;ofi_rxm, default), "shm", "udp" (udp;ofi_rxd), "net". */
    const char *provider;
    /* Address to bind (default "127.0.0.1"; ignored by shm). */
    const char *address;
    unsigned node_id;          /* this port's node id, >= 1 (GM_NO_SUCH_NODE_ID is 0); required */
    unsigned send_tokens;      /* default 64 */
    unsigned receive_tokens;   /* default 256 */
    uint32_t ack_timeout_ms;   /* every mode: a send not complete in this time fails (default 2000) */
    uint32_t keepalive_ms;     /* a peer silent for 3 such periods after contact is reported failed (default 500;
                                  GMX_KEEPALIVE_OFF = off: 0 takes the default like every other field) */
    uint32_t flags;            /* GMX_STRICT */
};

/** Opens port port_id (0..7) of unit 0 with options; GM_SUCCESS or a gm_status_t with gmx_last_error() set. */
gm_status_t gmx_open(struct gm_port **port, unsigned port_id, const struct gmx_port_options *options);

/** A message saying what failed last on this thread (the libfabric call and fi_strerror), or "". */
const char *gmx_last_error(void);

/** Whether provider ("tcp", "shm", "udp", "net") can open an endpoint here; if not, why in why (like fi_info -l). */
int gmx_provider_available(const char *provider, char *why, size_t why_len);

/* ---- the peer table ---------------------------------------------------------------------------------------- */

/** Copies this port's libfabric endpoint name into name (capacity *len), sets *len; GM_OUTPUT_BUFFER_TOO_SMALL. */
gm_status_t gmx_endpoint_name(struct gm_port *port, void *name, size_t *len);

/** Declares that (node_id, port_id) is reached at libfabric name; host_name is what gm_node_id_to_host_name says. */
gm_status_t gmx_set_peer(struct gm_port *port, unsigned node_id, unsigned port_id, const void *name, size_t len,
                         const char *host_name);

/* ---- operations reported as events --------------------------------------------------------------------------- */

/**
 * gm_send_with_callback, with its completion reported as a GMX_SENT event carrying context and the status instead
 * of a callback. message must lie in DMA-able memory of this port (gm_dma_malloc or gmx_register).
 */
void gmx_send(struct gm_port *port, void *message, unsigned size, gm_size_t length, unsigned priority,
              unsigned target_node, unsigned target_port, uint64_t context);

/**
 * gm_put to (remote_address, remote_key) of the target; completion (delivery-complete) as a GMX_SENT event.
 * remote_address is the target's virtual address inside the region registered under remote_key (keys carry the
 * region's start, so the library turns it into an offset where the provider wants one); key 0 means the target's
 * gm_dma_malloc arena, open only after the target called gm_allow_remote_memory_access.
 */
void gmx_put(struct gm_port *port, void *local, uint64_t remote_address, uint64_t remote_key, gm_size_t length,
             unsigned priority, unsigned target_node, unsigned target_port, uint64_t context);

/** gm_get from (remote_address, remote_key) of the target into local; completion as a GMX_SENT event (same rules). */
void gmx_get(struct gm_port *port, uint64_t remote_address, uint64_t remote_key, void *local, gm_size_t length,
             unsigned priority, unsigned target_node, unsigned target_port, uint64_t context);

/** gm_resume_sending / gm_drop_sends, completing as GMX_SENT events with context. */
void gmx_resume_sending(struct gm_port *port, unsigned priority, unsigned target_node, unsigned target_port,
                        uint64_t context);
void gmx_drop_sends(struct gm_port *port, unsigned priority, unsigned target_node, unsigned target_port,
                    uint64_t context);

/** gm_provide_receive_buffer_with_tag, with a 64-bit context returned in the GMX_RECV event. */
void gmx_provide_receive_buffer(struct gm_port *port, void *buffer, unsigned size, unsigned priority,
                                uint64_t context);

/* ---- memory -------------------------------------------------------------------------------------------------- */

/**
 * Registers [address, address + length) for local sends and receives and for remote reads and writes, and sets
 * *key to the key a peer passes to gmx_put/gmx_get together with the address. Deregister with
 * gm_deregister_memory. Registrations may overlap; each gets its own key.
 */
gm_status_t gmx_register(struct gm_port *port, void *address, gm_size_t length, uint64_t *key);

/* ---- events -------------------------------------------------------------------------------------------------- */

enum gmx_event_type {
    GMX_NO_EVENT = 0,
    GMX_RECV = 1,         /* a message landed: buffer, length, size, priority, sender, context of the buffer.
                             status != GM_SUCCESS: the buffer was refused and nothing landed (GM_TRY_AGAIN: no
                             receive token; GM_INVALID_PARAMETER: size or priority; GM_MEMORY_FAULT: not DMA-able) */
    GMX_SENT = 2,         /* a send, put, get, resume or drop completed: context, status (GM_SUCCESS or GM_SEND_*;
                             GM_TRY_AGAIN: called without a free send token; GM_MEMORY_FAULT: local memory not
                             DMA-able; GM_PERMISSION_DENIED: the target's arena is closed to RMA) */
    GMX_PEER_FAILED = 3,  /* (sender_node, sender_port) stopped answering keepalives or its connection broke */
    GMX_ALARM = 4         /* internal: never returned by gmx_poll (alarms run in gm_unknown) */
};

/** One event, in host byte order; 48 bytes, layout fixed (checked by the layout test). */
struct gmx_event {
    uint64_t context;      /*  0: the send's or the receive buffer's context */
    uint64_t buffer;       /*  8: GMX_RECV: the buffer's address */
    uint64_t length;       /* 16: GMX_RECV: the message's length */
    uint32_t type;         /* 24: enum gmx_event_type */
    uint32_t status;       /* 28: GMX_SENT: gm_status_t */
    uint16_t sender_node;  /* 32: GMX_RECV, GMX_PEER_FAILED */
    uint8_t sender_port;   /* 34 */
    uint8_t size;          /* 35: GMX_RECV: the size class */
    uint8_t priority;      /* 36: GMX_RECV */
    uint8_t reserved[11];  /* 37..47 */
};

/**
 * Makes progress and copies up to max events into out; returns how many (0..max), or -1 after gm_close or a
 * fatal provider error (gmx_last_error says which). Waits up to timeout_ns for the first event when none is ready
 * (0: never waits; negative: until an event or gmx_wakeup). Never returns an event twice.
 */
int gmx_poll(struct gm_port *port, struct gmx_event *out, int max, int64_t timeout_ns);

/** Makes a gmx_poll waiting on port return now (0 events if none); safe from any thread and from signal context. */
void gmx_wakeup(struct gm_port *port);

#ifdef __cplusplus
}
#endif

#endif /* GMX_H */
