package org.portals3j.bench;

/**
 * The shape of one OSU-style run, shared by the layer and its Open MPI peer so that both do the same work:
 * sizes double from the first to {@code maxSize}; sizes above {@link #LARGE} get a tenth of the iterations (at
 * least one), as the OSU suite's large-message counts do.
 */
record OsuRun(int maxSize, int iterations, int warmup, int bandwidthIterations) {
    /** Sizes above this many bytes run {@link #iterationsFor} a tenth of the iterations. */
    static final int LARGE = 8192;
    /** Messages in flight per bandwidth window (osu_bw's default). */
    static final int WINDOW = 64;
    /**
     * Timed round trips of a size by default: with 1000 after 100 of warm-up the JIT still compiled in the timed
     * loop and one stall moved a mean by microseconds (bench/README.md, the MPI section).
     */
    static final int ITERATIONS = 10_000;
    /** Untimed round trips of a size before them by default. */
    static final int WARMUP = 2_000;
    /** Timed bandwidth windows of a size by default. */
    static final int BANDWIDTH_ITERATIONS = 100;

    /** The default run up to {@code maxSize}; {@code quick}: a few iterations, for tests, not figures to quote. */
    static OsuRun standard(int maxSize, boolean quick) {
        return quick ? new OsuRun(maxSize, 20, 2, 2) : new OsuRun(maxSize, ITERATIONS, WARMUP, BANDWIDTH_ITERATIONS);
    }

    int iterationsFor(int size) {
        return size > LARGE ? Math.max(1, iterations / 10) : iterations;
    }

    int warmupFor(int size) {
        return size > LARGE ? Math.max(1, warmup / 10) : warmup;
    }

    int bandwidthIterationsFor(int size) {
        return size > LARGE ? Math.max(1, bandwidthIterations / 10) : bandwidthIterations;
    }

    /** 0, 1, 2, 4, ... {@code maxSize} for latency; from 1 for bandwidth; from 8 for allreduce. */
    static int next(int size) {
        return size == 0 ? 1 : size * 2;
    }
}
