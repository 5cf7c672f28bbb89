package org.portals3j.transport.internal;

import java.util.function.LongSupplier;
import org.portals3j.transport.IdleStrategy;

/**
 * Spins a number of idle rounds for at most a time, then yields a number, then parks with a period doubling from a
 * minimum to a maximum; work starts it over. One thread's: the counts are plain fields.
 */
public final class BackoffIdle implements IdleStrategy {
    /** The spin phase reads the clock on its first round and then every this many rounds (a power of two). */
    static final int CLOCK_EVERY = 4;

    private final int maxSpins;
    private final long maxSpinNanos;
    private final LongSupplier clock;
    private final int maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private final Parker parker;
    private int spins;
    private long spinStart;
    private int yields;
    private long parkNanos;

    /**
     * @param maxSpins     idle rounds that spin before the first yield
     * @param maxYields    idle rounds that yield before the first park ({@link Integer#MAX_VALUE}: yield forever)
     * @param minParkNanos the first park
     * @param maxParkNanos the longest park
     */
    public BackoffIdle(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos, Parker parker) {
        this(maxSpins, Long.MAX_VALUE, maxYields, minParkNanos, maxParkNanos, parker, System::nanoTime);
    }

    /**
     * As the other constructor, the spin phase also ending once {@code maxSpinNanos} have passed on {@code clock}
     * since its first round (looked at every {@value #CLOCK_EVERY} rounds): a round that polls a socket costs
     * a system call, so a count alone would make the phase last milliseconds.
     */
    public BackoffIdle(int maxSpins, long maxSpinNanos, int maxYields, long minParkNanos, long maxParkNanos,
                       Parker parker, LongSupplier clock) {
        if (maxSpins < 0 || maxSpinNanos < 0 || maxYields < 0 || minParkNanos <= 0 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("back-off of " + maxSpins + " spins in " + maxSpinNanos + " ns, "
                    + maxYields + " yields, parks of " + minParkNanos + ".." + maxParkNanos
                    + " ns: counts and time must be >= 0 and 0 < min park <= max park");
        }
        this.maxSpins = maxSpins;
        this.maxSpinNanos = maxSpinNanos;
        this.clock = clock;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.parker = parker;
        reset();
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else if (spins < maxSpins) {
            // out of time, this round is the last spin: parksNext said what the next round does, not this one
            spins = spunLongEnough() ? maxSpins : spins + 1;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            if (maxYields != Integer.MAX_VALUE) {
                yields++;
            }
            Thread.yield();
        } else {
            parker.parkNanos(parkNanos);
            parkNanos = Math.min(parkNanos << 1, maxParkNanos);
        }
    }

    /** Whether the spin phase has had its time. */
    private boolean spunLongEnough() {
        if (maxSpinNanos == Long.MAX_VALUE || (spins & (CLOCK_EVERY - 1)) != 0) {
            return false;
        }
        long now = clock.getAsLong();
        if (spins == 0) {
            spinStart = now;
            return false;
        }
        return now - spinStart >= maxSpinNanos;
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }

    @Override
    public boolean parksNext() {
        return spins >= maxSpins && yields >= maxYields;
    }
}
