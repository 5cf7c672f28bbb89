/*
 * gm.h: a GM-style message-passing API (Myricom GM 1.x/2.x names, signatures and values) implemented by libgm
 * over libfabric 1.17. Written for Portals3J from the documented API (gm-libfabric.md section 1); not Myricom's
 * header.
 *
 * What differs from GM, and why (gm-libfabric.md sections 2.5 and 2.6):
 *   - There is no mapper. gm_open takes this process's node id from GM_SHIM_NODE_ID, the libfabric provider from
 *     GM_SHIM_PROVIDER (tcp, shm, udp, net; default tcp) and publishes the port's libfabric name in the map
 *     directory GM_SHIM_MAP_DIR, one file "gm-NODE-PORT" per open port, written atomically (write, rename).
 *     A send to a (node, port) not yet known reads that file, retrying until the send's timeout. Host names
 *     come from GM_SHIM_HOST_NAME (default gethostname). Optional: GM_SHIM_STRICT (default 1),
 *     GM_SHIM_ACK_TIMEOUT_MS (2000), GM_SHIM_KEEPALIVE_MS (500), GM_SHIM_SEND_TOKENS (64),
 *     GM_SHIM_RECEIVE_TOKENS (256), GM_SHIM_ADDRESS (127.0.0.1). gmx_open (gmx.h) takes these as options instead.
 *   - Only unit 0 exists (other units: GM_NO_SUCH_DEVICE); ports are 0..GM_NUM_PORTS-1; node ids 1..4095.
 *   - Size classes are 0..31 (the libfabric tag has 5 bits for them), so a message is at most 2^31 - 8 bytes.
 *   - gm_send_* and gm_put need DMA-able memory of the port (gm_dma_malloc or gm_register_memory); other memory
 *     completes the send with GM_MEMORY_FAULT (GM sent 0xaa bytes instead: GM 1 manual, Memory Setup).
 *   - Directed sends and gets through this API reach only the target's gm_dma_malloc arena (the address travels
 *     with the arena's key in the port handshake); memory registered with gm_register_memory is reachable
 *     through gmx_put/gmx_get with the key gmx_register returns. The target must have called
 *     gm_allow_remote_memory_access, else the operation completes with GM_PERMISSION_DENIED.
 *   - Strict mode (default for gm_open): a send completes with GM_SUCCESS when the receiver matched it into a
 *     buffer (the receiving library acknowledges it). Fast mode (GM_SHIM_STRICT=0): on local completion while the
 *     peer answered keepalives within three periods (a peer killed inside that window can still see its last
 *     sends succeed). In both modes a send that does not complete within the ack timeout fails with
 *     GM_SEND_TIMED_OUT (peer alive, no buffer of that size and priority), GM_SEND_TARGET_NODE_UNREACHABLE (no
 *     answer at all, never existed or killed) or GM_SEND_TARGET_PORT_CLOSED (the peer closed its port), and
 *     the connection (port, priority, target node, target port) stops until gm_resume_sending or gm_drop_sends.
 *   - Order: sends of one (port, priority) to one (node, port) are received in send order at every length, as
 *     GM's (R6): libgm asks the provider for FI_ORDER_SAS (a port opens only where it is granted), and over
 *     tcp;ofi_rxm, whose receiver completes a message above its 16 KiB eager buffer after shorter ones sent behind
 *     it, a later send waits until such a send is done locally (one round trip per long send).
 *   - Control messages (hello, keepalive, ack, cancel) travel untagged, the tag word as remote CQ data, not to a
 *     tagged control pool as gm-libfabric.md section 2.6 proposes: the provider then never matches a GM message
 *     against control buffers (gm_tags.c).
 *   - shm: each endpoint's shared-memory region is named gm-NS-PID-START-N (not libfabric's PID:UID:N, which a
 *     region left by a killed process of the same pid makes fi_enable refuse), and opening a port removes the
 *     regions of libgm processes that are gone (gm_shm.c).
 *   - Not supported (GM's own code for it, GM_NOT_SUPPORTED_ON_ARCH): gm_datagram_send, raw/ethernet receives.
 *     FAST receive events are never produced, so gm_memorize_message only copies when asked to.
 */
#ifndef GM_H
#define GM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GM_EXPORT __attribute__((visibility("default")))
#else
#define GM_EXPORT
#endif

/* ---- basic types ---------------------------------------------------------------------------------------- */

typedef uint8_t gm_u8_t;
typedef uint16_t gm_u16_t;
typedef uint32_t gm_u32_t;
typedef uint64_t gm_u64_t;
typedef int8_t gm_s8_t;
typedef int16_t gm_s16_t;
typedef int32_t gm_s32_t;
typedef int64_t gm_s64_t;
typedef unsigned long gm_size_t;
/** A pointer into a remote process: its virtual address, always 64 bits. */
typedef gm_u64_t gm_remote_ptr_t;

/* Network-byte-order fields of receive events; read them with the gm_ntoh_* helpers. */
typedef gm_u8_t gm_u8_n_t;
typedef gm_u16_t gm_u16_n_t;
typedef gm_u32_t gm_u32_n_t;
typedef gm_u64_t gm_u64_n_t;
typedef gm_u64_t gm_up_n_t;

/* ---- constants ------------------------------------------------------------------------------------------ */

#define GM_API_VERSION_1_0 0x100
#define GM_API_VERSION_1_1 0x101
#define GM_API_VERSION_1_2 0x102
#define GM_API_VERSION_1_3 0x103
#define GM_API_VERSION_1_4 0x104
#define GM_API_VERSION_1_5 0x105
#define GM_API_VERSION_1_6 0x106
#define GM_API_VERSION_2_0 0x200
#define GM_API_VERSION_2_0_6 0x20006
#define GM_API_VERSION_2_0_12 0x2000c
#define GM_API_VERSION_2_0_16 0x20010
#define GM_API_VERSION GM_API_VERSION_2_0_16

enum gm_api_version {
    GM_API_VERSION_ENUM_1_0 = GM_API_VERSION_1_0,
    GM_API_VERSION_ENUM_2_0_16 = GM_API_VERSION_2_0_16
};

#define GM_MAX_HOST_NAME_LEN 128
#define GM_MAX_PORT_NAME_LEN 32
#define GM_NO_SUCH_NODE_ID 0
#define GM_RDMA_GRANULARITY 64
#define GM_DMA_GRANULARITY 8
#define GM_MAX_DMA_GRANULARITY 8
#define GM_MAX_SENT_TOKEN_REPORTS_PER_EVENT 31
/** Ports per unit (GM used 8; some reserved for system software there, none here). */
#define GM_NUM_PORTS 8
/** The largest node id this library accepts (the tag carries 16 bits; the peer table is sized for this). */
#define GM_MAX_NODE_ID 4095
/** The largest size class (the tag carries 5 bits): messages up to 2^31 - 8 bytes. */
#define GM_MAX_SIZE_CLASS 31

enum gm_priority {
    GM_LOW_PRIORITY = 0,
    GM_HIGH_PRIORITY = 1,
    GM_NUM_PRIORITIES = 2
};

typedef enum gm_status {
    GM_SUCCESS = 0,
    GM_FAILURE = 1,
    GM_INPUT_BUFFER_TOO_SMALL = 2,
    GM_OUTPUT_BUFFER_TOO_SMALL = 3,
    GM_TRY_AGAIN = 4,
    GM_BUSY = 5,
    GM_MEMORY_FAULT = 6,
    GM_INTERRUPTED = 7,
    GM_INVALID_PARAMETER = 8,
    GM_OUT_OF_MEMORY = 9,
    GM_INVALID_COMMAND = 10,
    GM_PERMISSION_DENIED = 11,
    GM_INTERNAL_ERROR = 12,
    GM_UNATTACHED = 13,
    GM_UNSUPPORTED_DEVICE = 14,
    GM_SEND_TIMED_OUT = 15,
    GM_SEND_REJECTED = 16,
    GM_SEND_TARGET_PORT_CLOSED = 17,
    GM_SEND_TARGET_NODE_UNREACHABLE = 18,
    GM_SEND_DROPPED = 19,
    GM_SEND_PORT_CLOSED = 20,
    GM_NODE_ID_NOT_YET_SET = 21,
    GM_STILL_SHUTTING_DOWN = 22,
    GM_CLONE_BUSY = 23,
    GM_NO_SUCH_DEVICE = 24,
    GM_ABORTED = 25,
    GM_INCOMPATIBLE_LIB_AND_DRIVER = 26,
    GM_UNTRANSLATED_SYSTEM_ERROR = 27,
    GM_ACCESS_DENIED = 28,
    GM_NO_DRIVER_SUPPORT = 29,
    GM_PTE_REF_CNT_OVERFLOW = 30,
    GM_NOT_SUPPORTED_IN_KERNEL = 31,
    GM_NOT_SUPPORTED_ON_ARCH = 32,
    GM_NO_MATCH = 33,
    GM_USER_ERROR = 34,
    GM_TIMED_OUT = 35,
    GM_DATA_CORRUPTED = 36,
    GM_HARDWARE_FAULT = 37,
    GM_SEND_ORPHANED = 38,
    GM_MINOR_OVERFLOW = 39,
    GM_PAGE_TABLE_FULL = 40,
    GM_UC_ERROR = 41,
    GM_INVALID_PORT_NUMBER = 42,
    GM_DEV_NOT_FOUND = 43,
    GM_FIRMWARE_NOT_RUNNING = 44,
    GM_YP_NO_MATCH = 45,
    GM_SRAM_PARITY_ERROR = 46,
    GM_FIRMWARE_ABORT = 47
} gm_status_t;

enum gm_recv_event_type {
    GM_NO_RECV_EVENT = 0,
    GM_SENDS_FAILED_EVENT = 1,
    GM_ALARM_EVENT = 2,
    GM_SENT_EVENT = 3,
    _GM_SLEEP_EVENT = 4,
    GM_RAW_RECV_EVENT = 5,
    GM_BAD_SEND_DETECTED_EVENT = 6,
    GM_SEND_TOKEN_VIOLATION_EVENT = 7,
    GM_RECV_TOKEN_VIOLATION_EVENT = 8,
    GM_BAD_RECV_TOKEN_EVENT = 9,
    GM_ALARM_VIOLATION_EVENT = 10,
    GM_RECV_EVENT = 11,
    GM_HIGH_RECV_EVENT = 12,
    GM_PEER_RECV_EVENT = 13,
    GM_HIGH_PEER_RECV_EVENT = 14,
    GM_FAST_RECV_EVENT = 15,
    GM_FAST_HIGH_RECV_EVENT = 16,
    GM_FAST_PEER_RECV_EVENT = 17,
    GM_FAST_HIGH_PEER_RECV_EVENT = 18,
    GM_REJECTED_SEND_EVENT = 19,
    GM_ORPHANED_SEND_EVENT = 20,
    GM_BAD_RESEND_DETECTED_EVENT = 24,
    GM_DROPPED_SEND_EVENT = 25,
    GM_BAD_SEND_VMA_EVENT = 26,
    GM_BAD_RECV_VMA_EVENT = 27,
    _GM_FLUSHED_ALARM_EVENT = 28,
    GM_SENT_TOKENS_EVENT = 29,
    GM_IGNORE_RECV_EVENT = 30,
    GM_ETHERNET_RECV_EVENT = 31,
    GM_FATAL_FIRMWARE_ERROR_EVENT = 32
};

/* ---- receive events --------------------------------------------------------------------------------------- */

/**
 * One event returned by gm_receive: 64 bytes (GM_RDMA_GRANULARITY), every field in network byte order, the type
 * in the last byte (offset 63) of every arm. The recv arm: message @32, buffer @40, length @52,
 * sender_node_id @56, tag @60, size @61, sender_port_id @62, type @63 (checked by the layout test). The record
 * belongs to the port and is valid until the next gm_receive or gm_unknown call on it.
 */
typedef union gm_recv_event {
    struct {
        gm_u8_t _reserved[63];
        gm_u8_n_t type;
    } any;
    struct gm_recv {
        gm_u8_t _reserved_before[32];
        gm_up_n_t message;          /* 32: where the data is (= buffer; FAST events are never produced) */
        gm_up_n_t buffer;           /* 40: the buffer given to gm_provide_receive_buffer* */
        gm_u32_n_t _reserved_after;
        gm_u32_n_t length;          /* 52: bytes received */
        gm_u16_n_t sender_node_id;  /* 56 */
        gm_u16_n_t _reserved_node;
        gm_u8_n_t tag;              /* 60: the buffer's tag */
        gm_u8_n_t size;             /* 61: the size class */
        gm_u8_n_t sender_port_id;   /* 62 */
        gm_u8_n_t type;             /* 63 */
    } recv;
    struct gm_sent_tokens {
        gm_u8_t _reserved[56];
        gm_up_n_t _report;          /* 56: internal */
    } sent;
    gm_u8_t bytes[64];
} gm_recv_event_t;

/* Byte-order helpers (events are network-ordered; gm-libfabric.md section 1.2, GM 1 manual chapter 10). */
static inline gm_u8_t gm_ntoh_u8(gm_u8_n_t x) { return x; }
static inline gm_u16_t gm_ntoh_u16(gm_u16_n_t x) { return __builtin_bswap16(x); }
static inline gm_u32_t gm_ntoh_u32(gm_u32_n_t x) { return __builtin_bswap32(x); }
static inline gm_u64_t gm_ntoh_u64(gm_u64_n_t x) { return __builtin_bswap64(x); }
static inline void *gm_ntoh_up(gm_up_n_t x) { return (void *) (uintptr_t) __builtin_bswap64(x); }
static inline gm_u8_n_t gm_hton_u8(gm_u8_t x) { return x; }
static inline gm_u16_n_t gm_hton_u16(gm_u16_t x) { return __builtin_bswap16(x); }
static inline gm_u32_n_t gm_hton_u32(gm_u32_t x) { return __builtin_bswap32(x); }
static inline gm_u64_n_t gm_hton_u64(gm_u64_t x) { return __builtin_bswap64(x); }
static inline gm_up_n_t gm_hton_up(const void *p) { return __builtin_bswap64((gm_u64_t) (uintptr_t) p); }
#define gm_ntohc(x) gm_ntoh_u8(x)
#define gm_ntohs(x) gm_ntoh_u16(x)
#define gm_ntohl(x) gm_ntoh_u32(x)
#define gm_ntohll(x) gm_ntoh_u64(x)
#define gm_ntohp(x) gm_ntoh_up(x)
#define gm_htonc(x) gm_hton_u8(x)
#define gm_htons(x) gm_hton_u16(x)
#define gm_htonl(x) gm_hton_u32(x)
#define gm_htonll(x) gm_hton_u64(x)
#define gm_htonp(x) gm_hton_up(x)
#define GM_RECV_EVENT_TYPE(e) (gm_ntoh_u8((e)->recv.type))

/* ---- callbacks and alarms ------------------------------------------------------------------------------- */

struct gm_port;

typedef void (*gm_send_completion_callback_t)(struct gm_port *port, void *context, gm_status_t status);

/** A one-shot timer owned by the client; initialize once with gm_initialize_alarm. Fields are private. */
typedef struct gm_alarm {
    struct gm_alarm *_next;
    struct gm_port *_port;
    gm_u64_t _deadline_ns;
    void (*_callback)(void *context);
    void *_context;
    int _state;
} gm_alarm_t;

/* ---- life cycle and identity ---------------------------------------------------------------------------- */

/** Reference-counted library start; balance each call with gm_finalize. */
GM_EXPORT gm_status_t gm_init(void);
GM_EXPORT void gm_finalize(void);
/** Opens port port_id of unit (only 0) configured from the environment (see the header comment). */
GM_EXPORT gm_status_t gm_open(struct gm_port **port, unsigned unit, unsigned port_id, const char *port_name,
                              enum gm_api_version version);
/** Closes the port: tells contacted peers (their sends fail with GM_SEND_TARGET_PORT_CLOSED), frees all. */
GM_EXPORT void gm_close(struct gm_port *port);
GM_EXPORT gm_status_t gm_get_node_id(struct gm_port *port, unsigned *node_id);
GM_EXPORT gm_status_t gm_max_node_id(struct gm_port *port, unsigned *node_id);
/** The largest node id this port knows a peer for (or its own). */
GM_EXPORT gm_status_t gm_max_node_id_in_use(struct gm_port *port, unsigned *node_id);
GM_EXPORT unsigned gm_get_port_id(struct gm_port *port);
GM_EXPORT unsigned gm_num_ports(struct gm_port *port);
GM_EXPORT gm_status_t gm_get_host_name(struct gm_port *port, char name[GM_MAX_HOST_NAME_LEN + 1]);
/** Deprecated form: a pointer to the port's copy of the name, or NULL when unknown. */
GM_EXPORT char *gm_node_id_to_host_name(struct gm_port *port, unsigned node_id);
/** Waits up to timeout_usecs for the map directory to name node_id; GM_TIMED_OUT when it does not. */
GM_EXPORT gm_status_t gm_node_id_to_host_name_ex(struct gm_port *port, unsigned timeout_usecs, unsigned node_id,
                                                 char (*name)[GM_MAX_HOST_NAME_LEN + 1]);
/** Deprecated form: GM_NO_SUCH_NODE_ID when unknown. */
GM_EXPORT unsigned gm_host_name_to_node_id(struct gm_port *port, char *host_name);
GM_EXPORT gm_status_t gm_host_name_to_node_id_ex(struct gm_port *port, unsigned timeout_usecs,
                                                 const char *host_name, unsigned *node_id);
/** Global ids are the node ids (no GM 2 connection ids here). */
GM_EXPORT gm_status_t gm_node_id_to_global_id(struct gm_port *port, unsigned node_id, unsigned *global_id);
GM_EXPORT gm_status_t gm_global_id_to_node_id(struct gm_port *port, unsigned global_id, unsigned *node_id);
/** Send tokens this client holds now (all of them right after gm_open). */
GM_EXPORT unsigned gm_num_send_tokens(struct gm_port *port);
GM_EXPORT unsigned gm_num_receive_tokens(struct gm_port *port);
/** 4096: the unit GM cut messages into; libfabric does its own segmentation. */
GM_EXPORT unsigned gm_mtu(struct gm_port *port);
/** 3: the class of a 0-byte message (2^3 - 8 = 0); smaller classes carry nothing. */
GM_EXPORT unsigned gm_min_message_size(struct gm_port *port);
/** ceil(log2(length + 8)); lengths above 2^31 - 8 give GM_MAX_SIZE_CLASS + 1 (not sendable). */
GM_EXPORT unsigned gm_min_size_for_length(gm_size_t length);
/** 2^size - 8 (0 for size < 3). */
GM_EXPORT gm_size_t gm_max_length_for_size(unsigned size);
GM_EXPORT const char *gm_strerror(gm_status_t status);
GM_EXPORT gm_u64_t gm_ticks(struct gm_port *port);

/* ---- memory --------------------------------------------------------------------------------------------- */

/** From the port's registered arena (GM_SHIM_ARENA_MB, default 32); 64-byte aligned; NULL when full. */
GM_EXPORT void *gm_dma_malloc(struct gm_port *port, gm_size_t length);
GM_EXPORT void *gm_dma_calloc(struct gm_port *port, gm_size_t count, gm_size_t length);
GM_EXPORT void gm_dma_free(struct gm_port *port, void *addr);
/** Registers [ptr, ptr + length) (at most 256 registrations per port: GM_OUT_OF_MEMORY beyond). */
GM_EXPORT gm_status_t gm_register_memory(struct gm_port *port, void *ptr, gm_size_t length);
/** Removes the registration made with exactly (ptr, length); GM_INVALID_PARAMETER when there is none. */
GM_EXPORT gm_status_t gm_deregister_memory(struct gm_port *port, void *ptr, gm_size_t length);
/** Lets peers put into and get from this port's arena (and tells the peers already in contact). */
GM_EXPORT gm_status_t gm_allow_remote_memory_access(struct gm_port *port);

/* ---- receive buffers -------------------------------------------------------------------------------------- */

/** One buffer for one message of exactly (size, priority); spends a receive token. */
GM_EXPORT void gm_provide_receive_buffer_with_tag(struct gm_port *port, void *ptr, unsigned size,
                                                  unsigned priority, unsigned tag);
GM_EXPORT void gm_provide_receive_buffer(struct gm_port *port, void *ptr, unsigned size, unsigned priority);
/** Bit s of mask: size s is acceptable at priority; others are answered GM_SEND_REJECTED. Default: all. */
GM_EXPORT gm_status_t gm_set_acceptable_sizes(struct gm_port *port, enum gm_priority priority, gm_size_t mask);

/* ---- sending (each spends one send token, returned by the callback, which runs inside gm_unknown) ------ */

GM_EXPORT void gm_send_with_callback(struct gm_port *port, void *message, unsigned size, gm_size_t length,
                                     unsigned priority, unsigned target_node, unsigned target_port,
                                     gm_send_completion_callback_t callback, void *context);
GM_EXPORT void gm_send_to_peer_with_callback(struct gm_port *port, void *message, unsigned size,
                                             gm_size_t length, unsigned priority, unsigned target_node,
                                             gm_send_completion_callback_t callback, void *context);
/** RDMA write into the target's arena; no receive event there; ordered with same-priority sends. */
GM_EXPORT void gm_directed_send_with_callback(struct gm_port *port, void *source, gm_remote_ptr_t target,
                                              gm_size_t length, enum gm_priority priority, unsigned target_node,
                                              unsigned target_port, gm_send_completion_callback_t callback,
                                              void *context);
GM_EXPORT void gm_put(struct gm_port *port, void *local, gm_remote_ptr_t remote, gm_size_t length,
                      enum gm_priority priority, unsigned target_node, unsigned target_port,
                      gm_send_completion_callback_t callback, void *context);
/** RDMA read from the target's arena into local (DMA-able); the callback runs when the data is here. */
GM_EXPORT void gm_get(struct gm_port *port, gm_remote_ptr_t remote, void *local, gm_size_t length,
                      enum gm_priority priority, unsigned target_node, unsigned target_port,
                      gm_send_completion_callback_t callback, void *context);
/** Not supported here (unreliable datagrams): the callback gets GM_NOT_SUPPORTED_ON_ARCH. */
GM_EXPORT void gm_datagram_send(struct gm_port *port, void *message, unsigned size, gm_size_t length,
                                unsigned priority, unsigned target_node, unsigned target_port,
                                gm_send_completion_callback_t callback, void *context);
/** Re-enables a stopped connection; the failed message is not resent. Spends a token; callback: GM_SUCCESS. */
GM_EXPORT void gm_resume_sending(struct gm_port *port, unsigned priority, unsigned target_node,
                                 unsigned target_port, gm_send_completion_callback_t callback, void *context);
/** Completes every send queued on the connection with GM_SEND_DROPPED, then re-enables it. */
GM_EXPORT void gm_drop_sends(struct gm_port *port, unsigned priority, unsigned target_node, unsigned target_port,
                             gm_send_completion_callback_t callback, void *context);

/* ---- receiving ------------------------------------------------------------------------------------------ */

/**
 * Makes progress and returns one event (GM_NO_RECV_EVENT when none). A GM_SENT_TOKENS_EVENT not handed to
 * gm_unknown before the next receive call gives its token back without running its callback.
 */
GM_EXPORT gm_recv_event_t *gm_receive(struct gm_port *port);
/** Waits for an event: spins briefly, then sleeps (completion-queue descriptor, or a bounded back-off). */
GM_EXPORT gm_recv_event_t *gm_blocking_receive(struct gm_port *port);
GM_EXPORT gm_recv_event_t *gm_blocking_receive_no_spin(struct gm_port *port);
/** Whether gm_receive would return an event now (after progress). */
GM_EXPORT int gm_receive_pending(struct gm_port *port);
/** Handles an event the client does not: runs send callbacks and alarm callbacks, re-provides receive buffers. */
GM_EXPORT void gm_unknown(struct gm_port *port, gm_recv_event_t *event);
/** Copies len bytes from message to buffer unless they are the same; returns buffer. */
GM_EXPORT void *gm_memorize_message(void *message, void *buffer, unsigned length);

/* ---- alarms --------------------------------------------------------------------------------------------- */

GM_EXPORT void gm_initialize_alarm(gm_alarm_t *alarm);
/** Arms (or re-arms) alarm: one GM_ALARM_EVENT after usecs, its callback run inside gm_unknown. */
GM_EXPORT void gm_set_alarm(struct gm_port *port, gm_alarm_t *alarm, gm_u64_t usecs, void (*callback)(void *),
                            void *context);
/** Disarms alarm, also when it fired and its event was not handled yet. */
GM_EXPORT void gm_cancel_alarm(gm_alarm_t *alarm);

#ifdef __cplusplus
}
#endif

#endif /* GM_H */
