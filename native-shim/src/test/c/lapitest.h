/*
 * lapitest.h: what the LAPI C test programs share (the LAPI twin of ptltest.h). A failed check prints
 * "FAIL file:line (task T): what" on stdout and exits 1; a program that gets to the end prints
 * "<name>: rank <r> passed" and exits 0 (LapiProgramsTest checks both). Waits are bounded (20 s) so that a
 * lost message fails the program instead of hanging the test.
 */
#ifndef LAPITEST_H
#define LAPITEST_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lapi.h>
#include <portals3_rt.h>

static int lapitest_task = -1;
/* The line of the LAPI call the program is in (OK, CHECK_RC, WAITCNTR), for the watchdog. */
static volatile sig_atomic_t lapitest_line;

/* The watchdog's bound in seconds (lapitest_limit changes it). */
static volatile sig_atomic_t lapitest_seconds = 100;

/* The watchdog (SIGALRM, lapitest_seconds after lapitest_init or lapitest_limit): a program stuck in a call that
 * has no bound of its own (LAPI_Gfence, LAPI_Address_init, LAPI_Term) fails saying at which line, instead of
 * hanging the test. */
static void lapitest_watchdog(int sig) {
    (void) sig;
    char text[128];
    int n = snprintf(text, sizeof text, "FAIL watchdog (task %d): not done after %d s, in the call at line %d\n",
                     lapitest_task, (int) lapitest_seconds, (int) lapitest_line);
    if (n > 0 && write(STDOUT_FILENO, text, (size_t) n) < 0) {
        _exit(2);
    }
    _exit(1);
}

#define FAIL_AT(...)                                                                   \
    do {                                                                               \
        printf("FAIL %s:%d (task %d): ", __FILE__, __LINE__, lapitest_task);           \
        printf(__VA_ARGS__);                                                           \
        printf("\n");                                                                  \
        fflush(stdout);                                                                \
        exit(1);                                                                       \
    } while (0)

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            FAIL_AT("%s", #cond);                                                      \
        }                                                                              \
    } while (0)

static inline const char *lapitest_name(int rc) {
    static char text[LAPI_MAX_ERR_STRING];
    LAPI_Msg_string(rc, text);
    char *colon = strchr(text, ':');
    if (colon != NULL) {
        *colon = '\0';
    }
    return text;
}

/* CHECK_RC(expected, call): call must return the LAPI code expected. */
#define CHECK_RC(expected, call)                                                       \
    do {                                                                               \
        lapitest_line = __LINE__;                                                      \
        int rc_ = (call);                                                              \
        if (rc_ != (expected)) {                                                       \
            int e_ = (expected);                                                       \
            char want_[LAPI_MAX_ERR_STRING];                                           \
            snprintf(want_, sizeof want_, "%s", lapitest_name(e_));                    \
            FAIL_AT("%s returned %s (%d), expected %s (%d)", #call, lapitest_name(rc_), rc_, want_, e_); \
        }                                                                              \
    } while (0)

#define OK(call) CHECK_RC(LAPI_SUCCESS, call)

#define CHECK_INT(expected, actual)                                                    \
    do {                                                                               \
        long long e_ = (long long) (expected), a_ = (long long) (actual);              \
        if (e_ != a_) {                                                                \
            FAIL_AT("%s is %lld, expected %s = %lld", #actual, a_, #expected, e_);     \
        }                                                                              \
    } while (0)

/* One task's LAPI context and where it is in the job. */
typedef struct {
    lapi_handle_t hndl;
    int task;
    int tasks;
} lapitest_t;

static inline void lapitest_init_with(lapitest_t *t, lapi_info_t *info) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGALRM, lapitest_watchdog);
    alarm((unsigned) lapitest_seconds);
    OK(LAPI_Init(&t->hndl, info));
    OK(LAPI_Qenv(t->hndl, TASK_ID, &t->task));
    OK(LAPI_Qenv(t->hndl, NUM_TASKS, &t->tasks));
    lapitest_task = t->task;
    CHECK(t->tasks >= 1 && t->task >= 0 && t->task < t->tasks);
}

static inline void lapitest_init(lapitest_t *t) {
    lapi_info_t info;
    memset(&info, 0, sizeof info);
    lapitest_init_with(t, &info);
}

/* Restarts the watchdog with a bound of `seconds` from now (a measuring run may need more than 100 s). */
static inline void lapitest_limit(int seconds) {
    lapitest_seconds = seconds;
    alarm((unsigned) seconds);
}

static inline void lapitest_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Polls *cntr (through LAPI_Getcntr) until it is `value`; fails after 20 s or if it goes past. */
static inline void lapitest_await(lapi_handle_t h, lapi_cntr_t *cntr, int value, const char *what) {
    int now = -1;
    for (int i = 0; i < 20000; i++) {
        OK(LAPI_Getcntr(h, cntr, &now));
        if (now == value) {
            return;
        }
        if (now > value) {
            break;
        }
        lapitest_sleep_ms(1);
    }
    FAIL_AT("%s: counter is %d, expected %d", what, now, value);
}

/* Polls an int the handlers set until it is `value`; fails after 20 s. */
static inline void lapitest_await_flag(volatile int *flag, int value, const char *what) {
    for (int i = 0; i < 20000; i++) {
        if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == value) {
            return;
        }
        lapitest_sleep_ms(1);
    }
    FAIL_AT("%s: is %d, expected %d", what, *flag, value);
}

/* LAPI_Waitcntr(h, cntr, val, cur), after polling (LAPI_Getcntr) until *cntr >= val for at most 20 s, so that a
 * message that never comes fails the program at the line that waited for it instead of hanging it. */
#define WAITCNTR(h, cntr, val, cur)                                                    \
    do {                                                                               \
        int now_ = -1;                                                                 \
        lapitest_line = __LINE__;                                                      \
        for (int i_ = 0; i_ < 20000; i_++) {                                           \
            OK(LAPI_Getcntr((h), (cntr), &now_));                                      \
            if (now_ >= (val)) {                                                       \
                break;                                                                 \
            }                                                                          \
            lapitest_sleep_ms(1);                                                      \
        }                                                                              \
        if (now_ < (val)) {                                                            \
            FAIL_AT("waited 20 s for %s to reach %d: it is %d", #cntr, (int) (val), now_); \
        }                                                                              \
        OK(LAPI_Waitcntr((h), (cntr), (val), (cur)));                                  \
    } while (0)

/* The end of a program: a Gfence, then LAPI_Term. LAPI_Term lets this task's packets leave before it unlinks
 * their buffers (the Gfence's release to the other tasks among them), so no job barrier is needed between. */
static inline void lapitest_passed(lapitest_t *t, const char *name) {
    OK(LAPI_Gfence(t->hndl));
    OK(LAPI_Term(t->hndl));
    printf("%s: rank %d passed\n", name, t->task);
}

#endif /* LAPITEST_H */
