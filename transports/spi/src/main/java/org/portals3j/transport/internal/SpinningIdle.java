package org.portals3j.transport.internal;

import org.portals3j.transport.IdleStrategy;

/** Busy-spins ({@link Thread#onSpinWait()}) on every idle round; never parks. */
public final class SpinningIdle implements IdleStrategy {
    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset() {
    }

    @Override
    public boolean parksNext() {
        return false;
    }
}
