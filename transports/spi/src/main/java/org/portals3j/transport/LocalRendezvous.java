package org.portals3j.transport;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.checkerframework.checker.nullness.qual.Nullable;

/** A {@link Rendezvous} for ranks that live in one JVM: a map guarded by a lock. */
public final class LocalRendezvous implements Rendezvous {

    /** One rendezvous per job object, so that endpoints opened separately for one job still meet. */
    private static final Map<Job, LocalRendezvous> BY_JOB = new WeakHashMap<>();

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition published = lock.newCondition();
    private final Map<String, String> values = new HashMap<>();

    /** The in-JVM rendezvous of {@code job}, created on first use and dropped with the job. */
    public static LocalRendezvous of(Job job) {
        Objects.requireNonNull(job, "job");
        synchronized (BY_JOB) {
            return BY_JOB.computeIfAbsent(job, j -> new LocalRendezvous());
        }
    }

    @Override
    public void publish(int rank, String key, String value) throws TransportException {
        String slot = rank + "/" + key;
        lock.lock();
        try {
            @Nullable String previous = values.putIfAbsent(slot, value);
            if (previous != null && !previous.equals(value)) {
                throw new TransportException("rank " + rank + " published '" + key + "' twice with different values ("
                        + previous + ", then " + value + ")");
            }
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String lookup(int rank, String key, Duration timeout) throws TransportException {
        String slot = rank + "/" + key;
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (true) {
                @Nullable String value = values.get(slot);
                if (value != null) {
                    return value;
                }
                if (remaining <= 0) {
                    throw new TransportException("rank " + rank + " did not publish '" + key + "' within " + timeout
                            + "; was its endpoint opened?");
                }
                remaining = published.awaitNanos(remaining);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while waiting for rank " + rank + "'s '" + key + "'");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "LocalRendezvous";
    }

}
