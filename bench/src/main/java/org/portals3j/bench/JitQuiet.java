package org.portals3j.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Waits, after a warm-up and before timing, until the JIT has compiled nothing for {@link #QUIET_SAMPLES} samples
 * in a row ({@link CompilationMXBean#getTotalCompilationTime}), at most {@link #LIMIT_MILLIS}: a compilation that
 * runs while two spinning ranks own both cores of the machine is a stall of the timed loop.
 */
final class JitQuiet {
    /** Milliseconds between samples of the JIT's total compilation time. */
    static final long SAMPLE_MILLIS = 50;
    /** Samples in a row without compilation that count as quiet. */
    static final int QUIET_SAMPLES = 4;
    /** The longest wait, in milliseconds. */
    static final long LIMIT_MILLIS = 10_000;

    private JitQuiet() {
    }

    /**
     * Waits for this JVM's JIT to go quiet; returns the milliseconds waited, or -1 if it did not go quiet within the
     * limit or the JVM does not report compilation time (the caller then measures as before, and may say so).
     */
    static long await() throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return -1;
        }
        return await(jit::getTotalCompilationTime, () -> TimeUnit.MILLISECONDS.sleep(SAMPLE_MILLIS));
    }

    /** What a sleep between samples may throw. */
    @FunctionalInterface
    interface Pause {
        void pause() throws InterruptedException;
    }

    /**
     * Samples {@code compiledMillis} after each {@code pause} until it stayed the same {@link #QUIET_SAMPLES} times
     * in a row; returns the time that took (samples times {@link #SAMPLE_MILLIS}), or -1 after {@link #LIMIT_MILLIS}.
     */
    static long await(LongSupplier compiledMillis, Pause pause) throws InterruptedException {
        long last = compiledMillis.getAsLong();
        int unchanged = 0;
        for (int sample = 1; sample * SAMPLE_MILLIS <= LIMIT_MILLIS; sample++) {
            pause.pause();
            long now = compiledMillis.getAsLong();
            unchanged = now == last ? unchanged + 1 : 0;
            last = now;
            if (unchanged == QUIET_SAMPLES) {
                return sample * SAMPLE_MILLIS;
            }
        }
        return -1;
    }
}
