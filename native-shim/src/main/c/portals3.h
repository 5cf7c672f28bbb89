/*
 * portals3.h: the Portals 3.2 C API (Sandia, Revision 1.1, chapter 3), served by the Portals3J Java
 * engine through libportals3.so.
 *
 * Names, types, signatures and constants are chapter 3's. The spec gives no numeric values; the values
 * here are Portals3J's and stable (the Java API uses the same numbers: ReturnCode, MdOption, EventKind,
 * ProcessId, StatusRegister, NiFailType). Line references (L1234) are to portals-3.2.numbered.lyx.
 *
 * How the C API maps onto the Java engine, and where this header decides what the spec leaves open:
 *  - Handles are 64-bit values; every handle type converts to ptl_handle_any_t and back without loss (L2395).
 *  - ptl_nid_t, ptl_pid_t, ptl_uid_t, ptl_pt_index_t, ptl_ac_index_t are 32-bit unsigned; the wildcards
 *    PTL_NID_ANY, PTL_PID_ANY, PTL_UID_ANY and PTL_PT_INDEX_ANY are all ones (0xFFFFFFFF).
 *  - Argument checking order: PTL_NOINIT first, then a NULL out-pointer the function needs (PTL_SEGV),
 *    then the engine's own checks (handles, then values). The spec does not order codes (digest 2.6);
 *    checking NULL before anything is created means no object is made that the caller cannot name.
 *    NULL is legal where the spec says so: PtlNIInit's desired, PtlMDAttach's handle (L5548),
 *    PtlMDUpdate's old_md and new_md.
 *  - A value outside its C enum (ptl_ack_req_t, ptl_unlink_t, ptl_ins_pos_t) has no code of its own
 *    in the spec: it is answered with PTL_FAIL.
 *  - Memory named by ptl_md_t.start is used in place: puts, gets and replies read and write the
 *    program's own memory, and events report start and user_ptr exactly as given.
 *  - If the Java engine cannot be started (no JDK found, classes not found), PtlInit prints what to do
 *    on stderr and returns PTL_FAIL; every other function returns PTL_NOINIT.
 *
 * Dialects: this is the 3.2 API. -DPTL_DIALECT_33 selects the Portals 3.3 API where this build has it.
 */
#ifndef PORTALS3_H
#define PORTALS3_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PTL_DIALECT_33)
#error "portals3.h: this build of libportals3 has only the Portals 3.2 API; compile without -DPTL_DIALECT_33"
#endif

/* ---- base types (L2334) ------------------------------------------------------------------------ */

typedef uint64_t ptl_size_t;            /* sizes: unsigned 64-bit (L2353) */
typedef uint64_t ptl_handle_any_t;      /* handles (L2368) */
typedef ptl_handle_any_t ptl_handle_ni_t;
typedef ptl_handle_any_t ptl_handle_eq_t;
typedef ptl_handle_any_t ptl_handle_md_t;
typedef ptl_handle_any_t ptl_handle_me_t;
typedef uint32_t ptl_pt_index_t;        /* Portal table indexes (L2445) */
typedef uint32_t ptl_ac_index_t;        /* access control table indexes (L2445) */
typedef uint64_t ptl_match_bits_t;      /* match and ignore bits: all 64 used, bit 63 too (L2472) */
typedef uint32_t ptl_interface_t;       /* network interface identifiers (L2487) */
typedef uint32_t ptl_nid_t;             /* node ids (L2509) */
typedef uint32_t ptl_pid_t;             /* process ids (L2509) */
typedef uint32_t ptl_uid_t;             /* user ids (L2509) */
typedef uint32_t ptl_sr_index_t;        /* status register indexes (L2556) */
typedef int64_t ptl_sr_value_t;         /* status register values: signed, at least 32 bits (L2582) */
typedef uint64_t ptl_hdr_data_t;        /* 64 bits of out-of-band user data (L6647) */
typedef uint64_t ptl_seq_t;             /* event sequence numbers and links (L6575) */
typedef uint32_t ptl_ni_fail_t;         /* network-interface failure kinds (L6532) */

typedef struct {
    ptl_nid_t nid;
    ptl_pid_t pid;
} ptl_process_id_t;                     /* (L3905) */

typedef struct {
    int max_match_entries;              /* most MEs at one time (L2869) */
    int max_mem_descriptors;            /* most MDs at one time (L2873) */
    int max_event_queues;               /* most EQs at one time (L2877) */
    ptl_ac_index_t max_atable_index;    /* largest access control index, inclusive (L2881) */
    ptl_pt_index_t max_ptable_index;    /* largest Portal table index, inclusive (L2889) */
} ptl_ni_limits_t;                      /* (L2835) */

typedef enum { PTL_RETAIN, PTL_UNLINK } ptl_unlink_t;                  /* (L4088) */
typedef enum { PTL_INS_BEFORE, PTL_INS_AFTER } ptl_ins_pos_t;          /* (L4093) */
typedef enum { PTL_ACK_REQ, PTL_NOACK_REQ } ptl_ack_req_t;             /* (L7571) */

typedef struct {
    void *start;                        /* region start; NULL only with length 0 (L5076) */
    ptl_size_t length;                  /* region length in bytes (L5076) */
    int threshold;                      /* operations left; 0 inactive; PTL_MD_THRESH_INF (L5103) */
    unsigned int max_offset;            /* inactive once the local offset exceeds it (L5135) */
    unsigned int options;               /* PTL_MD_* bits (L5144) */
    void *user_ptr;                     /* reported back unchanged in every event (L5253) */
    ptl_handle_eq_t eventq;             /* where events go; PTL_EQ_NONE for none (L5279) */
} ptl_md_t;                             /* (L5046) */

typedef enum {
    PTL_EVENT_GET_START, PTL_EVENT_GET_END, PTL_EVENT_GET_FAIL,
    PTL_EVENT_PUT_START, PTL_EVENT_PUT_END, PTL_EVENT_PUT_FAIL,
    PTL_EVENT_REPLY_START, PTL_EVENT_REPLY_END, PTL_EVENT_REPLY_FAIL,
    PTL_EVENT_SEND_START, PTL_EVENT_SEND_END, PTL_EVENT_SEND_FAIL,
    PTL_EVENT_ACK,
    PTL_EVENT_UNLINK
} ptl_event_kind_t;                     /* (L6295); no PTL_EVENT_ACK_START/END/FAIL */

typedef struct {
    ptl_event_kind_t type;              /* (L6587) */
    ptl_process_id_t initiator;         /* (L6589) */
    ptl_uid_t uid;                      /* the initiator's user id */
    ptl_pt_index_t portal;              /* (L6593) */
    ptl_match_bits_t match_bits;        /* (L6597) */
    ptl_size_t rlength;                 /* (L6608) */
    ptl_size_t mlength;                 /* (L6612) */
    ptl_size_t offset;                  /* (L6620) */
    ptl_handle_md_t md_handle;          /* (L6639) */
    ptl_md_t mem_desc;                  /* the MD right after the event (L6642) */
    ptl_hdr_data_t hdr_data;            /* (L6647) */
    ptl_seq_t link;                     /* (L6657) */
    ptl_ni_fail_t ni_fail_type;         /* PTL_NI_OK unless a *_FAIL event (L6520) */
    volatile ptl_seq_t sequence;        /* written last (L6690) */
} ptl_event_t;                          /* (L6548) */

/* ---- return codes (table L10217, plus PTL_PT_INV_INDEX of PtlACEntry, L7345) --------------------- */

#define PTL_OK               0
#define PTL_AC_INV_INDEX     1
#define PTL_EQ_DROPPED       2
#define PTL_EQ_EMPTY         3
#define PTL_FAIL             4
#define PTL_ILL_MD           5
#define PTL_INIT_DUP         6
#define PTL_INIT_INV         7
#define PTL_INUSE            8
#define PTL_INV_ASIZE        9
#define PTL_INV_EQ          10
#define PTL_INV_HANDLE      11
#define PTL_INV_MD          12
#define PTL_INV_ME          13
#define PTL_INV_NI          14
#define PTL_INV_PROC        15
#define PTL_INV_PTINDEX     16
#define PTL_INV_REG         17
#define PTL_INV_SR_INDX     18
#define PTL_ML_TOOLONG      19
#define PTL_MD_INUSE        20
#define PTL_NOINIT          21
#define PTL_NOSPACE         22
#define PTL_NOUPDATE        23
#define PTL_PT_FULL         24
#define PTL_SEGV            25
#define PTL_PT_INV_INDEX    26

/* ---- other constants (table L11069) ------------------------------------------------------------ */

#define PTL_EQ_NONE          ((ptl_handle_eq_t) 0)     /* no event queue (L2414) */
#define PTL_MD_NONE          ((ptl_handle_md_t) 0)     /* no MD: "no ack" on the wire (L13099, A-30) */
#define PTL_NID_ANY          ((ptl_nid_t) 0xFFFFFFFFu)
#define PTL_PID_ANY          ((ptl_pid_t) 0xFFFFFFFFu)
#define PTL_UID_ANY          ((ptl_uid_t) 0xFFFFFFFFu)
#define PTL_PT_INDEX_ANY     ((ptl_pt_index_t) 0xFFFFFFFFu)  /* only in PtlACEntry */
#define PTL_IFACE_DEFAULT    ((ptl_interface_t) 0)

#define PTL_MD_OP_PUT        1u
#define PTL_MD_OP_GET        2u
#define PTL_MD_MANAGE_REMOTE 4u
#define PTL_MD_TRUNCATE      8u
#define PTL_MD_ACK_DISABLE   16u
#define PTL_MD_THRESH_INF    (-1)

/* Status registers: the spec defines PTL_SR_DROP_COUNT (L3411); the rest break it down (Portals3J). */
#define PTL_SR_DROP_COUNT       ((ptl_sr_index_t) 0)
#define PTL_SR_DROP_INV_PORTAL  ((ptl_sr_index_t) 1)
#define PTL_SR_DROP_ACL         ((ptl_sr_index_t) 2)
#define PTL_SR_DROP_NO_MATCH    ((ptl_sr_index_t) 3)
#define PTL_SR_DROP_STALE_MD    ((ptl_sr_index_t) 4)
#define PTL_SR_DROP_ACK_NO_EQ   ((ptl_sr_index_t) 5)
#define PTL_SR_DROP_WRONG_PID   ((ptl_sr_index_t) 6)
#define PTL_SR_DROP_MALFORMED   ((ptl_sr_index_t) 7)
#define PTL_SR_EVENTS_DROPPED   ((ptl_sr_index_t) 8)
#define PTL_SR_PUTS_RECEIVED    ((ptl_sr_index_t) 9)
#define PTL_SR_GETS_RECEIVED    ((ptl_sr_index_t) 10)
#define PTL_SR_BYTES_RECEIVED   ((ptl_sr_index_t) 11)
#define PTL_SR_BYTES_SENT       ((ptl_sr_index_t) 12)

/* ptl_ni_fail_t values: the spec defines none (L6532); PTL_NI_OK is "no failure". */
#define PTL_NI_OK            ((ptl_ni_fail_t) 0)
#define PTL_NI_FAIL          ((ptl_ni_fail_t) 1)
#define PTL_NI_PEER_DEAD     ((ptl_ni_fail_t) 2)
#define PTL_NI_MEMORY_FAULT  ((ptl_ni_fail_t) 3)

/* ---- functions (chapter 3) --------------------------------------------------------------------- */

/* 3.1 initialisation and cleanup */
int PtlInit(int *max_interfaces);                                                   /* L2618 */
void PtlFini(void);                                                                 /* L2705 */

/* 3.2 network interfaces */
int PtlNIInit(ptl_interface_t interface, ptl_pid_t pid, ptl_ni_limits_t *desired,
              ptl_ni_limits_t *actual, ptl_handle_ni_t *handle);                    /* L2852 */
int PtlNIFini(ptl_handle_ni_t interface);                                           /* L3156 */
int PtlNIStatus(ptl_handle_ni_t interface, ptl_sr_index_t status_register,
                ptl_sr_value_t *status);                                            /* L3246 */
int PtlNIDist(ptl_handle_ni_t interface, ptl_process_id_t process,
              unsigned long *distance);                                             /* L3428 */
int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *interface);               /* L3598 */

/* 3.3 user and process identification */
int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid);                           /* L3749 */
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_id_t *id);                      /* L3931 */

/* 3.4 match list entries */
int PtlMEAttach(ptl_handle_ni_t interface, ptl_pt_index_t index, ptl_process_id_t matchid,
                ptl_match_bits_t match_bits, ptl_match_bits_t ignorebits, ptl_unlink_t unlink,
                ptl_ins_pos_t position, ptl_handle_me_t *handle);                   /* L4098 */
int PtlMEAttachAny(ptl_handle_ni_t interface, ptl_pt_index_t *index, ptl_process_id_t matchid,
                   ptl_match_bits_t match_bits, ptl_match_bits_t ignorebits, ptl_unlink_t unlink,
                   ptl_handle_me_t *handle);                                        /* L4465 */
/* As the listing writes it (no unlink argument): the entry is made with PTL_UNLINK. */
int PtlMEInsert(ptl_handle_me_t current, ptl_process_id_t matchid, ptl_match_bits_t match_bits,
                ptl_match_bits_t ignorebits, ptl_ins_pos_t position,
                ptl_handle_me_t *handle);                                           /* L4679 */
int PtlMEUnlink(ptl_handle_me_t entry);                                             /* L4924 */

/* 3.5 memory descriptors */
int PtlMDAttach(ptl_handle_me_t match, ptl_md_t mem_desc, ptl_unlink_t unlink_op,
                ptl_unlink_t unlink_nofit, ptl_handle_md_t *handle);                /* L5297 */
int PtlMDBind(ptl_handle_ni_t interface, ptl_md_t mem_desc, ptl_handle_md_t *handle); /* L5597 */
int PtlMDUnlink(ptl_handle_md_t mem_desc);                                          /* L5810 */
int PtlMDUpdate(ptl_handle_md_t mem_desc, ptl_md_t *old_md, ptl_md_t *new_md,
                ptl_handle_eq_t testq);                                             /* L5905 */

/* 3.6 event queues */
int PtlEQAlloc(ptl_handle_ni_t interface, ptl_size_t count, ptl_handle_eq_t *handle); /* L6716 */
int PtlEQFree(ptl_handle_eq_t eventq);                                              /* L6879 */
int PtlEQGet(ptl_handle_eq_t eventq, ptl_event_t *event);                           /* L6966 */
int PtlEQWait(ptl_handle_eq_t eventq, ptl_event_t *event);                          /* L7119 */

/* 3.7 access control */
int PtlACEntry(ptl_handle_ni_t interface, ptl_ac_index_t index, ptl_process_id_t matchid,
               ptl_uid_t user_id, ptl_pt_index_t portal);                           /* L7291 */

/* 3.8 data movement */
int PtlPut(ptl_handle_md_t mem_desc, ptl_ack_req_t ack_req, ptl_process_id_t target,
           ptl_pt_index_t portal, ptl_ac_index_t cookie, ptl_match_bits_t match_bits,
           ptl_size_t offset, ptl_hdr_data_t hdr_data);                             /* L7571 */
int PtlGet(ptl_handle_md_t mem_desc, ptl_process_id_t target, ptl_pt_index_t portal,
           ptl_ac_index_t cookie, ptl_match_bits_t match_bits, ptl_size_t offset);  /* L7973 */

/* Names that exist only in Portals 3.3: a 3.3 program compiled as 3.2 stops at its first use with a
 * message saying what to do (a 3.3 call of a 3.2 function with other arguments, e.g. PtlMDBind with
 * unlink_op, is caught by the compiler as a wrong number of arguments). */
#define PTL_ONLY_IN_33_(pragma) (_Pragma(pragma) 0)
#define PtlEQPoll(...)        PTL_ONLY_IN_33_("GCC error \"PtlEQPoll is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlHandleIsEqual(...) PTL_ONLY_IN_33_("GCC error \"PtlHandleIsEqual is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlPutRegion(...)     PTL_ONLY_IN_33_("GCC error \"PtlPutRegion is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlGetRegion(...)     PTL_ONLY_IN_33_("GCC error \"PtlGetRegion is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlGetJid(...)        PTL_ONLY_IN_33_("GCC error \"PtlGetJid is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_MD_MAX_SIZE       PTL_ONLY_IN_33_("GCC error \"PTL_MD_MAX_SIZE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_MD_EVENT_START_DISABLE \
    PTL_ONLY_IN_33_("GCC error \"PTL_MD_EVENT_START_DISABLE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_MD_EVENT_END_DISABLE \
    PTL_ONLY_IN_33_("GCC error \"PTL_MD_EVENT_END_DISABLE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_EQ_HANDLER_NONE   PTL_ONLY_IN_33_("GCC error \"PTL_EQ_HANDLER_NONE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_JID_ANY           PTL_ONLY_IN_33_("GCC error \"PTL_JID_ANY is Portals 3.3: compile with -DPTL_DIALECT_33\"")

#ifdef __cplusplus
}
#endif

#endif /* PORTALS3_H */
