package org.portals3j.transport.internal;

import org.portals3j.transport.IdleStrategy;

/** Parks for one fixed period on every idle round (an unpark ends the park earlier). */
public final class ParkingIdle implements IdleStrategy {
    private final long periodNanos;
    private final Parker parker;

    public ParkingIdle(long periodNanos, Parker parker) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("park period " + periodNanos + " ns: must be positive");
        }
        this.periodNanos = periodNanos;
        this.parker = parker;
    }

    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            parker.parkNanos(periodNanos);
        }
    }

    @Override
    public void reset() {
    }

    @Override
    public boolean parksNext() {
        return true;
    }
}
