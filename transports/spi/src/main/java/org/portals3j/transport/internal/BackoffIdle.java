package org.portals3j.transport.internal;

import org.portals3j.transport.IdleStrategy;

/**
 * Spins a number of idle rounds, then yields a number, then parks with a period doubling from a minimum to a maximum;
 * work starts it over. One thread's: the counts are plain fields.
 */
public final class BackoffIdle implements IdleStrategy {
    private final int maxSpins;
    private final int maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private final Parker parker;
    private int spins;
    private int yields;
    private long parkNanos;

    /**
     * @param maxSpins     idle rounds that spin before the first yield
     * @param maxYields    idle rounds that yield before the first park ({@link Integer#MAX_VALUE}: yield forever)
     * @param minParkNanos the first park
     * @param maxParkNanos the longest park
     */
    public BackoffIdle(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos, Parker parker) {
        if (maxSpins < 0 || maxYields < 0 || minParkNanos <= 0 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("back-off of " + maxSpins + " spins, " + maxYields + " yields, parks of "
                    + minParkNanos + ".." + maxParkNanos + " ns: counts must be >= 0 and 0 < min park <= max park");
        }
        this.maxSpins = maxSpins;
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
            spins++;
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
