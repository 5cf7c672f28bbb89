/*
 * The kernel's loopback floor under the udp transport (bench module, Suite's "sockets" peer): a ping-pong of
 * plain sockets in C between two processes, each bound to its own CPU (as mpirun and `portals run` bind ranks),
 * each busy-polling recv(MSG_DONTWAIT) as the transport's polling ranks do. Nothing but the system calls and
 * the loopback path: no library, no protocol, no authentication. Usage:
 *   socket_floor udp|tcp MAX_SIZE ITERATIONS WARMUP
 * Prints the percentiles table of osu_peer: a "#" header naming the CPUs, then "size p50 p99" rows (half round
 * trip, microseconds), sizes from 1 byte to MAX_SIZE doubling (udp: at most 32 KiB, one datagram); sizes above
 * 8 KiB run a tenth of ITERATIONS and WARMUP. Exits 1 with a message on any failing system call.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LARGE 8192
#define UDP_MAX (32 * 1024)
/* A reply that has not come in this long was lost (a datagram) or its sender died: fail, never spin forever. */
#define REPLY_TIMEOUT_NS 10000000000LL

static void fail(const char *what)
{
    fprintf(stderr, "socket_floor: %s: %s\n", what, strerror(errno));
    exit(1);
}

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    long long x = *(const long long *) a;
    long long y = *(const long long *) b;
    return x < y ? -1 : x > y;
}

static int scaled(int n, int size)
{
    return size > LARGE ? (n / 10 > 0 ? n / 10 : 1) : n;
}

/* Sends all of buf (a stream may take it in parts). */
static void send_all(int fd, const char *buf, int len)
{
    int done = 0;
    while (done < len) {
        ssize_t r = send(fd, buf + done, (size_t) (len - done), 0);
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            fail("send");
        }
        done += (int) r;
    }
}

/* Busy-polls until len bytes (tcp) or one datagram (udp) arrived; fails after REPLY_TIMEOUT_NS without any. */
static void receive_all(int fd, char *buf, int len, int stream)
{
    int done = 0;
    unsigned empty = 0;
    long long since = 0;
    for (;;) {
        ssize_t r = recv(fd, buf + done, (size_t) (len - done), MSG_DONTWAIT);
        if (r < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                if ((++empty & 4095) == 0) { /* a clock read every 4096 empty polls keeps it off the fast path */
                    long long t = now_ns();
                    if (since == 0) {
                        since = t;
                    } else if (t - since > REPLY_TIMEOUT_NS) {
                        fprintf(stderr, "socket_floor: no reply in %lld s: a datagram was lost or the peer died\n",
                                REPLY_TIMEOUT_NS / 1000000000LL);
                        exit(1);
                    }
                }
                continue;
            }
            fail("recv");
        }
        if (r == 0 && stream) {
            fprintf(stderr, "socket_floor: the peer closed the connection\n");
            exit(1);
        }
        done += (int) r;
        since = 0;
        if (!stream || done == len) {
            return;
        }
    }
}

/* The first two CPUs this process may run on, or -1 when it has fewer than two. */
static void two_cpus(int *first, int *second)
{
    cpu_set_t set;
    *first = *second = -1;
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return;
    }
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, &set)) {
            if (*first < 0) {
                *first = c;
            } else {
                *second = c;
                return;
            }
        }
    }
}

static void bind_to(int cpu)
{
    if (cpu < 0) {
        return;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        fail("sched_setaffinity");
    }
}

static struct sockaddr_in loopback(unsigned short port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

static int bound_socket(int type, unsigned short *port)
{
    int fd = socket(AF_INET, type, 0);
    if (fd < 0) {
        fail("socket");
    }
    struct sockaddr_in a = loopback(0);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *) &a, sizeof a) != 0 || getsockname(fd, (struct sockaddr *) &a, &len) != 0) {
        fail("bind");
    }
    *port = ntohs(a.sin_port);
    return fd;
}

/* Both processes' connected sockets, made before the fork so that neither can send before the other listens. */
static void connect_pair(int stream, int fds[2])
{
    if (stream) {
        unsigned short port;
        int listener = bound_socket(SOCK_STREAM, &port);
        if (listen(listener, 1) != 0) {
            fail("listen");
        }
        fds[1] = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = loopback(port);
        if (fds[1] < 0 || connect(fds[1], (struct sockaddr *) &a, sizeof a) != 0) {
            fail("connect");
        }
        fds[0] = accept(listener, NULL, NULL);
        if (fds[0] < 0) {
            fail("accept");
        }
        close(listener);
        int one = 1;
        for (int i = 0; i < 2; i++) {
            if (setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
                fail("TCP_NODELAY");
            }
        }
        return;
    }
    unsigned short port[2];
    for (int i = 0; i < 2; i++) {
        fds[i] = bound_socket(SOCK_DGRAM, &port[i]);
    }
    for (int i = 0; i < 2; i++) {
        struct sockaddr_in peer = loopback(port[1 - i]);
        if (connect(fds[i], (struct sockaddr *) &peer, sizeof peer) != 0) {
            fail("connect");
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[1], "udp") != 0 && strcmp(argv[1], "tcp") != 0)) {
        fprintf(stderr, "usage: socket_floor udp|tcp MAX_SIZE ITERATIONS WARMUP\n");
        return 2;
    }
    int stream = strcmp(argv[1], "tcp") == 0;
    int max = atoi(argv[2]);
    int iters = atoi(argv[3]);
    int warmup = atoi(argv[4]);
    if (max < 1 || iters < 1 || warmup < 0) {
        fprintf(stderr, "socket_floor: MAX_SIZE and ITERATIONS must be positive, WARMUP not negative\n");
        return 2;
    }
    if (!stream && max > UDP_MAX) {
        max = UDP_MAX;
    }
    char *buf = calloc(1, (size_t) max);
    long long *rtt = malloc(sizeof(long long) * (size_t) iters);
    if (buf == NULL || rtt == NULL) {
        fprintf(stderr, "socket_floor: out of memory for %d bytes and %d samples\n", max, iters);
        return 1;
    }
    int fds[2];
    connect_pair(stream, fds);
    int cpu[2];
    two_cpus(&cpu[0], &cpu[1]);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        fail("fork");
    }
    int me = child == 0 ? 1 : 0;
    close(fds[1 - me]);
    int fd = fds[me];
    bind_to(cpu[1] < 0 ? -1 : cpu[me]);
    if (me == 0) {
        if (cpu[1] < 0) {
            printf("# socket_floor %s, busy-poll: 2 processes, not bound (fewer than 2 CPUs allowed)\n", argv[1]);
        } else {
            printf("# socket_floor %s, busy-poll: 2 processes bound to CPUs %d and %d\n", argv[1], cpu[0], cpu[1]);
        }
        printf("# Size         P50 (us)          P99 (us)\n");
    }
    for (int size = 1; size <= max; size *= 2) {
        int n = scaled(iters, size);
        int w = scaled(warmup, size);
        for (int i = 0; i < n + w; i++) {
            if (me == 0) {
                long long t0 = now_ns();
                send_all(fd, buf, size);
                receive_all(fd, buf, size, stream);
                if (i >= w) {
                    rtt[i - w] = now_ns() - t0;
                }
            } else {
                receive_all(fd, buf, size, stream);
                send_all(fd, buf, size);
            }
        }
        if (me == 0) {
            qsort(rtt, (size_t) n, sizeof rtt[0], by_value);
            printf("%-10d%18.3f%18.3f\n", size, rtt[n / 2] / 2000.0, rtt[(int) ((long long) n * 99 / 100)] / 2000.0);
        }
    }
    if (me == 1) {
        return 0;
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "socket_floor: the second process failed\n");
        return 1;
    }
    return 0;
}
