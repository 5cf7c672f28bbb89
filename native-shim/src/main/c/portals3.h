/*
 * portals3.h: the Portals 3.2 C API (Sandia, Revision 1.1, chapter 3), and with -DPTL_DIALECT_33 the
 * Portals 3.3 C API (SAND2006-0420), served by the Portals3J Java engine through libportals3.so.
 *
 * Names, types, signatures and constants are chapter 3's. The spec gives no numeric values; the values
 * here are Portals3J's and stable (the Java API uses the same numbers: ReturnCode, MdOption, EventKind,
 * ProcessId, StatusRegister, NiFailType). References (Portals 3.2 spec §3.8.2.2) are to the sections of the
 * published Portals 3.2 document (SAND report, Revision 1.1).
 *
 * How the C API maps onto the Java engine, and where this header decides what the spec leaves open:
 *  - Handles are 64-bit values; every handle type converts to ptl_handle_any_t and back without loss
 *  (Portals 3.2 spec §3.2.2).
 *  - ptl_nid_t, ptl_pid_t, ptl_uid_t, ptl_pt_index_t, ptl_ac_index_t are 32-bit unsigned; the wildcards
 *    PTL_NID_ANY, PTL_PID_ANY, PTL_UID_ANY and PTL_PT_INDEX_ANY are all ones (0xFFFFFFFF).
 *  - Argument checking order: PTL_NOINIT first, then a NULL out-pointer the function needs (PTL_SEGV),
 *    then the engine's own checks (handles, then values). The spec does not order codes (Portals 3.2
 *    spec §3.12's table "Function Return Codes" and the functions' Return Codes sections list them unordered);
 *    checking NULL before anything is created means no object is made that the caller cannot name.
 *    NULL is legal where the spec says so: PtlNIInit's desired, PtlMDAttach's handle (Portals 3.2 spec §3.8.2.2),
 *    PtlMDUpdate's old_md and new_md. PtlNIInit's actual: PTL_SEGV for NULL in 3.2, which lists that code
 *    for it (Portals 3.2 spec §3.4.1.1); NULL is legal in 3.3, where the limits are then not returned (below).
 *  - PtlErrorStr, PtlNIFailStr and PtlEventKindStr (extensions of the 3.3 reference implementation, in both
 *    dialects here) need no PtlInit: each returns the name of its value as the dialect spells it, e.g.
 *    "PTL_MD_INVALID" (3.3) or "PTL_INV_MD" (3.2) for the same code, and "PTL_UNKNOWN_ERROR",
 *    "PTL_NI_UNKNOWN_ERROR" or "PTL_UNKNOWN_EVENT_KIND" for a value that names nothing. The strings are
 *    constant; PtlNIFailStr does not look at its interface (the names are the same on every one).
 *  - A value outside its C enum (ptl_ack_req_t, ptl_unlink_t, ptl_ins_pos_t) has no code of its own
 *    in the spec: it is answered with PTL_FAIL.
 *  - Memory named by ptl_md_t.start is used in place: puts, gets and replies read and write the
 *    program's own memory, and events report start and user_ptr exactly as given.
 *  - If the Java engine cannot be started (no JDK found, classes not found), PtlInit prints what to do
 *    on stderr and returns PTL_FAIL; every other function returns PTL_NOINIT.
 *  - A process forked after PtlInit has none of the engine's threads: in the child every Portals function
 *    returns PTL_FAIL at once (ptl_rt_* -1, PtlFini returns), one line on stderr says why, and its exit
 *    leaves the parent's job alone. It gets SIGTERM when the thread that forked it ends (PR_SET_PDEATHSIG;
 *    for a fork from the main thread, when the parent process ends), so it does not outlive the job. Use
 *    Portals in the parent, or exec a new program in the child.
 *  - A fault in the program's own code after PtlInit (SIGSEGV, SIGBUS, SIGFPE, SIGILL) ends the process by
 *    that signal, as without Portals: under a shell, status 139 for SIGSEGV and the shell's one line
 *    ("Segmentation fault"); under portals run, "rank R was killed by signal 11 (SIGSEGV)". No JVM report
 *    and no hs_err file. (PORTALS3J_JVM_CRASH_REPORT=1 asks for the JVM's fatal-error report instead, for a
 *    fault inside the engine.) A handler the program installed before PtlInit keeps working; one installed
 *    after PtlInit replaces the JVM's and breaks the engine.
 *
 * Dialects. Without PTL_DIALECT_33 this is the 3.2 API, and a 3.3-only name stops the compiler with a
 * message saying to define it. With -DPTL_DIALECT_33 it is the 3.3 API: the 3.3 ptl_md_t (max_size, no
 * max_offset, eq_handle), ptl_event_t (jid, pt_index, md), ptl_ni_limits_t and ptl_event_kind_t, the 3.3
 * signatures (PtlMDAttach and PtlMDBind with unlink_op, PtlEQAlloc with a handler, PtlACEntry with a job
 * id, PtlMEInsert with unlink_op), the new functions (PtlEQPoll, PtlGetJid, PtlPutRegion, PtlGetRegion,
 * PtlHandleIsEqual, and the reference implementation's PtlGetPut), the 3.3 names of the return codes, and the 3.3 semantics, which are the engine's
 * (org.portals3j.portals.Portals33: per-queue sequence numbers, acks counted against the threshold,
 * failures reported in END events, ...). Without a 3.3 text among the project's specs, the 3.3 names and
 * signatures follow the Portals 3.3 reference implementation (github.com/jkmcnk/portals3ib: its
 * include/p3api/types.h and the p3api sources, which cite the 3.3 sections: "3.3 §3.10.1" below).
 *
 * One libportals3.so serves both: the 3.3 functions are separate entry points (symbols ptl33_*, bound by
 * this header), and a process uses the dialect of its first PtlInit for its whole life. A call compiled
 * for the other dialect (a program whose files were compiled with and without PTL_DIALECT_33) returns
 * PTL_FAIL with a message on stderr saying to compile every file with the same setting.
 */
#ifndef PORTALS3_H
#define PORTALS3_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PTL_DIALECT_33) && !defined(__GNUC__)
#error "portals3.h: the Portals 3.3 dialect binds its functions to their entry points with GNU C asm labels: use gcc, clang or another GNU C compiler"
#endif

/* ---- base types (Portals 3.2 spec §3.1), the same in 3.2 and 3.3 ------------------------------------------------ */

typedef uint64_t ptl_size_t;            /* sizes: unsigned 64-bit (Portals 3.2 spec §3.2.1) */
typedef uint64_t ptl_handle_any_t;      /* handles (Portals 3.2 spec §3.2.2) */
typedef ptl_handle_any_t ptl_handle_ni_t;
typedef ptl_handle_any_t ptl_handle_eq_t;
typedef ptl_handle_any_t ptl_handle_md_t;
typedef ptl_handle_any_t ptl_handle_me_t;
typedef uint32_t ptl_pt_index_t;        /* Portal table indexes (Portals 3.2 spec §3.2.3) */
typedef uint32_t ptl_ac_index_t;        /* access control table indexes (Portals 3.2 spec §3.2.3) */
typedef uint64_t ptl_match_bits_t;      /* match and ignore bits: all 64 used, bit 63 too (Portals 3.2 spec §3.2.4) */
typedef uint32_t ptl_interface_t;       /* network interface identifiers (Portals 3.2 spec §3.2.5) */
typedef uint32_t ptl_nid_t;             /* node ids (Portals 3.2 spec §3.2.6) */
typedef uint32_t ptl_pid_t;             /* process ids (Portals 3.2 spec §3.2.6) */
typedef uint32_t ptl_uid_t;             /* user ids (Portals 3.2 spec §3.2.6) */
typedef uint32_t ptl_sr_index_t;        /* status register indexes (Portals 3.2 spec §3.2.7) */
typedef int64_t ptl_sr_value_t;         /* status register values: signed, at least 32 bits (Portals 3.2 spec §3.2.7) */
typedef uint64_t ptl_hdr_data_t;        /* 64 bits of out-of-band user data (Portals 3.2 spec §3.9.4) */
typedef uint64_t ptl_seq_t;             /* event sequence numbers (Portals 3.2 spec §3.9.4); 64 bits in 3.3 too */
typedef uint32_t ptl_ni_fail_t;         /* network-interface failure kinds (Portals 3.2 spec §3.9.3) */

typedef struct {
    ptl_nid_t nid;
    ptl_pid_t pid;
} ptl_process_id_t;                     /* (Portals 3.2 spec §3.6.1) */

typedef enum { PTL_RETAIN, PTL_UNLINK } ptl_unlink_t;                  /* (Portals 3.2 spec §3.7.1) */
typedef enum { PTL_INS_BEFORE, PTL_INS_AFTER } ptl_ins_pos_t;          /* (Portals 3.2 spec §3.7.1) */

#ifndef PTL_DIALECT_33
/* ---- Portals 3.2 structs and enums ---------------------------------------------------------------- */

typedef struct {
    int max_match_entries;              /* most MEs at one time (Portals 3.2 spec §3.4.1) */
    int max_mem_descriptors;            /* most MDs at one time (Portals 3.2 spec §3.4.1) */
    int max_event_queues;               /* most EQs at one time (Portals 3.2 spec §3.4.1) */
    ptl_ac_index_t max_atable_index;    /* largest access control index, inclusive (Portals 3.2 spec §3.4.1) */
    ptl_pt_index_t max_ptable_index;    /* largest Portal table index, inclusive (Portals 3.2 spec §3.4.1) */
} ptl_ni_limits_t;                      /* (Portals 3.2 spec §3.4.1) */

typedef enum { PTL_ACK_REQ, PTL_NOACK_REQ } ptl_ack_req_t;             /* (Portals 3.2 spec §3.11.1) */

typedef struct {
    void *start;                        /* region start; NULL only with length 0 (Portals 3.2 spec §3.8.1.1) */
    ptl_size_t length;                  /* region length in bytes (Portals 3.2 spec §3.8.1.1) */
    int threshold;                      /* operations left; 0 inactive; PTL_MD_THRESH_INF (Portals 3.2 spec §3.8.1.1) */
    unsigned int max_offset;            /* inactive once the local offset exceeds it (Portals 3.2 spec §3.8.1.1) */
    unsigned int options;               /* PTL_MD_* bits (Portals 3.2 spec §3.8.1.1) */
    void *user_ptr;                     /* reported back unchanged in every event (Portals 3.2 spec §3.8.1.1) */
    ptl_handle_eq_t eventq;             /* where events go; PTL_EQ_NONE for none (Portals 3.2 spec §3.8.1.1) */
} ptl_md_t;                             /* (Portals 3.2 spec §3.8.1) */

typedef enum {
    PTL_EVENT_GET_START, PTL_EVENT_GET_END, PTL_EVENT_GET_FAIL,
    PTL_EVENT_PUT_START, PTL_EVENT_PUT_END, PTL_EVENT_PUT_FAIL,
    PTL_EVENT_REPLY_START, PTL_EVENT_REPLY_END, PTL_EVENT_REPLY_FAIL,
    PTL_EVENT_SEND_START, PTL_EVENT_SEND_END, PTL_EVENT_SEND_FAIL,
    PTL_EVENT_ACK,
    PTL_EVENT_UNLINK
} ptl_event_kind_t;                     /* (Portals 3.2 spec §3.9.1); no PTL_EVENT_ACK_START/END/FAIL */

typedef struct {
    ptl_event_kind_t type;              /* (Portals 3.2 spec §3.9.4) */
    ptl_process_id_t initiator;         /* (Portals 3.2 spec §3.9.4) */
    ptl_uid_t uid;                      /* the initiator's user id */
    ptl_pt_index_t portal;              /* (Portals 3.2 spec §3.9.4) */
    ptl_match_bits_t match_bits;        /* (Portals 3.2 spec §3.9.4) */
    ptl_size_t rlength;                 /* (Portals 3.2 spec §3.9.4) */
    ptl_size_t mlength;                 /* (Portals 3.2 spec §3.9.4) */
    ptl_size_t offset;                  /* (Portals 3.2 spec §3.9.4) */
    ptl_handle_md_t md_handle;          /* (Portals 3.2 spec §3.9.4) */
    ptl_md_t mem_desc;                  /* the MD right after the event (Portals 3.2 spec §3.9.4) */
    ptl_hdr_data_t hdr_data;            /* (Portals 3.2 spec §3.9.4) */
    ptl_seq_t link;                     /* (Portals 3.2 spec §3.9.4) */
    ptl_ni_fail_t ni_fail_type;         /* PTL_NI_OK unless a *_FAIL event (Portals 3.2 spec §3.9.3) */
    volatile ptl_seq_t sequence;        /* written last (Portals 3.2 spec §3.9.4) */
} ptl_event_t;                          /* (Portals 3.2 spec §3.9.4) */

#else
/* ---- Portals 3.3 types, structs and enums --------------------------------------------------------- */

typedef uint32_t ptl_jid_t;             /* job ids (3.3 §3.2.6) */
typedef uint32_t ptl_time_t;            /* PtlEQPoll timeouts in milliseconds (3.3 §3.11.12) */

/* The first five are the 3.2 limits. PtlNIInit fills the other three from what this implementation has:
 * max_md_iovecs 0 (PTL_MD_IOVEC is not implemented), max_me_list the longest match list the library allows,
 * max_getput_md 64 (the longest put MD of PtlGetPut, as in the reference implementation); in desired, those
 * three are not settable and are ignored. */
typedef struct {
    int max_mes;                        /* most MEs at one time */
    int max_mds;                        /* most MDs at one time */
    int max_eqs;                        /* most EQs at one time */
    int max_ac_index;                   /* largest access control index, inclusive */
    int max_pt_index;                   /* largest Portal table index, inclusive */
    int max_md_iovecs;
    int max_me_list;
    int max_getput_md;
} ptl_ni_limits_t;                      /* (3.3 §3.5.1) */

typedef enum { PTL_ACK_REQ, PTL_NO_ACK_REQ } ptl_ack_req_t;            /* (3.3 §3.13.2) */
#define PTL_NOACK_REQ PTL_NO_ACK_REQ    /* the 3.2 spelling, for programs written against both */

typedef struct {
    void *start;                        /* region start; NULL only with length 0 */
    ptl_size_t length;                  /* region length in bytes */
    int threshold;                      /* operations left, acknowledgements included; PTL_MD_THRESH_INF */
    ptl_size_t max_size;                /* with PTL_MD_MAX_SIZE: the largest request accepted, and the MD is
                                           inactive once length - local offset < max_size (3.3 §3.10.1) */
    unsigned int options;               /* PTL_MD_* bits */
    void *user_ptr;                     /* reported back unchanged in every event */
    ptl_handle_eq_t eq_handle;          /* where events go; PTL_EQ_NONE for none */
} ptl_md_t;                             /* (3.3 §3.10.1) */

/* 3.3's twelve kinds, in 3.3's order. A 3.3 library reports a failure in the END event's ni_fail_type,
 * never with a *_FAIL kind; PTL_EVENT_GETPUT_* are the target's events of a PtlGetPut. */
typedef enum {
    PTL_EVENT_GET_START, PTL_EVENT_GET_END,
    PTL_EVENT_PUT_START, PTL_EVENT_PUT_END,
    PTL_EVENT_GETPUT_START, PTL_EVENT_GETPUT_END,
    PTL_EVENT_REPLY_START, PTL_EVENT_REPLY_END,
    PTL_EVENT_SEND_START, PTL_EVENT_SEND_END,
    PTL_EVENT_ACK,
    PTL_EVENT_UNLINK
} ptl_event_kind_t;                     /* (3.3 §3.11.1) */

typedef struct {
    ptl_event_kind_t type;
    ptl_process_id_t initiator;
    ptl_uid_t uid;
    ptl_jid_t jid;                      /* the initiator's job id: PtlGetJid on the initiator */
    ptl_pt_index_t pt_index;
    ptl_match_bits_t match_bits;
    ptl_size_t rlength;
    ptl_size_t mlength;
    ptl_size_t offset;                  /* REPLY_*: where in the local MD the reply was placed */
    ptl_handle_md_t md_handle;
    ptl_md_t md;                        /* the MD right after the event */
    ptl_hdr_data_t hdr_data;
    ptl_seq_t link;                     /* END: its START's sequence, or 0 if the START was not logged
                                           (PTL_MD_EVENT_START_DISABLE); UNLINK: the causing END's, or 0 */
    ptl_ni_fail_t ni_fail_type;         /* PTL_NI_OK, or why the operation failed (END events) */
    volatile ptl_seq_t sequence;        /* per event queue: 1, 2, 3, ... (a lost event keeps its number);
                                           written last */
} ptl_event_t;                          /* (3.3 §3.11.4) */

/* Runs once for every event deposited into its queue, before the event can be taken (it is queued as
 * well, and the handler sees events a full queue then loses). It runs on whatever thread deposits the
 * event: one of the engine's own threads (not a thread of this program) or this program's thread inside
 * a Portals call. It must not block and must not call Portals functions (they return PTL_FAIL there).
 * *event is valid only during the call: copy it to keep it. (3.3 §3.11.6) */
typedef void (*ptl_eq_handler_t)(ptl_event_t *event);
#endif /* PTL_DIALECT_33 */

/* ---- return codes (Portals 3.2 spec §3.12, plus PTL_PT_INV_INDEX of PtlACEntry, §3.10.1.1) -------------------- */

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
#ifndef PTL_DIALECT_33
#define PTL_PT_INV_INDEX    26
#else
/* 3.3's names for the same codes (the 3.2 names above stay, for programs written against both). 3.3 has
 * one code for a bad portal index, so PtlACEntry answers PTL_PT_INDEX_INVALID where 3.2 has
 * PTL_PT_INV_INDEX, and PTL_PT_INV_INDEX is the same code here. */
#define PTL_AC_INDEX_INVALID PTL_AC_INV_INDEX
#define PTL_EQ_INVALID       PTL_INV_EQ
#define PTL_HANDLE_INVALID   PTL_INV_HANDLE
#define PTL_IFACE_INVALID    PTL_INIT_INV      /* PtlNIInit: no such interface */
#define PTL_MD_ILLEGAL       PTL_ILL_MD
#define PTL_MD_INVALID       PTL_INV_MD
#define PTL_MD_IN_USE        PTL_MD_INUSE
#define PTL_MD_NO_UPDATE     PTL_NOUPDATE
#define PTL_ME_INVALID       PTL_INV_ME
#define PTL_ME_IN_USE        PTL_INUSE         /* PtlMDAttach: the ME already has an MD */
#define PTL_ME_LIST_TOO_LONG PTL_ML_TOOLONG
#define PTL_NI_INVALID       PTL_INV_NI
#define PTL_NO_INIT          PTL_NOINIT
#define PTL_NO_SPACE         PTL_NOSPACE
#define PTL_PID_INVALID      PTL_INIT_DUP      /* PtlNIInit: the interface already has another pid */
#define PTL_PROCESS_INVALID  PTL_INV_PROC
#define PTL_PT_INDEX_INVALID PTL_INV_PTINDEX
#define PTL_PT_INV_INDEX     PTL_PT_INDEX_INVALID
#define PTL_SR_INDEX_INVALID PTL_INV_SR_INDX
#endif

/* ---- other constants (table Portals 3.2 spec §3.12) ------------------------------------------------------------ */

#define PTL_EQ_NONE          ((ptl_handle_eq_t) 0)     /* no event queue (Portals 3.2 spec §3.2.2) */
#define PTL_MD_NONE          ((ptl_handle_md_t) 0)     /* no MD: "no ack" on the wire (Portals 3.2 spec §4.1, A-30) */
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

/* Status registers: Portals 3.2 spec §3.4.3.2 defines PTL_SR_DROP_COUNT; the rest break it down (Portals3J). */
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
/* Puts and get replies whose SEND_END/GET_END was logged when the library had copied them, and which were then
 * not delivered (the peer died): only the ACK, if asked for, reports delivery. */
#define PTL_SR_SENDS_LOST       ((ptl_sr_index_t) 13)

/* ptl_ni_fail_t values: the spec defines none (Portals 3.2 spec §3.9.3); PTL_NI_OK is "no failure". */
#define PTL_NI_OK            ((ptl_ni_fail_t) 0)
#define PTL_NI_FAIL          ((ptl_ni_fail_t) 1)
#define PTL_NI_PEER_DEAD     ((ptl_ni_fail_t) 2)
#define PTL_NI_MEMORY_FAULT  ((ptl_ni_fail_t) 3)

/* A message for a name that is in the other dialect or not implemented: the compiler stops at its use. */
#define PTL_UNAVAILABLE_(pragma) (_Pragma(pragma) 0)

#define PTL_MD_IOVEC \
    PTL_UNAVAILABLE_("GCC error \"PTL_MD_IOVEC is not implemented by Portals3J: an MD describes one contiguous region\"")

#ifdef PTL_DIALECT_33
/* ---- Portals 3.3 constants -------------------------------------------------------------------------- */

#define PTL_JID_ANY          ((ptl_jid_t) 0xFFFFFFFFu)       /* any job, in PtlACEntry (3.3 §3.2.6) */
#define PTL_MD_MAX_SIZE             0x40u                    /* (3.3 §3.10.1) */
#define PTL_MD_EVENT_START_DISABLE  0x80u                    /* log no *_START events */
#define PTL_MD_EVENT_END_DISABLE    0x100u                   /* log no *_END events (ACK, UNLINK still) */
#define PTL_EQ_HANDLER_NONE  ((ptl_eq_handler_t) 0)          /* a queue without a handler (3.3 §3.11.6) */
#define PTL_TIME_FOREVER     ((ptl_time_t) 0xFFFFFFFFu)      /* PtlEQPoll waits without limit (3.3 §3.11.12) */
/* (3.3 §3.2.2) PTL_HANDLE_NONE names no object, as PTL_EQ_NONE and PTL_MD_NONE do (it is equal to them);
 * PTL_INVALID_HANDLE is never the handle of any object, nor equal to PTL_HANDLE_NONE. */
#define PTL_HANDLE_NONE      ((ptl_handle_any_t) 0)
#define PTL_INVALID_HANDLE   ((ptl_handle_any_t) 0xFFFFFFFFFFFFFFFFu)

/* ---- Portals 3.3 functions -------------------------------------------------------------------------
 * Each is bound to its own entry point of libportals3 (ptl33_<name>), beside the 3.2 one of the same name.
 * Unless said otherwise, a function does what the 3.2 function of the same name does, with the 3.3
 * structs and semantics; each forwards to the org.portals3j.portals.Portals33 method of the same name. */
#define PTL_33_(name) __asm__("ptl33_" #name)

/* 3.4 initialisation: the first PtlInit of a process chooses its dialect */
int PtlInit(int *max_interfaces) PTL_33_(PtlInit);
void PtlFini(void) PTL_33_(PtlFini);

/* 3.5 network interfaces. PtlNIInit: desired and actual may be NULL (actual: the limits are not returned,
 * as in the reference implementation, p3api/ni.c, and the 3.3 programs that pass NULL rely on). */
int PtlNIInit(ptl_interface_t iface, ptl_pid_t pid, ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
              ptl_handle_ni_t *ni_handle) PTL_33_(PtlNIInit);
int PtlNIFini(ptl_handle_ni_t ni_handle) PTL_33_(PtlNIFini);
int PtlNIStatus(ptl_handle_ni_t ni_handle, ptl_sr_index_t register_index, ptl_sr_value_t *status)
    PTL_33_(PtlNIStatus);
int PtlNIDist(ptl_handle_ni_t ni_handle, ptl_process_id_t process, unsigned long *distance) PTL_33_(PtlNIDist);
int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle) PTL_33_(PtlNIHandle);

/* 3.6-3.8 identification: PtlGetJid gives the job id, the same on every process of the job, never
 * PTL_JID_ANY */
int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid) PTL_33_(PtlGetUid);
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_id_t *id) PTL_33_(PtlGetId);
int PtlGetJid(ptl_handle_ni_t ni_handle, ptl_jid_t *jid) PTL_33_(PtlGetJid);

/* 3.9 match entries: 3.3's PtlMEInsert has unlink_op */
int PtlMEAttach(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, ptl_process_id_t match_id,
                ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                ptl_ins_pos_t position, ptl_handle_me_t *me_handle) PTL_33_(PtlMEAttach);
int PtlMEAttachAny(ptl_handle_ni_t ni_handle, ptl_pt_index_t *pt_index, ptl_process_id_t match_id,
                   ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                   ptl_handle_me_t *me_handle) PTL_33_(PtlMEAttachAny);
int PtlMEInsert(ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_ins_pos_t position,
                ptl_handle_me_t *me_handle) PTL_33_(PtlMEInsert);
int PtlMEUnlink(ptl_handle_me_t me_handle) PTL_33_(PtlMEUnlink);

/* 3.10 memory descriptors. PtlMDAttach has no unlink_nofit: an MD a request does not fit is passed over
 * and stays; md_handle may be NULL. PtlMDBind's MD unlinks itself once inactive with PTL_UNLINK. */
int PtlMDAttach(ptl_handle_me_t me_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle)
    PTL_33_(PtlMDAttach);
int PtlMDBind(ptl_handle_ni_t ni_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle)
    PTL_33_(PtlMDBind);
int PtlMDUnlink(ptl_handle_md_t md_handle) PTL_33_(PtlMDUnlink);
int PtlMDUpdate(ptl_handle_md_t md_handle, ptl_md_t *old_md, ptl_md_t *new_md, ptl_handle_eq_t eq_handle)
    PTL_33_(PtlMDUpdate);

/* 3.11 event queues. eq_handler: see ptl_eq_handler_t; PTL_EQ_HANDLER_NONE for none.
 * PtlEQPoll takes the next event of the first queue, in array order, that has one, waiting up to timeout
 * milliseconds (0: look once; PTL_TIME_FOREVER: no limit), and sets *which_eq to that queue's position.
 * PTL_EQ_EMPTY when the time ran out (*event and *which_eq are then left as they were); PTL_EQ_INVALID for
 * size <= 0, queues of different interfaces, or a queue that is not live or is freed while waiting. */
int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_eq_handler_t eq_handler,
               ptl_handle_eq_t *eq_handle) PTL_33_(PtlEQAlloc);
int PtlEQFree(ptl_handle_eq_t eq_handle) PTL_33_(PtlEQFree);
int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t *event) PTL_33_(PtlEQGet);
int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t *event) PTL_33_(PtlEQWait);
int PtlEQPoll(const ptl_handle_eq_t *eq_handles, int size, ptl_time_t timeout, ptl_event_t *event,
              int *which_eq) PTL_33_(PtlEQPoll);

/* 3.12 access control: the entry allows only requests from job jid (PTL_JID_ANY: any job) */
int PtlACEntry(ptl_handle_ni_t ni_handle, ptl_ac_index_t ac_index, ptl_process_id_t match_id, ptl_uid_t uid,
               ptl_jid_t jid, ptl_pt_index_t pt_index) PTL_33_(PtlACEntry);

/* 3.13 data movement. The Region calls move the length bytes at local_offset of the MD (PTL_MD_ILLEGAL if
 * they do not lie inside it); PtlGetRegion leaves the rest of the MD alone. Each call may block while the
 * transport's bounded queue to the target is full (udp: udp.sendQueueMessages, udp.sendQueueBytes), until
 * acknowledgements make room, the target is declared dead or the endpoint closes (then the END event carries
 * ni_fail_type): no return code means "no room", and an unbounded queue would exhaust the memory of a program
 * that puts in a loop. The wait holds no lock of the library but the channel to that target. */
int PtlPut(ptl_handle_md_t md_handle, ptl_ack_req_t ack_req, ptl_process_id_t target_id, ptl_pt_index_t pt_index,
           ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data)
    PTL_33_(PtlPut);
int PtlPutRegion(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
                 ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
                 ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data)
    PTL_33_(PtlPutRegion);
int PtlGet(ptl_handle_md_t md_handle, ptl_process_id_t target_id, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
           ptl_match_bits_t match_bits, ptl_size_t remote_offset) PTL_33_(PtlGet);
int PtlGetRegion(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_process_id_t target_id,
                 ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits,
                 ptl_size_t remote_offset) PTL_33_(PtlGetRegion);

/* PtlGetPut (the reference implementation's 3.3 atomic swap, p3api/move.c): the put_md_handle MD's bytes
 * (at most max_getput_md = 64) replace the bytes of the matched MD at the target, and the bytes they replace
 * come back to offset 0 of the get_md_handle MD (which may be the same MD), atomically with respect to every
 * other PtlGetPut on the target. The target's MD must have PTL_MD_OP_PUT and PTL_MD_OP_GET; its offset and
 * length are chosen as for a put (PTL_MD_MANAGE_REMOTE, PTL_MD_TRUNCATE, the local offset), so mlength bytes
 * are swapped and come back. Events: SEND_START, SEND_END on the put MD (SEND_END before the REPLY_END),
 * REPLY_START, REPLY_END on the get MD (mlength bytes placed), GETPUT_START, GETPUT_END at the target (with
 * hdr_data; GETPUT_END once the reply is sent). Each MD gives one unit of its threshold (the same MD gives
 * two). No acknowledgement. PTL_MD_INVALID for a handle that is not a live MD or an MD whose threshold is
 * 0; PTL_MD_ILLEGAL for MDs of two interfaces or a put MD longer than 64 bytes. */
int PtlGetPut(ptl_handle_md_t get_md_handle, ptl_handle_md_t put_md_handle, ptl_process_id_t target_id,
              ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
              ptl_hdr_data_t hdr_data) PTL_33_(PtlGetPut);

/* Names of return codes, ptl_ni_fail_t values and event kinds (the reference implementation's
 * p3api/misc.h; see the notes at the top of this file). */
const char *PtlErrorStr(unsigned int ptl_errno) PTL_33_(PtlErrorStr);
const char *PtlNIFailStr(ptl_handle_ni_t ni_handle, ptl_ni_fail_t ni_fail) PTL_33_(PtlNIFailStr);
const char *PtlEventKindStr(ptl_event_kind_t kind) PTL_33_(PtlEventKindStr);

/* Not provided: PtlEQWait_timeout, which the reference implementation declares but does not define
 * (PtlEQPoll waits with a timeout), and PtlProgress, which forces progress in an implementation without a
 * progress thread (this engine progresses on its own threads). The compiler says what to use instead. */
#define PtlEQWait_timeout(...) PTL_UNAVAILABLE_("GCC error \"PtlEQWait_timeout is not provided (the 3.3 reference implementation declares it but never defined it): wait with PtlEQPoll(&eq, 1, timeout_ms, &event, &which)\"")
#define PtlProgress(...) PTL_UNAVAILABLE_("GCC error \"PtlProgress is not needed: the Portals3J engine makes progress on its own threads; remove the call (PtlEQPoll waits for an event with a timeout)\"")

/* 3.14 handles: 1 if the two are the same handle, whatever type each has, else 0. The truth value, as the
 * Portals 3 implementations return it (Portals 4's returns PTL_OK/PTL_FAIL); needs no PtlInit and says
 * nothing about whether the object is alive. */
int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2) PTL_33_(PtlHandleIsEqual);

#else
/* ---- Portals 3.2 functions (chapter 3) ------------------------------------------------------------- */

/* 3.1 initialisation and cleanup */
int PtlInit(int *max_interfaces);                                                   /* Portals 3.2 spec §3.3.1 */
void PtlFini(void);                                                                 /* Portals 3.2 spec §3.3.2 */

/* 3.2 network interfaces */
int PtlNIInit(ptl_interface_t interface, ptl_pid_t pid, ptl_ni_limits_t *desired,
              ptl_ni_limits_t *actual, ptl_handle_ni_t *handle);                    /* Portals 3.2 spec §3.4.1 */
int PtlNIFini(ptl_handle_ni_t interface);                                           /* Portals 3.2 spec §3.4.2 */
int PtlNIStatus(ptl_handle_ni_t interface, ptl_sr_index_t status_register,
                ptl_sr_value_t *status);                                            /* Portals 3.2 spec §3.4.3 */
int PtlNIDist(ptl_handle_ni_t interface, ptl_process_id_t process,
              unsigned long *distance);                                             /* Portals 3.2 spec §3.4.4 */
int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *interface);               /* Portals 3.2 spec §3.4.5 */

/* 3.3 user and process identification */
int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid);                           /* Portals 3.2 spec §3.5.1 */
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_id_t *id);                      /* Portals 3.2 spec §3.6.2 */

/* 3.4 match list entries */
int PtlMEAttach(ptl_handle_ni_t interface, ptl_pt_index_t index, ptl_process_id_t matchid,
                ptl_match_bits_t match_bits, ptl_match_bits_t ignorebits, ptl_unlink_t unlink,
                ptl_ins_pos_t position, ptl_handle_me_t *handle);                   /* Portals 3.2 spec §3.7.1 */
int PtlMEAttachAny(ptl_handle_ni_t interface, ptl_pt_index_t *index, ptl_process_id_t matchid,
                   ptl_match_bits_t match_bits, ptl_match_bits_t ignorebits, ptl_unlink_t unlink,
                   ptl_handle_me_t *handle);                                        /* Portals 3.2 spec §3.7.2 */
/* As the listing writes it (no unlink argument): the entry is made with PTL_UNLINK. */
int PtlMEInsert(ptl_handle_me_t current, ptl_process_id_t matchid, ptl_match_bits_t match_bits,
                ptl_match_bits_t ignorebits, ptl_ins_pos_t position,
                ptl_handle_me_t *handle);                                           /* Portals 3.2 spec §3.7.3 */
int PtlMEUnlink(ptl_handle_me_t entry);                                             /* Portals 3.2 spec §3.7.4 */

/* 3.5 memory descriptors */
int PtlMDAttach(ptl_handle_me_t match, ptl_md_t mem_desc, ptl_unlink_t unlink_op,
                ptl_unlink_t unlink_nofit, ptl_handle_md_t *handle);                /* Portals 3.2 spec §3.8.2 */
int PtlMDBind(ptl_handle_ni_t interface, ptl_md_t mem_desc, ptl_handle_md_t *handle); /* Portals 3.2 spec §3.8.3 */
int PtlMDUnlink(ptl_handle_md_t mem_desc);                                          /* Portals 3.2 spec §3.8.4 */
int PtlMDUpdate(ptl_handle_md_t mem_desc, ptl_md_t *old_md, ptl_md_t *new_md,
                ptl_handle_eq_t testq);                                             /* Portals 3.2 spec §3.8.5 */

/* 3.6 event queues */
int PtlEQAlloc(ptl_handle_ni_t interface, ptl_size_t count, ptl_handle_eq_t *handle); /* Portals 3.2 spec §3.9.5 */
int PtlEQFree(ptl_handle_eq_t eventq);                                              /* Portals 3.2 spec §3.9.6 */
int PtlEQGet(ptl_handle_eq_t eventq, ptl_event_t *event);                           /* Portals 3.2 spec §3.9.7 */
int PtlEQWait(ptl_handle_eq_t eventq, ptl_event_t *event);                          /* Portals 3.2 spec §3.9.8 */

/* 3.7 access control */
int PtlACEntry(ptl_handle_ni_t interface, ptl_ac_index_t index, ptl_process_id_t matchid,
               ptl_uid_t user_id, ptl_pt_index_t portal);                           /* Portals 3.2 spec §3.10.1 */

/* 3.8 data movement. PtlPut and PtlGet may block: a transport bounds the messages to a peer not yet
 * acknowledged (udp: udp.sendQueueMessages, udp.sendQueueBytes), and a call that finds the bound reached waits
 * until acknowledgements make room, the target is declared dead or the endpoint closes (then the operation ends
 * with its FAIL event). 3.2 gives these calls no "no room" code, and an unbounded queue would let a program
 * that puts in a loop exhaust its memory. The wait holds no lock of the library but the channel to that target
 * (another thread's put to it waits too). */
int PtlPut(ptl_handle_md_t mem_desc, ptl_ack_req_t ack_req, ptl_process_id_t target,
           ptl_pt_index_t portal, ptl_ac_index_t cookie, ptl_match_bits_t match_bits,
           ptl_size_t offset, ptl_hdr_data_t hdr_data);                             /* Portals 3.2 spec §3.11.1 */
int PtlGet(ptl_handle_md_t mem_desc, ptl_process_id_t target, ptl_pt_index_t portal,
           ptl_ac_index_t cookie, ptl_match_bits_t match_bits, ptl_size_t offset);  /* Portals 3.2 spec §3.11.2 */

/* Extensions of the 3.3 reference implementation, provided for 3.2 programs too (see the notes at the top):
 * the names of return codes (3.2 spelling), ptl_ni_fail_t values and the fourteen 3.2 event kinds. */
const char *PtlErrorStr(unsigned int ptl_errno);
const char *PtlNIFailStr(ptl_handle_ni_t ni_handle, ptl_ni_fail_t ni_fail);
const char *PtlEventKindStr(ptl_event_kind_t kind);

#define PtlEQWait_timeout(...) PTL_UNAVAILABLE_("GCC error \"PtlEQWait_timeout is not Portals 3.2 (an extension of Lustre's Portals): loop on PtlEQGet, or compile with -DPTL_DIALECT_33 and wait with PtlEQPoll's timeout\"")
#define PtlProgress(...) PTL_UNAVAILABLE_("GCC error \"PtlProgress is not needed: the Portals3J engine makes progress on its own threads; remove the call\"")

/* Names that exist only in Portals 3.3: a 3.3 program compiled as 3.2 stops at its first use with a
 * message saying what to do (a 3.3 call of a 3.2 function with other arguments, e.g. PtlMDBind with
 * unlink_op, is caught by the compiler as a wrong number of arguments; a 3.3 struct member, e.g.
 * md.max_size, as a member the struct does not have). */
#define PtlEQPoll(...)        PTL_UNAVAILABLE_("GCC error \"PtlEQPoll is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlHandleIsEqual(...) PTL_UNAVAILABLE_("GCC error \"PtlHandleIsEqual is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlPutRegion(...)     PTL_UNAVAILABLE_("GCC error \"PtlPutRegion is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlGetRegion(...)     PTL_UNAVAILABLE_("GCC error \"PtlGetRegion is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlGetJid(...)        PTL_UNAVAILABLE_("GCC error \"PtlGetJid is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PtlGetPut(...)        PTL_UNAVAILABLE_("GCC error \"PtlGetPut is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_EVENT_GETPUT_START PTL_UNAVAILABLE_("GCC error \"PTL_EVENT_GETPUT_START is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_EVENT_GETPUT_END  PTL_UNAVAILABLE_("GCC error \"PTL_EVENT_GETPUT_END is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_MD_MAX_SIZE       PTL_UNAVAILABLE_("GCC error \"PTL_MD_MAX_SIZE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_MD_EVENT_START_DISABLE \
    PTL_UNAVAILABLE_("GCC error \"PTL_MD_EVENT_START_DISABLE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_MD_EVENT_END_DISABLE \
    PTL_UNAVAILABLE_("GCC error \"PTL_MD_EVENT_END_DISABLE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_EQ_HANDLER_NONE   PTL_UNAVAILABLE_("GCC error \"PTL_EQ_HANDLER_NONE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_JID_ANY           PTL_UNAVAILABLE_("GCC error \"PTL_JID_ANY is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_TIME_FOREVER      PTL_UNAVAILABLE_("GCC error \"PTL_TIME_FOREVER is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_HANDLE_NONE       PTL_UNAVAILABLE_("GCC error \"PTL_HANDLE_NONE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_INVALID_HANDLE    PTL_UNAVAILABLE_("GCC error \"PTL_INVALID_HANDLE is Portals 3.3: compile with -DPTL_DIALECT_33\"")
#define PTL_NO_ACK_REQ        PTL_UNAVAILABLE_("GCC error \"PTL_NO_ACK_REQ is Portals 3.3 (3.2: PTL_NOACK_REQ): compile with -DPTL_DIALECT_33\"")
/* the 3.3 names of the return codes */
#define PTL_AC_INDEX_INVALID  PTL_UNAVAILABLE_("GCC error \"PTL_AC_INDEX_INVALID is Portals 3.3 (3.2: PTL_AC_INV_INDEX): compile with -DPTL_DIALECT_33\"")
#define PTL_EQ_INVALID        PTL_UNAVAILABLE_("GCC error \"PTL_EQ_INVALID is Portals 3.3 (3.2: PTL_INV_EQ): compile with -DPTL_DIALECT_33\"")
#define PTL_HANDLE_INVALID    PTL_UNAVAILABLE_("GCC error \"PTL_HANDLE_INVALID is Portals 3.3 (3.2: PTL_INV_HANDLE): compile with -DPTL_DIALECT_33\"")
#define PTL_IFACE_INVALID     PTL_UNAVAILABLE_("GCC error \"PTL_IFACE_INVALID is Portals 3.3 (3.2: PTL_INIT_INV): compile with -DPTL_DIALECT_33\"")
#define PTL_MD_ILLEGAL        PTL_UNAVAILABLE_("GCC error \"PTL_MD_ILLEGAL is Portals 3.3 (3.2: PTL_ILL_MD): compile with -DPTL_DIALECT_33\"")
#define PTL_MD_INVALID        PTL_UNAVAILABLE_("GCC error \"PTL_MD_INVALID is Portals 3.3 (3.2: PTL_INV_MD): compile with -DPTL_DIALECT_33\"")
#define PTL_MD_IN_USE         PTL_UNAVAILABLE_("GCC error \"PTL_MD_IN_USE is Portals 3.3 (3.2: PTL_MD_INUSE): compile with -DPTL_DIALECT_33\"")
#define PTL_MD_NO_UPDATE      PTL_UNAVAILABLE_("GCC error \"PTL_MD_NO_UPDATE is Portals 3.3 (3.2: PTL_NOUPDATE): compile with -DPTL_DIALECT_33\"")
#define PTL_ME_INVALID        PTL_UNAVAILABLE_("GCC error \"PTL_ME_INVALID is Portals 3.3 (3.2: PTL_INV_ME): compile with -DPTL_DIALECT_33\"")
#define PTL_ME_IN_USE         PTL_UNAVAILABLE_("GCC error \"PTL_ME_IN_USE is Portals 3.3 (3.2: PTL_INUSE): compile with -DPTL_DIALECT_33\"")
#define PTL_ME_LIST_TOO_LONG  PTL_UNAVAILABLE_("GCC error \"PTL_ME_LIST_TOO_LONG is Portals 3.3 (3.2: PTL_ML_TOOLONG): compile with -DPTL_DIALECT_33\"")
#define PTL_NI_INVALID        PTL_UNAVAILABLE_("GCC error \"PTL_NI_INVALID is Portals 3.3 (3.2: PTL_INV_NI): compile with -DPTL_DIALECT_33\"")
#define PTL_NO_INIT           PTL_UNAVAILABLE_("GCC error \"PTL_NO_INIT is Portals 3.3 (3.2: PTL_NOINIT): compile with -DPTL_DIALECT_33\"")
#define PTL_NO_SPACE          PTL_UNAVAILABLE_("GCC error \"PTL_NO_SPACE is Portals 3.3 (3.2: PTL_NOSPACE): compile with -DPTL_DIALECT_33\"")
#define PTL_PID_INVALID       PTL_UNAVAILABLE_("GCC error \"PTL_PID_INVALID is Portals 3.3 (3.2: PTL_INIT_DUP): compile with -DPTL_DIALECT_33\"")
#define PTL_PROCESS_INVALID   PTL_UNAVAILABLE_("GCC error \"PTL_PROCESS_INVALID is Portals 3.3 (3.2: PTL_INV_PROC): compile with -DPTL_DIALECT_33\"")
#define PTL_PT_INDEX_INVALID  PTL_UNAVAILABLE_("GCC error \"PTL_PT_INDEX_INVALID is Portals 3.3 (3.2: PTL_INV_PTINDEX, PTL_PT_INV_INDEX): compile with -DPTL_DIALECT_33\"")
#define PTL_SR_INDEX_INVALID  PTL_UNAVAILABLE_("GCC error \"PTL_SR_INDEX_INVALID is Portals 3.3 (3.2: PTL_INV_SR_INDX): compile with -DPTL_DIALECT_33\"")
#endif /* PTL_DIALECT_33 */

#ifdef __cplusplus
}
#endif

#endif /* PORTALS3_H */
