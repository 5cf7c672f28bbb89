package org.portals3j.runtime;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Passes log lines on at most at a steady rate (a burst of {@code burst}, then one per {@code intervalNanos}),
 * counting the lines it holds back and telling how many in the next line it passes: what strangers make a
 * server log cannot flood it. Thread-safe.
 */
final class LogLimiter {
    private final Consumer<String> log;
    private final int burst;
    private final long intervalNanos;
    private final LongSupplier clock;
    private double tokens;
    private long lastNanos;
    private long suppressed;

    LogLimiter(Consumer<String> log, int burst, long intervalNanos, LongSupplier clock) {
        this.log = log;
        this.burst = burst;
        this.intervalNanos = intervalNanos;
        this.clock = clock;
        this.tokens = burst;
        this.lastNanos = clock.getAsLong();
    }

    /** Logs {@code line} (with the count of lines held back since the last one), or holds it back. */
    void accept(String line) {
        String out;
        synchronized (this) {
            long now = clock.getAsLong();
            tokens = Math.min(burst, tokens + (double) (now - lastNanos) / intervalNanos);
            lastNanos = now;
            if (tokens < 1) {
                suppressed++;
                return;
            }
            tokens -= 1;
            out = suppressed == 0 ? line : line + " (and " + suppressed + " more such lines not shown)";
            suppressed = 0;
        }
        log.accept(out);
    }
}
