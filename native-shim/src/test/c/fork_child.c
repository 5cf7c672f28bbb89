/*
 * fork_child: a process forked after PtlInit (built in both dialects; run alone). The child has none of
 * the Java engine's threads, so every Portals call there must fail at once and never wait for them.
 * FORKS times, the parent forks a child that:
 *  - calls PtlFini, then PtlNIStatus and PtlInit (PTL_FAIL), ptl_rt_rank (-1), and exits with exit(), which
 *    runs the atexit handler libportals3 registered in the parent (it must not try to leave the job);
 *  - or, every fourth time, dereferences NULL: it must die by SIGSEGV, as a C process does, the JVM's signal
 *    handlers being the parent's only.
 * Each child must end within 20 s (the parent kills it and fails otherwise). The parent's library keeps
 * working throughout.
 * With "orphan", the parent forks one child that prints its pid and waits for ever, and exits at once: the
 * child must not outlive it (the runner checks it ends).
 */
#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptltest.h"

#define FORKS 24

/* The child's checks; its exit status says whether they held. */
static void child(ptl_handle_ni_t ni, int crash) {
    if (crash) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
        _exit(3); /* not reached */
    }
    PtlFini();
    ptl_sr_value_t value;
    if (PtlNIStatus(ni, PTL_SR_DROP_COUNT, &value) != PTL_FAIL) {
        _exit(4);
    }
    int interfaces;
    if (PtlInit(&interfaces) != PTL_FAIL) {
        _exit(5);
    }
    if (ptl_rt_rank() != -1) {
        _exit(6);
    }
    exit(0); /* atexit handlers run */
}

/* Waits at most 20 s for pid; kills it and fails if it is still running then. */
static int reap(pid_t pid) {
    for (int i = 0; i < 20000; i++) {
        int status;
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            return status;
        }
        if (done < 0 && errno != EINTR) {
            FAIL_AT("waitpid: %s", strerror(errno));
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    FAIL_AT("child %ld was still running 20 s after the fork (a Portals call in it hung)", (long) pid);
}

int main(int argc, char **argv) {
    ptltest_t t;
    ptltest_init(&t, 8);
    if (argc > 1 && strcmp(argv[1], "orphan") == 0) {
        fflush(stdout);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            printf("fork_child: orphan %ld\n", (long) getpid());
            fflush(stdout);
            for (;;) {
                pause();
            }
        }
        return 0;
    }
    for (int i = 0; i < FORKS; i++) {
        int crash = i % 4 == 3;
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            child(t.ni, crash);
        }
        int status = reap(pid);
        if (crash) {
            if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGSEGV) {
                FAIL_AT("fork %d: the crashing child ended with status 0x%x, not by SIGSEGV", i, status);
            }
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            FAIL_AT("fork %d: the child ended with status 0x%x (exit 4: PtlNIStatus, 5: PtlInit, 6: ptl_rt_rank did"
                    " not fail)", i, status);
        }
        ptl_sr_value_t value;
        OK(PtlNIStatus(t.ni, PTL_SR_DROP_COUNT, &value)); /* the parent's library is still there */
    }
    printf("fork_child: %d children ended on their own\n", FORKS);
    ptltest_passed(&t, "fork_child");
    return 0;
}
