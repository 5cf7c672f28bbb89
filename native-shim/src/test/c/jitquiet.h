/*
 * jitquiet.h: for the C benchmarks, a wait after the warm-up until this process's JVM has stopped compiling (the C
 * twin of bench's JitQuiet, which a C program cannot call): the JIT's compiler threads are the tasks of
 * /proc/self/task whose comm is "C2 CompilerThre" or "C1 CompilerThre" (the kernel keeps 15 characters of
 * "C2 CompilerThread0"), and their CPU time is utime + stime of each one's stat. jitquiet_await samples the sum every
 * JITQUIET_SAMPLE_MS until it stayed the same JITQUIET_SAMPLES times in a row, at most JITQUIET_LIMIT_MS. A compiler
 * thread that runs while the ranks own the cores is a stall of the timed loop: a rank bound to one core (as
 * `portals run` binds) shares that core with its own JVM's compiler threads.
 */
#ifndef JITQUIET_H
#define JITQUIET_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define JITQUIET_SAMPLE_MS 50
#define JITQUIET_SAMPLES 4
#define JITQUIET_LIMIT_MS 10000

/* The CPU time (clock ticks, utime + stime) used so far by this process's live JIT compiler threads; *threads is set to
 * how many there are (the JVM starts and stops some of them as the compile queue grows and shrinks). */
static long long jitquiet_ticks(int *threads) {
    long long ticks = 0;
    *threads = 0;
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) {
        return -1;
    }
    struct dirent *task;
    while ((task = readdir(tasks)) != NULL) {
        if (task->d_name[0] == '.') {
            continue;
        }
        char path[64], comm[32], stat[1024];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/comm", task->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL) {
            continue; /* the thread ended meanwhile */
        }
        int named = fgets(comm, sizeof comm, f) != NULL;
        fclose(f);
        if (!named || (strncmp(comm, "C2 CompilerThre", 15) != 0 && strncmp(comm, "C1 CompilerThre", 15) != 0)) {
            continue;
        }
        snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", task->d_name);
        f = fopen(path, "r");
        if (f == NULL) {
            continue;
        }
        size_t n = fread(stat, 1, sizeof stat - 1, f);
        fclose(f);
        stat[n] = '\0';
        /* after "pid (comm) ": state, then fields 4-13, then utime (14) and stime (15) */
        char *after = strrchr(stat, ')');
        unsigned long long utime, stime;
        if (after != NULL
            && sscanf(after + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) == 2) {
            ticks += (long long) (utime + stime);
            (*threads)++;
        }
    }
    closedir(tasks);
    return ticks;
}

/* The CPU time in milliseconds used so far by this process's live JIT compiler threads, or -1: the difference of two
 * readings is what they compiled in between (unless the JVM stopped one of them meanwhile). */
static long jitquiet_cpu_ms(void) {
    int threads;
    long long ticks = jitquiet_ticks(&threads);
    long hz = sysconf(_SC_CLK_TCK);
    return ticks < 0 || hz <= 0 ? -1 : (long) (ticks * 1000 / hz);
}

/* Waits until the JIT's compiler threads have used no CPU for JITQUIET_SAMPLES samples JITQUIET_SAMPLE_MS apart;
 * returns the milliseconds that took, or -1 if they were still busy after JITQUIET_LIMIT_MS (or /proc could not be
 * read), in which case the caller measures anyway and says so. */
static long jitquiet_await(void) {
    int threads;
    long long last = jitquiet_ticks(&threads);
    if (last < 0) {
        return -1;
    }
    int unchanged = 0;
    for (long sample = 1; sample * JITQUIET_SAMPLE_MS <= JITQUIET_LIMIT_MS; sample++) {
        struct timespec pause = {0, JITQUIET_SAMPLE_MS * 1000000L};
        nanosleep(&pause, NULL);
        long long now = jitquiet_ticks(&threads);
        unchanged = now == last ? unchanged + 1 : 0;
        last = now;
        if (unchanged == JITQUIET_SAMPLES) {
            return sample * JITQUIET_SAMPLE_MS;
        }
    }
    return -1;
}

/* The line a benchmark prints after jitquiet_await: "# rank R: the JIT went quiet N ms after the warm-up, before
 * WHAT" or "# rank R: the JIT was still compiling 10000 ms after the warm-up, before WHAT". */
static void jitquiet_report(int rank, long quiet_ms, const char *what) {
    if (quiet_ms < 0) {
        printf("# rank %d: the JIT was still compiling %d ms after the warm-up, before %s\n", rank, JITQUIET_LIMIT_MS,
               what);
    } else {
        printf("# rank %d: the JIT went quiet %ld ms after the warm-up, before %s\n", rank, quiet_ms, what);
    }
}

#endif /* JITQUIET_H */
