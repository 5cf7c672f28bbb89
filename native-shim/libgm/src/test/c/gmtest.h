/*
 * gmtest.h: helpers of libgm's C tests. Each test program prints "ok NAME" per check and exits 0 when all
 * passed; CHECK prints what failed and exits 1. Waits are bounded (WAIT_MS) and poll for a condition, never
 * sleep-then-assert. Children made with spawn() are killed at exit, also when a check fails.
 */
#ifndef GMTEST_H
#define GMTEST_H

#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gm.h"
#include "gmx.h"

#define WAIT_MS 20000

#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond);                              \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fprintf(stderr, " (last error: %s)\n", gmx_last_error());                                      \
            exit(1);                                                                                         \
        }                                                                                                    \
    } while (0)

#define OK(name) printf("ok %s\n", name)

static pid_t children[8];
static int child_count;

static void kill_children(void) {
    for (int i = 0; i < child_count; i++) {
        if (children[i] > 0) {
            kill(children[i], SIGKILL);
            waitpid(children[i], NULL, 0);
            children[i] = 0;
        }
    }
}

static inline unsigned long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long) ts.tv_sec * 1000ull + (unsigned long long) ts.tv_nsec / 1000000ull;
}

/* Forks; the child runs body and exits with its result. The parent remembers the child to kill it at exit. */
static inline pid_t spawn(int (*body)(void *), void *arg) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        child_count = 0;
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the test program */
        _exit(body(arg));
    }
    children[child_count++] = pid;
    return pid;
}

/* Waits for child pid to exit (bounded); its exit status, or -1 when it had to be killed. */
static inline int reap(pid_t pid) {
    unsigned long long end = now_ms() + WAIT_MS;
    int status;
    while (now_ms() < end) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            for (int i = 0; i < child_count; i++) {
                if (children[i] == pid) {
                    children[i] = 0;
                }
            }
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    return -1;
}

static void on_alarm_signal(int signal) {
    (void) signal;
    static const char message[] = "FAILED: the test program ran out of time (120 s)\n";
    ssize_t ignored = write(2, message, sizeof message - 1);
    (void) ignored;
    for (int i = 0; i < child_count; i++) {
        if (children[i] > 0) {
            kill(children[i], SIGKILL);
        }
    }
    _exit(1);
}

/* Kills the children at exit and after 120 s; exits 77 (skipped) when provider cannot open an endpoint. */
static inline void test_start(const char *provider) {
    atexit(kill_children);
    signal(SIGALRM, on_alarm_signal);
    alarm(120); /* a hung test dies instead of blocking the build; the JUnit bound is the outer one */
    if (provider != NULL) {
        char why[256];
        if (!gmx_provider_available(provider, why, sizeof why)) {
            printf("skipped: %s\n", why);
            exit(77);
        }
    }
}

/* Opens port `port` with the options o (node, tokens, timers, flags), or fails the test saying which. */
static inline struct gm_port *open_port_with(unsigned port, const struct gmx_port_options *o) {
    struct gm_port *p = NULL;
    gm_status_t s = gmx_open(&p, port, o);
    CHECK(s == GM_SUCCESS, "gmx_open(%s, node %u, port %u): %s", o->provider, o->node_id, port, gm_strerror(s));
    return p;
}

/* Tells `from` that (node, port), with host name host (NULL: none), is the port `to`. */
static inline void introduce_as(struct gm_port *from, struct gm_port *to, unsigned node, unsigned port,
                                const char *host) {
    unsigned char name[256];
    size_t len = sizeof name;
    CHECK(gmx_endpoint_name(to, name, &len) == GM_SUCCESS, "endpoint name");
    CHECK(gmx_set_peer(from, node, port, name, len, host) == GM_SUCCESS, "set peer");
}

/* A short sleep between polls of a test loop (the library never spins; the tests need not either). */
static inline void nap(void) {
    struct timespec ts = {0, 100000};
    nanosleep(&ts, NULL);
}

#endif
