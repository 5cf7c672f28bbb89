package org.portals3j.transport.internal;

import org.portals3j.transport.IdleStrategy;

/** Yields the processor ({@link Thread#yield()}) on every idle round; never parks. */
public final class YieldingIdle implements IdleStrategy {
    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            Thread.yield();
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
