/*
 * The Open MPI peer of MpiOsu (bench module): OSU-style latency, bandwidth, allreduce and barrier in one
 * program, written for this project (not the OSU suite's code). Usage:
 *   osu_peer latency|bw|allreduce|barrier MAX_SIZE ITERATIONS WARMUP
 *   osu_peer percentiles MAX_SIZE ITERATIONS WARMUP
 * Output is the OSU micro-benchmarks' format: a "# OSU MPI ... Test" header, a column line, then one
 * "size value" row per size (latency and allreduce in microseconds, bandwidth in MB/s, barrier one row
 * with the latency alone). Sizes run from 0 (latency, bandwidth: 1) or 8 (allreduce) bytes to MAX_SIZE,
 * doubling; sizes above 8 KiB run a tenth of ITERATIONS and WARMUP. Timing as in OSU: latency is half the round trip averaged over ITERATIONS after WARMUP
 * untimed ones; bandwidth sends windows of 64 nonblocking messages answered by one 4-byte ack;
 * allreduce (MPI_DOUBLE, MPI_SUM) and barrier report the mean over ranks of each rank's average;
 * percentiles times every round trip of the latency test and prints the p50 and p99 of the half round trip
 * (two value columns).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64
#define LARGE 8192

/* Sizes above LARGE bytes run a tenth of the iterations and warm-ups (at least one), as MpiOsu's OsuRun does. */
static int scaled(int n, int size)
{
    return size > LARGE ? (n / 10 > 0 ? n / 10 : 1) : n;
}

static double average_over_ranks(double mine, int size)
{
    double sum = 0;
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return sum / size;
}

static void latency(int rank, char *buf, int max, int iters, int warmup)
{
    if (rank == 0) {
        printf("# OSU MPI Latency Test\n# Size          Latency (us)\n");
    }
    for (int size = 0; size <= max; size = size ? size * 2 : 1) {
        double start = 0;
        int n = scaled(iters, size);
        int w = scaled(warmup, size);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < n + w; i++) {
            if (i == w) {
                start = MPI_Wtime();
            }
            if (rank == 0) {
                MPI_Send(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
        }
        if (rank == 0) {
            printf("%-10d%18.2f\n", size, (MPI_Wtime() - start) * 1e6 / (2.0 * n));
        }
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *) a;
    double y = *(const double *) b;
    return (x > y) - (x < y);
}

/* The latency test with every round trip timed: p50 and p99 of the half round trip, in microseconds. */
static void percentiles(int rank, char *buf, int max, int iters, int warmup)
{
    double *rtt = malloc(sizeof(double) * (size_t) iters);
    if (rtt == NULL) {
        fprintf(stderr, "osu_peer: out of memory for %d samples\n", iters);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return;
    }
    if (rank == 0) {
        printf("# OSU MPI Latency Test (percentiles of the half round trip)\n"
               "# Size         P50 (us)          P99 (us)\n");
    }
    for (int size = 0; size <= max; size = size ? size * 2 : 1) {
        int n = scaled(iters, size);
        int w = scaled(warmup, size);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < n + w; i++) {
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
            if (i >= w) {
                rtt[i - w] = (MPI_Wtime() - t0) * 1e6 / 2.0;
            }
        }
        if (rank == 0) {
            qsort(rtt, (size_t) n, sizeof(double), compare_doubles);
            int p99 = (int) ((n * 99L + 99) / 100) - 1;
            printf("%-10d%18.3f%18.3f\n", size, rtt[n / 2], rtt[p99 < 0 ? 0 : p99]);
        }
    }
    free(rtt);
}

static void bandwidth(int rank, char *buf, int max, int iters, int warmup)
{
    MPI_Request req[WINDOW];
    int ack = 0;
    if (rank == 0) {
        printf("# OSU MPI Bandwidth Test\n# Size      Bandwidth (MB/s)\n");
    }
    for (int size = 1; size <= max; size *= 2) {
        double start = 0;
        int n = scaled(iters, size);
        int w = scaled(warmup, size);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < n + w; i++) {
            if (i == w) {
                start = MPI_Wtime();
            }
            if (rank == 0) {
                for (int k = 0; k < WINDOW; k++) {
                    MPI_Isend(buf, size, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &req[k]);
                }
                MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
                MPI_Recv(&ack, 1, MPI_INT, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                for (int k = 0; k < WINDOW; k++) {
                    MPI_Irecv(buf, size, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &req[k]);
                }
                MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
                MPI_Send(&ack, 1, MPI_INT, 0, 101, MPI_COMM_WORLD);
            }
        }
        if (rank == 0) {
            double mbs = (double) size * WINDOW * n / (MPI_Wtime() - start) / 1e6;
            /* below 1 MB/s (a tiny message under load) 2 decimals could print a measured figure as 0.00 */
            printf(mbs < 1 ? "%-10d%18.6f\n" : "%-10d%18.2f\n", size, mbs);
        }
    }
}

static void allreduce(int rank, int nranks, int max, int iters, int warmup)
{
    double *in = calloc((size_t) max / sizeof(double), sizeof(double));
    double *out = calloc((size_t) max / sizeof(double), sizeof(double));
    if (in == NULL || out == NULL) {
        fprintf(stderr, "osu_peer: out of memory for %d bytes\n", max);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return;
    }
    if (rank == 0) {
        printf("# OSU MPI Allreduce Latency Test\n# Size       Avg Latency(us)\n");
    }
    for (int size = 8; size <= max; size *= 2) {
        int count = size / (int) sizeof(double);
        double start = 0;
        int n = scaled(iters, size);
        int w = scaled(warmup, size);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < n + w; i++) {
            if (i == w) {
                start = MPI_Wtime();
            }
            MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double avg = average_over_ranks((MPI_Wtime() - start) * 1e6 / n, nranks);
        if (rank == 0) {
            printf("%-10d%18.2f\n", size, avg);
        }
    }
    free(in);
    free(out);
}

static void barrier(int rank, int nranks, int iters, int warmup)
{
    double start = 0;
    if (rank == 0) {
        printf("# OSU MPI Barrier Latency Test\n# Avg Latency(us)\n");
    }
    for (int i = 0; i < iters + warmup; i++) {
        if (i == warmup) {
            start = MPI_Wtime();
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double avg = average_over_ranks((MPI_Wtime() - start) * 1e6 / iters, nranks);
    if (rank == 0) {
        printf("%18.2f\n", avg);
    }
}

int main(int argc, char **argv)
{
    int rank;
    int nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (argc != 5) {
        if (rank == 0) {
            fprintf(stderr, "usage: osu_peer latency|percentiles|bw|allreduce|barrier MAX_SIZE ITERATIONS WARMUP\n");
        }
        MPI_Finalize();
        return 2;
    }
    int max = atoi(argv[2]);
    int iters = atoi(argv[3]);
    int warmup = atoi(argv[4]);
    if (max < 8 || iters < 1 || warmup < 0) {
        if (rank == 0) {
            fprintf(stderr, "osu_peer: MAX_SIZE must be >= 8, ITERATIONS >= 1, WARMUP >= 0\n");
        }
        MPI_Finalize();
        return 2;
    }
    char *buf = malloc((size_t) max);
    if (buf == NULL) {
        fprintf(stderr, "osu_peer: out of memory for %d bytes\n", max);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    memset(buf, 'a', (size_t) max);
    if (strcmp(argv[1], "latency") == 0) {
        latency(rank, buf, max, iters, warmup);
    } else if (strcmp(argv[1], "percentiles") == 0) {
        percentiles(rank, buf, max, iters, warmup);
    } else if (strcmp(argv[1], "bw") == 0) {
        bandwidth(rank, buf, max, iters, warmup);
    } else if (strcmp(argv[1], "allreduce") == 0) {
        allreduce(rank, nranks, max, iters, warmup);
    } else if (strcmp(argv[1], "barrier") == 0) {
        barrier(rank, nranks, iters, warmup);
    } else if (rank == 0) {
        fprintf(stderr, "osu_peer: unknown test '%s'\n", argv[1]);
    }
    fflush(stdout);
    free(buf);
    MPI_Finalize();
    return 0;
}
