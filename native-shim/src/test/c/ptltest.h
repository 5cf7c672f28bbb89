/*
 * ptltest.h: the assertions and set-up the C test programs share. A failed check prints
 * "FAIL file:line: what" on stdout and exits 1; a program that gets to the end prints
 * "<name>: rank <r> passed" and exits 0 (the JUnit runners check both). It serves both dialects: a
 * program compiled with -DPTL_DIALECT_33 gets the 3.3 names of codes and event kinds, and 3.3's calls.
 */
#ifndef PTLTEST_H
#define PTLTEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <portals3.h>
#include <portals3_rt.h>

static inline const char *ptl_rc_name(int rc) {
#ifndef PTL_DIALECT_33
    static const char *names[] = {
        "PTL_OK", "PTL_AC_INV_INDEX", "PTL_EQ_DROPPED", "PTL_EQ_EMPTY", "PTL_FAIL", "PTL_ILL_MD",
        "PTL_INIT_DUP", "PTL_INIT_INV", "PTL_INUSE", "PTL_INV_ASIZE", "PTL_INV_EQ", "PTL_INV_HANDLE",
        "PTL_INV_MD", "PTL_INV_ME", "PTL_INV_NI", "PTL_INV_PROC", "PTL_INV_PTINDEX", "PTL_INV_REG",
        "PTL_INV_SR_INDX", "PTL_ML_TOOLONG", "PTL_MD_INUSE", "PTL_NOINIT", "PTL_NOSPACE", "PTL_NOUPDATE",
        "PTL_PT_FULL", "PTL_SEGV", "PTL_PT_INV_INDEX",
    };
#else
    static const char *names[] = {
        "PTL_OK", "PTL_AC_INDEX_INVALID", "PTL_EQ_DROPPED", "PTL_EQ_EMPTY", "PTL_FAIL", "PTL_MD_ILLEGAL",
        "PTL_PID_INVALID", "PTL_IFACE_INVALID", "PTL_ME_IN_USE", "PTL_INV_ASIZE", "PTL_EQ_INVALID",
        "PTL_HANDLE_INVALID", "PTL_MD_INVALID", "PTL_ME_INVALID", "PTL_NI_INVALID", "PTL_PROCESS_INVALID",
        "PTL_PT_INDEX_INVALID", "PTL_INV_REG", "PTL_SR_INDEX_INVALID", "PTL_ME_LIST_TOO_LONG", "PTL_MD_IN_USE",
        "PTL_NO_INIT", "PTL_NO_SPACE", "PTL_MD_NO_UPDATE", "PTL_PT_FULL", "PTL_SEGV",
    };
#endif
    return rc >= 0 && rc < (int) (sizeof names / sizeof names[0]) ? names[rc] : "(not a PTL code)";
}

static inline const char *ptl_event_name(int kind) {
#ifndef PTL_DIALECT_33
    static const char *names[] = {
        "GET_START", "GET_END", "GET_FAIL", "PUT_START", "PUT_END", "PUT_FAIL", "REPLY_START", "REPLY_END",
        "REPLY_FAIL", "SEND_START", "SEND_END", "SEND_FAIL", "ACK", "UNLINK",
    };
#else
    static const char *names[] = {
        "GET_START", "GET_END", "PUT_START", "PUT_END", "GETPUT_START", "GETPUT_END", "REPLY_START", "REPLY_END",
        "SEND_START", "SEND_END", "ACK", "UNLINK",
    };
#endif
    return kind >= 0 && kind < (int) (sizeof names / sizeof names[0]) ? names[kind] : "(not an event kind)";
}

static int ptltest_rank = -1;

#define FAIL_AT(...)                                                                   \
    do {                                                                               \
        printf("FAIL %s:%d (rank %d): ", __FILE__, __LINE__, ptltest_rank);            \
        printf(__VA_ARGS__);                                                           \
        printf("\n");                                                                  \
        fflush(stdout);                                                                \
        exit(1);                                                                       \
    } while (0)

/* CHECK(cond): cond must hold. */
#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            FAIL_AT("%s", #cond);                                                      \
        }                                                                              \
    } while (0)

/* CHECK_RC(expected, call): call must return the PTL code expected. */
#define CHECK_RC(expected, call)                                                       \
    do {                                                                               \
        int rc_ = (call);                                                              \
        if (rc_ != (expected)) {                                                       \
            FAIL_AT("%s returned %s (%d), expected %s", #call, ptl_rc_name(rc_), rc_,  \
                    ptl_rc_name(expected));                                            \
        }                                                                              \
    } while (0)

#define OK(call) CHECK_RC(PTL_OK, call)

/* CHECK_U64(expected, actual): two integers, printed on failure. */
#define CHECK_U64(expected, actual)                                                    \
    do {                                                                               \
        uint64_t e_ = (uint64_t) (expected), a_ = (uint64_t) (actual);                 \
        if (e_ != a_) {                                                                \
            FAIL_AT("%s is 0x%" PRIx64 " (%" PRIu64 "), expected %s = 0x%" PRIx64,    \
                    #actual, a_, a_, #expected, e_);                                   \
        }                                                                              \
    } while (0)

/* What every two-rank program sets up: the library, the default interface, one event queue (3.3: without a
 * handler), and the ids a program checks events against. */
typedef struct {
    int rank;
    int size;
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_process_id_t me;
    ptl_process_id_t peer; /* the other rank (rank 1 for rank 0, rank 0 for the others) */
    ptl_uid_t uid;
#ifdef PTL_DIALECT_33
    ptl_jid_t jid;
#endif
} ptltest_t;

static inline void ptltest_init(ptltest_t *t, ptl_size_t eq_count) {
    int max_interfaces = 0;
    ptl_ni_limits_t actual;
    setvbuf(stdout, NULL, _IOLBF, 0);
    OK(PtlInit(&max_interfaces));
    CHECK(max_interfaces >= 1);
    t->rank = ptl_rt_rank();
    t->size = ptl_rt_size();
    ptltest_rank = t->rank;
    CHECK(t->rank >= 0 && t->size >= 1 && t->rank < t->size);
    OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_PID_ANY, NULL, &actual, &t->ni));
#ifndef PTL_DIALECT_33
    OK(PtlEQAlloc(t->ni, eq_count, &t->eq));
#else
    OK(PtlEQAlloc(t->ni, eq_count, PTL_EQ_HANDLER_NONE, &t->eq));
    OK(PtlGetJid(t->ni, &t->jid));
    CHECK(t->jid != PTL_JID_ANY);
#endif
    OK(PtlGetId(t->ni, &t->me));
    OK(PtlGetUid(t->ni, &t->uid));
    ptl_process_id_t mine;
    CHECK(ptl_rt_process_id(t->rank, &mine) == 0);
    CHECK(mine.nid == t->me.nid && mine.pid == t->me.pid);
    if (t->size > 1) {
        CHECK(ptl_rt_process_id(t->rank == 0 ? 1 : 0, &t->peer) == 0);
    } else {
        t->peer = t->me;
    }
}

/* The next event on eq, which must be of kind `kind` and report no failure. */
static inline void ptltest_next(ptl_handle_eq_t eq, ptl_event_kind_t kind, ptl_event_t *ev, const char *where) {
    int rc = PtlEQWait(eq, ev);
    if (rc != PTL_OK) {
        FAIL_AT("%s: PtlEQWait returned %s, expected PTL_OK with %s", where, ptl_rc_name(rc), ptl_event_name(kind));
    }
    if (ev->type != kind) {
        FAIL_AT("%s: event %s, expected %s", where, ptl_event_name(ev->type), ptl_event_name(kind));
    }
    if (ev->ni_fail_type != PTL_NI_OK) {
        FAIL_AT("%s: %s with ni_fail_type %u", where, ptl_event_name(kind), ev->ni_fail_type);
    }
}

#ifdef PTL_DIALECT_33
/* ptltest_next for a 3.3 queue, whose events are numbered per queue 1, 2, 3, ...: the event must also be
 * the queue's next by number (*logged: how many events the queue has logged before it). */
static inline void ptltest_next33(ptl_handle_eq_t eq, ptl_event_kind_t kind, ptl_event_t *ev, uint64_t *logged,
                                  const char *where) {
    ptltest_next(eq, kind, ev, where);
    *logged += 1;
    if (ev->sequence != *logged) {
        FAIL_AT("%s: %s has sequence %" PRIu64 ", expected %" PRIu64 " (the queue's own numbering)", where,
                ptl_event_name(kind), (uint64_t) ev->sequence, *logged);
    }
}
#endif

/* Polls status register `reg` until it reaches `value` (incoming messages are processed by the engine's
 * own threads); fails after 20 s. */
static inline void ptltest_await_register(ptl_handle_ni_t ni, ptl_sr_index_t reg, ptl_sr_value_t value) {
    ptl_sr_value_t now = -1;
    for (int i = 0; i < 20000; i++) {
        OK(PtlNIStatus(ni, reg, &now));
        if (now == value) {
            return;
        }
        if (now > value) {
            break;
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    FAIL_AT("status register %u is %" PRId64 ", expected %" PRId64, reg, now, value);
}

static inline void ptltest_barrier(void) {
    CHECK(ptl_rt_barrier() == 0);
}

static inline void ptltest_passed(const ptltest_t *t, const char *name) {
    ptltest_barrier();
    PtlFini();
    printf("%s: rank %d passed\n", name, t->rank);
}

#endif /* PTLTEST_H */
