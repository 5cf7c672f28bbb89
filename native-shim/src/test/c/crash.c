/*
 * crash: a fault in the program's own code after PtlInit (run alone). Without arguments it dereferences
 * NULL, and must end as a C program without Portals does: killed by SIGSEGV, nothing on stderr from the JVM
 * (no fatal-error banner) and no hs_err file. With "own-handler" it first installs a SIGSEGV handler of its
 * own (before PtlInit), which must be the one that runs (it exits with status 42).
 */
#include <signal.h>
#include <unistd.h>

#include "ptltest.h"

static void own_handler(int sig) {
    (void) sig;
    static const char said[] = "crash: the program's own SIGSEGV handler ran\n";
    ssize_t ignored = write(STDOUT_FILENO, said, sizeof said - 1);
    (void) ignored;
    _exit(42);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "own-handler") == 0) {
        signal(SIGSEGV, own_handler);
    }
    ptltest_t t;
    ptltest_init(&t, 8);
    printf("crash: Portals is up, dereferencing NULL\n");
    fflush(stdout);
    volatile int *nowhere = NULL;
    *nowhere = 1;
    printf("crash: still running after the fault\n");
    return 1;
}
