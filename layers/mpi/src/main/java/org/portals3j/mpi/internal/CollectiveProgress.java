package org.portals3j.mpi.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The progress engine of one rank's nonblocking collectives: the schedules under way, moved on by every round of
 * the rank's progress ({@link PointToPoint#progress()}: each wait and test, and the start of each nonblocking
 * collective). One thread advances them at a time; a thread that finds another doing it, or that calls MPI from a
 * local step (a user reduction), goes on without. A finished schedule leaves the list, so the list holds only the
 * collectives the program has started and not yet seen finish (each one a request it holds or freed).
 */
public final class CollectiveProgress {
    private final ReentrantLock lock = new ReentrantLock();
    private final List<CollectiveSchedule> active = new ArrayList<>();
    private volatile int count;

    void add(CollectiveSchedule s) {
        lock.lock();
        try {
            active.add(s);
            count = active.size();
        } finally {
            lock.unlock();
        }
    }

    /** Whether no schedule is under way (read without the lock: a schedule being added may be missed). */
    boolean isEmpty() {
        return count == 0;
    }

    /** Advances every schedule as far as it goes without waiting; returns how many moved. */
    int advance() {
        if (count == 0 || lock.isHeldByCurrentThread() || !lock.tryLock()) {
            return 0;
        }
        try {
            int moved = 0;
            for (int i = 0; i < active.size(); ) {
                CollectiveSchedule s = active.get(i);
                if (s.advance()) {
                    moved++;
                }
                if (s.isDone()) {
                    active.remove(i);
                } else {
                    i++;
                }
            }
            count = active.size();
            return moved;
        } finally {
            lock.unlock();
        }
    }
}
