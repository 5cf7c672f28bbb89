/*
 * gm_shm.c: names for shm endpoints that no stale shared-memory region can hold, and the removal of the regions
 * that killed libgm processes left behind.
 *
 * Why (libfabric 1.17's shm provider: fi_shm(7), "Address Format"; prov/shm/src/smr_util.c, smr_create and
 * smr_retry_map): without a name from the application an endpoint is named after its process, "PID:UID:N" (N
 * counts the process's endpoints), and fi_enable creates /dev/shm/NAME with shm_open(O_CREAT | O_EXCL). When that
 * file exists, shm reads the old region's header: it takes the region over only when the recorded owner pid has
 * no /proc entry; when the region is of another version (or was never initialised), or its pid exists, it unlinks
 * the file and fails with -FI_EBUSY. A process that is killed leaves its region (16 MiB each here), and a later
 * process that is given the same pid finds its own pid recorded there: its fi_enable fails.
 *
 * What libgm does (a choice; gm-libfabric.md section 2.4 lists shm's other pitfalls):
 *   - gmi_shm_name gives each shm endpoint, through fi_setname before fi_enable, the name
 *     "gm-NS-PID-START-N" (hex): the pid namespace (the inode of /proc/self/ns/pid), the pid, the process's start
 *     time (field 22 of /proc/PID/stat, clock ticks since boot) and a per-process counter. No two processes of one
 *     namespace share pid and start time, so no other process's region, stale or live, has the name; a name
 *     whose file exists anyway (made by something else) is skipped for the next N.
 *   - gmi_shm_sweep, before that, removes each /dev/shm/gm-NS-PID-START-N of its own namespace whose owner is
 *     provably gone: /proc/PID is absent, or it is a process with another start time (the pid was reused).
 *     Regions of other namespaces, of other names (libfabric's default names among them) and of processes it
 *     cannot tell about are left alone. Without /proc (no namespace or start time) nothing is swept, and the name
 *     carries a random number in place of the namespace and start time.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm_internal.h"

#define SHM_DIR "/dev/shm"

static unsigned next_index; /* per process, taken atomically */

/* The inode of the pid namespace, or 0 when /proc does not say. */
static unsigned long long pid_namespace(void) {
    char link[64];
    ssize_t n = readlink("/proc/self/ns/pid", link, sizeof link - 1);
    if (n <= 0) {
        return 0;
    }
    link[n] = '\0';
    unsigned long long inode = 0;
    return sscanf(link, "pid:[%llu]", &inode) == 1 ? inode : 0;
}

/*
 * Process pid's start time (clock ticks since boot) into *start: 1 when read, 0 when there is no such process,
 * -1 when it cannot be told (no /proc, unreadable or unparsable).
 */
static int start_time(long long pid, unsigned long long *start) {
    char path[64], text[1024];
    if (pid > 0) {
        snprintf(path, sizeof path, "/proc/%lld/stat", pid);
    } else {
        snprintf(path, sizeof path, "/proc/self/stat");
    }
    FILE *f = fopen(path, "re");
    if (f == NULL) {
        return errno == ENOENT ? 0 : -1;
    }
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *after = strrchr(text, ')'); /* the command name may hold spaces and parentheses */
    if (after == NULL) {
        return -1;
    }
    /* after ") " come fields 3, 4, ...; the start time is field 22 */
    const char *at = after + 1;
    for (int field = 3; field < 22; field++) {
        at = strchr(at + 1, ' ');
        if (at == NULL) {
            return -1;
        }
    }
    char *end;
    errno = 0;
    unsigned long long value = strtoull(at + 1, &end, 10);
    if (errno != 0 || end == at + 1) {
        return -1;
    }
    *start = value;
    return 1;
}

void gmi_shm_sweep(void) {
    unsigned long long ns = pid_namespace(), own_start;
    if (ns == 0 || start_time(0, &own_start) != 1) {
        return; /* without /proc no owner can be proven gone */
    }
    DIR *dir = opendir(SHM_DIR);
    if (dir == NULL) {
        return;
    }
    uid_t uid = geteuid();
    struct dirent *d;
    while ((d = readdir(dir)) != NULL) {
        unsigned long long region_ns, start, pid;
        unsigned index;
        int consumed = 0;
        if (sscanf(d->d_name, "gm-%llx-%llx-%llx-%x%n", &region_ns, &pid, &start, &index, &consumed) != 4
                || d->d_name[consumed] != '\0' || region_ns != ns || pid == 0 || pid > 0x7fffffffull) {
            continue;
        }
        char path[sizeof SHM_DIR + 256 + 1];
        snprintf(path, sizeof path, "%s/%s", SHM_DIR, d->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != uid) {
            continue;
        }
        unsigned long long owner_start;
        int alive = start_time((long long) pid, &owner_start);
        if (alive == 0 || (alive == 1 && owner_start != start)) {
            (void) shm_unlink(d->d_name); /* ENOENT: its owner or another sweep removed it first */
        }
    }
    closedir(dir);
}

void gmi_shm_name(char *name, size_t cap) {
    unsigned long long ns = pid_namespace(), start = 0;
    bool known = ns != 0 && start_time(0, &start) == 1;
    if (!known) {
        /* not of the swept form (a random word, no namespace): never removed by a sweep, and still unique */
        unsigned long long word = 0;
        if (getrandom(&word, sizeof word, 0) != (ssize_t) sizeof word) {
            word = (unsigned long long) gmi_now_ns();
        }
        ns = 0;
        start = word;
    }
    for (int tries = 0;; tries++) {
        unsigned index = __atomic_fetch_add(&next_index, 1, __ATOMIC_RELAXED);
        snprintf(name, cap, known ? "gm-%llx-%llx-%llx-%x" : "gm-r%llx-%llx-%llx-%x", ns,
                 (unsigned long long) getpid(), start, index);
        char path[sizeof SHM_DIR + GMI_NAME_MAX + 1];
        snprintf(path, sizeof path, "%s/%s", SHM_DIR, name);
        struct stat st;
        if (tries >= 1000 || (lstat(path, &st) != 0 && errno == ENOENT)) {
            return; /* after 1000 names taken, fi_enable says -FI_EBUSY and open_endpoint says what to do */
        }
    }
}
