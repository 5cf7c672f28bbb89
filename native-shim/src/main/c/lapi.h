/*
 * lapi.h: IBM LAPI's active messages and the calls around them (LAPI_Amsend and its minimum surrounding
 * interface: the LAPI_Amsend man page and the calls it names), for C programs, served by the Portals3J Java layer
 * (org.portals3j.lapi) inside libportals3. Names and types are spelled as the LAPI man pages spell them, so a
 * LAPI C program compiles unchanged; the numbers (return codes, query names, flags) are this implementation's
 * and equal those of the Java layer (LapiError, LapiQuery, RetFlag). Written from the man pages' signatures.
 *
 * Build and run:   portalscc prog.c -o prog        portals run -n 4 -- ./prog
 * The first LAPI_Init starts the Java engine in the process, joins the job (as PtlInit does) and makes the
 * process's Portals library if PtlInit has not: a program may use Portals 3.2 (portals3.h) beside LAPI, on
 * the same library. A Portals 3.3 program (PTL_DIALECT_33) cannot: LAPI_Init then fails with
 * LAPI_ERR_UNKNOWN and a message.
 *
 * LAPI_Init is collective: it returns when every task of the job has called it (so no task's first message finds
 * another task without its context).
 *
 * Choices where the man pages leave the implementation free (ours; in parentheses, the LAPI_Amsend man page's
 * sections that leave them open):
 * - uhdr_len must be a multiple of 8 (Parameters says the processor's word size, Return Values its doubleword
 *   size; 8 meets both); MAX_UHDR_SZ is 1024, LAPI_MAX_MSG_SZ 2^31-9 (Parameters names both, with no value); a
 *   message of at most PKT_PAYLOAD_SZ (Qenv; 4096) bytes of uhdr + udata is one packet: its header handler sees
 *   the data at udata_one_pkt_ptr and may return NULL; a longer one goes by rendezvous, udata_one_pkt_ptr is
 *   NULL and the handler must return a buffer (Role of the header handler). The environment of LAPI_Init can
 *   change two of them, for tests: PORTALS3J_LAPI_MAX_DATA_SZ and PORTALS3J_LAPI_PKT_PAYLOAD_SZ (decimal bytes);
 *   and two more things: PORTALS3J_LAPI_CREDITS, how many messages a task may have unanswered at one target
 *   (default 64; an Amsend, Put or Get beyond it waits for a reply, and LAPI_Purge_totask releases it with
 *   LAPI_ERR_TGT_PURGED), and PORTALS3J_LAPI_INTERRUPT_SET: 1 (the default) a dispatcher thread makes progress
 *   and runs header handlers; 0 polling mode, no such thread: progress, and the handlers, happen in the
 *   program's LAPI calls (Waitcntr, Getcntr, Fence, Gfence, Probe). LAPI_Senv(INTERRUPT_SET) accepts only the
 *   mode Init chose.
 * - ret_flags: LAPI_SEND_REPLY runs the completion handler inline, on the dispatcher thread;
 *   LAPI_LOCAL_STATE sends no reply, so the origin's cmpl_cntr does not move (Passing additional
 *   information through lapi_return_info_t).
 * - Blocking calls (LAPI_Waitcntr, LAPI_Fence, LAPI_Gfence, LAPI_Address_init, LAPI_Term) made from a header
 *   handler or an inline completion handler return LAPI_ERR_BLOCKING_IN_HANDLER instead of deadlocking
 *   (Description and Inline execution of completion handlers say such handlers must not block).
 * - lapi_info_t: num_compl_hndlr_thr (0: one thread) and err_hndlr are read; the other members are ignored.
 *   err_hndlr is called, on the dispatcher thread, for what goes wrong at this task where no call can return
 *   it (an unknown handler index, a hostile address, a header handler that returned no buffer for a
 *   multi-packet message); without one, the layer says it on stderr.
 *
 * What a target accepts from other tasks (remote input is hostile: each check is made before any use):
 * - hdr_hdl: an index registered with LAPI_Addr_set (1 .. LOC_ADDRTBL_SZ-1), or the address of a function in
 *   executable memory of an object loaded from a file (the program or a shared library, per /proc/self/maps),
 *   not one of the JVM's. Anything else is reported (err_hndlr) and never called. Function addresses differ
 *   between processes (PIE, ASLR): exchange them with LAPI_Address_init, or use LAPI_Addr_set indices.
 * - tgt_cntr: only a lapi_cntr_t this task has used with LAPI before the message arrives (passed to any
 *   LAPI call: LAPI_Setcntr is the usual first use); another address is reported and no counter moves.
 * - LAPI_Put's tgt_addr: only memory of a writable mapping of the process (LAPI_Get's: a readable one), the
 *   whole length. A mapping is the kernel's, not an allocation: an address inside the C heap or a stack is
 *   writable, so this stops a crash, not a peer of the job that writes where it should not.
 * Local arguments (the origin's buffers, the buffer a header handler returns, a completion handler) are the
 * program's own, trusted as C trusts them.
 *
 * lapi_cntr_t is 8 bytes whose first int is the counter's value; read and change it through LAPI_Getcntr,
 * LAPI_Setcntr and LAPI_Waitcntr (the layer increments it atomically). A counter, a handler table entry and a
 * buffer given to LAPI stay valid until the transfers that use them are complete.
 */
#ifndef PORTALS3J_LAPI_H
#define PORTALS3J_LAPI_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PORTALS3J_LAPI_NO_SHORT_TYPES
/* The man pages' short names (AIX's <sys/types.h> has them; glibc's has uint and ulong under _DEFAULT_SOURCE). */
typedef unsigned int uint;
typedef unsigned long ulong;
#endif

/* A LAPI context: a small integer from LAPI_Init. */
typedef unsigned int lapi_handle_t;

/* A counter (see above). */
typedef struct {
    volatile int cntr;
    int lapi_reserved;
} lapi_cntr_t;

/* 64-bit integers of the Fortran binding's LAPI_LONG_TYPE, for programs that use the name. */
typedef long long lapi_long_t;

/* NULL for an address argument (Fortran's LAPI_ADDR_NULL; C programs pass NULL). */
#define LAPI_ADDR_NULL ((void *) 0)

/* ---- return codes (org.portals3j.lapi.LapiError) ------------------------------------------------ */
#define LAPI_SUCCESS 0
#define LAPI_ERR_HNDL_INVALID 412
#define LAPI_ERR_TGT 413
#define LAPI_ERR_HDR_HNDLR_NULL 414
#define LAPI_ERR_UHDR_NULL 415
#define LAPI_ERR_UHDR_LEN 416
#define LAPI_ERR_ORG_ADDR_NULL 417
#define LAPI_ERR_DATA_LEN 418
#define LAPI_ERR_TGT_PURGED 419
#define LAPI_ERR_CNTR_NULL 420
#define LAPI_ERR_RET_PTR_NULL 421
#define LAPI_ERR_ADDR_HNDL_RANGE 422
#define LAPI_ERR_TGT_ADDR_NULL 423
#define LAPI_ERR_QUERY_TYPE 424
#define LAPI_ERR_SET_VAL 425
#define LAPI_ERR_INFO_NULL 426
#define LAPI_ERR_ALL_HNDL_IN_USE 427
#define LAPI_ERR_MEMORY_EXHAUSTED 428
/* This implementation's: a blocking call from a handler running on the dispatcher thread (see above). */
#define LAPI_ERR_BLOCKING_IN_HANDLER 429
/* The layer failed for a reason it cannot name; it said why on stderr. */
#define LAPI_ERR_UNKNOWN 499

/* The size of LAPI_Msg_string's buffer. */
#define LAPI_MAX_ERR_STRING 256

/* ---- LAPI_Qenv and LAPI_Senv (org.portals3j.lapi.LapiQuery, in its order) ---------------------- */
typedef enum {
    TASK_ID = 0,     /* this task, 0 .. NUM_TASKS-1 (read-only) */
    NUM_TASKS,       /* tasks in the job (read-only) */
    MAX_UHDR_SZ,     /* largest uhdr_len (read-only) */
    MAX_DATA_SZ,     /* LAPI_MAX_MSG_SZ: largest data length (read-only) */
    LOC_ADDRTBL_SZ,  /* LAPI_Addr_set indices are 1 .. LOC_ADDRTBL_SZ-1 (read-only) */
    ERROR_CHK,       /* parameter checking: always on (Senv 1 accepted, 0 refused with LAPI_ERR_SET_VAL) */
    INTERRUPT_SET,   /* 1: a dispatcher thread makes progress; 0: polling, progress in LAPI calls (set at Init) */
    PKT_PAYLOAD_SZ   /* extension: largest uhdr_len + udata_len sent as one packet (read-only) */
} lapi_query_t;

/* ---- header handlers -------------------------------------------------------------------------- */
/* ret_flags of lapi_return_info_t (org.portals3j.lapi.RetFlag). */
#define LAPI_NORMAL 0      /* the completion handler runs on a completion thread; the reply is sent */
#define LAPI_SEND_REPLY 1  /* the completion handler runs inline, on the dispatcher thread */
#define LAPI_LOCAL_STATE 2 /* no reply: the origin's cmpl_cntr does not move */

/* ctl_flags of lapi_return_info_t (org.portals3j.lapi.ReturnInfo.BURY_MSG). LAPI_BURY_MSG: discard the message's
 * data: nothing is written, whatever the handler returns (NULL is fine even for a multi-packet message, and is
 * not reported); a rendezvous message's data is not fetched. The completion handler (if set) still runs, and
 * tgt_cntr, org_cntr and cmpl_cntr move as for a delivered message. Any other bit is reported to err_hndlr
 * (AM_ERR) and the data discarded as for LAPI_BURY_MSG: a flag is never silently ignored. */
#define LAPI_BURY_MSG 1

/* What a header handler's msg_len points to: msg_len first, so *msg_len is the data length. The handler reads
 * msg_len, udata_one_pkt_ptr and src, and may set ret_flags and ctl_flags; the other members are 0. */
typedef struct {
    ulong msg_len;           /* udata_len of the LAPI_Amsend */
    int ret_flags;           /* LAPI_NORMAL (as given), LAPI_SEND_REPLY or LAPI_LOCAL_STATE */
    int ctl_flags;           /* 0 (as given) or LAPI_BURY_MSG */
    void *udata_one_pkt_ptr; /* a single-packet message's data in the receive buffer (valid during the call), else NULL */
    int src;                 /* the origin task */
    int reason;              /* 0 */
    ulong bytes;             /* msg_len */
    void *dgsp_handle;       /* NULL (not for LAPI_Amsend) */
} lapi_return_info_t;

typedef void(compl_hndlr_t)(lapi_handle_t *hndl, void *user_info);
typedef void *(hdr_hndlr_t)(lapi_handle_t *hndl, void *uhdr, uint *uhdr_len, ulong *msg_len,
                            compl_hndlr_t **comp_h, void **user_info);

/* ---- LAPI_Init ------------------------------------------------------------------------------- */
/* err_type of err_hndlr (org.portals3j.lapi.AsyncErrorType): GET_ERR, PUT_ERR, AM_ERR for a LAPI_Get, LAPI_Put or
 * active message whose problem is at this task; INT_ERR for the layer's own (a packet that is not the layer's, a
 * lost event); RMW_ERR is never given (no LAPI_Rmw). */
typedef enum { GET_ERR, PUT_ERR, RMW_ERR, AM_ERR, INT_ERR } lapi_err_t;
typedef void(LAPI_err_hndlr)(lapi_handle_t *hndl, int *error_code, lapi_err_t *err_type, int *task_id, int *src);
typedef int lapi_dev_t;
typedef int lapi_lib_t;

/* Zero it (memset) before filling any member in, as the man page says. */
typedef struct {
    lapi_dev_t protocol;          /* ignored */
    lapi_lib_t lib_vers;          /* ignored */
    uint epoch_num;               /* ignored */
    int num_compl_hndlr_thr;      /* threads running normal completion handlers; 0 means 1 */
    uint instance_no;             /* ignored */
    int info6;                    /* ignored */
    LAPI_err_hndlr *err_hndlr;    /* told of errors at this task no call can return; NULL: said on stderr */
    void *lapi_thread_attr;       /* ignored */
    void *adapter_name;           /* ignored */
    void *add_info;               /* ignored */
} lapi_info_t;

/* ---- the functions ----------------------------------------------------------------------------- */
int LAPI_Init(lapi_handle_t *hndl, lapi_info_t *lapi_info);
int LAPI_Term(lapi_handle_t hndl);
int LAPI_Qenv(lapi_handle_t hndl, lapi_query_t query, int *ret_val);
int LAPI_Senv(lapi_handle_t hndl, lapi_query_t query, int set_val);
int LAPI_Amsend(lapi_handle_t hndl, uint tgt, void *hdr_hdl, void *uhdr, uint uhdr_len, void *udata,
                ulong udata_len, lapi_cntr_t *tgt_cntr, lapi_cntr_t *org_cntr, lapi_cntr_t *cmpl_cntr);
int LAPI_Put(lapi_handle_t hndl, uint tgt, ulong len, void *tgt_addr, void *org_addr, lapi_cntr_t *tgt_cntr,
             lapi_cntr_t *org_cntr, lapi_cntr_t *cmpl_cntr);
int LAPI_Get(lapi_handle_t hndl, uint tgt, ulong len, void *tgt_addr, void *org_addr, lapi_cntr_t *tgt_cntr,
             lapi_cntr_t *org_cntr);
int LAPI_Setcntr(lapi_handle_t hndl, lapi_cntr_t *cntr, int val);
int LAPI_Getcntr(lapi_handle_t hndl, lapi_cntr_t *cntr, int *val);
/* Waits until *cntr >= val, subtracts val, and stores what is left in *cur_cntr_val (which may be NULL). */
int LAPI_Waitcntr(lapi_handle_t hndl, lapi_cntr_t *cntr, int val, int *cur_cntr_val);
int LAPI_Fence(lapi_handle_t hndl);
int LAPI_Gfence(lapi_handle_t hndl);
int LAPI_Addr_set(lapi_handle_t hndl, void *addr, int addr_hndl);
int LAPI_Addr_get(lapi_handle_t hndl, void **addr, int addr_hndl);
/* Collective: add_tab (NUM_TASKS entries) receives every task's my_addr. */
int LAPI_Address_init(lapi_handle_t hndl, void *my_addr, void *add_tab[]);
int LAPI_Probe(lapi_handle_t hndl);
int LAPI_Purge_totask(lapi_handle_t hndl, uint dest);
/* The name and meaning of a return code, at most LAPI_MAX_ERR_STRING bytes with the NUL; needs no LAPI_Init. */
int LAPI_Msg_string(int error_code, void *buf);
/* *ret_addr = (ulong) my_addr (the Fortran helper; needs no LAPI_Init). */
int LAPI_Address(void *my_addr, ulong *ret_addr);

#ifdef __cplusplus
}
#endif

#endif /* PORTALS3J_LAPI_H */
