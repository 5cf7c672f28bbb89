package org.portals3j.mpi.internal;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A rank's lock, which counts how often it was taken with {@link #lock()}: the count is written only by the holder,
 * so it costs a plain increment, and read under the lock.
 */
final class RankLock extends ReentrantLock {
    private static final long serialVersionUID = 1L;

    /** Acquisitions by {@link #lock()}, the current one included. */
    private long holds;

    @Override
    public void lock() {
        super.lock();
        holds++;
    }

    /** How often the lock was taken with {@link #lock()} before this call (which takes it once more, uncounted). */
    long holds() {
        lock();
        try {
            return --holds;
        } finally {
            unlock();
        }
    }
}
